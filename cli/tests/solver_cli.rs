//! The `solver` command line: output formats, batch files, limits, the default-database search,
//! and clear errors with non-zero exit codes for every kind of bad input.

use crate::common;

use common::{
    fails, fails_saying, home_with_file, json_lines, solve, solver, stopped_saying,
    succeeds_saying, success_stdout, usage_error, write_db, ROWS, ROWS_4X4,
};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Direction, Goal, Puzzle};
use predicates::prelude::*;
use std::path::Path;

const P8: &str = "8 6 7 2 5 4 3 0 1";
const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// Writes the zero-aware 8-puzzle database of [`ROWS`] (blank first) at `path`.
fn write_p8(path: &Path) {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    write_db(path, &goal, &ROWS, TableKind::ZeroAware);
}

#[test]
fn solves_and_prints_text() {
    let home = tempfile::tempdir().unwrap();
    succeeds_saying(
        solver(home.path()).args(["solve", P8]),
        &["length:     27", "tiles:", "nodes/s"],
    )
    .stderr(predicate::str::contains(
        "falling back to manhattan + linear conflict",
    ));
    // Tiles given as separate arguments, and as a grid on several lines.
    succeeds_saying(
        solver(home.path()).args("solve 1 2 3 4 5 6 0 7 8 --goal blank-last".split(' ')),
        &["blank:      R R", "tiles:      7 8"],
    );
    succeeds_saying(
        &mut solve(
            home.path(),
            "--board 3x4 --goal blank-last --heuristic manhattan",
            "1 2 3\n4 5 6\n7 8 9\n10 0 11",
        ),
        &["length:     1"],
    );
}

