//! Class tables and the metric in the file format (version 2): written, read back, and every
//! hostile change to their new fields refused with the field named.

use pdbformat::format::{
    write_class_pdb, write_pdb, ClassTableSource, Compression, Encoding, FormatError, LoadOptions,
    PdbFile, TableSource, WriteOptions, FORMAT_VERSION,
};
use pdbformat::rank::{CellClasses, ClassIndex, ClassLabels, TableKind};
use pdbformat::{Board, Goal, Metric, Pattern};
use sha2::{Digest as _, Sha256};
use std::path::Path;

const RESERVED_AT: usize = 20;
const GOAL_AT: usize = 24;

fn goal() -> Goal {
    Goal::blank_last(Board::new(3, 3).unwrap())
}

/// A file of a row table and a column table on the 3×3 with made-up entries.
fn class_file(dir: &Path, compression: Compression) -> (Vec<u8>, Vec<Vec<u8>>) {
    let g = goal();
    let n = ClassIndex::for_goal(&g, ClassLabels::Rows).unwrap().len() as usize;
    let rows: Vec<u8> = (0..n).map(|i| (i % 13) as u8).collect();
    let cols: Vec<u8> = (0..n).map(|i| (i % 7) as u8).collect();
    let path = dir.join(format!("classes-{compression}.pdb"));
    let tables = [
        ClassTableSource {
            labels: ClassLabels::Rows,
            encoding: Encoding::U8,
            max_value: 12,
            entries: &rows,
        },
        ClassTableSource {
            labels: ClassLabels::Columns,
            encoding: Encoding::U8,
            max_value: 6,
            entries: &cols,
        },
    ];
    let opts = WriteOptions {
        compression,
        ..WriteOptions::default()
    };
    let h = write_class_pdb(&path, &g, Metric::Mtm, &tables, &opts).unwrap();
    assert_eq!(h.version(), 2);
    (std::fs::read(&path).unwrap(), vec![rows, cols])
}

fn reseal(b: &mut [u8]) {
    let hl = u32::from_le_bytes(b[12..16].try_into().unwrap()) as usize;
    let sum = Sha256::digest(&b[..hl - 32]);
    b[hl - 32..hl].copy_from_slice(&sum);
}

fn field_of(b: Vec<u8>) -> String {
    match PdbFile::from_bytes(b) {
        Ok(_) => panic!("a hostile header was accepted"),
        Err(FormatError::InvalidField { field, .. }) => field,
        Err(e) => panic!("expected an invalid field, got {e:?}"),
    }
}

#[test]
fn class_tables_round_trip_with_their_metric() {
    let dir = tempfile::tempdir().unwrap();
    for compression in [Compression::None, Compression::Zstd, Compression::Gzip] {
        let (bytes, entries) = class_file(dir.path(), compression);
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), FORMAT_VERSION);
        assert_eq!(bytes[RESERVED_AT], 1, "the metric code of mtm");
        let f = PdbFile::from_bytes(bytes).unwrap();
        f.verify().unwrap();
        let h = f.header();
        assert_eq!(h.metric, Metric::Mtm);
        assert_eq!(h.tables[0].classes, Some(ClassLabels::Rows));
        assert_eq!(h.tables[1].classes, Some(ClassLabels::Columns));
        assert_eq!(h.tables[0].pattern.len(), 8);
        assert_eq!(h.tables[0].kind, TableKind::ZeroAware);
        for (i, e) in entries.iter().enumerate() {
            let t = f.load(i, LoadOptions::default()).unwrap();
            assert_eq!(&t.bytes[..], &e[..]);
        }
    }
}

/// The 3×3 labelling {1,5}, {2,3,6}, {4,7,8} of the blank-last goal.
fn labels() -> ClassLabels {
    let groups = vec![vec![1, 5], vec![2, 3, 6], vec![4, 7, 8]];
    ClassLabels::Cells(CellClasses::from_tile_groups(&goal(), &groups).unwrap())
}

#[test]
fn labelled_class_tables_round_trip_and_hostile_labels_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let g = goal();
    let n = ClassIndex::for_goal(&g, labels()).unwrap().len() as usize;
    let entries: Vec<u8> = (0..n).map(|i| (i % 11) as u8).collect();
    let path = dir.path().join("labelled.pdb");
    let table = ClassTableSource {
        labels: labels(),
        encoding: Encoding::U8,
        max_value: 10,
        entries: &entries,
    };
    write_class_pdb(&path, &g, Metric::Mtm, &[table], &WriteOptions::default()).unwrap();
    let base = std::fs::read(&path).unwrap();
    let d0 = 40;
    assert_eq!(base[d0], 4, "the kind code of labelled classes");
    // Tile t's class at d0 + 104 + t - 1.
    assert_eq!(&base[d0 + 104..d0 + 112], &[0, 1, 1, 2, 0, 1, 2, 2]);
    let f = PdbFile::from_bytes(base.clone()).unwrap();
    f.verify().unwrap();
    assert_eq!(f.header().tables[0].classes, Some(labels()));
    assert_eq!(f.header().tables[0].pattern.len(), 8);
    assert_eq!(
        &f.load(0, LoadOptions::default()).unwrap().bytes[..],
        &entries[..]
    );
    let hostile = |at: usize, v: u8| {
        let mut b = base.clone();
        b[at] = v;
        reseal(&mut b);
        field_of(b)
    };
    // A class with no tile, a tile without a class, more classes than tiles allow.
    assert_eq!(hostile(d0 + 104, 4), "table 0 classes");
    assert_eq!(hostile(d0 + 105, 0xff), "table 0 classes");
    assert_eq!(hostile(d0 + 111, 9), "table 0 classes");
    // Labels that change the class sizes change the entry count.
    assert_eq!(hostile(d0 + 104, 1), "table 0 entry count");
}

