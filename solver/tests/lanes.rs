//! IDA* as interleaved lanes (`Options::lanes`, `--lanes`): with any number of lanes every
//! iteration that ends without the goal generates the same nodes, and reaches the same next
//! bound, as the one recursive walk, and the solution has the BFS-exact length and replays.
//! Checked with byte and `bit1` pattern databases, a catalogue of two partitions (whose
//! `evaluate` keeps its lookups for `apply`), Manhattan distance and linear conflicts, in both
//! child orders; and `--lanes` on the command line.

mod common;

use common::{all_distances, assert_replays, distance_key, heuristics, random_solvable, Rng};
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::search::progress::{Event, Observer};
use pdbsolver::search::ChildOrder;
use pdbsolver::{Algorithm, HeuristicChoice, Options, Solution};
use std::sync::{Arc, Mutex};

/// Per finished (unsuccessful) iteration: its bound, nodes and next bound.
type Iterations = Vec<(u32, u64, u32)>;

/// Solves `p` with IDA* on `lanes` lanes in `order`; returns the solution and its iterations.
fn run(
    h: &HeuristicChoice,
    p: &Puzzle,
    goal: &Goal,
    order: ChildOrder,
    lanes: usize,
) -> (Solution, Iterations) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let e = events.clone();
    let opts = Options {
        order,
        lanes,
        observer: Some(Observer::new(move |ev| {
            if let Event::Iteration(it) = ev {
                e.lock().unwrap().push((it.bound, it.nodes, it.next_bound));
            }
        })),
        ..Options::default()
    };
    let s = pdbsolver::solve(Algorithm::Ida, h, p, goal, &opts)
        .unwrap_or_else(|e| panic!("{p:#}: {e}"));
    assert_replays(p, goal, &s);
    let its = events.lock().unwrap().clone();
    (s, its)
}

#[test]
fn lanes_generate_the_same_iterations_and_find_bfs_lengths() {
    let dir = tempfile::tempdir().unwrap();
    for goal in [
        Goal::blank_first(Board::new(3, 3).unwrap()),
        Goal::blank_last(Board::new(3, 3).unwrap()),
    ] {
        let dist = all_distances(&goal);
        let mut rng = Rng::new(0x1a7e_0001);
        let puzzles: Vec<Puzzle> = (0..16).map(|_| random_solvable(&goal, &mut rng)).collect();
        for (name, h) in heuristics(dir.path(), &goal) {
            for order in [ChildOrder::Estimate, ChildOrder::Moves] {
                for p in &puzzles {
                    let want = dist[distance_key(p)] as usize;
                    let (one, one_its) = run(&h, p, &goal, order, 1);
                    assert_eq!(one.len(), want, "{name}, {p:#}, one lane");
                    for lanes in [2, 3, 4, 6, 16] {
                        let what = format!("{name}, {p:#}, {lanes} lanes, {}", order.name());
                        let (s, its) = run(&h, p, &goal, order, lanes);
                        assert_eq!(s.len(), want, "{what}");
                        assert_eq!(its, one_its, "{what}");
                        assert_eq!(s.stats.iterations, one.stats.iterations, "{what}");
                    }
                }
            }
        }
    }
}
