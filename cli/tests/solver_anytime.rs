//! `solver solve` with the anytime search: `--within` is checked like every setting, boards
//! past 25 cells solve by default with a proven bound, every answer reports `lower_bound`
//! and `bound_ratio`, and `--progress` prints one object per improvement.

use crate::common;

use common::{json_lines, solver, stopped_saying, usage_error};
use predicates::prelude::*;

const P8: &str = "8 6 7 2 5 4 3 0 1";
/// A random 6x6 position (blank last), from `solver scramble --board 6x6 --seed 1`.
const P35: &str =
    "22 2 35 19 26 18/24 1 23 8 21 29/32 33 15 3 6 34/30 4 11 20 13 7/0 28 17 27 25 9/12 16 5 10 14 31";
const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

#[test]
fn a_bad_within_is_a_usage_error() {
    let home = tempfile::tempdir().unwrap();
    let anytime = |w| vec!["solve", "--algorithm", "anytime", "--within", w, P8];
    for (args, says) in [
        (anytime("0.9"), "at least 1"),
        (anytime("abc"), "--within"),
        (anytime("nan"), "--within"),
        (
            vec!["solve", "--algorithm", "ida", "--within", "1.5", P8],
            "--within is a setting of anytime, not of ida",
        ),
        (
            vec!["compare", "--pairs", "ida:manhattan:within=1.5", P8],
            "within",
        ),
    ] {
        usage_error(solver(home.path()).args(&args), says).stdout(predicate::str::is_empty());
    }
}

/// The first JSON object `solver` prints, run in a fresh home with the arguments `add` gives.
fn first_answer(add: impl FnOnce(&mut assert_cmd::Command)) -> serde_json::Value {
    let home = tempfile::tempdir().unwrap();
    let mut c = solver(home.path());
    add(&mut c);
    let out = c.assert().success().get_output().stdout.clone();
    json_lines(&out).remove(0)
}

#[test]
fn within_bounds_the_answer_on_4x4() {
    let v = &first_answer(|c| {
        c.args("solve --json --algorithm anytime --heuristic lc".split(' '))
            .args(["--within", "1.25", "--goal", "blank-first", KORF1]);
    });
    let (len, lb) = (
        v["length"].as_f64().unwrap(),
        v["lower_bound"].as_f64().unwrap(),
    );
    // Korf's first instance: 57 moves at best.
    assert!(lb <= 57.0 && 57.0 <= len && len <= 1.25 * lb, "{v}");
    assert_eq!(v["algorithm"], "anytime");
    assert_eq!(v["optimal"].as_bool().unwrap(), len == lb, "{v}");
    assert!((v["bound_ratio"].as_f64().unwrap() - len / lb).abs() < 1e-9);
}

#[test]
fn every_answer_reports_its_bound() {
    let v = &first_answer(|c| {
        c.args(["solve", "--json", "--algorithm", "ida", P8]);
    });
    assert_eq!(v["lower_bound"], v["length"]);
    assert_eq!(v["bound_ratio"].as_f64(), Some(1.0));
    let v = &first_answer(|c| {
        c.args("solve --json --algorithm weighted --weight 3".split(' '))
            .arg(P8);
    });
    let lb = v["lower_bound"].as_u64().unwrap();
    assert!(lb >= v["initial_h"].as_u64().unwrap() && lb <= 31, "{v}");
}

#[test]
fn a_6x6_board_solves_by_default_with_a_bound_and_progress() {
    let home = tempfile::tempdir().unwrap();
    let done = solver(home.path())
        .args("solve --json --progress --goal blank-last --no-build".split(' '))
        .args(["--timeout", "3", "--max-memory", "512M", P35])
        .assert()
        .success();
    let out = done.get_output();
    let v = &json_lines(&out.stdout)[0];
    assert_eq!(v["algorithm"], "anytime");
    // The time limit, or on a fast machine the memory limit first: either ends it with its best.
    assert!(
        matches!(v["stopped"].as_str(), Some("time limit" | "memory limit")),
        "{v}"
    );
    let (len, lb, h) = (
        v["length"].as_u64().unwrap(),
        v["lower_bound"].as_u64().unwrap(),
        v["initial_h"].as_u64().unwrap(),
    );
    assert!(h <= lb && lb < len, "{v}");
    let progress: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let last = progress.last().expect("an improvement line");
    assert!(last.get("iteration").is_none());
    assert_eq!(last["length"].as_u64(), Some(len), "{last}");
    assert!(last["bound_ratio"].as_f64().unwrap() >= 1.0);
}

#[test]
fn a_stopped_anytime_search_without_a_solution_says_its_bound() {
    let home = tempfile::tempdir().unwrap();
    stopped_saying(
        solver(home.path())
            .args("solve --goal blank-last --no-build --max-nodes 20".split(' '))
            .arg(P35),
        "proven lower bound",
    );
}

#[test]
fn bench_on_6x6_runs_anytime_and_prints_its_bound() {
    let (home, path) = common::home_with_file("six.txt", &format!("{P35}\n"));
    solver(home.path())
        .args("bench --goal blank-last --no-build --timeout 1".split(' '))
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("anytime"))
        .stdout(predicate::str::contains("pruning machine: off"))
        .stdout(predicate::str::contains("lower bound"));
}
