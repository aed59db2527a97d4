//! Database files in every form the solver reads: u8, u4 and bit1 entries, raw and compressed
//! payloads, several files at once; and a clear refusal of corrupted ones.

use crate::common;

use common::{all_distances, distance_key, random_solvable, write_db_with, Ida, Rng};
use pdbformat::format::{Compression, Encoding, WriteOptions};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal};
use pdbsolver::{Database, HeuristicChoice, Limits, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const PATTERNS: [&[usize]; 3] = [&[1, 2, 3], &[4, 5, 6], &[7, 8]];

/// Writes the tables of [`PATTERNS`] for `goal` at `path`.
fn write(path: &Path, goal: &Goal, kind: TableKind, encoding: Encoding, compression: Compression) {
    let opts = WriteOptions {
        compression,
        ..WriteOptions::default()
    };
    write_db_with(path, goal, &PATTERNS, kind, encoding, &opts);
}

/// Writes the uncompressed tables of [`PATTERNS`] of `kind` and `encoding` for the 3×3
/// blank-first goal into `dir/name`; the goal and the file's path.
fn raw_3x3(dir: &Path, name: &str, kind: TableKind, encoding: Encoding) -> (Goal, PathBuf) {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let path = dir.join(name);
    write(&path, &goal, kind, encoding, Compression::None);
    (goal, path)
}

/// Checks that `choice` solves `n` random positions in their exact number of moves.
fn assert_exact_lengths(choice: &HeuristicChoice, goal: &Goal, rng: &mut Rng, n: usize) {
    let dist = all_distances(goal);
    for _ in 0..n {
        let p = random_solvable(goal, rng);
        let sol = choice.ida(&p, goal, &Limits::default()).unwrap();
        assert_eq!(sol.len(), dist[distance_key(&p)] as usize, "{p:#}");
    }
}

#[test]
fn u4_and_compressed_files_give_exact_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_last(Board::new(3, 3).unwrap());
    let forms = [
        (Encoding::U8, Compression::Zstd),
        (Encoding::U4, Compression::None),
        (Encoding::U4, Compression::Gzip),
    ];
    let mut rng = Rng::new(8);
    for (i, (encoding, compression)) in forms.into_iter().enumerate() {
        let path = dir.path().join(format!("f{i}.pdb"));
        write(&path, &goal, TableKind::ZeroAware, encoding, compression);
        let db = Database::open(&path, OpenOptions::default()).unwrap();
        assert_eq!(db.tables().len(), 3);
        assert!(db.is_complete() && db.is_zero_aware());
        let s = HeuristicChoice::Pdb {
            databases: vec![Arc::new(db)],
            reflect: true,
        };
        assert_exact_lengths(&s, &goal, &mut rng, 100);
    }
}

#[test]
fn bit1_files_give_exact_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let (goal, path) = raw_3x3(dir.path(), "bit1.pdb", TableKind::ZeroAware, Encoding::Bit1);
    let db = Database::open(&path, OpenOptions::default()).unwrap();
    assert!(db.tables().iter().all(|t| t.is_differential()));
    let s = HeuristicChoice::Pdb {
        databases: vec![Arc::new(db)],
        reflect: true,
    };
    let mut rng = Rng::new(9);
    assert_exact_lengths(&s, &goal, &mut rng, 100);
}

#[test]
fn verification_can_be_skipped_but_is_on_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = raw_3x3(dir.path(), "x.pdb", TableKind::ZeroUnaware, Encoding::U8);
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let e = Database::open(&path, OpenOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("checksum mismatch"), "{e}");
    assert!(Database::open(
        &path,
        OpenOptions {
            verify: false,
            ..Default::default()
        }
    )
    .is_ok());
}

/// The tables of a file are read by several threads at once (one per core): a flipped byte in
/// any table's entries is refused with that table named, and an intact file loads every table
/// to its own bytes.
#[test]
fn every_table_read_on_any_thread_is_checked_and_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = raw_3x3(dir.path(), "x.pdb", TableKind::ZeroAware, Encoding::U8);
    let file = pdbformat::format::PdbFile::open(&path).unwrap();
    let db = Database::open(&path, OpenOptions::default()).unwrap();
    for (t, table) in db.tables().iter().enumerate() {
        let want = file
            .load(t, pdbformat::format::LoadOptions::default())
            .unwrap();
        assert!(table.entries() == &want.bytes[..], "table {t}");
    }
    let clean = std::fs::read(&path).unwrap();
    for (t, th) in file.header().tables.iter().enumerate() {
        let mut bytes = clean.clone();
        bytes[(th.payload_offset + th.stored_len / 2) as usize] ^= 0x10;
        let bad = dir.path().join(format!("bad-{t}.pdb"));
        std::fs::write(&bad, &bytes).unwrap();
        let e = Database::open(&bad, OpenOptions::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("checksum mismatch") && e.contains(&format!("table {t}")),
            "table {t}: {e}"
        );
    }
}

