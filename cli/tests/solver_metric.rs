//! `--metric` on `solver solve`, `bench` and `compare`, and `"metric"` in `solver serve`'s API:
//! multi-tile-metric lengths checked against the brute-force oracle (3×3) and known values
//! (4×4), every answer saying its metric, and the refusals worded.

use crate::common;
use crate::serve;

use common::{fails_saying, json_lines, solver, success_stdout, usage_error};
use pdbformat::testkit::PositionDistances;
use pdbformat::{Board, Direction, Goal, Metric, Puzzle};
use serde_json::{json, Value};
use serve::Server;

const P8: &str = "8 6 7 2 5 4 3 0 1";

/// The multi-tile distance of `p` to the blank-first 3×3 goal, from the oracle.
fn mtm_distance(p: &str) -> u64 {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let oracle = PositionDistances::new(&goal, Metric::Mtm);
    let p = Puzzle::parse(p, None).unwrap();
    let tiles: Vec<u8> = p.tiles().iter().map(|&t| t as u8).collect();
    oracle.distance(&tiles).unwrap() as u64
}

/// Replays the answer's single steps and counts its runs of one direction.
fn replay_runs(v: &Value, goal: &Goal) -> u64 {
    let mut p = Puzzle::parse(v["puzzle"].as_str().unwrap(), None).unwrap();
    let moves = v["moves"].as_str().unwrap();
    for c in moves.chars() {
        p.apply(Direction::from_letter(c).unwrap()).unwrap();
    }
    assert!(p.is_goal(goal), "{v}");
    let b = moves.as_bytes();
    (0..b.len()).filter(|&i| i == 0 || b[i - 1] != b[i]).count() as u64
}

#[test]
fn solve_in_the_multi_tile_metric() {
    let home = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let out = success_stdout(solver(home.path()).args(["solve", "--json", "--metric", "mtm", P8]));
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["metric"], "mtm");
    assert_eq!(v["length"], json!(mtm_distance(P8)));
    assert_eq!(replay_runs(&v, &goal), mtm_distance(P8));
    assert!(
        v["heuristic"]
            .as_str()
            .unwrap()
            .contains("walking distance"),
        "{v}"
    );
    // The same position in the single-tile metric: unchanged, and saying so.
    let out = success_stdout(solver(home.path()).args(["solve", "--json", "--no-build", P8]));
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        (v["metric"].as_str(), v["length"].as_u64()),
        (Some("stm"), Some(27))
    );
    // 4x4: three right then three down, two moves of six steps; parallel-ida agrees. With the
    // walking distance named: the 4x4's default class file takes minutes to build.
    let g4 = Goal::blank_first(Board::new(4, 4).unwrap());
    let p4 = "1 2 3 7 4 5 6 11 8 9 10 15 12 13 14 0";
    let wd = ["--heuristic", "walking-distance"];
    for alg in ["ida", "parallel-ida"] {
        let out = success_stdout(
            solver(home.path())
                .args(["solve", "--json", "--metric", "mtm", "--algorithm", alg])
                .args(wd)
                .arg(p4),
        );
        let v: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            (v["length"].as_u64(), replay_runs(&v, &g4)),
            (Some(2), 2),
            "{v}"
        );
    }
    // The text answer counts in the metric and says how many single steps it takes.
    let out = success_stdout(
        solver(home.path())
            .args(["solve", "--metric", "mtm"])
            .args(wd)
            .arg(p4),
    );
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("length:     2 (mtm; 6 single-tile steps)"),
        "{text}"
    );
}

#[test]
fn refusals_in_the_multi_tile_metric_are_worded() {
    let home = tempfile::tempdir().unwrap();
    for (setting, says) in [
        (
            ["--heuristic", "manhattan"],
            "not a lower bound in the mtm metric",
        ),
        (["--algorithm", "astar"], "no multi-tile-metric form"),
    ] {
        let mut mtm = solver(home.path());
        mtm.args(["solve", "--metric", "mtm"]).args(setting).arg(P8);
        fails_saying(&mut mtm, says);
    }
    // A bad value is a usage error (exit status 2).
    usage_error(
        solver(home.path()).args(["solve", "--metric", "qtm", P8]),
        "--metric must be stm or mtm",
    );
}

