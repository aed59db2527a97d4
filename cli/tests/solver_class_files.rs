//! Class files (the multi-tile metric's tables) where pattern files go: `pdbgen compress`
//! rewrites them as class tables and refuses what only pattern tables take, `solver locate
//! --metric mtm` reports the multi-tile default, and `solver compare --metric mtm` runs pairs
//! with the class tables given or the default class file found.

use crate::common;

use common::{fails_saying, json_lines, solver, succeeds_saying, success_stdout};
use pdbformat::format::{Compression, PdbFile};
use pdbformat::testkit::PositionDistances;
use pdbformat::{Board, Goal, Metric, Puzzle};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The user cache folder of the isolated `solver` in `home`.
fn cache(home: &Path) -> PathBuf {
    let c = home.join("cache").join("pdb-tiles");
    std::fs::create_dir_all(&c).unwrap();
    c
}

/// Builds the standard 3x3 class file `8-rows-mtm` into `dir`; returns its path.
fn small_class_file(dir: &Path) -> PathBuf {
    let s = pdbformat::standard::lookup("8-rows-mtm").unwrap();
    let path = dir.join(s.file_name());
    pdbgen::build_standard(s, &path, Some(1), &pdbgen::NoProgress).unwrap();
    path
}

/// A tiny 4x4 class file (tile 15 apart from the rest: 240 entries) at `path`, standing in for
/// the 4x4's multi-tile default, which takes minutes to build.
fn tiny_4x4_class_file(path: &Path) {
    assert_cmd::Command::cargo_bin("pdbgen")
        .unwrap()
        .args(["build", "--board", "4x4", "--metric", "mtm"])
        .args(["--classes", "1-14/15", "-o"])
        .arg(path)
        .assert()
        .success();
}

fn pdbgen_cmd() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("pdbgen").unwrap()
}

#[test]
fn pdbgen_compress_rewrites_class_tables_and_refuses_pattern_only_forms() {
    let home = tempfile::tempdir().unwrap();
    let raw = small_class_file(home.path());
    let raw_header = PdbFile::open(&raw).unwrap().header().clone();
    for (to, c) in [("zstd", Compression::Zstd), ("gzip", Compression::Gzip)] {
        let out = home.path().join(format!("8-rows-mtm.{to}.pdb"));
        pdbgen_cmd()
            .arg("compress")
            .arg(&raw)
            .args(["--to", to, "-o"])
            .arg(&out)
            .assert()
            .success()
            .stdout(predicates::str::contains("wrote"));
        let f = PdbFile::open(&out).unwrap();
        f.verify().unwrap();
        let h = f.header();
        assert_eq!(h.metric, Metric::Mtm);
        assert_eq!(h.tables[0].compression, c);
        assert_eq!(
            (h.tables[0].classes, h.tables[0].raw_digest),
            (
                raw_header.tables[0].classes,
                raw_header.tables[0].raw_digest
            )
        );
    }
    let out = home.path().join("refused.pdb");
    for (flag, value, says) in [
        (
            "--to",
            "zstd-sym",
            "zstd-sym payloads need zero-aware pattern tables",
        ),
        (
            "--encoding",
            "bit1",
            "bit1 entries need zero-aware pattern tables",
        ),
        ("--encoding", "u4", "too large for u4"),
    ] {
        fails_saying(
            pdbgen_cmd()
                .arg("compress")
                .arg(&raw)
                .args([flag, value, "-o"])
                .arg(&out),
            says,
        );
        assert!(!out.exists());
    }
}

