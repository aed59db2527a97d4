//! The algorithms behind `pdbsolver::solve`: optimal ones agree with each other and with exhaustive
//! distances on rectangular boards and both goal conventions; non-optimal ones return move
//! sequences that replay to the goal; limits (nodes, time, memory) stop every search cleanly;
//! the strategy solves large boards; the heuristics keep the promises bucket queues rely on.

use crate::common;

use common::{
    all_distances, both_goals, distance_key, random_solvable, random_walk, solve_as, write_db, Rng,
    Settings,
};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::heuristic::{
    Hamming, Heuristic, LinearConflict, Manhattan, PdbHeuristic, StepChange,
};
use pdbsolver::heuristic::{MoveTable, Position};
use pdbsolver::{AlgorithmName, Limits, Solution, SolveError, Stats, Stop};
use pdbsolver::{Database, HeuristicChoice, OpenOptions};
use std::path::Path;
use std::sync::Arc;

const OPTIMAL: [AlgorithmName; 4] = [
    AlgorithmName::Ida,
    AlgorithmName::AStar,
    AlgorithmName::Hybrid,
    AlgorithmName::ParallelIda,
];

fn board(w: usize, h: usize) -> Board {
    Board::new(w, h).unwrap()
}

/// Korf's first 15-puzzle instance and its goal (blank first).
fn korf1() -> (Goal, Puzzle) {
    let goal = Goal::blank_first(board(4, 4));
    (goal, Puzzle::parse(KORF1, None).unwrap())
}

/// Settings that make every phase run even on small boards: a tiny hybrid budget (so that
/// IDA* runs from A*'s frontier) and three threads.
fn opts() -> Settings {
    Settings {
        hybrid_nodes: Some(50),
        threads: 3,
        ..Settings::default()
    }
}

/// Plays the moves independently of the library and checks that they reach the goal.
fn check_replay(p: &Puzzle, goal: &Goal, r: &Solution) {
    let mut q = p.clone();
    for (&d, &t) in r.moves.iter().zip(&r.tiles_moved) {
        assert_eq!(
            q.apply(d),
            Some(t as usize),
            "{}: a move off the board",
            r.algorithm
        );
    }
    assert!(q.is_goal(goal), "{}: moves miss the goal", r.algorithm);
    assert_eq!(r.moves.len(), r.tiles_moved.len());
}

fn solve(alg: AlgorithmName, h: &HeuristicChoice, p: &Puzzle, g: &Goal, o: &Settings) -> Solution {
    let r = solve_as(alg, h, p, g, o).unwrap_or_else(|e| panic!("{alg} on {p:#}: {e}"));
    check_replay(p, g, &r);
    r
}

fn open(path: &Path) -> Arc<Database> {
    Arc::new(Database::open(path, OpenOptions::default()).unwrap())
}

/// A zero-aware (or zero-unaware) brute-force database of `patterns` for `goal`.
fn pdb(
    dir: &Path,
    name: &str,
    goal: &Goal,
    patterns: &[&[usize]],
    kind: TableKind,
) -> HeuristicChoice {
    let path = dir.join(name);
    write_db(&path, goal, patterns, kind);
    HeuristicChoice::Pdb {
        databases: vec![open(&path)],
        reflect: true,
    }
}