#[test]
fn bench_and_compare_take_the_metric() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("p8.txt");
    std::fs::write(&file, format!("{P8}\n1 2 0 3 4 5 6 7 8\n")).unwrap();
    let out = success_stdout(
        solver(home.path())
            .args("bench --json --metric mtm --board 3x3".split(' '))
            .arg(file.to_str().unwrap()),
    );
    let lines = json_lines(&out);
    let first = lines.iter().find(|v| v["puzzle"].is_string()).unwrap();
    assert_eq!(first["metric"], "mtm");
    assert_eq!(first["length"], json!(mtm_distance(P8)));
    let out = success_stdout(
        solver(home.path())
            .args("compare --json --metric mtm --input".split(' '))
            .arg(file.to_str().unwrap()),
    );
    let runs = json_lines(&out);
    let solved: Vec<&Value> = runs.iter().filter(|v| v["length"].is_u64()).collect();
    assert!(
        solved.len() >= 6,
        "bfs, ida and parallel-ida on two puzzles: {runs:?}"
    );
    for v in solved {
        assert_eq!(v["metric"], "mtm", "{v}");
        let want = mtm_distance(v["puzzle"].as_str().unwrap());
        assert_eq!(v["length"], json!(want), "{v}");
    }
}

#[test]
fn the_api_takes_and_answers_the_metric() {
    let server = Server::start(&[]);
    let info = server.get("/api/server").json();
    assert_eq!(info["metrics"], json!(["stm", "mtm"]));
    let (s, v) = server.solve(&json!({"puzzle": P8, "metric": "mtm"}));
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["metric"], "mtm");
    assert_eq!(v["length"], json!(mtm_distance(P8)));
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    assert_eq!(replay_runs(&v, &goal), mtm_distance(P8));
    let (s, v) = server.solve(&json!({"puzzle": P8}));
    assert_eq!((s, v["metric"].as_str()), (200, Some("stm")));
    let (s, v) = server.solve(&json!({"puzzle": P8, "metric": "sideways"}));
    assert_eq!(s, 400, "{v}");
}

#[test]
fn the_api_writes_moves_in_the_chosen_notation() {
    use pdbformat::notation::{read_moves, read_tokens, write_moves, Notation};
    let server = Server::start(&[]);
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let (s, v) = server.solve(&json!({"puzzle": P8, "metric": "mtm", "notation": "tiles"}));
    assert_eq!(s, 200, "{v}");
    let tiles = v["moves"].as_str().unwrap();
    // One token a multi-tile move, `R2`-style: as many as the length.
    let tokens = read_tokens(tiles, Notation::Tiles).unwrap();
    assert_eq!(tokens.len() as u64, mtm_distance(P8), "{tiles}");
    // The same steps in the blank's letters replay to the goal.
    let steps = read_moves(tiles, Notation::Tiles).unwrap();
    let mut blank = v.clone();
    blank["moves"] = json!(write_moves(&steps, Notation::Blank));
    assert_eq!(replay_runs(&blank, &goal), mtm_distance(P8));
    // The default stays the blank's letters.
    let (s, v) = server.solve(&json!({"puzzle": P8}));
    assert_eq!(s, 200, "{v}");
    assert!(
        v["moves"]
            .as_str()
            .unwrap()
            .chars()
            .all(|c| "UDLR".contains(c)),
        "{v}"
    );
    let (s, v) = server.solve(&json!({"puzzle": P8, "notation": "semaphore"}));
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("notation"), "{v}");
}

#[test]
fn a_4x4_class_file_where_solve_looks_is_the_multi_tile_default() {
    // A tiny 4x4 class file (tile 15 apart from the rest: 240 entries) in the cache stands in
    // for the default, which takes minutes to build: found there, it is used and nothing is
    // built.
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join("cache/pdb-tiles");
    std::fs::create_dir_all(&cache).unwrap();
    assert_cmd::Command::cargo_bin("pdbgen")
        .unwrap()
        .args("build --board 4x4 --metric mtm --classes 1-14/15 -o".split(' '))
        .arg(cache.join("tiny.pdb"))
        .assert()
        .success();
    let p4 = "1 2 3 7 4 5 6 11 8 9 10 15 12 13 14 0";
    let out = success_stdout(solver(home.path()).args(["solve", "--json", "--metric", "mtm", p4]));
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["length"], json!(2), "{v}");
    let h = v["heuristic"].as_str().unwrap();
    assert!(h.starts_with("tiny.pdb (multi-tile class tables"), "{h}");
    assert!(!cache
        .join("15-rows+rokicki+rokicki-mirror-mtm.pdb")
        .exists());
    // The walking distance when named.
    let out = success_stdout(
        solver(home.path())
            .args("solve --json --metric mtm --heuristic walking-distance".split(' '))
            .arg(p4),
    );
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert!(
        v["heuristic"]
            .as_str()
            .unwrap()
            .starts_with("walking distance"),
        "{v}"
    );
}
