//! `pdbgen advise`: every bad input a usage error naming its cause, tables too large listed
//! with their size, the JSON records and the figure, the search's answers buildable, and the
//! predictions against the nodes the solver really expands on the same sample.

use crate::common::{success_stdout, usage_error};
use assert_cmd::Command;
use pdbformat::{Board, Goal};
use pdbgen::advise::sample::random_positions;
use predicates::str::contains;
use std::path::Path;

fn pdbgen() -> Command {
    Command::cargo_bin("pdbgen").unwrap()
}

fn advise(args: &str) -> Command {
    let mut c = pdbgen();
    c.arg("advise").args(args.split(' '));
    c
}

/// The JSON records of `pdbgen advise ARGS --json`.
fn records(args: &str) -> Vec<serde_json::Value> {
    let out = success_stdout(advise(args).arg("--json"));
    serde_json::from_slice::<serde_json::Value>(&out)
        .expect("one JSON array")
        .as_array()
        .expect("an array")
        .clone()
}

#[test]
fn bad_inputs_are_usage_errors_naming_their_cause() {
    for (args, msg) in [
        (
            "--board 3x3 --partition 1-4/4-8",
            "tile 4 appears in more than one pattern",
        ),
        (
            "--board 3x3 --partition 1-4/5-7",
            "does not cover tiles [8]",
        ),
        ("--board 3x3 --partition 1-4/5-9", "tile 9 is out of range"),
        (
            "--board 3x3 --partition 0-4/5-8",
            "the blank (0) cannot be a pattern tile",
        ),
        ("--board 9x8", "72 cells"),
        ("--board 9x8 --partition 1-3", "72 cells"),
        (
            "--board 3x3 --max-memory 4X",
            "a positive size such as 512M or 4G",
        ),
        ("--board 3x3 --samples 0", "--samples"),
        ("--board 3x3 --partition 78", "unknown partition preset"),
        ("--board 3x3 --kind sideways", "unknown table kind"),
        ("--board 3x3 --plot x.png", "SVG"),
    ] {
        usage_error(&mut advise(args), msg);
    }
    let dir = tempfile::tempdir().unwrap();
    usage_error(
        pdbgen()
            .args(["build", "--board", "3x3", "--partition", "1-4/4-8", "-o"])
            .arg(dir.path().join("x.pdb")),
        "tile 4 appears in more than one pattern",
    );
}

#[test]
fn tables_too_large_are_listed_with_their_size() {
    let r =
        records("--board 4x4 --partition 1-7/8-15 --partition full --max-memory 1M --samples 2");
    assert_eq!(r.len(), 2);
    // 7-8 exceeds a megabyte: said, with its size, and still predicted.
    let why = r[0]["too_large"].as_str().expect("the 7-8 is too large");
    assert!(
        why.contains("MiB as bit1 exceeds the memory (1.0 MiB)"),
        "{why}"
    );
    assert!(r[0]["predicted_nodes"].as_f64().unwrap() > 0.0);
    // The full table is beyond any index: too large, not predicted, its size a lower bound.
    let why = r[1]["too_large"]
        .as_str()
        .expect("the full table is too large");
    assert!(why.contains("2^40"), "{why}");
    assert!(r[1]["entries"].as_f64().unwrap() >= 1.0e13);
    assert!(r[1]["predicted_nodes"].is_null());
    advise("--board 4x4 --partition full --max-memory 1M --samples 2")
        .assert()
        .success()
        .stdout(contains("too large: a table exceeds 2^40 entries"));
}

#[test]
fn records_hold_sizes_builds_and_predictions() {
    let r = records("--board 3x3 --partition 1-4/5-8 --partition 1-8 --samples 50");
    for key in [
        "partition",
        "entries",
        "raw_bytes",
        "encoding",
        "predicted_nodes",
        "build_seconds",
        "build_peak_bytes",
        "ratio",
        "eta",
    ] {
        assert!(!r[0][key].is_null(), "{key} missing from {}", r[0]);
    }
    assert_eq!(r[0]["partition"], "1-4/5-8");
    assert_eq!(r[0]["encoding"], "bit1");
    // Two zero-aware 4-tile tables of the 3x3: 2 x 5,520 entries, a bit each.
    assert_eq!(r[0]["entries"].as_f64(), Some(11040.0));
    assert_eq!(r[0]["raw_bytes"].as_f64(), Some(1380.0));
    assert_eq!(r[0]["ratio"].as_f64(), Some(1.0));
    // The exact heuristic expands fewer nodes.
    assert!(r[1]["ratio"].as_f64().unwrap() < 1.0);
    assert!(r[1]["mean_h"].as_f64() > r[0]["mean_h"].as_f64());
}

