//! The `solver` command's errors: bad arguments (a board, a goal, a missing puzzle) exit with
//! status 2 as `solver --help` promises, with a message that says what was given; and with
//! `--json` every error is one JSON object with an `error` field on standard output, while
//! without it errors stay plain text on standard error.

use crate::common;

use common::{solver, usage_error};
use pdbformat::testkit::says_each_cause_once;
use predicates::prelude::*;
use serde_json::Value;

const P8: &str = "8 6 7 2 5 4 3 0 1";
/// Two tiles swapped: no goal of the 3x3 board is reachable.
const UNSOLVABLE: &str = "1 2 3 4 5 6 8 7 0";

/// The one JSON object on `stdout`.
fn one_object(stdout: &[u8]) -> Value {
    let text = String::from_utf8_lossy(stdout);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one JSON object expected, got {text:?}");
    serde_json::from_str(lines[0]).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

#[test]
fn a_bad_board_is_a_usage_error_for_every_command() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        vec!["solve", "--board", "foo", "1", "2", "3"],
        vec!["bench", "--board", "foo"],
        vec!["compare", "--board", "foo", P8],
        vec!["locate", "--board", "foo"],
        vec!["solve", "--board", "1x4", P8],
    ] {
        usage_error(solver(home.path()).args(&args), "--board")
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains("0x0").not())
            .stderr(predicate::str::contains(args[2]));
    }
    usage_error(
        solver(home.path()).args(["solve", "--board", "foo", P8]),
        "cannot read board \"foo\"",
    );
}

#[test]
fn a_bad_goal_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        vec!["solve", "--goal", "middle", P8],
        vec!["solve", "--goal", "1 1 2 3", P8],
        vec!["compare", "--goal", "middle", P8],
        vec!["bench", "--goal", "middle"],
        // A goal that does not fit the board given with it.
        vec!["solve", "--board", "3x3", "--goal", "1 2 3 0", P8],
        vec!["locate", "--board", "4x4", "--goal", "1 2 3 0"],
    ] {
        usage_error(solver(home.path()).args(&args), "invalid goal");
    }
}

#[test]
fn missing_or_doubled_puzzles_are_usage_errors() {
    let home = tempfile::tempdir().unwrap();
    usage_error(solver(home.path()).args(["solve"]), "give a puzzle");
    std::fs::write(home.path().join("list.txt"), format!("{P8}\n")).unwrap();
    usage_error(
        solver(home.path()).args(["solve", "--input", "list.txt", P8]),
        "not both",
    );
}

#[test]
fn a_bad_puzzle_is_an_error_not_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    solver(home.path())
        .args(["solve", "1 1 2 3 4 5 6 7 8"])
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::starts_with("error: "))
        .stderr(predicate::function(says_each_cause_once))
        .stderr(predicate::str::contains("more than once"));
}

#[test]
fn with_json_every_error_is_one_object_on_standard_output() {
    let home = tempfile::tempdir().unwrap();
    for (args, code, says) in [
        (
            vec!["solve", "--json", "1 1 2 3 4 5 6 7 8"],
            1,
            "more than once",
        ),
        (
            vec!["solve", "--json", "--board", "foo", P8],
            2,
            "cannot read board",
        ),
        (vec!["solve", "--board", "2x2", "--json", P8], 1, "found 9"),
        (
            vec!["solve", "--json", "--goal", "middle", P8],
            2,
            "invalid goal",
        ),
        (vec!["solve", "--json"], 2, "give a puzzle"),
        (
            vec!["solve", "--json", "--db", "no-such-db", P8],
            1,
            "no-such-db",
        ),
        (
            vec!["solve", "--json", "--heuristic", "manhattan", UNSOLVABLE],
            1,
            "unsolvable",
        ),
        (
            vec!["solve", "--json", "--no-such-flag", P8],
            2,
            "--no-such-flag",
        ),
        (
            vec!["bench", "--json", "no-such-file.txt"],
            1,
            "no-such-file.txt",
        ),
        (
            vec!["bench", "--json", "--board", "foo"],
            2,
            "cannot read board",
        ),
        (
            vec!["compare", "--json", "1 1 2 3 4 5 6 7 8"],
            1,
            "more than once",
        ),
        (
            vec!["compare", "--json", "--board", "foo", P8],
            2,
            "cannot read board",
        ),
    ] {
        let out = solver(home.path()).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let v = one_object(&out.stdout);
        let error = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{args:?}: {v}"));
        assert!(
            error.contains(says),
            "{args:?}: {error:?} does not say {says:?}"
        );
        assert!(!error.starts_with("error:"), "{error:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("error:"), "{args:?}: stderr {stderr:?}");
    }
}

#[test]
fn without_json_errors_stay_plain_text_on_standard_error() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        vec!["solve", "--db", "no-such-db", P8],
        vec!["solve", "--board", "foo", P8],
        // --json belongs to solve, bench and compare only.
        vec!["fetch", "--json", "x"],
    ] {
        solver(home.path())
            .args(&args)
            .assert()
            .failure()
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains("error"))
            .stderr(predicate::str::contains("{\"error\"").not());
    }
}