#[test]
fn optimal_algorithms_match_exhaustive_distances_on_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(0x5eed_0001);
    for (w, h) in [(3, 3), (2, 4), (4, 2)] {
        let b = board(w, h);
        for (gi, goal) in both_goals(b).iter().enumerate() {
            let dist = all_distances(goal);
            let n = b.cells();
            let split: Vec<usize> = (1..n).collect();
            let (p1, p2) = split.split_at(n / 2);
            let mut heuristics = vec![
                HeuristicChoice::Manhattan,
                HeuristicChoice::LinearConflict,
                pdb(
                    dir.path(),
                    &format!("za{w}{h}{gi}.pdb"),
                    goal,
                    &[p1, p2],
                    TableKind::ZeroAware,
                ),
                pdb(
                    dir.path(),
                    &format!("zu{w}{h}{gi}.pdb"),
                    goal,
                    &[p1, p2],
                    TableKind::ZeroUnaware,
                ),
            ];
            if n == 9 {
                heuristics.push(HeuristicChoice::Hamming);
            }
            for _ in 0..4 {
                let p = random_solvable(goal, &mut rng);
                let want = dist[distance_key(&p)] as usize;
                let r = solve(
                    AlgorithmName::Bfs,
                    &HeuristicChoice::Manhattan,
                    &p,
                    goal,
                    &opts(),
                );
                assert_eq!(r.len(), want, "bfs {b} {goal} {p:#}");
                for h in &heuristics {
                    for alg in OPTIMAL {
                        let r = solve(alg, h, &p, goal, &opts());
                        assert_eq!(r.len(), want, "{alg} {:?} {b} {goal} {p:#}", h.name());
                        assert!(r.optimal);
                    }
                }
            }
        }
    }
}

#[test]
fn optimal_algorithms_agree_on_3x4_and_4x3() {
    let mut rng = Rng::new(0x5eed_0002);
    for (w, h) in [(3, 4), (4, 3)] {
        let b = board(w, h);
        for goal in both_goals(b) {
            let puzzles = [
                random_walk(&goal, 60, &mut rng),
                random_walk(&goal, 200, &mut rng),
                random_solvable(&goal, &mut rng),
            ];
            for p in &puzzles {
                let want = solve(
                    AlgorithmName::Ida,
                    &HeuristicChoice::LinearConflict,
                    p,
                    &goal,
                    &opts(),
                )
                .len();
                for hc in [HeuristicChoice::Manhattan, HeuristicChoice::LinearConflict] {
                    for alg in OPTIMAL {
                        let o = Settings {
                            hybrid_nodes: Some(2_000),
                            ..opts()
                        };
                        let r = solve(alg, &hc, p, &goal, &o);
                        assert_eq!(r.len(), want, "{alg} {:?} {b} {goal} {p:#}", hc.name());
                    }
                }
            }
        }
    }
}

#[test]
fn optimal_algorithms_agree_on_4x4_with_databases() {
    let dir = tempfile::tempdir().unwrap();
    let b = board(4, 4);
    let mut rng = Rng::new(0x5eed_0003);
    for goal in both_goals(b) {
        // Tiles 1-3, 4-7, 8-11, 12-15: rows for blank-first, shifted ones for blank-last.
        let pats: [&[usize]; 4] = [
            &[1, 2, 3],
            &[4, 5, 6, 7],
            &[8, 9, 10, 11],
            &[12, 13, 14, 15],
        ];
        let h = pdb(
            dir.path(),
            &format!("rows{}.pdb", goal.blank_cell()),
            &goal,
            &pats,
            TableKind::ZeroAware,
        );
        for steps in [30, 45] {
            let p = random_walk(&goal, steps, &mut rng);
            let want = solve(AlgorithmName::Ida, &h, &p, &goal, &opts()).len();
            for alg in OPTIMAL {
                let o = Settings {
                    hybrid_nodes: Some(5_000),
                    ..opts()
                };
                assert_eq!(
                    solve(alg, &h, &p, &goal, &o).len(),
                    want,
                    "{alg} {goal} {p:#}"
                );
            }
            let r = solve(
                AlgorithmName::Ida,
                &HeuristicChoice::LinearConflict,
                &p,
                &goal,
                &opts(),
            );
            assert_eq!(r.len(), want);
        }
    }
}

