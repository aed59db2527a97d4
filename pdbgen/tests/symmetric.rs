//! Symmetric patterns built once: a whole-partition file whose pattern is the image of an
//! earlier one under a board symmetry derives that table (the observer is told so) instead of
//! searching it, and its entries are byte-identical to the table built on its own. (That a
//! derived table equals its own BFS's for every kind and encoding is a unit test of the
//! derivation, `symmetric.rs`.)

use pdbformat::format::{encode_entries, Encoding, LoadOptions, PdbFile, WriteOptions};
use pdbformat::{Board, Goal, Partition, Pattern, Symmetry, TableKind};
use pdbgen::{build_file, build_table, plan, BuildObserver, BuildRequest, NoProgress};
use std::sync::Mutex;

/// Records every derivation a build reports: (table, source table, symmetry).
#[derive(Default)]
struct Derivations(Mutex<Vec<(usize, usize, Symmetry)>>);

impl BuildObserver for Derivations {
    fn table_derived(
        &self,
        table: usize,
        _pattern: &Pattern,
        source: usize,
        symmetry: Symmetry,
        _entries: u64,
    ) {
        self.0.lock().unwrap().push((table, source, symmetry));
    }
}

#[test]
fn a_partition_file_derives_its_image_tables() {
    // 3x3, blank first: {1,2} and its transpose {3,6}; {4,5,7,8} is its own image.
    let board = Board::new(3, 3).unwrap();
    let goal = Goal::blank_first(board);
    let patterns = vec![
        Pattern::new(board, &[1, 2]).unwrap(),
        Pattern::new(board, &[4, 5, 7, 8]).unwrap(),
        Pattern::new(board, &[3, 6]).unwrap(),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (kind, enc) in [
        (TableKind::ZeroAware, Encoding::U8),
        (TableKind::ZeroAware, Encoding::U4),
        (TableKind::ZeroAware, Encoding::Bit1),
        (TableKind::ZeroUnaware, Encoding::U8),
    ] {
        let req = BuildRequest {
            goal: goal.clone(),
            partition: Partition::new(patterns.clone()).unwrap(),
            kind,
            threads: Some(2),
            encoding: enc,
            write: WriteOptions::default(),
        };
        let p = plan(&req).unwrap();
        assert_eq!(p.derived, 1);
        assert_eq!(p.entries.len(), 3);
        let path = dir.path().join(format!("{kind}-{enc}.pdb"));
        let seen = Derivations::default();
        let summaries = build_file(&req, &path, &seen).unwrap();
        // Table 1 is searched; table 2 is the transpose of table 0.
        assert_eq!(
            *seen.0.lock().unwrap(),
            vec![(2, 0, Symmetry::Transpose)],
            "{kind} {enc}"
        );
        assert_eq!(summaries[2].histogram, summaries[0].histogram);
        let file = PdbFile::open(&path).unwrap();
        file.verify().unwrap();
        for (i, p) in patterns.iter().enumerate() {
            let table = file.load(i, LoadOptions::default()).unwrap();
            let own = build_table(&goal, p, kind, Some(1), 0, &NoProgress).unwrap();
            assert_eq!(&table.header.pattern, p);
            assert_eq!(
                &table.bytes[..],
                &encode_entries(&own, enc)[..],
                "{kind} {enc} table {i}"
            );
            assert_eq!(
                table.header.max_value,
                own.iter().copied().max().unwrap(),
                "{kind} {enc} table {i}"
            );
        }
    }
}
