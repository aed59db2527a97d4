//! `hybrid` with the duplicate-move machine carried into its frontier nodes: optimal lengths
//! (a sample of every 3x3 position against the oracle, Korf's first 15-puzzles with the 6-6-3
//! database, 5x5 walks against `ida`), and every completed iteration generating no more nodes
//! than `ida`'s iteration of the same bound: the IDA* phase searches a part of `ida`'s tree.

use crate::common;

use common::{
    assert_replays, db663, every_position, ida_by_bound, korf100, random_walk, Rng, Settings,
};
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::{AlgorithmName, HeuristicChoice, Pruning, Solution};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// `hybrid` of `p` with an A* budget of `budget` positions: the solution (checked to replay)
/// and the nodes of each iteration that ended without the goal, by its bound.
fn hybrid_by_bound(
    h: &HeuristicChoice,
    p: &Puzzle,
    goal: &Goal,
    budget: u64,
    threads: usize,
    pruning: Pruning,
) -> (Solution, BTreeMap<u32, u64>) {
    let done = Arc::new(Mutex::new(BTreeMap::new()));
    let d = done.clone();
    let o = Settings {
        hybrid_nodes: Some(budget),
        threads,
        pruning,
        observer: Some(pdbsolver::Observer::new(move |e| {
            if let pdbsolver::Event::Iteration(it) = e {
                d.lock().unwrap().insert(it.bound, it.nodes);
            }
        })),
        ..Settings::default()
    };
    let s = pdbsolver::solve(&o.search(AlgorithmName::Hybrid), h, p, goal)
        .unwrap_or_else(|e| panic!("hybrid on {p:#}: {e}"));
    assert_replays(p, goal, &s);
    assert!(s.optimal);
    let by_bound = done.lock().unwrap().clone();
    (s, by_bound)
}

/// Asserts that every iteration `hybrid` completed generated at most the nodes of `ida`'s
/// iteration with the same bound (`ida` completed every bound below the optimal length).
fn within_ida(what: &str, hybrid: &BTreeMap<u32, u64>, ida: &BTreeMap<u32, u64>) {
    for (bound, &nodes) in hybrid {
        let theirs = ida.get(bound).copied().unwrap_or_else(|| {
            panic!("{what}: hybrid completed bound {bound}, ida did not ({ida:?})")
        });
        assert!(
            nodes <= theirs,
            "{what}: bound {bound}: hybrid {nodes} nodes, ida {theirs}"
        );
    }
}

fn ida_settings(pruning: Pruning) -> pdbsolver::Ida {
    pdbsolver::Ida {
        pruning,
        ..Default::default()
    }
}

#[test]
fn optimal_on_a_sample_of_every_3x3_position() {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let h = HeuristicChoice::Manhattan;
    let all = every_position(&goal);
    let mut checked = 0;
    for (i, (p, want)) in all.iter().enumerate().step_by(181) {
        let budget = [10, 60, 400][i % 3];
        let (s, by) = hybrid_by_bound(&h, p, &goal, budget, 1, Pruning::BoardDefault);
        assert_eq!(s.len(), *want as usize, "{p:#}: budget {budget}");
        if *want > 14 && i % 7 == 0 {
            let (_, ida) = ida_by_bound(&h, p, &goal, ida_settings(Pruning::BoardDefault));
            within_ida(&format!("{p:#}"), &by, &ida);
        }
        checked += 1;
    }
    assert!(checked >= 1000, "{checked} positions");
}

#[test]
fn korfs_first_15_puzzles_with_the_663_database() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let h = HeuristicChoice::Pdb {
        databases: vec![db663()],
        reflect: true,
    };
    for (i, (p, want)) in korf100().into_iter().take(4).enumerate() {
        let (_, ida) = ida_by_bound(&h, &p, &goal, ida_settings(Pruning::BoardDefault));
        for (budget, threads) in [(2_000, 1), (40_000, 1), (20_000, 2)] {
            let what = format!("instance {}: budget {budget}, {threads} threads", i + 1);
            let (s, by) = hybrid_by_bound(&h, &p, &goal, budget, threads, Pruning::BoardDefault);
            assert_eq!(s.len(), want, "{what}");
            within_ida(&what, &by, &ida);
            if !s.stats.detail.starts_with("A* only") {
                assert!(
                    s.stats.iterations as usize > by.len(),
                    "{what}: {:?}",
                    s.stats
                );
            }
        }
    }
}

#[test]
fn same_lengths_as_ida_on_5x5_walks() {
    let goal = Goal::blank_first(Board::new(5, 5).unwrap());
    let h = HeuristicChoice::LinearConflict;
    let pruning = Pruning::Depth(10);
    let mut rng = Rng::new(0x4b1d_0003);
    for i in 0..6 {
        let p = random_walk(&goal, 30 + 4 * i, &mut rng);
        let (want, ida) = ida_by_bound(&h, &p, &goal, ida_settings(pruning));
        for (budget, threads) in [(300, 1), (5_000, 2)] {
            let what = format!("{p:#}: budget {budget}, {threads} threads");
            let (s, by) = hybrid_by_bound(&h, &p, &goal, budget, threads, pruning);
            assert_eq!(s.len(), want.len(), "{what}");
            if threads == 1 {
                within_ida(&what, &by, &ida);
            }
        }
    }
}