#[test]
fn each_heuristic_gets_the_open_list_its_promise_allows_with_the_same_length() {
    let mut rng = Rng::new(0x5eed_0004);
    let b = board(3, 3);
    for goal in both_goals(b) {
        for _ in 0..5 {
            let p = random_solvable(&goal, &mut rng);
            let want = solve(
                AlgorithmName::Ida,
                &HeuristicChoice::Manhattan,
                &p,
                &goal,
                &opts(),
            )
            .len();
            // Exactly 1 per move, at most 1, no promise (`StepChange`).
            for (h, queue) in [
                (HeuristicChoice::Manhattan, "two-bucket queue"),
                (HeuristicChoice::Hamming, "bucket queue"),
                (HeuristicChoice::LinearConflict, "binary heap"),
            ] {
                let r = solve(AlgorithmName::AStar, &h, &p, &goal, &opts());
                assert_eq!(r.len(), want, "{queue}");
                assert_eq!(r.stats.detail, queue);
                let r = solve(AlgorithmName::Hybrid, &h, &p, &goal, &opts());
                assert_eq!(r.len(), want, "hybrid {queue}");
                assert!(r.stats.detail.contains(queue), "{}", r.stats.detail);
            }
        }
    }
}

/// Walks randomly and checks every move's change of the estimate against the promise.
fn check_promise<H: Heuristic>(h: &H, goal: &Goal, seed: u64) -> StepChange {
    let b = goal.board();
    let moves = MoveTable::new(b);
    let mut s = Position::from_tiles(goal.tiles()).unwrap();
    let mut rng = Rng::new(seed);
    let mut prev = h.value(&h.init(&s.tiles));
    let mut seen = StepChange::ExactlyOne;
    for _ in 0..20_000 {
        let t = moves.targets(s.blank);
        s.slide(t[rng.below(t.len())]);
        let v = h.value(&h.init(&s.tiles));
        let d = v.abs_diff(prev);
        let here = match d {
            1 => StepChange::ExactlyOne,
            0 => StepChange::AtMostOne,
            _ => StepChange::Any,
        };
        seen = seen.min(here);
        prev = v;
    }
    assert!(
        seen >= h.step_change(),
        "promised {:?}, saw {seen:?}",
        h.step_change()
    );
    seen
}

#[test]
fn heuristics_keep_their_step_promises() {
    let dir = tempfile::tempdir().unwrap();
    for (w, hh) in [(3, 3), (4, 3), (4, 4)] {
        let b = board(w, hh);
        for goal in both_goals(b) {
            assert_eq!(Manhattan::new(&goal).step_change(), StepChange::ExactlyOne);
            assert_eq!(
                check_promise(&Manhattan::new(&goal), &goal, 1),
                StepChange::ExactlyOne
            );
            assert_eq!(Hamming::new(&goal).step_change(), StepChange::AtMostOne);
            check_promise(&Hamming::new(&goal), &goal, 2);
            // Linear conflict promises nothing (as counted here, by longest increasing
            // subsequences, it is seen to change by 1; counted by conflicting pairs it jumps).
            assert_eq!(LinearConflict::new(&goal).step_change(), StepChange::Any);
            check_promise(&LinearConflict::new(&goal), &goal, 3);
        }
    }
    // Databases on 3x3: zero-aware tables covering every tile, alone, change by exactly 1;
    // with the reflected view, or covering only some tiles, by at most 1; zero-unaware ones
    // promise nothing (and do jump).
    let b = board(3, 3);
    for goal in both_goals(b) {
        let all: Vec<usize> = (1..9).collect();
        let (a, z) = all.split_at(4);
        let za = dir.path().join(format!("za{}.pdb", goal.blank_cell()));
        write_db(&za, &goal, &[a, z], TableKind::ZeroAware);
        let part = dir.path().join(format!("part{}.pdb", goal.blank_cell()));
        write_db(&part, &goal, &[a], TableKind::ZeroAware);
        let zu = dir.path().join(format!("zu{}.pdb", goal.blank_cell()));
        write_db(&zu, &goal, &[a, z], TableKind::ZeroUnaware);
        let cases = [
            (&za, false, StepChange::ExactlyOne),
            (&za, true, StepChange::AtMostOne),
            (&part, false, StepChange::AtMostOne),
            (&zu, false, StepChange::Any),
        ];
        for (path, reflect, want) in cases {
            let h = PdbHeuristic::new(&[open(path)], &goal, reflect).unwrap();
            assert_eq!(
                h.step_change(),
                want,
                "{} reflect {reflect}",
                path.display()
            );
            check_promise(&h, &goal, 4);
        }
        let h = PdbHeuristic::new(&[open(&zu)], &goal, false).unwrap();
        assert_eq!(check_promise(&h, &goal, 5), StepChange::Any);
    }
}

