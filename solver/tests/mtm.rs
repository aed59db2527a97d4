//! The multi-tile metric (MTM) checked against the brute-force oracle of whole positions
//! (`pdbformat::testkit::PositionDistances`): on the 3×3, for every one of the 181,440
//! positions of both goal conventions, the MTM walking distance never exceeds the exact MTM
//! distance, and MTM IDA* returns exactly it on the deepest positions and every ninth of the
//! others (each solution replayed to the goal, its length the number of runs of one direction); MTM BFS on a fixed-seed sample; parallel MTM IDA* against
//! serial on 4×4 positions; and the refusals (algorithms without an MTM form, heuristics that
//! are not MTM lower bounds).

use crate::common;

use common::{assert_replays, both_goals, random_walk, Rng};
use pdbformat::testkit::PositionDistances;
use pdbformat::{Board, Goal, Metric, Puzzle};
use pdbsolver::heuristic::{Heuristic, WalkingDistance, MAX_CELLS};
use pdbsolver::{
    mtm_length, solve, AlgorithmName, HeuristicChoice, ParallelIda, Request, Search, SolveError,
};

fn b33() -> Board {
    Board::new(3, 3).unwrap()
}

fn mtm(algorithm: impl Into<pdbsolver::Algorithm>) -> Search {
    Search {
        metric: Metric::Mtm,
        ..Search::new(algorithm)
    }
}

fn array(tiles: &[u8]) -> [u8; MAX_CELLS] {
    let mut a = [0u8; MAX_CELLS];
    a[..tiles.len()].copy_from_slice(tiles);
    a
}

fn puzzle(board: Board, tiles: &[u8]) -> Puzzle {
    let t: Vec<u16> = tiles.iter().map(|&t| t as u16).collect();
    Puzzle::new(board, &t).unwrap()
}

/// Checks an MTM solution: replayed to the goal, its length the runs of its steps, and no two
/// consecutive moves on one line (an optimal solution never has them).
fn assert_mtm_solution(p: &Puzzle, goal: &Goal, s: &pdbsolver::Solution) {
    assert_replays(p, goal, s);
    assert_eq!(s.metric, Metric::Mtm);
    assert_eq!(s.len(), mtm_length(&s.moves));
    let runs: Vec<_> = (s.moves.iter().enumerate())
        .filter(|&(i, d)| i == 0 || s.moves[i - 1] != *d)
        .map(|(_, d)| *d)
        .collect();
    for w in runs.windows(2) {
        assert_ne!(w[0].opposite(), w[1], "a move straight back in {p:#}");
    }
}

#[test]
fn walking_distance_never_exceeds_the_mtm_distance_on_any_3x3_position() {
    for goal in both_goals(b33()) {
        let oracle = PositionDistances::new(&goal, Metric::Mtm);
        assert_eq!((oracle.reachable(), oracle.max()), (181_440, 24));
        let wd = WalkingDistance::new(&goal).unwrap();
        let mut best = 0;
        for (tiles, d) in oracle.iter() {
            let h = wd.value(&wd.init(&array(tiles)));
            assert!(h <= d as u32, "{tiles:?}: walking distance {h} > {d}");
            assert_eq!(h == 0, d == 0, "{tiles:?}");
            best = best.max(h);
        }
        assert!(best >= 12, "a heuristic that says something ({best})");
    }
}

#[test]
fn mtm_ida_is_exact_on_the_deepest_3x3_positions_and_every_ninth() {
    for goal in both_goals(b33()) {
        let oracle = PositionDistances::new(&goal, Metric::Mtm);
        let search = mtm(AlgorithmName::Ida);
        // Every position at most 2 moves short of the diameter (where the search does the
        // most), and every ninth of the others.
        // In the order of the positions (the oracle's own order changes from run to run).
        let deepest = oracle.max();
        let mut every: Vec<(&[u8], u8)> = oracle.iter().collect();
        every.sort_unstable();
        let all: Vec<(&[u8], u8)> = (every.into_iter().enumerate())
            .filter(|&(i, (_, d))| i % 9 == 0 || d + 2 >= deepest)
            .map(|(_, s)| s)
            .collect();
        // Two threads: the whole board, every position, in half the time.
        std::thread::scope(|s| {
            for half in all.chunks(all.len().div_ceil(2)) {
                let (search, goal) = (&search, &goal);
                s.spawn(move || {
                    for &(tiles, d) in half {
                        let p = puzzle(b33(), tiles);
                        let sol = solve(search, &HeuristicChoice::WalkingDistance, &p, goal)
                            .unwrap_or_else(|e| panic!("{p:#}: {e}"));
                        assert_eq!(sol.len(), d as usize, "{p:#}");
                        assert_eq!(sol.stats.lower_bound, d as u32);
                        assert_mtm_solution(&p, goal, &sol);
                    }
                });
            }
        });
    }
}

