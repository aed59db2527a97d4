//! The library's whole-file verification (`pdbgen::verify_file`): the report of a good file, of a
//! damaged checksum, of values that fail the semantic check behind valid checksums, and of
//! bit1 tables, which are checked through their restored values.

use crate::common;

use pdbformat::format::{
    write_pdb, Compression, Encoding, LoadOptions, PdbFile, TableSource, WriteOptions,
};
use pdbformat::{Board, Goal, Partition, Pattern, TableKind};
use pdbgen::{
    build_file, checks, verify_file, BuildRequest, NoProgress, Problem, VerifyDepth, VerifyError,
    VerifyObserver, VerifyOptions,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

fn build(dir: &Path, name: &str, partition: &str, encoding: Encoding, c: Compression) -> PathBuf {
    let b = Board::new(3, 4).unwrap();
    let goal = Goal::blank_last(b);
    let req = BuildRequest {
        partition: Partition::parse(&goal, partition).unwrap(),
        goal,
        kind: TableKind::ZeroAware,
        threads: Some(2),
        encoding,
        write: WriteOptions {
            compression: c,
            ..WriteOptions::default()
        },
    };
    let path = dir.join(name);
    build_file(&req, &path, &NoProgress).unwrap();
    path
}

fn opts(depth: VerifyDepth) -> VerifyOptions {
    VerifyOptions {
        depth,
        threads: Some(2),
    }
}

/// Counts what an observer is told.
#[derive(Default)]
struct Counting {
    checksums: AtomicU64,
    semantics: AtomicU64,
    done: AtomicU64,
}

impl VerifyObserver for Counting {
    fn checksums_started(&self, _: usize, _: u64) {
        self.checksums.fetch_add(1, Relaxed);
    }
    fn semantics_started(&self, _: usize, _: &Pattern, _: u64) {
        self.semantics.fetch_add(1, Relaxed);
    }
    fn step_done(&self, _: usize) {
        self.done.fetch_add(1, Relaxed);
    }
}

#[test]
fn a_good_file_passes_with_every_table_checked() {
    let dir = tempfile::tempdir().unwrap();
    for (enc, c, partition) in [
        (Encoding::U8, Compression::None, "1-5/6-11"),
        (Encoding::U4, Compression::Gzip, "1-3/4-6/7-9/10,11"),
        (Encoding::Bit1, Compression::Zstd, "1-5/6-11"),
    ] {
        let f = build(dir.path(), &format!("{enc}.pdb"), partition, enc, c);
        let n = Partition::parse(&Goal::blank_last(Board::new(3, 4).unwrap()), partition)
            .unwrap()
            .patterns()
            .len();
        let seen = Counting::default();
        let r = verify_file(&f, opts(VerifyDepth::Semantic), &seen).unwrap();
        assert!(r.passed(), "{enc}: {:?}", r.problems().collect::<Vec<_>>());
        assert_eq!(
            (r.path.as_path(), r.depth),
            (f.as_path(), VerifyDepth::Semantic)
        );
        assert_eq!(r.tables.len(), n);
        let header = PdbFile::open(&f).unwrap().header().clone();
        for (i, t) in r.tables.iter().enumerate() {
            assert_eq!(
                (t.table, t.encoding, t.kind),
                (i, enc, TableKind::ZeroAware)
            );
            assert!(t.semantic && t.problems.is_empty(), "{enc} table {i}");
            assert_eq!(t.entries, header.tables[i].entry_count);
            assert_eq!(t.pattern, header.tables[i].pattern);
        }
        assert_eq!(seen.checksums.load(Relaxed), n as u64);
        assert_eq!(seen.semantics.load(Relaxed), n as u64);
        assert_eq!(seen.done.load(Relaxed), 2 * n as u64);
        let r = verify_file(&f, opts(VerifyDepth::Checksums), &NoProgress).unwrap();
        assert!(r.passed() && r.tables.iter().all(|t| !t.semantic));
    }
}

#[test]
fn a_damaged_checksum_is_reported_and_stops_that_table_only() {
    let dir = tempfile::tempdir().unwrap();
    let f = build(
        dir.path(),
        "ok.pdb",
        "1-5/6-11",
        Encoding::U8,
        Compression::None,
    );
    let mut bytes = std::fs::read(&f).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1; // in the last table's payload
    let bad = dir.path().join("flipped.pdb");
    std::fs::write(&bad, &bytes).unwrap();
    for depth in [VerifyDepth::Checksums, VerifyDepth::Semantic] {
        let r = verify_file(&bad, opts(depth), &NoProgress).unwrap();
        assert!(!r.passed());
        assert!(r.tables[0].passed());
        assert_eq!(r.tables[0].semantic, depth == VerifyDepth::Semantic);
        let t = &r.tables[1];
        assert!(!t.semantic, "damaged values are not checked further");
        assert!(
            matches!(&t.problems[..], [Problem::Damaged(e)] if e.to_string().contains("checksum mismatch")),
            "{:?}",
            t.problems
        );
    }
    // A file that does not open cannot be verified at all.
    let short = dir.path().join("short.pdb");
    std::fs::write(&short, &bytes[..40]).unwrap();
    let e = verify_file(&short, opts(VerifyDepth::Semantic), &NoProgress).unwrap_err();
    assert!(matches!(e, VerifyError::Open(_)), "{e:?}");
    std::fs::write(&short, "hello").unwrap();
    let e = verify_file(&short, opts(VerifyDepth::Checksums), &NoProgress).unwrap_err();
    assert!(e.to_string().contains("not a PDB file"), "{e}");
}

#[test]
fn wrong_values_with_valid_checksums_fail_the_semantic_check() {
    let dir = tempfile::tempdir().unwrap();
    // One entry raised by 2 (parity kept): the step check fails, the checksums are valid.
    let (f, i) = common::write_raised_entry(dir.path());
    assert!(verify_file(&f, opts(VerifyDepth::Checksums), &NoProgress)
        .unwrap()
        .passed());
    let r = verify_file(&f, opts(VerifyDepth::Semantic), &NoProgress).unwrap();
    assert!(!r.passed() && r.tables[0].semantic);
    let failed: Vec<_> = r
        .problems()
        .map(|(t, p)| match p {
            Problem::Check(v) => (t.table, v.clone()),
            other => panic!("unexpected {other}"),
        })
        .collect();
    // The raised entry and its neighbour at 4 (the one it descended to) both see a step of 3.
    let step = failed
        .iter()
        .find(|(_, v)| v.check == checks::STEP)
        .expect("the step check fails");
    assert_eq!(step.0, 0);
    assert!(step.1.index <= i as u64 && step.1.count >= 2, "{step:?}");
    assert!(failed.iter().all(|(_, v)| v.check != checks::PARITY));
    let text = Problem::Check(step.1.clone()).to_string();
    assert!(
        text.starts_with("check failed: every pattern move"),
        "{text}"
    );
    assert!(
        text.contains(&format!("first at index {}", step.1.index)),
        "{text}"
    );
}

/// Rewrites `src` with table 0's payload changed by `edit` (checksums recomputed).
fn rewrite_bit1(src: &Path, dst: &Path, edit: impl Fn(&mut Vec<u8>)) {
    let file = PdbFile::open(src).unwrap();
    let goal = file.header().goal.clone();
    let tables: Vec<_> = (0..file.header().tables.len())
        .map(|i| file.load(i, LoadOptions::default()).unwrap())
        .collect();
    let mut bits = tables[0].bytes.to_vec();
    edit(&mut bits);
    let srcs: Vec<TableSource> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| TableSource {
            entries: if i == 0 { &bits } else { &t.bytes },
            ..t.source()
        })
        .collect();
    write_pdb(dst, &goal, &srcs, &WriteOptions::default()).unwrap();
}