#[test]
fn non_optimal_algorithms_return_valid_sequences() {
    let mut rng = Rng::new(0x5eed_0005);
    for (w, h) in [(3, 3), (2, 4), (4, 2), (3, 4), (4, 3), (4, 4), (5, 5)] {
        let b = board(w, h);
        for goal in both_goals(b) {
            let dist = (b.cells() <= 9).then(|| all_distances(&goal));
            for _ in 0..2 {
                let p = random_solvable(&goal, &mut rng);
                let optimum = dist.as_ref().map(|d| d[distance_key(&p)] as usize);
                let mut runs = Vec::new();
                // Small weights take long and much memory beyond 12 cells.
                let weights: &[f64] = if b.cells() <= 12 {
                    &[1.5, 3.0, f64::INFINITY]
                } else {
                    &[5.0, f64::INFINITY]
                };
                for &weight in weights {
                    let o = Settings {
                        weight: Some(weight),
                        ..opts()
                    };
                    let r = solve(
                        AlgorithmName::Weighted,
                        &HeuristicChoice::Manhattan,
                        &p,
                        &goal,
                        &o,
                    );
                    // Manhattan is consistent: weighted A* stays within w of the optimum.
                    if let (Some(opt), true) = (optimum, weight.is_finite()) {
                        assert!(r.len() as f64 <= weight * opt as f64 + 1e-9, "w {weight}");
                    }
                    runs.push(r);
                }
                runs.push(solve(
                    AlgorithmName::Strategic,
                    &HeuristicChoice::Manhattan,
                    &p,
                    &goal,
                    &opts(),
                ));
                if b.cells() <= 12 {
                    runs.push(solve(
                        AlgorithmName::Dfs,
                        &HeuristicChoice::LinearConflict,
                        &p,
                        &goal,
                        &opts(),
                    ));
                }
                for r in &runs {
                    assert!(!r.optimal);
                    if let Some(opt) = optimum {
                        assert!(r.len() >= opt, "{} shorter than optimal", r.algorithm);
                        assert_eq!(r.len() % 2, opt % 2, "parity");
                    }
                }
            }
        }
    }
}

const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

#[test]
fn bfs_refuses_the_15_puzzle() {
    let b = board(4, 4);
    let goal = Goal::blank_first(b);
    let p = Puzzle::parse(KORF1, None).unwrap();
    match solve_as(
        AlgorithmName::Bfs,
        &HeuristicChoice::Manhattan,
        &p,
        &goal,
        &opts(),
    ) {
        Err(SolveError::Refused(m)) => assert!(m.contains("trillion positions"), "{m}"),
        other => panic!("{other:?}"),
    }
    // And a 3x3 board with too little memory.
    let g3 = Goal::blank_first(board(3, 3));
    let p3 = Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    let o = Settings {
        limits: Limits {
            max_memory: Some(1 << 20),
            ..Limits::default()
        },
        ..opts()
    };
    assert!(matches!(
        solve_as(
            AlgorithmName::Bfs,
            &HeuristicChoice::Manhattan,
            &p3,
            &g3,
            &o
        ),
        Err(SolveError::Refused(_))
    ));
}

/// Runs `alg` under Manhattan distance and checks that `stop` stopped it; returns its stats.
fn stopped_by(alg: AlgorithmName, p: &Puzzle, goal: &Goal, o: &Settings, stop: Stop) -> Stats {
    match solve_as(alg, &HeuristicChoice::Manhattan, p, goal, o) {
        Err(SolveError::Stopped { stop: s, stats }) if s == stop => stats,
        other => panic!("{alg}: {other:?}"),
    }
}

/// The algorithms that store the nodes they meet, and so stop at a memory limit.
const STORING: [AlgorithmName; 3] = [
    AlgorithmName::AStar,
    AlgorithmName::Weighted,
    AlgorithmName::Hybrid,
];

