//! The `pdbgen` command line: build, verify, info and compress on small boards, and the errors
//! users see for bad input and damaged files.

use crate::common;

use assert_cmd::Command;
use pdbformat::format::{write_pdb, LoadOptions, PdbFile, TableSource, WriteOptions};
use pdbformat::testkit::says_each_cause_once;
use predicates::prelude::predicate;
use predicates::str::contains;
use std::path::Path;

fn pdbgen() -> Command {
    Command::cargo_bin("pdbgen").unwrap()
}

/// Builds `dir/name` with `pdbgen build` and `args`, words parted by spaces.
/// Checks that `pdbgen verify` passes `file`.
fn verified(file: &Path) {
    pdbgen()
        .arg("verify")
        .arg(file)
        .assert()
        .success()
        .stdout(contains("OK"));
}

/// Checks that `pdbgen` with `args` and `file` prints each of `says`.
fn info_says(args: &[&str], file: &Path, says: &[&str]) {
    let out = pdbgen().args(args).arg(file).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for s in says {
        assert!(text.contains(s), "{s:?} not in:\n{text}");
    }
}

/// Checks that `pdbgen COMMAND file` fails, saying `why` (verify on stdout beside its
/// report, other commands on stderr) and each cause once.
fn refused(command: &str, file: &Path, why: &str) {
    let out = pdbgen()
        .arg(command)
        .arg(file)
        .assert()
        .failure()
        .stderr(predicate::function(says_each_cause_once));
    let out = out.get_output();
    let said = if command == "verify" {
        &out.stdout
    } else {
        &out.stderr
    };
    let said = String::from_utf8_lossy(said);
    assert!(said.contains(why), "{why:?} not in:\n{said}");
}

/// Builds `dir/NAME` with `pdbgen build ARGS`, given as `spec`: "NAME ARGS", words parted
/// by spaces.
fn build(dir: &Path, spec: &str) -> std::path::PathBuf {
    let (name, args) = spec.split_once(' ').unwrap();
    let out = dir.join(name);
    pdbgen()
        .args(["build", "-o"])
        .arg(&out)
        .args(args.split_whitespace())
        .assert()
        .success()
        .stdout(contains("wrote"));
    out
}

#[test]
fn build_verify_info_compress_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let f = build(
        dir.path(),
        "8.pdb --board 3x3 --partition full --goal blank-last",
    );
    verified(&f);
    info_says(
        &["info"],
        &f,
        &[
            "goal:        blank-last",
            "max value 31",
            "unreached: 181440",
        ],
    );
    for (to, name) in [
        ("zstd", "8.zst.pdb"),
        ("gzip", "8.gz.pdb"),
        ("zstd-sym", "8.sym.pdb"),
        ("none", "8.raw.pdb"),
    ] {
        let out = dir.path().join(name);
        pdbgen()
            .arg("compress")
            .arg(&f)
            .args(["--to", to, "-o"])
            .arg(&out)
            .assert()
            .success();
        verified(&out);
        let a = PdbFile::open(&f).unwrap();
        let b = PdbFile::open(&out).unwrap();
        assert_eq!(
            a.header().tables[0].raw_digest,
            b.header().tables[0].raw_digest
        );
        let ta = a.load(0, LoadOptions::default()).unwrap();
        let tb = b.load(0, LoadOptions::default()).unwrap();
        assert_eq!(&*ta.bytes, &*tb.bytes);
        // Stored as asked: the full 3x3 table is its own transpose, which fixes the
        // blank-last cell, so zstd-sym applies.
        assert_eq!(b.header().tables[0].compression.name(), to);
    }
}

#[test]
fn partitions_kinds_and_rectangles() {
    let dir = tempfile::tempdir().unwrap();
    let f = build(dir.path(), "3x4.pdb --board 3x4 --partition 1-4/5-8/9-11 --kind zero-unaware --threads 1 --compress zstd");
    verified(&f);
    info_says(&["info"], &f, &["zero-unaware", "zstd"]);
    let g = build(
        dir.path(),
        "4x3.pdb --board 4x3 --partition 1-5/6-11 --compress gzip",
    );
    verified(&g);
}

#[test]
fn bad_arguments_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.pdb");
    for (args, msg) in [
        (
            vec!["--board", "4x4", "--partition", "1-7/7-15"],
            "tile 7 appears in more than one pattern",
        ),
        (
            vec!["--board", "4x4", "--partition", "1-16"],
            "out of range",
        ),
        (vec!["--board", "1x4", "--partition", "1"], "invalid board"),
        (
            vec!["--board", "3x3", "--partition", "78"],
            "unknown partition preset",
        ),
        (
            vec!["--board", "3x3", "--partition", "1-8", "--kind", "sideways"],
            "unknown table kind",
        ),
        (
            vec![
                "--board",
                "3x3",
                "--partition",
                "1-3",
                "--kind",
                "zero-unaware",
                "--encoding",
                "bit1",
            ],
            "bit1",
        ),
    ] {
        pdbgen()
            .args(["build", "-o"])
            .arg(&out)
            .args(&args)
            .assert()
            .failure()
            .stderr(predicate::function(says_each_cause_once))
            .stderr(contains(msg));
        assert!(!out.exists(), "nothing may be left under the output name");
    }
}