#[test]
fn a_search_answers_buildable_partitions_within_the_memory() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("advice.svg");
    let r = records(&format!(
        "--board 3x3 --max-memory 2K --samples 40 --best 3 --plot {}",
        plot.display()
    ));
    assert!(!r.is_empty() && r.len() <= 3);
    let nodes: Vec<f64> = r
        .iter()
        .map(|a| a["predicted_nodes"].as_f64().unwrap())
        .collect();
    assert!(
        nodes.windows(2).all(|w| w[0] <= w[1]),
        "best first: {nodes:?}"
    );
    for a in &r {
        assert!(a["raw_bytes"].as_f64().unwrap() <= 2048.0);
        assert!(a["too_large"].is_null());
        let spec = a["partition"].as_str().unwrap();
        let out = dir.path().join("p.pdb");
        pdbgen()
            .args([
                "build",
                "--board",
                "3x3",
                "--no-state",
                "--partition",
                spec,
                "-o",
            ])
            .arg(&out)
            .assert()
            .success();
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert_eq!(svg.matches("<circle").count(), r.len());
    assert!(svg.contains("best: "));
}

/// The solver's mean `expanded` (default search, one thread) with the database `db` over the
/// positions `file` holds.
fn measured_mean_expanded(board: &str, db: &Path, file: &Path) -> f64 {
    let home = tempfile::tempdir().unwrap();
    let out = success_stdout(
        crate::common::solver(home.path())
            .args([
                "solve",
                "--board",
                board,
                "--threads",
                "1",
                "--json",
                "--db",
            ])
            .arg(db)
            .arg("-i")
            .arg(file),
    );
    let lines = crate::common::json_lines(&out);
    lines
        .iter()
        .map(|l| l["expanded"].as_f64().unwrap())
        .sum::<f64>()
        / lines.len() as f64
}

/// Predicted against measured on the advisor's own sample, for every partition of `specs`:
/// within `bound` times, and the partitions in the same order.
fn predictions_match(board: &str, specs: &[&str], samples: usize, bound: f64) {
    let b: Board = board.parse().unwrap();
    let goal = Goal::blank_first(b);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sample.txt");
    let text: String = random_positions(&goal, samples, 1)
        .iter()
        .map(|t| {
            t.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    std::fs::write(&file, text).unwrap();
    let args: String = specs.iter().map(|s| format!(" --partition {s}")).collect();
    let r = records(&format!(
        "--board {board} --samples {samples} --seed 1{args}"
    ));
    let mut pairs = Vec::new();
    for (spec, a) in specs.iter().zip(&r) {
        let db = dir.path().join("t.pdb");
        pdbgen()
            .args([
                "build",
                "--board",
                board,
                "--no-state",
                "--partition",
                spec,
                "-o",
            ])
            .arg(&db)
            .assert()
            .success();
        let measured = measured_mean_expanded(board, &db, &file);
        let predicted = a["predicted_nodes"].as_f64().unwrap();
        let q = predicted / measured;
        assert!(
            q < bound && q > 1.0 / bound,
            "{board} {spec}: predicted {predicted:.1}, measured {measured:.1}"
        );
        pairs.push((predicted, measured));
    }
    for w in pairs.windows(2) {
        assert_eq!(w[0].0 < w[1].0, w[0].1 < w[1].1, "the order of {pairs:?}");
    }
}

#[test]
fn predictions_against_the_solver_on_the_2x3() {
    predictions_match(
        "3x2",
        &["1,2/3,4,5", "1,2/3/4/5", "1/2/3/4/5"],
        300,
        PREDICTION_BOUND,
    );
}

#[test]
fn predictions_against_the_solver_on_the_3x3() {
    predictions_match(
        "3x3",
        &["1-8", "1-4/5-8", "1,2/3,4/5,6/7,8"],
        300,
        PREDICTION_BOUND,
    );
}

/// How far (a factor either way) predictions on the small boards may be from the measured
/// means: see docs/advisor.md for the measured errors.
const PREDICTION_BOUND: f64 = 8.0;
