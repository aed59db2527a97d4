//! Duplicate-move pruning: every move the machine forbids completes a string with a strictly
//! smaller equivalent and no smallest string is ever forbidden (checked against a plain
//! breadth-first enumeration of boards), searches with pruning find the BFS distance of every
//! small-board position, and on the 15-puzzle the same lengths as without pruning, with no more
//! nodes in any iteration that ends without the goal.

use crate::common;

use common::{all_distances, db663, distance_key, korf100, puzzle_of_key, Rng};
use pdbformat::{Board, Direction, Goal, Puzzle};
use pdbsolver::prune::{default_depth, Pruner, FORBIDDEN};
use pdbsolver::{HeuristicChoice, Ida, Pruning, Search, Solution};
use std::collections::{BTreeMap, HashMap};

/// The (length, lexicographic) key of a move string: directions in [`Direction::ALL`] order.
fn order(s: &[Direction]) -> (usize, Vec<usize>) {
    let idx = |d: &Direction| Direction::ALL.iter().position(|x| x == d).unwrap();
    (s.len(), s.iter().map(idx).collect())
}

/// The board made by `moves` from the identity board with the blank on `start`, or `None` if
/// a move leaves the board.
fn apply(board: Board, start: usize, moves: &[Direction]) -> Option<Vec<u8>> {
    let mut tiles: Vec<u8> = (0..board.cells() as u8).collect();
    tiles[start] = u8::MAX;
    let mut blank = start;
    for &d in moves {
        let to = board.neighbour(blank, d)?;
        tiles.swap(blank, to);
        blank = to;
    }
    Some(tiles)
}

/// For every board reachable from `start` in at most `depth` moves, the smallest string that
/// makes it, by brute force over all strings in (length, lexicographic) order.
fn smallest_strings(board: Board, start: usize, depth: usize) -> HashMap<Vec<u8>, Vec<Direction>> {
    let mut best = HashMap::new();
    let mut level: Vec<Vec<Direction>> = vec![Vec::new()];
    best.insert(apply(board, start, &[]).unwrap(), Vec::new());
    for _ in 0..depth {
        let mut next = Vec::new();
        for s in &level {
            for d in Direction::ALL {
                let mut t = s.clone();
                t.push(d);
                if let Some(b) = apply(board, start, &t) {
                    best.entry(b).or_insert_with(|| t.clone());
                    next.push(t);
                }
            }
        }
        level = next;
    }
    best
}

/// Runs the machine on `moves` from `start`: the index of the first forbidden move, if any.
fn first_forbidden(p: &Pruner, board: Board, start: usize, moves: &[Direction]) -> Option<usize> {
    let mut state = p.start(start as u8);
    let mut cell = start;
    for (i, &d) in moves.iter().enumerate() {
        let slot = board.neighbours(cell).position(|(x, _)| x == d).unwrap();
        state = p.step(state, slot);
        if state == FORBIDDEN {
            return Some(i);
        }
        cell = board.neighbour(cell, d).unwrap();
    }
    None
}

/// The machine checked on every string it lets through, up to `reach` moves from every cell.
fn check_machine(w: usize, h: usize, depth: u32, reach: usize) {
    let board = Board::new(w, h).unwrap();
    let p = Pruner::new(board, depth);
    let words = Pruner::forbidden_words(board, depth);
    assert_eq!(words.len(), p.words());
    assert!(!words.is_empty());
    for start in 0..board.cells() {
        let best = smallest_strings(board, start, reach);
        // Every word really has a strictly smaller equivalent, and the machine forbids its
        // last move (and no earlier one) from the word's start cell.
        for (_, word) in words.iter().filter(|(s, _)| *s == start) {
            assert!(word.len() <= depth as usize);
            let b = apply(board, start, word).expect("a word stays on the board");
            let smaller = &best[&b];
            assert!(
                order(smaller) < order(word),
                "{w}x{h} cell {start}: {word:?}"
            );
            assert_eq!(
                first_forbidden(&p, board, start, word),
                Some(word.len() - 1)
            );
        }
        // The smallest string of every board is never forbidden (so IDA* stays optimal).
        for s in best.values() {
            assert_eq!(first_forbidden(&p, board, start, s), None, "{w}x{h} {s:?}");
        }
        // Every move the machine forbids, on every string it lets through up to `reach`
        // moves, completes a string with a strictly smaller equivalent.
        let mut stack = vec![(p.start(start as u8), start, Vec::new())];
        let mut forbidden = 0usize;
        while let Some((state, cell, s)) = stack.pop() {
            for (slot, (d, to)) in board.neighbours(cell).enumerate() {
                let mut t = s.clone();
                t.push(d);
                let next = p.step(state, slot);
                if next == FORBIDDEN {
                    forbidden += 1;
                    let b = apply(board, start, &t).unwrap();
                    let smaller = best.get(&b).expect("its equivalent is no longer");
                    assert!(order(smaller) < order(&t), "{w}x{h} cell {start}: {t:?}");
                } else if t.len() < reach {
                    stack.push((next, to, t));
                }
            }
        }
        assert!(forbidden > 0);
    }
}