#[test]
fn memory_limit_stops_astar_cleanly() {
    let (goal, p) = korf1();
    for alg in STORING {
        let limit = 4u64 << 20;
        let o = Settings {
            limits: Limits {
                max_memory: Some(limit),
                ..Limits::default()
            },
            hybrid_nodes: Some(u64::MAX),
            weight: Some(1.0),
            ..opts()
        };
        let stats = stopped_by(alg, &p, &goal, &o, Stop::Memory);
        assert!(
            stats.peak_memory <= limit,
            "{alg}: {} > {limit}",
            stats.peak_memory
        );
        assert!(stats.stored > 10_000, "{alg} stored {}", stats.stored);
        if alg == AlgorithmName::AStar {
            assert!(
                (41..=57).contains(&stats.lower_bound),
                "{}",
                stats.lower_bound
            );
        }
    }
}

#[test]
fn node_and_time_limits_stop_every_search() {
    let (goal, p) = korf1();
    for alg in [
        AlgorithmName::Ida,
        AlgorithmName::AStar,
        AlgorithmName::Hybrid,
        AlgorithmName::ParallelIda,
        AlgorithmName::Dfs,
        AlgorithmName::Weighted,
    ] {
        let o = Settings {
            limits: Limits {
                max_nodes: Some(20_000),
                ..Limits::default()
            },
            hybrid_nodes: Some(1_000),
            weight: Some(1.0),
            ..opts()
        };
        let stats = stopped_by(alg, &p, &goal, &o, Stop::Nodes);
        assert!(
            stats.nodes >= 20_000 && stats.nodes <= 20_000 + 3 * 1024,
            "{alg} {}",
            stats.nodes
        );
        let o = Settings {
            limits: Limits {
                timeout: Some(std::time::Duration::from_millis(50)),
                max_memory: Some(1 << 30),
                ..Limits::default()
            },
            hybrid_nodes: Some(1_000),
            ..opts()
        };
        let t0 = std::time::Instant::now();
        match solve_as(alg, &HeuristicChoice::Hamming, &p, &goal, &o) {
            Err(SolveError::Stopped { stop, .. }) => {
                assert!(matches!(stop, Stop::Time | Stop::Memory))
            }
            Ok(r) => assert!(
                !r.optimal || alg == AlgorithmName::Ida,
                "{alg} finished early?"
            ),
            other => panic!("{alg}: {other:?}"),
        }
        assert!(
            t0.elapsed().as_secs_f64() < 5.0,
            "{alg} ignored the timeout"
        );
    }
}

#[test]
fn dfs_with_a_fixed_limit_can_find_nothing() {
    let goal = Goal::blank_last(board(3, 3));
    let p = Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    let o = Settings {
        depth_limit: Some(29),
        ..opts()
    };
    match solve_as(
        AlgorithmName::Dfs,
        &HeuristicChoice::Manhattan,
        &p,
        &goal,
        &o,
    ) {
        Err(SolveError::NotFound { limit: 29, stats }) => assert!(stats.nodes > 0),
        other => panic!("{other:?}"),
    }
    let o = Settings {
        depth_limit: Some(41),
        ..opts()
    };
    let r = solve(
        AlgorithmName::Dfs,
        &HeuristicChoice::Manhattan,
        &p,
        &goal,
        &o,
    );
    assert!((31..=41).contains(&r.len()));
}

/// A*+IDA* spreads its IDA* phase over the threads asked for: the same length as IDA* with
/// 1, 2 and 4 threads, every thread's share reported; with one thread the search is the same
/// from run to run (the frontier nodes one after the other).
#[test]
fn hybrid_reports_each_thread() {
    let goal = Goal::blank_first(board(4, 4));
    let mut rng = Rng::new(0x5eed_0007);
    let p = random_walk(&goal, 44, &mut rng);
    let h = HeuristicChoice::LinearConflict;
    let want = solve(AlgorithmName::Ida, &h, &p, &goal, &opts()).len();
    for threads in [1, 2, 4] {
        let o = Settings {
            threads,
            hybrid_nodes: Some(300),
            ..opts()
        };
        let r = solve(AlgorithmName::Hybrid, &h, &p, &goal, &o);
        assert_eq!(r.len(), want, "{threads} threads");
        assert!(r.stats.detail.contains("frontier"), "{:?}", r.stats);
        assert_eq!(r.stats.per_thread.len(), threads, "{:?}", r.stats);
        assert!(r.stats.per_thread.iter().sum::<u64>() < r.stats.nodes);
        if threads == 1 {
            let again = solve(AlgorithmName::Hybrid, &h, &p, &goal, &o);
            assert_eq!((again.stats.nodes, &again.moves), (r.stats.nodes, &r.moves));
        }
    }
}