#[test]
fn pattern_files_stay_version_one_and_read_as_stm() {
    let dir = tempfile::tempdir().unwrap();
    let g = goal();
    let p = Pattern::new(g.board(), &[1, 2]).unwrap();
    let entries = vec![3u8; 72];
    let path = dir.path().join("p.pdb");
    let src = TableSource {
        kind: TableKind::ZeroUnaware,
        pattern: &p,
        encoding: Encoding::U8,
        max_value: 3,
        entries: &entries,
    };
    let h = write_pdb(&path, &g, &[src], &WriteOptions::default()).unwrap();
    assert_eq!((h.version(), h.metric), (1, Metric::Stm));
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 1);
    assert_eq!(PdbFile::from_bytes(bytes.clone()).unwrap().header(), &h);
    // The same header relabelled version 2 (metric code 0) is the same STM file.
    let mut v2 = bytes.clone();
    v2[8] = 2;
    reseal(&mut v2);
    assert_eq!(PdbFile::from_bytes(v2.clone()).unwrap().header(), &h);
    // Version 2's metric code, in a version 1 file, is a reserved byte.
    let mut v1 = bytes;
    v1[RESERVED_AT] = 1;
    reseal(&mut v1);
    assert_eq!(field_of(v1), "reserved header bytes");
    // And an unknown metric code in version 2.
    for m in [2u8, 0x80, 0xff] {
        let mut b = v2.clone();
        b[RESERVED_AT] = m;
        reseal(&mut b);
        assert_eq!(field_of(b), "metric");
    }
}

#[test]
fn hostile_class_descriptors_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (base, _) = class_file(dir.path(), Compression::None);
    let d0 = 40; // align(24 + 9, 8)
    let hostile = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut b = base.clone();
        edit(&mut b);
        reseal(&mut b);
        field_of(b)
    };
    // Class kinds do not exist in version 1.
    assert_eq!(
        hostile(&|b| {
            b[8] = 1;
            b[RESERVED_AT] = 0;
        }),
        "table 0 kind"
    );
    for k in [5u8, 0xff] {
        assert_eq!(hostile(&|b| b[d0] = k), "table 0 kind");
    }
    // A row table's tiles (1 … 8) read as a labelling leave class 0 empty.
    assert_eq!(hostile(&|b| b[d0] = 4), "table 0 classes");
    // A class table with a pattern scheme, and a pattern table with the class scheme.
    for s in [0u8, 1, 3] {
        assert_eq!(hostile(&|b| b[d0 + 1] = s), "table 0 index scheme");
    }
    assert_eq!(
        hostile(&|b| {
            b[d0] = 1;
        }),
        "table 0 index scheme"
    );
    // Entry counts other than the class boards'.
    for delta in [1u64, 1 << 40] {
        assert_eq!(
            hostile(&|b| {
                let at = d0 + 8;
                let v = u64::from_le_bytes(b[at..at + 8].try_into().unwrap());
                b[at..at + 8].copy_from_slice(&(v + delta).to_le_bytes());
            }),
            "table 0 entry count"
        );
    }
    // bit1 entries (with a consistent raw length) and zstd-sym payloads.
    assert_eq!(
        hostile(&|b| {
            b[d0 + 2] = 2;
            let raw = (5040u64).div_ceil(8);
            b[d0 + 16..d0 + 24].copy_from_slice(&raw.to_le_bytes());
        }),
        "table 0 encoding"
    );
    assert_eq!(hostile(&|b| b[d0 + 3] = 3), "table 0 compression");
    // A metric code and reserved bytes in version 2.
    assert_eq!(hostile(&|b| b[RESERVED_AT] = 7), "metric");
    for at in RESERVED_AT + 1..GOAL_AT {
        assert_eq!(hostile(&|b| b[at] = 1), "reserved header bytes");
    }
}

#[test]
fn writers_refuse_what_class_tables_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let g = goal();
    let entries = vec![0u8; 5040];
    let path = dir.path().join("bad.pdb");
    let table = |encoding, entries: &'static [u8]| ClassTableSource {
        labels: ClassLabels::Rows,
        encoding,
        max_value: 0,
        entries,
    };
    let leaked: &'static [u8] = Box::leak(entries.into_boxed_slice());
    let bit1 = [table(Encoding::Bit1, &leaked[..630])];
    let e = write_class_pdb(&path, &g, Metric::Mtm, &bit1, &WriteOptions::default());
    assert!(matches!(e, Err(FormatError::BadTable { .. })), "{e:?}");
    let sym = WriteOptions {
        compression: Compression::ZstdSymmetric,
        ..WriteOptions::default()
    };
    let e = write_class_pdb(&path, &g, Metric::Mtm, &[table(Encoding::U8, leaked)], &sym);
    assert!(matches!(e, Err(FormatError::BadTable { .. })), "{e:?}");
    let short = [table(Encoding::U8, &leaked[..5039])];
    let e = write_class_pdb(&path, &g, Metric::Mtm, &short, &WriteOptions::default());
    assert!(matches!(e, Err(FormatError::BadTable { .. })), "{e:?}");
    assert!(!path.exists());
}