#[test]
fn locate_reports_the_default_of_the_metric_asked_for() {
    let home = tempfile::tempdir().unwrap();
    let cache = cache(home.path());
    let locate = |args: &[&str]| {
        let mut c = solver(home.path());
        c.arg("locate").args(args);
        c
    };
    // Nothing there: the 4x4's multi-tile default would be built.
    let built = cache.join("15-rows+rokicki+rokicki-mirror-mtm.pdb");
    succeeds_saying(
        &mut locate(&["--metric", "mtm"]),
        &[
            "metric mtm",
            "default file name: 15-rows+rokicki+rokicki-mirror-mtm.pdb",
            &format!("none found: would build {}", built.display()),
        ],
    );
    // A 4x4 class file in the cache is used in the multi-tile metric, and passed over in the
    // single-tile one.
    let tiny = cache.join("tiny.pdb");
    tiny_4x4_class_file(&tiny);
    succeeds_saying(
        &mut locate(&["--metric", "mtm"]),
        &[&format!("would use: {}", tiny.display())],
    );
    let stm = success_stdout(&mut locate(&[]));
    let stm = String::from_utf8(stm).unwrap();
    assert!(stm.contains("metric stm"), "{stm}");
    assert!(stm.contains("default file name: 15-663-za.pdb"), "{stm}");
    assert!(!stm.contains("tiny.pdb"), "{stm}");
    // 3x3 has no multi-tile default: the walking distance, whatever the folders hold.
    small_class_file(&cache);
    let out = success_stdout(&mut locate(&["--metric", "mtm", "--board", "3x3"]));
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("no default class database for 3x3: would use the walking distance"),
        "{out}"
    );
    assert!(!out.contains("would use: "), "{out}");
    // A goal the default is not built for.
    succeeds_saying(
        &mut locate(&[
            "--metric",
            "mtm",
            "--goal",
            "1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15",
        ]),
        &["none found: would fall back to the walking distance"],
    );
    // A metric that does not exist is a usage error.
    locate(&["--metric", "qtm"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--metric must be stm or mtm"));
}

/// The runs (not the totals) of `compare --json` output, by pair.
fn runs(out: &[u8]) -> Vec<Value> {
    json_lines(out)
        .into_iter()
        .filter(|v| v["summary"] != Value::Bool(true))
        .collect()
}

/// The pairs of `runs`, each once, in order of first appearance.
fn labels(runs: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for r in runs {
        let label = r["pair"].as_str().unwrap().to_string();
        if !v.contains(&label) {
            v.push(label);
        }
    }
    v
}

#[test]
fn compare_runs_the_class_tables_given_or_found_in_the_multi_tile_metric() {
    let home = tempfile::tempdir().unwrap();
    let cache = cache(home.path());
    small_class_file(&cache);
    let input = home.path().join("p8.txt");
    std::fs::write(&input, "8 6 7 2 5 4 3 0 1\n1 2 0 3 4 5 6 7 8\n").unwrap();
    let compare = |args: &[&str]| {
        let mut c = solver(home.path());
        c.args(["compare", "--json", "--metric", "mtm", "--input"])
            .arg(&input)
            .args(args);
        c
    };
    // The class file named: its pairs beside the walking distance's, every length the
    // brute-force oracle's.
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let oracle = PositionDistances::new(&goal, Metric::Mtm);
    let out = success_stdout(&mut compare(&["--db", "8-rows-mtm"]));
    let all = runs(&out);
    assert_eq!(
        labels(&all),
        [
            "bfs",
            "ida:pdb",
            "parallel-ida:pdb",
            "ida:walking-distance",
            "parallel-ida:walking-distance"
        ]
    );
    for v in &all {
        let p = Puzzle::parse(v["puzzle"].as_str().unwrap(), None).unwrap();
        let tiles: Vec<u8> = p.tiles().iter().map(|&t| t as u8).collect();
        let want = oracle.distance(&tiles).unwrap() as u64;
        assert_eq!(v["length"].as_u64(), Some(want), "{v}");
        assert_eq!(v["metric"], "mtm", "{v}");
        if v["pair"].as_str().unwrap().ends_with(":pdb") {
            let h = v["heuristic"].as_str().unwrap();
            assert!(h.contains("8-rows-mtm.pdb (multi-tile class"), "{h}");
        }
    }
    // Not named: 3x3 has no multi-tile default, so its walking distance serves alone.
    let out = success_stdout(&mut compare(&[]));
    let all = runs(&out);
    assert_eq!(
        labels(&all),
        [
            "bfs",
            "ida:walking-distance",
            "parallel-ida:walking-distance"
        ]
    );

    // 4x4: the default class file found in the cache takes part (the tiny stand-in); without
    // it, the walking distance alone, and nothing is built.
    let p4 = "1 2 3 7 4 5 6 11 8 9 10 15 12 13 14 0";
    let compare4 = || {
        let mut c = solver(home.path());
        c.args(["compare", "--json", "--metric", "mtm", p4]);
        c
    };
    let out = success_stdout(&mut compare4());
    let all = runs(&out);
    assert_eq!(
        labels(&all),
        ["ida:walking-distance", "parallel-ida:walking-distance"]
    );
    assert!(!cache
        .join("15-rows+rokicki+rokicki-mirror-mtm.pdb")
        .exists());
    tiny_4x4_class_file(&cache.join("tiny.pdb"));
    let out = success_stdout(&mut compare4());
    let all = runs(&out);
    assert_eq!(
        labels(&all),
        [
            "ida:pdb",
            "parallel-ida:pdb",
            "ida:walking-distance",
            "parallel-ida:walking-distance"
        ]
    );
    for v in &all {
        assert_eq!(v["length"].as_u64(), Some(2), "{v}");
        if v["pair"].as_str().unwrap().ends_with(":pdb") {
            let h = v["heuristic"].as_str().unwrap();
            assert!(h.starts_with("tiny.pdb (multi-tile class tables"), "{h}");
        }
    }
    assert!(!cache
        .join("15-rows+rokicki+rokicki-mirror-mtm.pdb")
        .exists());
}