#[test]
fn parallel_ida_reports_each_thread() {
    let goal = Goal::blank_first(board(4, 4));
    let mut rng = Rng::new(0x5eed_0006);
    let p = random_walk(&goal, 40, &mut rng);
    let want = solve(
        AlgorithmName::Ida,
        &HeuristicChoice::LinearConflict,
        &p,
        &goal,
        &opts(),
    )
    .len();
    for threads in [1, 2, 4] {
        let o = Settings { threads, ..opts() };
        let r = solve(
            AlgorithmName::ParallelIda,
            &HeuristicChoice::LinearConflict,
            &p,
            &goal,
            &o,
        );
        assert_eq!(r.len(), want);
        assert!(r.stats.per_thread.len() == threads, "{:?}", r.stats);
    }
}

#[test]
fn strategy_solves_large_and_odd_boards() {
    let mut rng = Rng::new(0x5eed_0007);
    for (w, h) in [
        (20, 20),
        (2, 5),
        (5, 2),
        (3, 7),
        (7, 3),
        (2, 30),
        (30, 2),
        (9, 11),
    ] {
        let b = board(w, h);
        let n = b.cells();
        // Both conventions and a goal with the blank inside and the tiles scrambled.
        let mut odd: Vec<u16> = (0..n as u16).rev().collect();
        odd.swap(n - 1, n / 2 + w / 2);
        let mut gs = both_goals(b).to_vec();
        gs.push(Goal::from_tiles(b, &odd).unwrap());
        for goal in &gs {
            let p = random_solvable(goal, &mut rng);
            let r = solve(
                AlgorithmName::Strategic,
                &HeuristicChoice::Manhattan,
                &p,
                goal,
                &opts(),
            );
            // Linear in tiles times the side: a generous constant.
            assert!(r.len() <= 12 * n * (w + h), "{b}: {} moves", r.len());
        }
    }
    // Past the 64-cell limit of the other searches.
    let b = board(20, 20);
    let goal = Goal::blank_last(b);
    let p = random_solvable(&goal, &mut rng);
    assert!(matches!(
        solve_as(
            AlgorithmName::AStar,
            &HeuristicChoice::Manhattan,
            &p,
            &goal,
            &opts()
        ),
        Err(SolveError::BoardTooLarge { .. })
    ));
}

#[test]
fn bad_input_is_an_error() {
    let b = board(3, 3);
    let goal = Goal::blank_last(b);
    let unsolvable = Puzzle::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
    for alg in AlgorithmName::ALL {
        assert!(matches!(
            solve_as(
                alg,
                &HeuristicChoice::Manhattan,
                &unsolvable,
                &goal,
                &opts()
            ),
            Err(SolveError::Puzzle(_))
        ));
    }
    let p = Puzzle::parse("1 2 3 4 5 6 7 0 8", None).unwrap();
    let o = Settings {
        weight: Some(0.5),
        ..opts()
    };
    assert!(matches!(
        solve_as(
            AlgorithmName::Weighted,
            &HeuristicChoice::Manhattan,
            &p,
            &goal,
            &o
        ),
        Err(SolveError::Refused(_))
    ));
    // Already solved: every algorithm returns no moves.
    let solved = Puzzle::solved(&goal);
    for alg in AlgorithmName::ALL {
        let r = solve(alg, &HeuristicChoice::Manhattan, &solved, &goal, &opts());
        assert!(r.is_empty(), "{alg}");
    }
}