#[test]
fn machine_forbids_only_strings_with_smaller_equivalents() {
    check_machine(3, 3, 12, 14);
    check_machine(4, 2, 12, 13);
    check_machine(4, 3, 10, 11);
    check_machine(4, 4, 8, 10);
    check_machine(5, 5, 6, 7);
}

#[test]
fn machine_is_built_for_4x4_at_the_default_depth_and_5x5_through_the_cache() {
    // The 5x5 default (depth 18) takes half a minute and half a gigabyte to build: a
    // benchmark's build (`cargo test --release -p pdbsolver --test integration -- --ignored
    // machine_sizes`), not a test's. Depth 14 goes the same way through the cache.
    assert_eq!(default_depth(Board::new(5, 5).unwrap()), 18);
    for (w, h, depth) in [(4, 4, 12), (5, 5, 14)] {
        let board = Board::new(w, h).unwrap();
        assert!(depth >= pdbsolver::prune::cache::MIN_CACHED_DEPTH);
        // Through the cache, as a search gets it.
        let p = Pruner::shared(board, depth);
        assert_eq!(p.depth(), depth);
        assert!(p.words() > 0 && p.states() >= board.cells());
        // The machine prunes more with deeper words (as counted by its words).
        assert!(Pruner::new(board, depth - 2).words() < p.words());
    }
}

fn solve(h: &HeuristicChoice, p: &Puzzle, goal: &Goal, pruning: Pruning) -> Solution {
    let search = Search::new(Ida {
        pruning,
        ..Ida::default()
    });
    pdbsolver::solve(&search, h, p, goal).unwrap()
}

/// [`solve`], with the nodes of each iteration that ended without the goal, by its bound.
fn solve_by_bound(
    h: &HeuristicChoice,
    p: &Puzzle,
    goal: &Goal,
    pruning: Pruning,
) -> (Solution, BTreeMap<u32, u64>) {
    common::ida_by_bound(
        h,
        p,
        goal,
        Ida {
            pruning,
            ..Ida::default()
        },
    )
}

/// Every iteration that ended without the goal searched the whole tree within its bound, so
/// pruning (`on`) only takes nodes away from it. (The last iteration stops at the first solution
/// it meets, which pruning may have moved later in the visiting order.)
fn assert_no_more_nodes(on: &BTreeMap<u32, u64>, off: &BTreeMap<u32, u64>, p: &Puzzle) {
    for (bound, &n) in on {
        let m = off.get(bound).expect("the same bounds without pruning");
        assert!(n <= *m, "{p:#} bound {bound}: {n} > {m}");
    }
}