#[test]
fn bit1_tables_are_checked_through_their_restored_values() {
    let dir = tempfile::tempdir().unwrap();
    let f = build(
        dir.path(),
        "bit1.pdb",
        "1-5/6-11",
        Encoding::Bit1,
        Compression::None,
    );
    // A flipped bit, checksums recomputed: the restored values fail a check (or re-encode to
    // other bits); the other table still passes.
    let flipped = dir.path().join("flipped.pdb");
    rewrite_bit1(&f, &flipped, |b| b[100] ^= 0x10);
    let r = verify_file(&flipped, opts(VerifyDepth::Semantic), &NoProgress).unwrap();
    assert!(!r.passed());
    assert!(r.tables[1].passed());
    assert!(r.tables[0].semantic);
    assert!(
        r.tables[0]
            .problems
            .iter()
            .all(|p| matches!(p, Problem::Check(_))),
        "{:?}",
        r.tables[0].problems
    );
    assert!(!r.tables[0].problems.is_empty());
    assert!(
        verify_file(&flipped, opts(VerifyDepth::Checksums), &NoProgress)
            .unwrap()
            .passed()
    );
    // Every bit set: the goal entry's bit says its value is not 0, so nothing can be restored.
    let ones = dir.path().join("ones.pdb");
    rewrite_bit1(&f, &ones, |b| b.fill(0xff));
    let r = verify_file(&ones, opts(VerifyDepth::Semantic), &NoProgress).unwrap();
    assert!(
        matches!(
            &r.tables[0].problems[..],
            [Problem::Unrestorable(pdbgen::RestoreError::GoalBit)]
        ),
        "{:?}",
        r.tables[0].problems
    );
    assert!(r.tables[1].passed());
}