#[test]
fn json_output_parses_and_replays() {
    let home = tempfile::tempdir().unwrap();
    let out = solver(home.path())
        .args("solve --json --goal blank-last".split(' '))
        .arg("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")
        .args(["--no-build", "--heuristic", "lc"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["length"], 1);
    assert_eq!(v["moves"], "R");
    assert_eq!(v["tiles"], serde_json::json!([15]));
    assert!(v["nodes"].is_u64() && v["seconds"].is_f64());
    // Replay the moves of a longer 8-puzzle solution.
    let out = solver(home.path())
        .args(["solve", "--json", P8])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let mut p = Puzzle::parse(v["puzzle"].as_str().unwrap(), None).unwrap();
    for c in v["moves"].as_str().unwrap().chars() {
        p.apply(Direction::from_letter(c).unwrap()).unwrap();
    }
    assert!(p.is_goal(&goal));
    assert_eq!(v["length"], 27);
}

#[test]
fn bad_puzzles_fail_clearly() {
    let home = tempfile::tempdir().unwrap();
    let cases = [
        ("1 2 3 x 5 6 7 8 0", "cannot read \"x\""),
        ("1 2 3 4 5 6 7 8 8", "appears more than once"),
        ("1 2 3 4 5 6 7 8 9", "out of range"),
        ("1 2 3 4 5 0", "do not make a square board"),
        ("2 1 3 4 5 6 7 8 0", "unsolvable"),
        // Korf's first instance is unsolvable for blank-last; the message names the other goal.
        (KORF1, "solvable for --goal blank-first"),
    ];
    for (p, msg) in cases {
        fails_saying(
            solver(home.path()).args(["solve", "--goal", "blank-last", p]),
            msg,
        );
    }
    let cases: [(&[&str], &str); 2] = [
        (&["solve", "--heuristic", "magic", P8], "unknown heuristic"),
        (&["solve", "--timeout", "0", P8], "--timeout"),
    ];
    for (args, msg) in cases {
        fails_saying(solver(home.path()).args(args), msg);
    }
    // Bad arguments exit 2, as the help says.
    let cases: [(&[&str], &str); 3] = [
        (&["solve"], "give a puzzle"),
        (&["solve", "--board", "3y4", P8], "cannot read board"),
        (&["solve", "--goal", "1 2 3", P8], "invalid goal"),
    ];
    for (args, msg) in cases {
        usage_error(solver(home.path()).args(args), msg).stderr(predicate::function(
            pdbformat::testkit::says_each_cause_once,
        ));
    }
}

#[test]
fn limits_stop_cleanly() {
    let home = tempfile::tempdir().unwrap();
    stopped_saying(
        solver(home.path()).args(["solve", "--heuristic", "hamming", "--max-nodes", "1000", P8]),
        "node limit reached",
    )
    .stderr(predicate::str::contains("at least"));
    stopped_saying(
        &mut solve(
            home.path(),
            "--heuristic manhattan --timeout 0.05 --no-build",
            KORF1,
        ),
        "time limit reached",
    );
}

#[test]
fn database_errors() {
    let home = tempfile::tempdir().unwrap();
    let db = home.path().join("p8.pdb");
    write_p8(&db);
    // Works for its board, and says where it came from.
    succeeds_saying(
        solver(home.path()).args(["solve", "--db"]).arg(&db).arg(P8),
        &["length:     27"],
    )
    .stderr(predicate::str::contains("p8.pdb"));
    // Another board; a goal whose blank no symmetry reaches; --db with a classic heuristic.
    let refusals: [(&[&str], &str, &str); 3] = [
        (&["solve", "--db"], KORF1, "is for a 3x3 board"),
        (
            &["solve", "--goal", "1 2 3 4 0 5 6 7 8", "--db"],
            "1 2 3 0 4 5 6 7 8",
            "no symmetry",
        ),
        (
            &["solve", "--heuristic", "manhattan", "--db"],
            P8,
            "--db needs --heuristic pdb",
        ),
    ];
    for (args, puzzle, msg) in refusals {
        fails_saying(solver(home.path()).args(args).arg(&db).arg(puzzle), msg);
    }
    // Corrupted payload (one flipped byte near the end), truncated, not a PDB file at all.
    let mut bytes = std::fs::read(&db).unwrap();
    let n = bytes.len();
    bytes[n - 10] ^= 0x40;
    let bad = home.path().join("bad.pdb");
    let damaged: [(&[u8], &str); 3] = [
        (&bytes, "checksum mismatch"),
        (&bytes[..n / 2], "truncated"),
        (b"hello, world", "not a PDB file"),
    ];
    for (contents, msg) in damaged {
        std::fs::write(&bad, contents).unwrap();
        fails_saying(
            solver(home.path())
                .args(["solve", "--db"])
                .arg(&bad)
                .arg(P8),
            msg,
        );
    }
    // Missing.
    fails_saying(
        solver(home.path()).args(["solve", "--db", "missing.pdb", P8]),
        "missing.pdb",
    );
    // A directory, and a missing bench file: the cause once, not once per layer.
    fails_saying(
        solver(home.path())
            .args(["solve", "--db"])
            .arg(home.path())
            .arg(P8),
        "Is a directory",
    );
    fails_saying(
        solver(home.path()).args(["bench", "missing.txt"]),
        "missing.txt",
    );
    // The header alone decides the board: a file with a damaged payload is refused as a
    // database for another board (the payload is never read).
    std::fs::write(&bad, &bytes).unwrap();
    fails_saying(
        solver(home.path())
            .args(["solve", "--db"])
            .arg(&bad)
            .arg(KORF1),
        "is for a 3x3 board",
    );
}

#[test]
fn input_file_with_summary() {
    let (home, list) = home_with_file(
        "list.txt",
        "# three 8-puzzles with their lengths\n8 6 7 2 5 4 3 0 1 27\n\n3 1 2 0 4 5 6 7 8 1 # easy\n0 1 2 3 4 5 6 7 8\n",
    );
    succeeds_saying(
        solver(home.path()).args(["solve", "--input"]).arg(&list),
        &["solved 3 of 3", "median", "total nodes"],
    );
    let lines = json_lines(&success_stdout(
        solver(home.path())
            .args(["solve", "--json", "--input"])
            .arg(&list),
    ));
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["length"], 27);
    assert_eq!(lines[0]["expected"], 27);
    assert_eq!(lines[2]["length"], 0);
    // A bad line and a wrong known length: reported, the rest solved, exit 1.
    std::fs::write(
        &list,
        "8 6 7 2 5 4 3 0 1 26\n1 2 3 4 5 6 7 8 8\n3 1 2 0 4 5 6 7 8\n",
    )
    .unwrap();
    fails_saying(
        solver(home.path()).args(["solve", "--input"]).arg(&list),
        "line 1: found length 27, the line says 26",
    )
    .stderr(predicate::str::contains(
        "line 2: tile 8 appears more than once",
    ))
    .stdout(predicate::str::contains("solved 2 of 3"));
    fails_saying(
        solver(home.path()).args(["solve", "--input", "nope.txt"]),
        "cannot read nope.txt",
    );
}

