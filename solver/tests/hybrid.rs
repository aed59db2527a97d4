//! `hybrid` (A*+IDA*): optimal lengths against the brute-force oracle of whole positions on
//! the 3x3 and against `ida` on 4x4 walks, over A* budgets small enough that the IDA* phase
//! runs from a frontier (its order learned from iteration to iteration) and thread counts.

use crate::common;

use common::{assert_replays, random_solvable, random_walk, solve_as, Rng, Settings};
use pdbformat::testkit::PositionDistances;
use pdbformat::{Board, Goal, Metric, Puzzle};
use pdbsolver::{AlgorithmName, HeuristicChoice, Solution};

fn hybrid(p: &Puzzle, goal: &Goal, h: &HeuristicChoice, budget: u64, threads: usize) -> Solution {
    let o = Settings {
        hybrid_nodes: Some(budget),
        threads,
        ..Settings::default()
    };
    let r = solve_as(AlgorithmName::Hybrid, h, p, goal, &o)
        .unwrap_or_else(|e| panic!("hybrid on {p:#}: {e}"));
    assert_replays(p, goal, &r);
    assert!(r.optimal);
    r
}

#[test]
fn optimal_on_random_3x3_against_the_oracle() {
    for goal in [
        Goal::blank_first(Board::new(3, 3).unwrap()),
        Goal::blank_last(Board::new(3, 3).unwrap()),
    ] {
        let oracle = PositionDistances::new(&goal, Metric::Stm);
        let mut rng = Rng::new(0x4b1d_0001);
        for i in 0..40 {
            let p = random_solvable(&goal, &mut rng);
            let tiles: Vec<u8> = p.tiles().iter().map(|&t| t as u8).collect();
            let want = oracle.distance(&tiles).expect("a solvable position") as usize;
            let (budget, threads) = [(20, 1), (200, 2), (2, 3)][i % 3];
            for h in [HeuristicChoice::Manhattan, HeuristicChoice::LinearConflict] {
                let r = hybrid(&p, &goal, &h, budget, threads);
                assert_eq!(r.len(), want, "{p:#}: budget {budget}, {threads} threads");
            }
        }
    }
}

#[test]
fn same_lengths_as_ida_on_4x4_walks() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let mut rng = Rng::new(0x4b1d_0002);
    let h = HeuristicChoice::LinearConflict;
    for i in 0..10 {
        let p = random_walk(&goal, 36 + 3 * i, &mut rng);
        let want = solve_as(AlgorithmName::Ida, &h, &p, &goal, &Settings::default())
            .expect("ida solves it")
            .len();
        for (budget, threads) in [(100, 1), (3_000, 2)] {
            let r = hybrid(&p, &goal, &h, budget, threads);
            assert_eq!(r.len(), want, "{p:#}: budget {budget}, {threads} threads");
            if !r.stats.detail.starts_with("A* only") {
                assert!(r.stats.iterations >= 1, "{:?}", r.stats);
            }
        }
    }
}
