//! Generated tables against the brute-force oracle (`pdbformat::testkit::AbstractDistances`: a
//! 0-1 BFS over explicit abstract states, pattern tiles and the exact blank cell, in a hash
//! map), which shares no code with the generator's regions, moves or ranking.

use pdbformat::rank::PermutationIndex;
use pdbformat::testkit::AbstractDistances;
use pdbformat::{Board, Goal, Pattern, TableKind};
use pdbgen::{build_table, NoProgress, UNREACHED};

/// Builds both kinds of table of `tiles` and compares every entry with the oracle's.
fn check(goal: &Goal, tiles: &[usize]) {
    let b = goal.board();
    let pattern = Pattern::new(b, tiles).unwrap();
    let oracle = AbstractDistances::new(goal, &pattern);
    for kind in [TableKind::ZeroAware, TableKind::ZeroUnaware] {
        let table = build_table(goal, &pattern, kind, Some(2), 0, &NoProgress).unwrap();
        let expected = oracle.table(kind);
        assert_eq!(table.len(), expected.len(), "{b} {pattern} {kind}");
        assert_eq!(
            UNREACHED,
            u8::MAX,
            "the oracle marks unreachable entries with 255"
        );
        if let Some(i) = (0..table.len()).find(|&i| table[i] != expected[i]) {
            panic!(
                "{b} goal {goal} pattern {pattern} {kind}: index {i} holds {}, the oracle says {}",
                table[i], expected[i]
            );
        }
    }
}

#[test]
fn three_by_three_patterns_and_goals() {
    let b = Board::new(3, 3).unwrap();
    let odd = Goal::parse(b, "1 2 3 4 0 5 6 7 8").unwrap();
    for goal in [Goal::blank_first(b), Goal::blank_last(b), odd] {
        check(&goal, &[1, 2, 3]);
        check(&goal, &[4, 5, 7, 8]);
        check(&goal, &[2]);
    }
}

#[test]
fn rectangles() {
    for (w, h, tiles) in [
        (2, 4, vec![1, 2, 3]),
        (4, 2, vec![1, 5, 6, 7]),
        (3, 4, vec![1, 2, 3, 4]),
        (4, 3, vec![5, 6, 9, 10]),
    ] {
        let b = Board::new(w, h).unwrap();
        check(&Goal::blank_first(b), &tiles);
        check(&Goal::blank_last(b), &tiles);
    }
}

#[test]
fn small_patterns_on_4x4() {
    let b = Board::new(4, 4).unwrap();
    check(&Goal::blank_first(b), &[1, 2, 3]);
    check(&Goal::blank_last(b), &[5, 6, 9, 10]);
    check(
        &Goal::parse(b, "1 2 3 4 5 6 0 7 8 9 10 11 12 13 14 15").unwrap(),
        &[1, 5, 9],
    );
}

#[test]
fn full_eight_puzzle_is_exact() {
    let b = Board::new(3, 3).unwrap();
    let goal = Goal::blank_first(b);
    let pattern = Pattern::new(b, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    let t = build_table(&goal, &pattern, TableKind::ZeroAware, None, 0, &NoProgress).unwrap();
    let reached = t.iter().filter(|&&v| v != UNREACHED).count();
    assert_eq!(reached, 181_440);
    assert_eq!(t.iter().filter(|&&v| v != UNREACHED).max(), Some(&31));
    check(&goal, &[1, 2, 3, 4, 5, 6, 7, 8]);
}

/// The shared notes' measurement: zero-unaware tables are not consistent, zero-aware ones are.
#[test]
fn inconsistency_counts_from_the_notes() {
    let b = Board::new(4, 4).unwrap();
    let goal = Goal::blank_first(b);
    for (tiles, moves, worst) in [(vec![1, 2, 3], 94, 5), (vec![5, 6, 9, 10], 2560, 3)] {
        let pattern = Pattern::new(b, &tiles).unwrap();
        let k = tiles.len();
        let t = build_table(
            &goal,
            &pattern,
            TableKind::ZeroUnaware,
            Some(1),
            0,
            &NoProgress,
        )
        .unwrap();
        let idx = PermutationIndex::new(b, k).unwrap();
        let (mut count, mut max) = (0, 0);
        let mut cells = vec![0u8; k];
        for i in 0..idx.len() {
            idx.unrank(i, &mut cells);
            let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
            for j in 0..k {
                let p = cells[j] as usize;
                for (_, q) in b.neighbours(p) {
                    if occ >> q & 1 == 1 {
                        continue;
                    }
                    let mut c2 = cells.clone();
                    c2[j] = q as u8;
                    let d = t[i as usize].abs_diff(t[idx.index(&c2) as usize]);
                    if d > 1 {
                        count += 1;
                        max = max.max(d);
                    }
                }
            }
        }
        assert_eq!((count, max), (moves, worst), "pattern {tiles:?}");
    }
}

#[test]
fn same_bytes_for_one_and_two_threads() {
    use sha2::{Digest, Sha256};
    let b = Board::new(4, 4).unwrap();
    let goal = Goal::blank_first(b);
    let pattern = Pattern::new(b, &[1, 2, 3, 4, 5]).unwrap();
    for kind in [TableKind::ZeroAware, TableKind::ZeroUnaware] {
        let one = build_table(&goal, &pattern, kind, Some(1), 0, &NoProgress).unwrap();
        let two = build_table(&goal, &pattern, kind, Some(2), 0, &NoProgress).unwrap();
        assert_eq!(Sha256::digest(&*one), Sha256::digest(&*two), "{kind}");
    }
}
