//! `solver solve --algorithm` and `solver compare`: output, tables, JSON, limits and exit
//! codes, and clear errors for bad input.

use crate::common;

use common::{
    fails, fails_saying, home_with_file, random_solvable, solve, solver, stopped_saying,
    succeeds_saying, success_stdout, usage_error, Rng,
};
use pdbformat::{Board, Direction, Goal, Puzzle};
use predicates::prelude::*;

const P8: &str = "8 6 7 2 5 4 3 0 1";
const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

fn replays(puzzle: &str, board: Option<Board>, goal: &Goal, moves: &str) -> usize {
    let mut p = Puzzle::parse(puzzle, board).unwrap();
    for c in moves.chars() {
        p.apply(Direction::from_letter(c).unwrap())
            .expect("on the board");
    }
    assert!(p.is_goal(goal), "{moves} does not solve {puzzle}");
    moves.len()
}

#[test]
fn solve_with_each_algorithm() {
    let home = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    for alg in [
        "ida",
        "bfs",
        "astar",
        "hybrid",
        "parallel-ida",
        "dfs",
        "weighted",
        "strategic",
    ] {
        let out = success_stdout(
            solver(home.path())
                .args("solve --json --heuristic manhattan --algorithm".split(' '))
                .arg(alg)
                .arg(P8),
        );
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let len = replays(P8, None, &goal, v["moves"].as_str().unwrap());
        assert_eq!(v["length"], len);
        if ["ida", "bfs", "astar", "hybrid", "parallel-ida"].contains(&alg) {
            assert_eq!(len, 27, "{alg}");
        } else {
            assert!(len >= 27 && len % 2 == 1, "{alg}");
            assert_eq!(v["optimal"], false);
        }
    }
    let cases: [(&str, &[&str]); 3] = [
        (
            "--algorithm astar --heuristic manhattan",
            &[
                "length:     27",
                "algorithm:  astar (optimal)",
                "two-bucket queue",
                "estimated peak",
            ],
        ),
        (
            "--algorithm weighted --weight inf --heuristic lc",
            &["greedy", "(not optimal)"],
        ),
        (
            "--algorithm parallel-ida --threads 3 --heuristic md",
            &["per thread:"],
        ),
    ];
    for (args, says) in cases {
        succeeds_saying(&mut solve(home.path(), args, P8), says);
    }
}

#[test]
fn strategic_solves_a_20x20_board() {
    let home = tempfile::tempdir().unwrap();
    let b = Board::new(20, 20).unwrap();
    let goal = Goal::blank_last(b);
    let p = random_solvable(&goal, &mut Rng::new(99));
    let text = format!("{p:#}");
    let out = success_stdout(&mut solve(
        home.path(),
        "--json --algorithm strategic --goal blank-last",
        &text,
    ));
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    replays(&text, None, &goal, v["moves"].as_str().unwrap());
    // Other algorithms say what to use instead.
    fails_saying(
        solver(home.path())
            .args(["solve", "--algorithm", "astar", "--goal", "blank-last"])
            .arg(&text),
        "at most 64 cells",
    );
}

#[test]
fn solve_errors_and_limits() {
    let home = tempfile::tempdir().unwrap();
    // Refused, each cause said once: (arguments, puzzle, what standard error says).
    let refused = [
        (
            "--algorithm bfs",
            KORF1,
            "breadth-first search keeps every position",
        ),
        (
            "--algorithm dfs --depth-limit 3 --heuristic manhattan",
            P8,
            "no solution within 3 moves",
        ),
        (
            "--algorithm astar --goal blank-last",
            "2 1 3 4 5 6 7 8 0",
            "cannot reach",
        ),
    ];
    for (args, puzzle, says) in refused {
        fails_saying(&mut solve(home.path(), args, puzzle), says);
    }
    // Stopped by a limit.
    stopped_saying(
        &mut solve(
            home.path(),
            "--algorithm astar --heuristic manhattan --max-memory 2M",
            KORF1,
        ),
        "memory limit: stopped after",
    )
    .stderr(predicate::str::contains("at least"));
    stopped_saying(
        &mut solve(
            home.path(),
            "--algorithm hybrid --heuristic manhattan --max-nodes 5000",
            KORF1,
        ),
        "node limit",
    );
    for bad in [
        ["--algorithm", "warp"],
        ["--weight", "0.5"],
        ["--max-memory", "lots"],
    ] {
        usage_error(
            solver(home.path()).args(["solve"]).args(bad).arg(P8),
            "error",
        );
    }
    // Settings the algorithm does not take are bad arguments too, named by their flags.
    for (args, says) in [
        (
            &["--algorithm", "ida", "--weight", "3"][..],
            "--weight is a setting of weighted, not of ida",
        ),
        (
            &["--threads", "1", "--weight", "3"][..],
            "--weight is a setting of weighted, not of ida",
        ),
        (
            &["--threads", "2", "--weight", "3"][..],
            "--weight is a setting of weighted, not of parallel-ida",
        ),
        (
            &["--algorithm", "astar", "--prune-depth", "10"][..],
            "--prune-depth (or --no-prune) is a setting of ida, hybrid and parallel-ida",
        ),
    ] {
        usage_error(
            solver(home.path())
                .args(["solve", "--heuristic", "manhattan"])
                .args(args)
                .arg(P8),
            says,
        );
    }
}