#[test]
fn mtm_bfs_equals_the_oracle_on_a_sample() {
    let goal = Goal::blank_last(b33());
    let oracle = PositionDistances::new(&goal, Metric::Mtm);
    let mut all: Vec<(&[u8], u8)> = oracle.iter().collect();
    all.sort();
    let mut rng = Rng::new(0x5eed);
    let deepest = all.iter().filter(|(_, d)| *d == 24).take(3);
    let sample: Vec<_> = (0..40).map(|_| &all[rng.below(all.len())]).collect();
    for &(tiles, d) in deepest.chain(sample) {
        let p = puzzle(b33(), tiles);
        let sol = solve(
            &mtm(AlgorithmName::Bfs),
            &HeuristicChoice::Manhattan,
            &p,
            &goal,
        )
        .unwrap();
        assert_eq!(sol.len(), d as usize, "{p:#}");
        assert_mtm_solution(&p, &goal, &sol);
    }
}

#[test]
fn parallel_mtm_ida_agrees_with_serial_on_4x4_positions() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let mut rng = Rng::new(0x4b4b);
    for steps in [4, 20, 40, 60, 60, 80] {
        let p = random_walk(&goal, steps, &mut rng);
        let wd = HeuristicChoice::WalkingDistance;
        let serial = solve(&mtm(AlgorithmName::Ida), &wd, &p, &goal).unwrap();
        let parallel = solve(
            &mtm(ParallelIda {
                threads: 3,
                ..ParallelIda::default()
            }),
            &wd,
            &p,
            &goal,
        )
        .unwrap();
        assert_eq!(serial.len(), parallel.len(), "{p:#}");
        assert_mtm_solution(&p, &goal, &serial);
        assert_mtm_solution(&p, &goal, &parallel);
        assert_eq!(parallel.stats.per_thread.len(), 3);
        // Never longer than the single-tile optimum's moves.
        assert!(serial.len() <= serial.moves.len());
    }
}

#[test]
fn known_4x4_mtm_lengths() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    // The blank three cells right of its goal: one move of three tiles.
    let one = Puzzle::parse("1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15", None).unwrap();
    // Three right, then three down: two moves of six single steps.
    let two = Puzzle::parse("1 2 3 7 4 5 6 11 8 9 10 15 12 13 14 0", None).unwrap();
    for (p, length, steps) in [(one, 1, 3), (two, 2, 6)] {
        for search in [mtm(AlgorithmName::Ida), mtm(AlgorithmName::ParallelIda)] {
            let s = solve(&search, &HeuristicChoice::WalkingDistance, &p, &goal).unwrap();
            assert_mtm_solution(&p, &goal, &s);
            assert_eq!((s.len(), s.moves.len()), (length, steps), "{p:#}");
        }
    }
}

#[test]
fn algorithms_and_heuristics_without_an_mtm_form_are_refused() {
    let goal = Goal::blank_last(b33());
    let p = Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    for a in [
        AlgorithmName::AStar,
        AlgorithmName::Hybrid,
        AlgorithmName::Weighted,
        AlgorithmName::Dfs,
        AlgorithmName::Strategic,
    ] {
        let e = solve(&mtm(a), &HeuristicChoice::WalkingDistance, &p, &goal).unwrap_err();
        assert!(matches!(e, SolveError::Refused(_)), "{a}: {e}");
        assert!(e.to_string().contains("multi-tile"), "{e}");
    }
    for h in [
        HeuristicChoice::Manhattan,
        HeuristicChoice::LinearConflict,
        HeuristicChoice::Hamming,
    ] {
        let e = solve(&mtm(AlgorithmName::Ida), &h, &p, &goal).unwrap_err();
        assert!(e.to_string().contains("walking-distance"), "{e}");
    }
    // The single-tile metric stays the default, its answer unchanged.
    let stm = solve(
        &Search::default(),
        &HeuristicChoice::LinearConflict,
        &p,
        &goal,
    )
    .unwrap();
    assert_eq!((stm.metric, stm.len()), (Metric::Stm, 31));
}

#[test]
fn the_request_key_metric_reaches_the_search() {
    let mut r = Request::default();
    assert_eq!(r.resolve().unwrap().metric, Metric::Stm);
    r.set("metric", "MTM").unwrap();
    assert_eq!(r.resolve().unwrap().metric, Metric::Mtm);
    let e = r.set("metric", "qtm").unwrap_err();
    assert!(e.to_string().contains("stm or mtm"), "{e}");
}
