//! Long searches on the command line: progress lines (text and JSON), a stop with the proven
//! lower bound, `--checkpoint` written, resumed and removed, every damaged or foreign
//! checkpoint refused with a clear message, and `solver bench` on Korf's 24-puzzle file.

use crate::common;

use common::{json_lines, solver, succeeds_saying, usage_error};
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

/// Korf's 15-puzzle instance 2: 55 moves, about 2.4 million nodes with linear conflicts.
const KORF2: &str = "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6";
const LC: [&str; 2] = ["--heuristic", "linear-conflict"];

/// Stops KORF2 after `nodes` with a checkpoint at `file`; returns the standard error.
fn stop_with_checkpoint(home: &Path, file: &Path, nodes: &str) -> String {
    let out = solver(home)
        .args(["solve", KORF2, "--max-nodes", nodes, "--checkpoint"])
        .arg(file)
        .args(LC)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    String::from_utf8(out.stderr).unwrap()
}

fn json_of(stdout: &[u8]) -> Value {
    serde_json::from_str(String::from_utf8_lossy(stdout).trim()).unwrap()
}

#[test]
fn checkpoint_stop_and_resume_give_the_uninterrupted_result() {
    let home = tempfile::tempdir().unwrap();
    // A search that may be checkpointed keeps the fixed child order (the learned order depends
    // on the iterations a resumed search never saw), so the uninterrupted run to compare with
    // is one that keeps a checkpoint too.
    let whole = solver(home.path())
        .args(["solve", KORF2, "--json", "--quiet", "--checkpoint"])
        .arg(home.path().join("whole.ckpt"))
        .args(LC)
        .output()
        .unwrap();
    assert!(whole.status.success());
    assert!(!home.path().join("whole.ckpt").exists());
    let whole = json_of(&whole.stdout);
    assert_eq!(whole["length"], 55);

    let file = home.path().join("korf2.ckpt");
    let err = stop_with_checkpoint(home.path(), &file, "1000000");
    assert!(
        err.contains("no solution found; proven lower bound"),
        "{err}"
    );
    assert!(err.contains("checkpoint written"), "{err}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("solver-checkpoint 1\n"), "{text}");
    assert!(!home.path().join("korf2.ckpt.tmp").exists());

    let resumed = solver(home.path())
        .args(["solve", KORF2, "--json", "--checkpoint"])
        .arg(&file)
        .args(LC)
        .output()
        .unwrap();
    assert!(resumed.status.success());
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("resuming from"));
    let resumed = json_of(&resumed.stdout);
    assert_eq!(resumed["length"], whole["length"]);
    assert_eq!(resumed["moves"], whole["moves"]);
    assert_eq!(resumed["nodes"], whole["nodes"]);
    assert!(!file.exists(), "a solved search removes its checkpoint");
}

#[test]
fn stopped_json_gives_the_lower_bound() {
    let home = tempfile::tempdir().unwrap();
    let out = solver(home.path())
        .args(["solve", KORF2, "--json", "--quiet", "--max-nodes", "100000"])
        .args(LC)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v = json_of(&out.stdout);
    assert_eq!(v["stopped"], "node limit");
    let lb = v["lower_bound"].as_u64().unwrap();
    assert!((43..=55).contains(&lb) && lb % 2 == 1, "{v}");
    assert_eq!(v["nodes"], 100_000);
}

#[test]
fn damaged_and_foreign_checkpoints_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("c.ckpt");
    stop_with_checkpoint(home.path(), &file, "200000");
    let good = std::fs::read_to_string(&file).unwrap();
    // Resuming from `file` with `args` fails.
    let resume = |args: &[&str]| {
        solver(home.path())
            .args(args)
            .arg("--checkpoint")
            .arg(&file)
            .assert()
            .code(1)
    };
    let refuse = |text: &str, args: &[&str], words: &str| {
        std::fs::write(&file, text).unwrap();
        resume(args)
            .stderr(predicate::str::contains("cannot resume from"))
            .stderr(predicate::str::contains(words))
            .stderr(predicate::str::contains("panicked").not());
    };
    let same = ["solve", KORF2, "--heuristic", "linear-conflict"];
    // Truncated: half the file, and the file without its checksum line.
    refuse(&good[..good.len() / 2], &same, "truncated");
    let no_sum = &good[..good.find("checksum").unwrap()];
    refuse(
        no_sum,
        &same,
        "truncated: it ends before the field `checksum`",
    );
    // One digit changed.
    refuse(&good.replacen("nodes ", "nodes 9", 1), &same, "checksum is");
    // Another version, an empty file, bytes that are not text.
    refuse(
        &good.replace("solver-checkpoint 1", "solver-checkpoint 7"),
        &same,
        "version",
    );
    refuse("", &same, "version");
    std::fs::write(&file, [0xffu8, 0xfe, 0x00]).unwrap();
    resume(&same).stderr(predicate::str::contains("not UTF-8"));
    // A field out of place (checksum recomputed so only the field is wrong).
    let swapped = resum(&good.replace("bound ", "bund "));
    refuse(&swapped, &same, "`bound`");
    // Another search: puzzle, heuristic, pruning.
    refuse(
        &good,
        &[
            "solve",
            "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
            "--heuristic",
            "linear-conflict",
        ],
        "start position",
    );
    refuse(
        &good,
        &["solve", KORF2, "--heuristic", "manhattan"],
        "heuristic",
    );
    refuse(
        &good,
        &[
            "solve",
            KORF2,
            "--heuristic",
            "linear-conflict",
            "--prune-depth",
            "4",
        ],
        "prune depth",
    );
    // The good file still resumes.
    std::fs::write(&file, &good).unwrap();
    succeeds_saying(
        solver(home.path())
            .args(same)
            .arg("--checkpoint")
            .arg(&file),
        &["length:     55"],
    );
}