#[test]
fn solve_a_file_with_another_algorithm() {
    let (home, f) = home_with_file("p.txt", &format!("{P8} 27\n1 2 3 4 5 6 7 0 8\n1 2 3\n"));
    fails(&mut solve(
        home.path(),
        "--algorithm astar --heuristic manhattan --board 3x3 --input",
        &f,
    ))
    .stdout(predicate::str::contains("#1    length   27"))
    .stdout(predicate::str::contains("solved 2 of 3"))
    .stderr(predicate::str::contains("line 3"));
    // Non-optimal algorithms say how far they are from the optimum given on the line.
    fails(&mut solve(
        home.path(),
        "--algorithm strategic --board 3x3 --input",
        &f,
    ))
    .stdout(predicate::str::is_match(r"#1    length +\d+ \(\+\d+ *\)").unwrap());
}

#[test]
fn compare_one_puzzle_with_the_default_pairs() {
    let home = tempfile::tempdir().unwrap();
    let out = success_stdout(solver(home.path()).args(["compare", "--goal", "blank-last", P8]));
    let text = String::from_utf8(out).unwrap();
    for pair in [
        "bfs ",
        "ida:manhattan",
        "ida:linear-conflict",
        "astar:manhattan",
        "hybrid:manhattan",
        "parallel-ida:manhattan",
        "dfs:manhattan",
        "weighted:manhattan:w=inf",
        "strategic",
    ] {
        let row = text
            .lines()
            .find(|l| l.starts_with(pair))
            .unwrap_or_else(|| panic!("no row {pair} in\n{text}"));
        let cells: Vec<&str> = row.split_whitespace().collect();
        let optimal = ["bfs ", "ida:", "astar:", "hybrid:", "parallel-ida:"]
            .iter()
            .any(|p| pair.starts_with(p));
        if optimal {
            assert_eq!(cells[1], "31", "{row}");
            assert_eq!(cells[2], "proven", "{row}");
        } else {
            assert!(cells[2] == "yes" || cells[2].starts_with('+'), "{row}");
        }
    }
    assert!(text.contains("load average"));
}

#[test]
fn compare_a_file_as_json_and_as_totals() {
    let home = tempfile::tempdir().unwrap();
    let f = home.path().join("p.txt");
    let goal = Goal::blank_first(Board::new(3, 4).unwrap());
    let mut rng = Rng::new(7);
    let mut text = String::new();
    for _ in 0..3 {
        text.push_str(&format!("{:#}\n", random_solvable(&goal, &mut rng)));
    }
    std::fs::write(&f, &text).unwrap();
    let pairs = "ida:lc,astar:md,hybrid:lc:budget=500,parallel-ida:md:threads=2,weighted:md:w=inf,strategic";
    let out = success_stdout(
        solver(home.path())
            .args([
                "compare", "--board", "3x4", "--json", "--pairs", pairs, "--input",
            ])
            .arg(&f),
    );
    let v: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 3 * 6 + 6);
    for r in v.iter().filter(|r| r["summary"].is_null()) {
        let len = replays(
            r["puzzle"].as_str().unwrap(),
            Some(Board::new(3, 4).unwrap()),
            &goal,
            r["moves"].as_str().unwrap(),
        );
        if r["optimal"] == true {
            assert_eq!(len as u64, r["optimum"].as_u64().unwrap());
        }
    }
    let sums: Vec<&serde_json::Value> = v.iter().filter(|r| r["summary"] == true).collect();
    assert!(sums.iter().all(|s| s["solved"] == 3));
    // The totals table.
    succeeds_saying(
        solver(home.path())
            .args(["compare", "--board", "3x4", "--pairs", pairs, "--input"])
            .arg(&f),
        &["total s"],
    )
    .stdout(predicate::str::is_match(r"ida:lc\s+3/3").unwrap())
    .stdout(predicate::str::is_match(r"strategic\s+3/3").unwrap());
}

#[test]
fn compare_flags_disagreement_limits_and_bad_pairs() {
    let (home, f) = home_with_file("wrong.txt", &format!("{P8} 25\n"));
    fails_saying(
        solver(home.path())
            .args(["compare", "--pairs", "ida:md,bfs", "--input"])
            .arg(&f),
        "optimal algorithms disagree (the line says 25)",
    );
    solver(home.path())
        .args("compare --max-nodes 1000 --pairs ida:md,astar:md,strategic".split(' '))
        .arg(KORF1)
        .assert()
        .code(3)
        .stdout(predicate::str::contains("stopped: node limit"))
        .stdout(predicate::str::is_match(r"strategic\s+\d+\s+\?").unwrap());
    for bad in [
        "astar",
        "bfs:md",
        "ida:magic",
        "warp:md",
        "ida:md:colour=red",
    ] {
        solver(home.path())
            .args(["compare", "--pairs", bad, P8])
            .assert()
            .code(2);
    }
    fails_saying(
        solver(home.path()).args(["compare", "--pairs", "ida:pdb", "--no-build", KORF1]),
        "no pattern database",
    );
}
