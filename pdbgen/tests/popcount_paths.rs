//! The portable bit count and POPCNT build the same tables: tables of both kinds on 3×4, 4×4
//! and 5×5 boards (the last through the ranking's other region layouts), built once with the
//! path forced to the portable count (`pdbformat::rank::select_popcount`, the fallback of a
//! processor without POPCNT) and once with the processor's choice, compared byte for byte.
//! The path is a process-wide choice: no other test of the binary selects it.

use pdbformat::rank::{hardware_popcount_available, popcount_path, select_popcount, PopcountPath};
use pdbformat::{Board, Goal, Pattern, TableKind};
use pdbgen::{build_table, NoProgress};
use sha2::{Digest, Sha256};

/// The digest of each table of `cases`, built on the path in effect.
fn digests(cases: &[(Goal, Pattern, TableKind)]) -> Vec<[u8; 32]> {
    cases
        .iter()
        .map(|(goal, pattern, kind)| {
            let table = build_table(goal, pattern, *kind, Some(2), 0, &NoProgress).unwrap();
            assert!(!table.is_empty());
            Sha256::digest(&*table).into()
        })
        .collect()
}

#[test]
fn the_fallback_path_builds_the_same_tables_as_the_fast_one() {
    let mut cases = Vec::new();
    for (w, h, tiles) in [
        (3, 4, &[1usize, 2, 3, 4, 5][..]),
        (4, 4, &[1, 2, 3, 4, 5][..]),
        (4, 4, &[6, 7, 10, 11, 14][..]),
        (5, 5, &[1, 2, 5, 6][..]),
    ] {
        let board = Board::new(w, h).unwrap();
        let goal = Goal::blank_first(board);
        let pattern = Pattern::new(board, tiles).unwrap();
        for kind in [TableKind::ZeroAware, TableKind::ZeroUnaware] {
            cases.push((goal.clone(), pattern.clone(), kind));
        }
    }
    let dispatching = cfg!(all(target_arch = "x86_64", not(target_feature = "popcnt")));
    let taken = select_popcount(PopcountPath::Software);
    if dispatching {
        assert_eq!(taken, PopcountPath::Software);
        assert_eq!(popcount_path(), PopcountPath::Software);
    }
    let software = digests(&cases);
    let taken = select_popcount(PopcountPath::Hardware);
    assert_eq!(
        taken == PopcountPath::Hardware,
        hardware_popcount_available()
    );
    let hardware = digests(&cases);
    for (i, (s, h)) in software.iter().zip(&hardware).enumerate() {
        let (goal, pattern, kind) = &cases[i];
        assert_eq!(s, h, "{kind} table of {pattern:?} for {goal:?}");
    }
}