/// Every `step`-th position of the board, and every position at most 2 moves short of the
/// diameter (where a pruned optimal path would show first), solved with pruning at `depth`:
/// its BFS distance.
fn against_bfs(goal: Goal, depth: u32, step: usize) {
    let dist = all_distances(&goal);
    let deepest = dist
        .iter()
        .copied()
        .filter(|&d| d != u8::MAX)
        .max()
        .unwrap_or(0);
    let mut checked = 0;
    for (k, &d) in dist.iter().enumerate() {
        if d == u8::MAX || (k % step != 0 && d + 2 < deepest) {
            continue;
        }
        let p = puzzle_of_key(&goal, k);
        assert_eq!(distance_key(&p), k);
        let s = solve(
            &HeuristicChoice::LinearConflict,
            &p,
            &goal,
            Pruning::Depth(depth),
        );
        assert_eq!(s.moves.len(), d as usize, "{p:#}");
        assert!(s.optimal);
        checked += 1;
    }
    assert!(checked > 1000);
}

#[test]
fn lengths_equal_bfs_distances_on_3x3_both_goals() {
    let b = Board::new(3, 3).unwrap();
    against_bfs(Goal::blank_first(b), default_depth(b), 7);
    against_bfs(Goal::blank_last(b), 16, 11);
}

#[test]
fn lengths_equal_bfs_distances_on_2x4() {
    let b = Board::new(4, 2).unwrap();
    against_bfs(Goal::blank_first(b), default_depth(b), 1);
    against_bfs(Goal::blank_last(b), 16, 1);
}

#[test]
fn lengths_and_nodes_on_3x4_against_no_pruning() {
    let b = Board::new(4, 3).unwrap();
    let goal = Goal::blank_first(b);
    let mut rng = Rng::new(12);
    let mut pruned_fewer = 0;
    for _ in 0..150 {
        let p = common::random_solvable(&goal, &mut rng);
        let h = HeuristicChoice::LinearConflict;
        let (off, off_nodes) = solve_by_bound(&h, &p, &goal, Pruning::Off);
        for depth in [4, default_depth(b)] {
            let (on, on_nodes) = solve_by_bound(&h, &p, &goal, Pruning::Depth(depth));
            assert_eq!(on.moves.len(), off.moves.len(), "{p:#}");
            assert_no_more_nodes(&on_nodes, &off_nodes, &p);
            let fewer = on_nodes.values().sum::<u64>() < off_nodes.values().sum::<u64>();
            pruned_fewer += (fewer && depth == default_depth(b)) as u32;
        }
    }
    // And it does take nodes away (148 of the 150 at the default depth).
    assert!(pruned_fewer >= 140, "{pruned_fewer}");
}

#[test]
fn korf_instances_same_lengths_fewer_nodes() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let h = HeuristicChoice::Pdb {
        databases: vec![db663()],
        reflect: true,
    };
    let (mut on_total, mut off_total) = (0, 0);
    for (p, want) in korf100().into_iter().take(6) {
        let (off, off_nodes) = solve_by_bound(&h, &p, &goal, Pruning::Off);
        assert_eq!(off.moves.len(), want);
        for depth in [8, default_depth(goal.board()), 14] {
            let (on, on_nodes) = solve_by_bound(&h, &p, &goal, Pruning::Depth(depth));
            assert_eq!(on.moves.len(), off.moves.len(), "{p:#} depth {depth}");
            assert_no_more_nodes(&on_nodes, &off_nodes, &p);
            common::assert_replays(&p, &goal, &on);
            if depth == default_depth(goal.board()) {
                on_total += on.stats.nodes;
            }
        }
        off_total += off.stats.nodes;
    }
    // Deep words cut a real share of the nodes, not just the inverse move.
    assert!(on_total * 10 < off_total * 9, "{on_total} vs {off_total}");
}

/// Machine sizes and build times for `BENCHMARKS.md` (timing, so not run by default):
/// `cargo test --release -p pdbsolver --test integration -- --ignored --nocapture prune::`.
#[test]
#[ignore]
fn machine_sizes_and_build_times() {
    for (w, h) in [(3, 3), (4, 4), (5, 5)] {
        let board = Board::new(w, h).unwrap();
        let deepest = if w == 5 { 18 } else { 16 };
        for depth in (8..=deepest).step_by(2) {
            let t = std::time::Instant::now();
            let p = Pruner::new(board, depth);
            let secs = t.elapsed().as_secs_f64();
            eprintln!(
                "{w}x{h} depth {depth}: {} words, {} states, {} table bytes, {secs:.3} s",
                p.words(),
                p.states(),
                p.table_bytes()
            );
            // u16 entries (two bytes) while the states fit.
            if p.states() < u16::MAX as usize {
                assert_eq!(p.table_bytes(), (p.states() + 1) * 4 * 2);
            }
        }
    }
}

