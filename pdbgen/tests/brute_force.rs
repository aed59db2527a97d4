//! Generated tables against a brute-force 0-1 BFS over the full abstract state space (pattern
//! tiles and the exact blank cell), which shares no code with the generator's regions or moves.

use pdbformat::rank::{PermutationIndex, TableIndex};
use pdbformat::{Board, Goal, Pattern, TableKind};
use pdbgen::{build_table, NoProgress, UNREACHED};
use std::collections::{HashMap, VecDeque};

/// Exact abstract distance of every (pattern cells, blank cell) state to the goal.
fn brute_distances(goal: &Goal, pattern: &Pattern) -> HashMap<Vec<u8>, u8> {
    let b = goal.board();
    let mut start: Vec<u8> = pattern.goal_cells(goal).iter().map(|&c| c as u8).collect();
    start.push(goal.blank_cell() as u8);
    let k = pattern.len();
    let mut dist = HashMap::new();
    dist.insert(start.clone(), 0u8);
    let mut q = VecDeque::from([start]);
    while let Some(s) = q.pop_front() {
        let d = dist[&s];
        let blank = s[k] as usize;
        for (_, c) in b.neighbours(blank) {
            let mut t = s.clone();
            let cost = match s[..k].iter().position(|&x| x as usize == c) {
                Some(i) => {
                    t[i] = blank as u8;
                    1
                }
                None => 0,
            };
            t[k] = c as u8;
            let nd = d + cost;
            if dist.get(&t).is_none_or(|&old| nd < old) {
                dist.insert(t.clone(), nd);
                if cost == 0 {
                    q.push_front(t);
                } else {
                    q.push_back(t);
                }
            }
        }
    }
    dist
}

fn check(goal: &Goal, tiles: &[usize]) {
    let b = goal.board();
    let pattern = Pattern::new(b, tiles).unwrap();
    let k = pattern.len();
    let brute = brute_distances(goal, &pattern);
    for kind in [TableKind::ZeroAware, TableKind::ZeroUnaware] {
        let table = build_table(goal, &pattern, kind, Some(2), 0, &NoProgress).unwrap();
        let idx = TableIndex::new(b, k, kind).unwrap();
        assert_eq!(table.len() as u64, idx.len());
        let mut cells = vec![0u8; k];
        for i in 0..idx.len() {
            let rep = idx.unrank(i, &mut cells);
            let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
            let blanks: Vec<usize> = match kind {
                TableKind::ZeroAware => vec![rep],
                TableKind::ZeroUnaware => (0..b.cells()).filter(|&c| occ >> c & 1 == 0).collect(),
            };
            let expected = blanks
                .iter()
                .filter_map(|&bl| {
                    let mut s = cells.clone();
                    s.push(bl as u8);
                    brute.get(&s).copied()
                })
                .min()
                .unwrap_or(UNREACHED);
            assert_eq!(
                table[i as usize], expected,
                "{b} goal {goal} pattern {pattern} {kind}: index {i} cells {cells:?} blank {rep}"
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