#[test]
fn default_database_is_found_in_pdb_dir_and_artifacts() {
    let home = tempfile::tempdir().unwrap();
    let g = Goal::blank_first(Board::new(4, 4).unwrap());
    let dbdir = home.path().join("dbs");
    std::fs::create_dir_all(&dbdir).unwrap();
    // Any complete partition under the default name is taken.
    write_db(
        &dbdir.join("15-663-za.pdb"),
        &g,
        &ROWS_4X4,
        TableKind::ZeroAware,
    );
    let puzzle = "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15";
    succeeds_saying(
        solver(home.path())
            .env("PDB_DIR", &dbdir)
            .args(["solve", "--no-build", puzzle]),
        &["length:     3", "with reflection"],
    )
    .stderr(predicate::str::contains("15-663-za.pdb"));
    // The same file in artifacts/ of the working directory.
    std::fs::create_dir_all(home.path().join("artifacts")).unwrap();
    std::fs::rename(
        dbdir.join("15-663-za.pdb"),
        home.path().join("artifacts/15-663-za.pdb"),
    )
    .unwrap();
    succeeds_saying(
        solver(home.path()).args(["locate"]),
        &["would use: artifacts/15-663-za.pdb"],
    );
    succeeds_saying(
        &mut solve(
            home.path(),
            "--no-build --goal blank-last --no-reflect",
            "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15",
        ),
        &["no reflection (--no-reflect)"],
    );
    // Nothing anywhere: with --no-build, fall back and say so; --heuristic pdb is an error.
    std::fs::remove_file(home.path().join("artifacts/15-663-za.pdb")).unwrap();
    solver(home.path())
        .args(["solve", "--no-build", puzzle])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "falling back to manhattan + linear conflict",
        ));
    fails_saying(
        solver(home.path()).args(["solve", "--no-build", "--heuristic", "pdb", puzzle]),
        "give one with --db",
    );
}

#[test]
fn bench_runs_a_file() {
    let (home, list) = home_with_file("b.txt", "8 6 7 2 5 4 3 0 1 27\n3 1 2 0 4 5 6 7 8 1\n");
    succeeds_saying(
        solver(home.path())
            .args(["bench", "--heuristic", "lc"])
            .arg(&list),
        &["median", "database load"],
    );
    // The header names the search that runs: the default on every core, or one thread.
    succeeds_saying(
        solver(home.path())
            .args(["bench", "--heuristic", "lc", "--threads", "1"])
            .arg(&list),
        &["ida, one thread"],
    );
    succeeds_saying(
        solver(home.path())
            .args(["bench", "--heuristic", "lc", "--threads", "2"])
            .arg(&list),
        &["parallel-ida, 2 threads"],
    );
    std::fs::write(&list, "8 6 7 2 5 4 3 0 1 25\n").unwrap();
    fails(
        solver(home.path())
            .args(["bench", "--heuristic", "lc"])
            .arg(&list),
    )
    .stdout(predicate::str::contains("MISMATCH"));
}

#[test]
fn bench_json_has_one_object_per_instance_and_a_summary() {
    let (home, list) = home_with_file(
        "b.txt",
        "8 6 7 2 5 4 3 0 1 27\n3 1 2 0 4 5 6 7 8 1\n1 2 3\n",
    );
    let out = fails(
        solver(home.path())
            .args(["bench", "--json", "--heuristic", "lc"])
            .arg(&list),
    )
    .get_output()
    .stdout
    .clone();
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0]["instance"], 1);
    assert_eq!(lines[0]["length"], 27);
    assert_eq!(lines[0]["expected"], 27);
    assert!(lines[0]["nodes"].as_u64().unwrap() > 0);
    assert_eq!(lines[1]["length"], 1);
    assert_eq!(lines[1]["moves"], "U");
    assert_eq!(lines[2]["line"], 3);
    assert!(
        lines[2]["error"].as_str().unwrap().contains("tiles"),
        "{}",
        lines[2]
    );
    let s = &lines[3]["summary"];
    assert_eq!(s["instances"], 3);
    assert_eq!(s["solved"], 2);
    assert_eq!(s["failed"], 1);
    assert_eq!(
        s["total_nodes"].as_u64().unwrap(),
        lines[0]["nodes"].as_u64().unwrap() + lines[1]["nodes"].as_u64().unwrap()
    );
    assert!(s["load_seconds"].as_f64().is_some());
    succeeds_saying(
        solver(home.path()).args(["bench", "--help"]),
        &["--json", "summary"],
    );
}

#[test]
fn help_documents_notation_and_search_order() {
    let home = tempfile::tempdir().unwrap();
    succeeds_saying(
        solver(home.path()).args(["solve", "--help"]),
        &[
            "direction the BLANK moves",
            "PDB_DIR",
            "artifacts/",
            "pdb-tiles",
        ],
    );
}