#[test]
fn damaged_files_fail_verification() {
    let dir = tempfile::tempdir().unwrap();
    let f = build(dir.path(), "ok.pdb --board 3x3 --partition 1-4/5-8");
    let bytes = std::fs::read(&f).unwrap();
    // A flipped payload byte: checksum mismatch.
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    let bad = dir.path().join("flipped.pdb");
    std::fs::write(&bad, &flipped).unwrap();
    refused("verify", &bad, "checksum mismatch");
    // Truncated.
    let short = dir.path().join("short.pdb");
    std::fs::write(&short, &bytes[..bytes.len() - 10]).unwrap();
    refused("verify", &short, "truncated");
    refused("info", &short, "truncated");
    // Not a PDB file at all.
    let text = dir.path().join("text.pdb");
    std::fs::write(&text, "hello").unwrap();
    refused("verify", &text, "not a PDB file");
    // One good file and one bad: exit non-zero, the good one still reported OK.
    pdbgen()
        .arg("verify")
        .arg(&f)
        .arg(&bad)
        .assert()
        .failure()
        .stderr(predicate::function(says_each_cause_once))
        .stdout(contains("ok.pdb: OK"));
}

#[test]
fn semantic_errors_are_named_with_an_example_index() {
    let dir = tempfile::tempdir().unwrap();
    // One entry raised by 2 (parity kept): the step check fails, the checksums are valid.
    let (f, i) = common::write_raised_entry(dir.path());
    pdbgen()
        .arg("verify")
        .arg(&f)
        .assert()
        .failure()
        .stderr(predicate::function(says_each_cause_once))
        .stdout(contains(
            "every pattern move changes the value by exactly 1",
        ))
        .stdout(contains(format!("index {i}")));
    pdbgen()
        .args(["verify", "--checksums-only"])
        .arg(&f)
        .assert()
        .success();
}

#[test]
fn compact_encodings_round_trip_to_the_exact_values() {
    let dir = tempfile::tempdir().unwrap();
    let base = "--board 3x4 --partition 1-5/6-11 --goal blank-last";
    let u8_file = build(dir.path(), &format!("u8.pdb {base}"));
    let bit1 = build(
        dir.path(),
        &format!("bit1.pdb {base} --encoding bit1 --compress zstd"),
    );
    verified(&bit1);
    info_says(&["info"], &bit1, &["as bit1"]);
    info_says(&["info", "--restore"], &bit1, &["mean:"]);
    let back = dir.path().join("back.pdb");
    pdbgen()
        .arg("compress")
        .arg(&bit1)
        .args(["--encoding", "u8", "--to", "none", "-o"])
        .arg(&back)
        .assert()
        .success();
    let digests = |p: &Path| -> Vec<_> {
        PdbFile::open(p)
            .unwrap()
            .header()
            .tables
            .iter()
            .map(|t| t.raw_digest)
            .collect()
    };
    assert_eq!(
        digests(&back),
        digests(&u8_file),
        "bit1 -> u8 restores every value"
    );
    // u4 holds values up to 15: refused for these tables, fine for a 3x3 partition.
    let u4 = dir.path().join("u4.pdb");
    pdbgen()
        .arg("compress")
        .arg(&u8_file)
        .args(["--encoding", "u4", "-o"])
        .arg(&u4)
        .assert()
        .failure()
        .stderr(predicate::function(says_each_cause_once))
        .stderr(contains("too large for u4"));
    let small = build(dir.path(), "small.pdb --board 3x3 --partition 1-3/4-6/7,8");
    pdbgen()
        .arg("compress")
        .arg(&small)
        .args(["--encoding", "u4", "-o"])
        .arg(&u4)
        .assert()
        .success();
    verified(&u4);
    assert!(PdbFile::open(&u4).unwrap().len() * 2 < PdbFile::open(&small).unwrap().len() + 512);
    let zu = build(dir.path(), &format!("zu.pdb {base} --kind zero-unaware"));
    pdbgen()
        .arg("compress")
        .arg(&zu)
        .args(["--encoding", "bit1", "-o"])
        .arg(dir.path().join("no.pdb"))
        .assert()
        .failure()
        .stderr(predicate::function(says_each_cause_once))
        .stderr(contains("bit1 entries need zero-aware tables"));
    // A bit flipped in a bit1 payload (checksums recomputed) fails the semantic check.
    let file = PdbFile::open(&bit1).unwrap();
    let goal = file.header().goal.clone();
    let tables: Vec<_> = (0..2)
        .map(|i| file.load(i, LoadOptions::default()).unwrap())
        .collect();
    let mut bits = tables[0].bytes.to_vec();
    bits[100] ^= 0x10;
    let srcs: Vec<TableSource> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| TableSource {
            kind: t.header.kind,
            pattern: &t.header.pattern,
            encoding: t.header.encoding,
            max_value: t.header.max_value,
            entries: if i == 0 { &bits } else { &t.bytes },
        })
        .collect();
    let bad = dir.path().join("badbits.pdb");
    write_pdb(&bad, &goal, &srcs, &WriteOptions::default()).unwrap();
    refused("verify", &bad, "check failed");
}