/// A header whose table shape contradicts itself (format v1 layout, docs/FORMAT.md: the first
/// table descriptor follows the goal, its entry count 8 bytes in), resealed so that only the
/// shape is wrong, is refused by the reader's checks with the field named: the solver adds no
/// checks of its own.
#[test]
fn malformed_table_shape_is_refused_with_the_field_named() {
    use pdbformat::format::{Digest, FormatError};
    use pdbsolver::DbError;
    const HEADER_LEN_AT: usize = 12;
    const GOAL_AT: usize = 24;
    const ENTRY_COUNT: usize = 8;
    let dir = tempfile::tempdir().unwrap();
    let (_, path) = raw_3x3(dir.path(), "m.pdb", TableKind::ZeroUnaware, Encoding::U8);
    let mut bytes = std::fs::read(&path).unwrap();
    let d = (GOAL_AT + 9).div_ceil(8) * 8;
    let at = d + ENTRY_COUNT;
    let count = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    assert_eq!(count, 9 * 8 * 7, "the first descriptor's entry count");
    bytes[at..at + 8].copy_from_slice(&(count + 1).to_le_bytes());
    let hl =
        u32::from_le_bytes(bytes[HEADER_LEN_AT..HEADER_LEN_AT + 4].try_into().unwrap()) as usize;
    let sum = Digest::of(&bytes[..hl - 32]);
    bytes[hl - 32..hl].copy_from_slice(&sum.0);
    std::fs::write(&path, &bytes).unwrap();
    let e = Database::open(&path, OpenOptions::default()).unwrap_err();
    assert!(
        matches!(&e, DbError::Format { source: FormatError::InvalidField { field, .. }, .. } if field == "table 0 entry count"),
        "{e:?}"
    );
    assert!(e.to_string().contains("invalid table 0 entry count"), "{e}");
}

/// With `expect_goal` the header alone decides: a file for another board is refused as such
/// before its (here damaged) payload is read or verified, and a damaged payload checked in the
/// background is reported by `wait_verified` and by `solve`, never an answer.
#[test]
fn header_first_refusal_and_background_verification() {
    use pdbsolver::{DbError, SolveError};
    let dir = tempfile::tempdir().unwrap();
    let (goal, path) = raw_3x3(dir.path(), "x.pdb", TableKind::ZeroAware, Encoding::U8);
    let good = Database::open(
        &path,
        OpenOptions {
            verify_in_background: true,
            ..Default::default()
        },
    )
    .unwrap();
    good.wait_verified().unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let n = bytes.len();
    bytes[n - 1] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let other = Goal::blank_first(Board::new(4, 4).unwrap());
    let e = Database::open(
        &path,
        OpenOptions {
            expect_goal: Some(other),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(matches!(e, DbError::WrongBoard { .. }), "{e:?}");
    let db = Database::open(
        &path,
        OpenOptions {
            verify_in_background: true,
            expect_goal: Some(goal.clone()),
            ..Default::default()
        },
    )
    .expect("the damage is found in the background, not while loading");
    let e = db.wait_verified().unwrap_err();
    assert!(e.to_string().contains("checksum mismatch"), "{e}");
    let choice = HeuristicChoice::Pdb {
        databases: vec![Arc::new(db)],
        reflect: true,
    };
    let p = pdbformat::Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    let e = choice.ida(&p, &goal, &Limits::default()).unwrap_err();
    assert!(
        matches!(&e, SolveError::Database(DbError::Format { .. })),
        "{e:?}"
    );
}

/// Mapped from the file, an uncompressed table gives the same lengths as one read into memory,
/// and a damaged one is still refused (inline and in the background); compressed tables are
/// decoded into memory whatever the residence asked for.
#[test]
fn mapped_tables_give_exact_lengths_and_are_verified() {
    use pdbsolver::Residence;
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let mut rng = Rng::new(10);
    for (i, (encoding, compression)) in [
        (Encoding::U8, Compression::None),
        (Encoding::Bit1, Compression::None),
        (Encoding::U4, Compression::Zstd),
    ]
    .into_iter()
    .enumerate()
    {
        let path = dir.path().join(format!("m{i}.pdb"));
        write(&path, &goal, TableKind::ZeroAware, encoding, compression);
        let mapped = OpenOptions {
            residence: Residence::Mapped,
            ..Default::default()
        };
        let db = Database::open(&path, mapped.clone()).unwrap();
        let s = HeuristicChoice::Pdb {
            databases: vec![Arc::new(db)],
            reflect: true,
        };
        assert_exact_lengths(&s, &goal, &mut rng, 50);
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 1] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let e = Database::open(&path, mapped.clone())
            .unwrap_err()
            .to_string();
        assert!(e.contains("checksum mismatch") || e.contains("zstd"), "{e}");
        if compression == Compression::None {
            let db = Database::open(
                &path,
                OpenOptions {
                    verify_in_background: true,
                    ..mapped
                },
            )
            .unwrap();
            let e = db.wait_verified().unwrap_err().to_string();
            assert!(e.contains("checksum mismatch"), "{e}");
        }
    }
}