/// The SHA-256 (the cache file's trailing digest) of the cache file of every machine below, as
/// the straightforward builder of commit 2481b47 made them (a hash set of packed boards per
/// start cell, then Aho-Corasick, then Moore's rounds): width, height, depth, file bytes,
/// digest.
const MAIN_2481B47: [(usize, usize, u32, usize, &str); 12] = [
    (
        3,
        3,
        14,
        18404,
        "a3d877307ee8f6f1b4d2823b390dc0933425bc82eab7367d912df65b33bda977",
    ),
    (
        4,
        3,
        16,
        236464,
        "f751ed2e0a2eb51a2d9afb2a0659c34c19d0c547be26e459b76909bc03667e24",
    ),
    (
        4,
        4,
        12,
        93512,
        "b3c66057f0ff54cf904198e6ba567ac7a6a78ae38f7175b5858aa9688b7978e4",
    ),
    (
        4,
        4,
        14,
        305896,
        "e7eed4ef871e9e90a8aba085e40c0785b72dc52f1d6045875cc6171331c9ba58",
    ),
    (
        5,
        4,
        14,
        1473288,
        "8f08b36e679f6291698aaaae1b92c597af83b96fbd5e3eec23315807ba4dd880",
    ),
    (
        5,
        5,
        10,
        67740,
        "9a76dc484913ca4427e3519635e4c4b9c152da6320780ed2a87ffd750d5cc575",
    ),
    (
        5,
        5,
        12,
        331156,
        "dd245c408b95c308445b00142acfe9da44f9c43b06627629708e19c42d010ef8",
    ),
    (
        5,
        5,
        14,
        3194300,
        "69285e7e7dca3dbf9ea81000854ee66489728bf4472ba00436b22c1f9ed78165",
    ),
    (
        6,
        6,
        8,
        21024,
        "a100191e5a9b66f9d64a243139e55997064ea53fe1b9ae801b9ad8e8f3e94313",
    ),
    (
        4,
        4,
        16,
        2266552,
        "f6d8cd292fe56b4864fd352cf43ab7da93c09caddb79f575ecec867064e2ecc0",
    ),
    (
        5,
        5,
        16,
        14804332,
        "ab1029b530588b98b4c4ca909870a6c716b40f18ccd557b9d92cf004287588ab",
    ),
    (
        5,
        5,
        18,
        68823068,
        "2d0cade96f74847465b723669f721fee4e462cfd1879ffc5b2e9827a4de4e13e",
    ),
];

/// Builds the machines of [`MAIN_2481B47`] whose files have `min_bytes` to `max_bytes` bytes
/// and checks each byte for byte (the same states, word count, starts and transition table)
/// against the old builder's digest.
fn same_as_main(max_bytes: usize, min_bytes: usize) {
    let mut checked = 0;
    for &(w, h, depth, bytes, digest) in MAIN_2481B47
        .iter()
        .filter(|m| (min_bytes..=max_bytes).contains(&m.3))
    {
        let board = Board::new(w, h).unwrap();
        let p = Pruner::new(board, depth);
        let file = pdbsolver::prune::cache::encode(board, &p);
        assert_eq!(file.len(), bytes, "{w}x{h} depth {depth}");
        let hex: String = file[file.len() - 32..]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(hex, digest, "{w}x{h} depth {depth}");
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn machines_are_byte_for_byte_those_of_the_old_builder() {
    same_as_main(3_200_000, 0);
}

/// The deep 5×5 machines (seconds to a minute to build, so not run by default):
/// `cargo test --release -p pdbsolver --test integration -- --ignored deep_machines`.
#[test]
#[ignore]
fn deep_machines_are_byte_for_byte_those_of_the_old_builder() {
    same_as_main(usize::MAX, 3_200_001);
}
