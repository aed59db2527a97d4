//! Symmetric patterns built once: a table derived through a board symmetry equals, entry for
//! entry, the table of the same pattern built by its own BFS, for every kind and encoding, and
//! a whole-partition file with a derived table is byte-identical in its entries to one built
//! table by table.

use pdbformat::format::{encode_entries, Encoding, LoadOptions, PdbFile, WriteOptions};
use pdbformat::{Board, Goal, Partition, Pattern, Symmetry, TableKind};
use pdbgen::symmetric::{derive_table, image_of, maps_onto};
use pdbgen::twobit::build_bit1_table;
use pdbgen::{build_file, build_table, plan, BuildRequest, NoProgress};

/// The transpose of `tiles`' goal cells, as the tiles on those cells.
fn transposed(goal: &Goal, tiles: &[usize]) -> Vec<usize> {
    let board = goal.board();
    tiles
        .iter()
        .map(|&t| goal.tile_at(Symmetry::Transpose.map(board, goal.cell_of(t))))
        .collect()
}

/// (board side, goal, source pattern): square boards with the blank on the main diagonal.
fn cases() -> Vec<(usize, &'static str, Vec<usize>)> {
    vec![
        (3, "blank-first", vec![1, 2]),
        (3, "blank-first", vec![1, 2, 5]),
        (3, "blank-last", vec![1, 2, 3]),
        (4, "blank-first", vec![1, 2, 3]),
        (4, "blank-first", vec![2, 3, 7, 11]),
        (4, "blank-last", vec![1, 2, 3, 4, 7]),
        // The blank in the middle of the diagonal.
        (3, "1 2 3 4 0 5 6 7 8", vec![1, 2, 3]),
    ]
}

#[test]
fn derived_tables_equal_independent_builds() {
    for (side, g, tiles) in cases() {
        let board = Board::new(side, side).unwrap();
        let goal = Goal::parse(board, g).unwrap();
        let a = Pattern::new(board, &tiles).unwrap();
        let b = Pattern::new(board, &transposed(&goal, &tiles)).unwrap();
        assert_ne!(a, b);
        assert!(maps_onto(&goal, Symmetry::Transpose, &a, &b));
        for kind in [TableKind::ZeroAware, TableKind::ZeroUnaware] {
            let ta = build_table(&goal, &a, kind, Some(2), 0, &NoProgress).unwrap();
            let tb = build_table(&goal, &b, kind, Some(2), 0, &NoProgress).unwrap();
            let mut encodings = vec![Encoding::U8];
            if ta.iter().all(|&v| v <= 15) {
                encodings.push(Encoding::U4);
            }
            if kind == TableKind::ZeroAware {
                encodings.push(Encoding::Bit1);
            }
            for enc in encodings {
                let derived = derive_table(
                    &goal,
                    &a,
                    &encode_entries(&ta, enc),
                    &b,
                    Symmetry::Transpose,
                    kind,
                    enc,
                )
                .unwrap();
                assert_eq!(
                    derived,
                    encode_entries(&tb, enc),
                    "{side}x{side} {g} {tiles:?} {kind} {enc}"
                );
            }
        }
        // From the two-bit BFS's payload as well.
        let (pa, _) = build_bit1_table(&goal, &a, 0, &NoProgress).unwrap();
        let (pb, _) = build_bit1_table(&goal, &b, 0, &NoProgress).unwrap();
        let derived = derive_table(
            &goal,
            &a,
            &pa,
            &b,
            Symmetry::Transpose,
            TableKind::ZeroAware,
            Encoding::Bit1,
        )
        .unwrap();
        assert_eq!(&derived[..], &pb[..], "{side}x{side} {g} {tiles:?} two-bit");
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
    assert!(image_of(&goal, &patterns, 1).is_none());
    let image = image_of(&goal, &patterns, 2).unwrap();
    assert_eq!((image.source, image.symmetry), (0, Symmetry::Transpose));
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
        let summaries = build_file(&req, &path, &NoProgress).unwrap();
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
