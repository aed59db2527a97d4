//! `parallel-ida` (work stealing): the same lengths as `ida` on many random positions of
//! several boards with 1, 2 and 4 threads; one
//! thread retraces `ida` node for node; node counts per thread add up; node and time limits
//! stop it on every thread count.

use crate::common;

use common::{assert_replays, random_solvable, random_walk, solve_as, Rng, Settings};
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::{AlgorithmName, Event, SolveError, Stop};
use pdbsolver::{HeuristicChoice, Limits, Solution};
use std::time::{Duration, Instant};

fn run(alg: AlgorithmName, p: &Puzzle, goal: &Goal, o: &Settings) -> Solution {
    let r = solve_as(alg, &HeuristicChoice::LinearConflict, p, goal, o)
        .unwrap_or_else(|e| panic!("{alg} on {p:#}: {e}"));
    assert_replays(p, goal, &r);
    r
}

fn with(threads: usize) -> Settings {
    Settings {
        threads,
        ..Settings::default()
    }
}

/// Solves every puzzle with `ida` and with `parallel-ida` over thread counts, and
/// checks lengths, optimality flags and the per-thread counts.
fn agree(goal: &Goal, puzzles: &[Puzzle]) {
    for p in puzzles {
        let want = run(AlgorithmName::Ida, p, goal, &Settings::default());
        for threads in [1, 2, 4] {
            let r = run(AlgorithmName::ParallelIda, p, goal, &with(threads));
            assert_eq!(r.len(), want.len(), "{p:#}: {threads} threads");
            assert!(r.optimal);
            assert_eq!(r.stats.per_thread.len(), threads, "{:?}", r.stats);
            let sum: u64 = r.stats.per_thread.iter().sum();
            assert_eq!(sum, r.stats.nodes, "{p:#}: {:?}", r.stats);
        }
    }
}

#[test]
fn same_lengths_as_ida_on_random_3x3() {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let mut rng = Rng::new(0x9a1d_0001);
    let puzzles: Vec<Puzzle> = (0..40).map(|_| random_solvable(&goal, &mut rng)).collect();
    agree(&goal, &puzzles);
}

#[test]
fn same_lengths_as_ida_on_rectangular_boards() {
    for (w, h, n, blank_last) in [(2, 4, 20, false), (4, 2, 20, true), (3, 4, 8, true)] {
        let b = Board::new(w, h).unwrap();
        let goal = if blank_last {
            Goal::blank_last(b)
        } else {
            Goal::blank_first(b)
        };
        let mut rng = Rng::new(0x9a1d_0002 + w as u64 * 7 + h as u64);
        let puzzles: Vec<Puzzle> = (0..n).map(|_| random_solvable(&goal, &mut rng)).collect();
        agree(&goal, &puzzles);
    }
}

#[test]
fn same_lengths_as_ida_on_random_4x4_walks() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let mut rng = Rng::new(0x9a1d_0003);
    let puzzles: Vec<Puzzle> = (0..12)
        .map(|i| random_walk(&goal, 30 + 3 * i, &mut rng))
        .collect();
    agree(&goal, &puzzles);
}

#[test]
fn one_thread_retraces_ida() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let mut rng = Rng::new(0x9a1d_0004);
    for _ in 0..4 {
        let p = random_walk(&goal, 60, &mut rng);
        let ida = run(AlgorithmName::Ida, &p, &goal, &Settings::default());
        let par = run(AlgorithmName::ParallelIda, &p, &goal, &with(1));
        assert_eq!(par.moves, ida.moves, "{p:#}");
        assert_eq!(par.stats.nodes, ida.stats.nodes, "{p:#}");
        assert_eq!(par.stats.expanded, ida.stats.expanded, "{p:#}");
        assert_eq!(par.stats.iterations, ida.stats.iterations, "{p:#}");
        assert_eq!(par.stats.per_thread, vec![ida.stats.nodes]);
    }
}

#[test]
fn small_searches_run_alone_as_ida() {
    // Every iteration before the last is far below the size that starts the workers: the
    // search is `ida`'s, node for node, on the calling thread.
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let mut rng = Rng::new(0x9a1d_0005);
    for _ in 0..4 {
        let p = random_walk(&goal, 40, &mut rng);
        let ida = run(AlgorithmName::Ida, &p, &goal, &Settings::default());
        let par = run(AlgorithmName::ParallelIda, &p, &goal, &with(2));
        assert_eq!(par.moves, ida.moves, "{p:#}");
        assert_eq!(par.stats.nodes, ida.stats.nodes, "{p:#}");
        assert_eq!(par.stats.iterations, ida.stats.iterations, "{p:#}");
        assert_eq!(par.stats.per_thread, vec![ida.stats.nodes, 0], "{p:#}");
        assert!(
            par.stats.detail.contains("on one thread"),
            "{}",
            par.stats.detail
        );
    }
}

