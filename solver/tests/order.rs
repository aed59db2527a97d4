//! The order of a node's children (the move table's, the blank towards its goal corner first,
//! and near the start the order learned from the earlier iterations), with every child's
//! estimate looked up before the first is made: IDA* finds solutions of the BFS-exact length,
//! every completed iteration visits the same nodes in the learned order as in the fixed one,
//! and `parallel-ida` on one thread retraces `ida` node for node. Checked
//! with byte and `bit1` pattern databases and a catalogue of two partitions (the heuristic
//! whose `evaluate` keeps its lookups for `apply`), Manhattan distance, and linear conflicts
//! (the general `evaluate`).

use crate::common;

use common::{
    all_distances, assert_replays, both_goals, distance_key, heuristics, random_solvable, solve_as,
    Rng, Settings,
};
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::{AlgorithmName, HeuristicChoice, Ida, Solution};

/// Solves `p` with `alg` on `threads` threads.
fn run(
    alg: AlgorithmName,
    h: &HeuristicChoice,
    p: &Puzzle,
    goal: &Goal,
    threads: usize,
) -> Solution {
    let opts = Settings {
        threads,
        ..Settings::default()
    };
    let s = solve_as(alg, h, p, goal, &opts).unwrap_or_else(|e| panic!("{p:#}: {e}"));
    assert_replays(p, goal, &s);
    s
}

#[test]
fn visiting_order_finds_bfs_lengths_for_both_goals() {
    // The blank's goal in the top-left and in the bottom-right corner: the two ends of the
    // visiting order's flips.
    for goal in both_goals(Board::new(3, 3).unwrap()) {
        let dir = tempfile::tempdir().unwrap();
        let dist = all_distances(&goal);
        let mut rng = Rng::new(0x0bde_5eed);
        let puzzles: Vec<Puzzle> = (0..40).map(|_| random_solvable(&goal, &mut rng)).collect();
        for (name, h) in heuristics(dir.path(), &goal) {
            for p in &puzzles {
                let want = dist[distance_key(p)] as usize;
                let e = run(AlgorithmName::Ida, &h, p, &goal, 0);
                assert_eq!(e.len(), want, "{name}, {p:#}");
            }
        }
    }
}

#[test]
fn one_thread_of_parallel_ida_retraces_ida() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let mut rng = Rng::new(0x0bde_0001);
    let puzzles: Vec<Puzzle> = (0..12).map(|_| random_solvable(&goal, &mut rng)).collect();
    for (name, h) in heuristics(dir.path(), &goal) {
        for p in &puzzles {
            let ida = run(AlgorithmName::Ida, &h, p, &goal, 0);
            let par = run(AlgorithmName::ParallelIda, &h, p, &goal, 1);
            let what = format!("{name}, {p:#}");
            assert_eq!(par.moves, ida.moves, "{what}");
            assert_eq!(par.stats.nodes, ida.stats.nodes, "{what}");
            assert_eq!(par.stats.expanded, ida.stats.expanded, "{what}");
            assert_eq!(par.stats.iterations, ida.stats.iterations, "{what}");
        }
    }
}

#[test]
fn the_learned_order_changes_only_the_last_iteration() {
    for goal in both_goals(Board::new(3, 3).unwrap()) {
        let dir = tempfile::tempdir().unwrap();
        let dist = all_distances(&goal);
        let mut rng = Rng::new(0x0bde_0002);
        let mut differed = 0;
        for (name, h) in heuristics(dir.path(), &goal) {
            for _ in 0..10 {
                let p = random_solvable(&goal, &mut rng);
                // IDA* of `p`, resumable (the fixed order) or not (the learned order), with
                // the nodes of each completed iteration.
                let by_iteration = |resumable| {
                    common::ida_by_bound(
                        &h,
                        &p,
                        &goal,
                        Ida {
                            resumable,
                            ..Ida::default()
                        },
                    )
                };
                let (fixed, fixed_its) = by_iteration(true);
                let (learned, learned_its) = by_iteration(false);
                let what = format!("{name}, {p:#}");
                assert_eq!(learned.len(), dist[distance_key(&p)] as usize, "{what}");
                assert_eq!(fixed.len(), learned.len(), "{what}");
                // The same bounds, and the same nodes in every iteration that ended without
                // the goal: an order changes where the last one meets it, nothing else.
                assert_eq!(learned_its, fixed_its, "{what}");
                differed += (learned.stats.nodes != fixed.stats.nodes) as u32;
            }
        }
        // The order is in use: some last iterations end elsewhere.
        assert!(differed > 0, "{goal}");
    }
}
