//! `PdbHeuristic::estimate_many`, the batch of start estimates with overlapped lookups, gives
//! for every position what `Heuristic::init` gives: byte and `bit1` tables, a catalogue of
//! two partitions, with and without the symmetric views, for two goals, on random positions
//! (solvable or not) in batches of every length around the depth of its pipeline.

use crate::common;

use common::{both_goals, open_db, random_solvable, Rng, COLS, ROWS};
use pdbformat::format::Encoding;
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::heuristic::{Heuristic, PdbHeuristic, Position};

#[test]
fn batches_give_the_start_estimates() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(3, 3).unwrap();
    let built = Goal::blank_first(board);
    let rows = open_db(dir.path(), "rows.pdb", &built, &ROWS, Encoding::U8);
    let rows1 = open_db(dir.path(), "rows1.pdb", &built, &ROWS, Encoding::Bit1);
    let cols = open_db(dir.path(), "cols.pdb", &built, &COLS, Encoding::U8);
    let mut rng = Rng::new(7);
    for goal in both_goals(board) {
        let mut positions: Vec<Puzzle> =
            (0..40).map(|_| random_solvable(&goal, &mut rng)).collect();
        // An unsolvable one too: its pattern states are still in the tables.
        let mut odd: Vec<u16> = goal.tiles().to_vec();
        odd.swap(1, 2);
        positions.push(Puzzle::new(board, &odd).unwrap());
        for dbs in [
            vec![rows.clone()],
            vec![rows1.clone()],
            vec![rows.clone(), cols.clone()],
        ] {
            for reflect in [false, true] {
                let h = PdbHeuristic::new(&dbs, &goal, reflect).unwrap();
                let expected: Vec<u32> = (positions.iter())
                    .map(|p| h.value(&h.init(&Position::from_tiles(p.tiles()).unwrap().tiles)))
                    .collect();
                assert!(expected.iter().any(|&v| v > 0));
                for len in [0, 1, 7, 8, 9, 17, positions.len()] {
                    let flat: Vec<u8> = (positions[..len].iter())
                        .flat_map(|p| p.tiles().iter().map(|&t| t as u8))
                        .collect();
                    let mut out = vec![u32::MAX; len];
                    h.estimate_many(&flat, &mut out).unwrap();
                    assert_eq!(out, expected[..len], "{len} positions, reflect {reflect}");
                }
                // A row that is not a permutation is named, not looked up.
                let mut flat: Vec<u8> = (positions[..12].iter())
                    .flat_map(|p| p.tiles().iter().map(|&t| t as u8))
                    .collect();
                flat[10 * 9 + 4] = flat[10 * 9 + 5];
                assert_eq!(h.estimate_many(&flat, &mut [0; 12]), Err(10));
                flat[10 * 9 + 4] = 200;
                assert_eq!(h.estimate_many(&flat, &mut [0; 12]), Err(10));
            }
        }
    }
}

#[test]
fn several_blocks_and_a_late_bad_row() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(3, 3).unwrap();
    let goal = Goal::blank_first(board);
    // Patterns of every size the batch treats apart (8, 7 and 1, 5 and 3), a `bit1` file too.
    let eights: [&[usize]; 1] = [&[1, 2, 3, 4, 5, 6, 7, 8]];
    let seven_one: [&[usize]; 2] = [&[2, 3, 4, 5, 6, 7, 8], &[1]];
    let five_three: [&[usize]; 2] = [&[1, 3, 5, 7, 8], &[2, 4, 6]];
    let mut rng = Rng::new(3);
    let positions: Vec<Puzzle> = (0..2600)
        .map(|_| random_solvable(&goal, &mut rng))
        .collect();
    let mut flat: Vec<u8> = (positions.iter())
        .flat_map(|p| p.tiles().iter().map(|&t| t as u8))
        .collect();
    for (name, patterns, enc) in [
        ("8.pdb", &eights[..], Encoding::U8),
        ("71.pdb", &seven_one[..], Encoding::U8),
        ("53.pdb", &five_three[..], Encoding::Bit1),
    ] {
        let db = open_db(dir.path(), name, &goal, patterns, enc);
        for reflect in [false, true] {
            let h = PdbHeuristic::new(std::slice::from_ref(&db), &goal, reflect).unwrap();
            let expected: Vec<u32> = (positions.iter())
                .map(|p| h.value(&h.init(&Position::from_tiles(p.tiles()).unwrap().tiles)))
                .collect();
            let mut out = vec![u32::MAX; positions.len()];
            h.estimate_many(&flat, &mut out).unwrap();
            assert_eq!(out, expected, "{name}, reflect {reflect}");
            // A bad row in the third block: the rows before it are all estimated.
            let saved = flat[2100 * 9];
            flat[2100 * 9] = 9;
            let mut out = vec![u32::MAX; positions.len()];
            assert_eq!(h.estimate_many(&flat, &mut out), Err(2100));
            assert_eq!(out[..2100], expected[..2100], "{name}, reflect {reflect}");
            flat[2100 * 9] = saved;
        }
    }
}