#[test]
fn work_is_shared_between_threads() {
    // Korf's first instance under linear conflict: millions of nodes, enough for stealing.
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let p = Puzzle::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
    let r = run(AlgorithmName::ParallelIda, &p, &goal, &with(2));
    assert_eq!(r.len(), 57);
    let (a, b) = (r.stats.per_thread[0], r.stats.per_thread[1]);
    // Both threads worked a real share (the first task goes to one of them; the other is fed
    // only by donations).
    assert!(a.min(b) * 10 > a.max(b), "{:?}", r.stats.per_thread);
    assert!(r.stats.detail.contains("handed over"), "{}", r.stats.detail);
    // Its first iterations are small: they ran on one thread before the workers started.
    assert!(
        r.stats.detail.contains("on one thread, then"),
        "{}",
        r.stats.detail
    );
}

#[test]
fn every_finished_iteration_is_reported() {
    // Korf's first instance: small iterations on one thread, then the workers'.
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let p = Puzzle::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
    for threads in [1, 2] {
        let (observer, seen) = common::recorder(|e| match e {
            Event::Iteration(i) => Some(i.clone()),
            _ => None,
        });
        let o = Settings {
            observer: Some(observer),
            ..with(threads)
        };
        let r = run(AlgorithmName::ParallelIda, &p, &goal, &o);
        let seen = seen.lock().unwrap();
        assert_eq!(
            seen.len() as u32 + 1,
            r.stats.iterations,
            "{threads} threads"
        );
        for (k, i) in seen.iter().enumerate() {
            assert_eq!(i.iteration, k as u32 + 1);
            assert!(i.next_bound > i.bound && i.nodes > 0 && i.total_nodes <= r.stats.nodes);
            if k > 0 {
                assert_eq!(i.bound, seen[k - 1].next_bound);
                assert_eq!(i.total_nodes, seen[k - 1].total_nodes + i.nodes);
            }
        }
    }
}

#[test]
fn node_and_time_limits_stop_every_thread_count() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let p = Puzzle::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
    for threads in [1, 2, 4] {
        let o = Settings {
            limits: Limits {
                max_nodes: Some(200_000),
                ..Limits::default()
            },
            ..with(threads)
        };
        match solve_as(
            AlgorithmName::ParallelIda,
            &HeuristicChoice::Manhattan,
            &p,
            &goal,
            &o,
        ) {
            Err(SolveError::Stopped {
                stop: Stop::Nodes,
                stats,
            }) => {
                assert!(
                    stats.nodes >= 200_000 && stats.nodes <= 200_000 + threads as u64 * 1024,
                    "{threads} threads: {}",
                    stats.nodes
                );
                let sum: u64 = stats.per_thread.iter().sum();
                assert!(sum <= stats.nodes && stats.per_thread.len() == threads);
            }
            other => panic!("{threads} threads: {other:?}"),
        }
        let o = Settings {
            limits: Limits {
                timeout: Some(Duration::from_millis(100)),
                ..Limits::default()
            },
            ..with(threads)
        };
        let t0 = Instant::now();
        match solve_as(
            AlgorithmName::ParallelIda,
            &HeuristicChoice::Hamming,
            &p,
            &goal,
            &o,
        ) {
            Err(SolveError::Stopped {
                stop: Stop::Time,
                stats,
            }) => assert!(stats.nodes > 0),
            other => panic!("{threads} threads: {other:?}"),
        }
        assert!(t0.elapsed() < Duration::from_secs(3), "{threads} threads");
    }
}

#[test]
fn solved_start_and_bad_thread_counts() {
    let goal = Goal::blank_last(Board::new(3, 3).unwrap());
    let p = Puzzle::solved(&goal);
    for threads in [1, 3] {
        let r = run(AlgorithmName::ParallelIda, &p, &goal, &with(threads));
        assert!(r.is_empty());
    }
    // Thousands of threads are refused before any starts.
    let e = solve_as(
        AlgorithmName::ParallelIda,
        &HeuristicChoice::Manhattan,
        &p,
        &goal,
        &with(100_000),
    );
    assert!(e.is_err());
}