#[test]
fn default_database_is_built_once_then_reused() {
    let home = tempfile::tempdir().unwrap();
    let built = home.path().join("cache/pdb-tiles/15-663-za.pdb");
    let puzzle = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    succeeds_saying(
        solver(home.path()).args(["solve", "--goal", "blank-last", puzzle]),
        &["length:     1"],
    )
    .stderr(predicate::str::contains(
        "building the default 15-663-za.pdb",
    ))
    .stderr(predicate::str::contains("later runs reuse it"));
    assert!(built.is_file());
    solver(home.path())
        .args(["solve", "--goal", "blank-last", "--json", puzzle])
        .assert()
        .success()
        .stderr(predicate::str::contains("building").not())
        .stderr(predicate::str::contains("15-663-za.pdb"));
}

/// Two solvers started together in an empty cache: the second waits for the first one's build
/// (an advisory lock beside the file) and uses its file; the database is built once.
#[test]
fn concurrent_first_runs_build_the_default_database_once() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("cache/pdb-tiles");
    let lock = dir.join(".15-663-za.pdb.lock");
    let puzzle = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15";
    let spawn = || {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("solver"))
            .current_dir(home.path())
            .env_remove("PDB_DIR")
            .env("HOME", home.path())
            .env("XDG_CACHE_HOME", home.path().join("cache"))
            .args(["solve", "--goal", "blank-last", puzzle])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = spawn();
    // Start the second one once the first holds the lock (its build takes seconds).
    let t0 = std::time::Instant::now();
    while !lock.exists() && t0.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let second = spawn();
    let outputs = [
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    ];
    let mut builds = 0;
    for o in &outputs {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{err}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("length:     1"));
        builds += err.matches("built and saved").count();
    }
    assert_eq!(builds, 1, "the database is built once");
    // Normally the second one; the first if the second won the race between the lock file's
    // creation and its locking.
    let waited = outputs
        .iter()
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .filter(|e| e.contains("another solver is building it") && e.contains("using it"))
        .count();
    assert_eq!(waited, 1, "one solver waited for the other");
    assert!(dir.join("15-663-za.pdb").is_file());
}

#[test]
fn unusable_files_in_the_search_path_are_named_and_skipped() {
    let home = tempfile::tempdir().unwrap();
    let dbdir = home.path().join("dbs");
    std::fs::create_dir_all(&dbdir).unwrap();
    std::fs::write(dbdir.join("15-663-za.pdb"), b"not a database").unwrap();
    // A file for another board is passed over silently.
    write_p8(&dbdir.join("p8.pdb"));
    solver(home.path())
        .env("PDB_DIR", &dbdir)
        .args([
            "solve",
            "--no-build",
            "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains("skipping"))
        .stderr(predicate::str::contains("not a PDB file"))
        .stderr(predicate::str::contains("p8.pdb").not())
        .stderr(predicate::str::contains("falling back"));
    // The 3x3 file is found for 3x3 puzzles under any name.
    solver(home.path())
        .env("PDB_DIR", &dbdir)
        .args(["solve", P8])
        .assert()
        .success()
        .stderr(predicate::str::contains("p8.pdb"));
}

#[test]
fn boards_beyond_64_cells_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let tiles: Vec<String> = (1..81).map(|t| t.to_string()).chain(["0".into()]).collect();
    fails_saying(
        solver(home.path()).args(["solve", &tiles.join(" ")]),
        "at most 64 cells",
    );
}

#[test]
fn a_closed_standard_output_ends_quietly() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["locate"][..],
        &["solve", "--heuristic", "manhattan", "8 6 7 2 5 4 3 0 1"][..],
    ] {
        // A pipe whose reading end is closed before the command writes (`solver … | head -0`).
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_solver"))
            .current_dir(home.path())
            .env_remove("PDB_DIR")
            .env("HOME", home.path())
            .env("XDG_CACHE_HOME", home.path().join("cache"))
            .args(args)
            .stdout(writer)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn version_names_the_commit() {
    // `cargo xtask dist` checks the released commands print the commit they were built from;
    // here the build script's fallback: the checkout's commit, or `unknown` outside git.
    let home = tempfile::tempdir().unwrap();
    let out = String::from_utf8(success_stdout(solver(home.path()).arg("--version"))).unwrap();
    let commit = out
        .strip_prefix(concat!("solver ", env!("CARGO_PKG_VERSION"), " (commit "))
        .and_then(|rest| rest.trim().strip_suffix(')'))
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(
        commit == "unknown" || commit.trim_end_matches("-dirty").len() >= 7,
        "{out:?}"
    );
}