#[cfg(not(feature = "mpi"))]
#[test]
fn distributed_without_the_mpi_feature_says_how_to_get_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.pdb");
    pdbgen()
        .args("build --distributed --board 3x3 -p 1-4/5-8 -o".split(' '))
        .arg(&out)
        .assert()
        .failure()
        .stderr(contains("built without MPI support"))
        .stderr(contains("--features mpi"))
        .stderr(contains("mpirun -np N"));
    assert!(!out.exists());
}

#[test]
fn mtm_class_tables_build_verify_and_describe() {
    let dir = tempfile::tempdir().unwrap();
    // Square board, blank on the diagonal: one goal-row table.
    let out = build(dir.path(), "m3.pdb --board 3x3 --metric mtm");
    let f = PdbFile::open(&out).unwrap();
    assert_eq!(f.header().metric, pdbformat::Metric::Mtm);
    assert_eq!(f.header().tables.len(), 1);
    assert_eq!(f.header().tables[0].entry_count, 5040);
    // A rectangle: goal rows and goal columns, u4 when the values fit (on the 2x3 they do).
    let out = build(
        dir.path(),
        "m23.pdb --board 2x3 --metric mtm --compress zstd",
    );
    let h = PdbFile::open(&out).unwrap().header().clone();
    assert_eq!(h.tables.len(), 2);
    let fits = h.tables.iter().all(|t| t.max_value <= 15);
    assert!(fits);
    let want = if fits {
        pdbformat::format::Encoding::U4
    } else {
        pdbformat::format::Encoding::U8
    };
    assert!(h.tables.iter().all(|t| t.encoding == want));
    pdbgen().args(["verify"]).arg(&out).assert().success();
    info_says(
        &["info"],
        &out,
        &["metric:      mtm", "goal-columns classes", "PDB version 2"],
    );
    // A damaged value is found by the semantic check.
    let path = dir.path().join("bad.pdb");
    let mut values = PdbFile::open(dir.path().join("m3.pdb"))
        .unwrap()
        .load(0, LoadOptions::default())
        .unwrap()
        .bytes
        .to_vec();
    values[100] = values[100].wrapping_add(3);
    let goal = pdbformat::Goal::blank_first(pdbformat::Board::new(3, 3).unwrap());
    let table = pdbformat::format::ClassTableSource {
        labels: pdbformat::rank::ClassLabels::Rows,
        encoding: pdbformat::format::Encoding::U8,
        max_value: 20,
        entries: &values,
    };
    pdbformat::format::write_class_pdb(
        &path,
        &goal,
        pdbformat::Metric::Mtm,
        &[table],
        &WriteOptions::default(),
    )
    .unwrap();
    pdbgen()
        .args(["verify"])
        .arg(&path)
        .assert()
        .failure()
        .stdout(contains("changes a class table's value by at most 1"));
    // Labelled tables beside the rows: one table each, verified, named by info.
    let args = "--board 3x3 --metric mtm --classes rows --classes 1,2,4/3,5,6/7,8";
    let out = build(dir.path(), &format!("m3-labelled.pdb {args}"));
    let h = PdbFile::open(&out).unwrap().header().clone();
    assert_eq!(h.tables.len(), 2);
    assert_eq!(
        h.tables[0].classes,
        Some(pdbformat::rank::ClassLabels::Rows)
    );
    assert!(matches!(
        h.tables[1].classes,
        Some(pdbformat::rank::ClassLabels::Cells(_))
    ));
    assert_eq!(h.tables[1].entry_count, 9 * 28 * 20);
    pdbgen().args(["verify"]).arg(&out).assert().success();
    info_says(
        &["info"],
        &out,
        &["labelled (goal cells 1,2,4/3,5,6/7,8) classes"],
    );
    // Partitions are for STM; STM needs one; labellings are for MTM and must be whole.
    for (args, msg) in [
        (
            "--board 3x3 --metric mtm --partition 1-8",
            "--partition does not apply to --metric mtm",
        ),
        (
            "--board 3x3 --partition 1-8 --classes rows",
            "--classes applies to --metric mtm only",
        ),
        (
            "--board 3x3 --metric mtm --classes 1-4/5-7",
            "tile 8 has no class",
        ),
        (
            "--board 3x3 --metric mtm --classes rokicki",
            "the rokicki labelling is of the 4x4",
        ),
        (
            "--board 3x3 --metric mtm --classes rows --classes rows",
            "asked for twice",
        ),
        ("--board 3x3", "--partition is required"),
        ("--board 3x3 --metric fast", "unknown metric"),
    ] {
        pdbgen()
            .args(["build", "-o"])
            .arg(dir.path().join("x.pdb"))
            .args(args.split(' '))
            .assert()
            .failure()
            .stderr(contains(msg));
    }
}