/// `text` with its checksum line recomputed (64-bit FNV-1a of everything before it).
fn resum(text: &str) -> String {
    let body = &text[..text.find("checksum ").unwrap()];
    let h = body.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{body}checksum {h:016x}\n")
}

#[test]
fn progress_lines_as_text_and_json() {
    let home = tempfile::tempdir().unwrap();
    let out = solver(home.path())
        .args(["solve", KORF2, "--progress"])
        .args(LC)
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("iteration")).collect();
    // Bounds 43, 45, …, 53 finish without a solution.
    assert_eq!(lines.len(), 6, "{err}");
    assert!(lines[0].contains("bound  43") && lines[5].contains("next: bound 55"));
    assert!(lines[1].contains("about") && lines[1].contains("nodes/s"));

    let out = solver(home.path())
        .args(["solve", KORF2, "--progress", "--json"])
        .args(LC)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    let objs: Vec<Value> = err
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs.len(), 6, "{err}");
    let mut total = 0;
    for (k, o) in objs.iter().enumerate() {
        assert_eq!(o["iteration"], k as u64 + 1);
        assert_eq!(o["bound"], 43 + 2 * k as u64);
        total += o["nodes"].as_u64().unwrap();
        assert_eq!(o["total_nodes"], total);
        assert_eq!(o["growth"].is_null(), k == 0);
        for f in ["seconds", "total_seconds", "nodes_per_second", "next_bound"] {
            assert!(o[f].is_number(), "{f} in {o}");
        }
    }
    // --quiet, and standard error not a terminal: no progress.
    for extra in [&["--quiet"][..], &[]] {
        let out = solver(home.path())
            .args(["solve", KORF2])
            .args(LC)
            .args(extra)
            .output()
            .unwrap();
        assert!(!String::from_utf8_lossy(&out.stderr).contains("iteration"));
    }
}

#[test]
fn checkpoint_needs_one_puzzle_and_ida() {
    let home = tempfile::tempdir().unwrap();
    usage_error(
        solver(home.path()).args(["solve", KORF2, "--algorithm", "astar", "--checkpoint", "x"]),
        "--checkpoint works with one puzzle",
    );
    let every_0 = [
        "solve",
        KORF2,
        "--checkpoint",
        "x",
        "--checkpoint-every",
        "0",
    ];
    usage_error(
        solver(home.path()).args(every_0),
        "--checkpoint-every must be",
    );
}

/// Korf's 24-puzzle file: the first lines under a tiny node limit, table and JSON.
#[test]
fn bench_korf50_columns() {
    let home = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/korf50-24.txt");
    // The first `n` lines, stopped after 500 nodes each, with `more` arguments.
    let bench = |n: &str, more: &[&str]| {
        solver(home.path())
            .arg("bench")
            .arg(&file)
            // A shallow pruning machine: the 5x5 default one takes half a minute to build.
            .arg("--first")
            .arg(n)
            .args("--max-nodes 500 --heuristic linear-conflict --prune-depth 10".split(' '))
            .args(more)
            .output()
            .unwrap()
    };
    let out = bench("3", &[]);
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().find(|l| l.contains("published")).unwrap();
    assert!(header.contains("ratio"), "{text}");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.contains("stopped ("))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{text}");
    let published = ["2,031,102,635", "211,884,984,525", "21,148,144,928"];
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(r[0], (k + 1).to_string());
        let lb: u32 = r[1].strip_prefix(">=").unwrap().parse().unwrap();
        let h0: u32 = r[2].parse().unwrap();
        assert!(lb >= h0 && lb <= 97, "{r:?}");
        assert_eq!(r[3], "500");
        assert_eq!(r[7], published[k]);
        let ratio: f64 = r[8].parse().unwrap();
        let p: f64 = published[k].replace(',', "").parse().unwrap();
        assert!((ratio - 500.0 / p).abs() < 1e-2 * ratio, "{r:?}");
    }
    let objs = json_lines(&bench("2", &["--json"]).stdout);
    assert_eq!(objs.len(), 3);
    assert_eq!(objs[0]["id"], 1);
    assert_eq!(objs[0]["expected"], 95);
    assert_eq!(objs[0]["published_nodes"], 2_031_102_635u64);
    assert_eq!(objs[1]["stopped"], "node limit");
    assert!(objs[1]["lower_bound"].as_u64().unwrap() >= objs[1]["initial_h"].as_u64().unwrap());
    assert_eq!(objs[2]["summary"]["failed"], 2);
}
