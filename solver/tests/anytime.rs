//! The anytime search (`anytime`): every answer carries a proven lower bound that never
//! exceeds the optimum, the bound asked for (`within`) holds, `optimal` is claimed only when
//! proven, a limit returns the best solution so far, and boards past 25 cells default to it.

use crate::common;

use common::{assert_replays, korf100, random_solvable, Rng};
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::{
    solve, AlgorithmName, Anytime, Event, HeuristicChoice, Limits, Request, Search, SolveError,
    Stop, Weighted,
};
use std::time::Duration;

/// The anytime search with `within` and `limits`.
fn anytime(within: Option<f64>, limits: Limits) -> Search {
    Search {
        limits,
        ..Search::new(Anytime { within })
    }
}

/// The optimal length of `p` by IDA*.
fn optimum(p: &Puzzle, goal: &Goal, h: &HeuristicChoice) -> usize {
    solve(&Search::new(AlgorithmName::Ida), h, p, goal)
        .unwrap()
        .len()
}

/// Checks the promises of an anytime answer against the known optimum.
fn check(s: &pdbsolver::Solution, p: &Puzzle, goal: &Goal, opt: usize, within: f64) {
    assert_replays(p, goal, s);
    let (len, lb) = (s.len(), s.lower_bound() as usize);
    assert!(lb <= opt, "lower bound {lb} above the optimum {opt}");
    assert!(opt <= len, "length {len} below the optimum {opt}");
    assert!(
        len as f64 <= within * lb as f64 + 1e-9,
        "length {len} above {within} x {lb}"
    );
    assert_eq!(s.optimal, lb >= len);
    if s.optimal {
        assert_eq!(len, opt, "claimed optimal");
    }
    assert!(s.bound_ratio() >= 1.0);
    assert!(lb >= s.stats.initial_h as usize || len == 0);
}

#[test]
fn on_3x3_every_bound_holds_and_within_1_is_optimal() {
    let goal = Goal::blank_last(Board::new(3, 3).unwrap());
    let h = HeuristicChoice::Manhattan;
    let mut rng = Rng::new(11);
    for _ in 0..12 {
        let p = random_solvable(&goal, &mut rng);
        let opt = optimum(&p, &goal, &h);
        for within in [1.0, 1.2, 2.0] {
            let s = solve(&anytime(Some(within), Limits::default()), &h, &p, &goal).unwrap();
            check(&s, &p, &goal, opt, within);
            assert_eq!(s.stopped, None);
            if within == 1.0 {
                assert!(s.optimal && s.len() == opt);
            }
        }
    }
}

#[test]
fn on_4x4_within_holds_against_korf_optima() {
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let h = HeuristicChoice::LinearConflict;
    for (p, opt) in korf100().into_iter().take(3) {
        let s = solve(&anytime(Some(1.3), Limits::default()), &h, &p, &goal).unwrap();
        check(&s, &p, &goal, opt, 1.3);
    }
}

#[test]
fn a_solved_start_is_optimal_at_once() {
    let goal = Goal::blank_last(Board::new(3, 3).unwrap());
    let p = Puzzle::solved(&goal);
    let s = solve(
        &anytime(None, Limits::default()),
        &HeuristicChoice::Manhattan,
        &p,
        &goal,
    )
    .unwrap();
    assert!(s.is_empty() && s.optimal);
    assert_eq!((s.lower_bound(), s.bound_ratio()), (0, 1.0));
}

#[test]
fn a_time_limit_returns_the_best_solution_with_its_bound() {
    let goal = Goal::blank_last(Board::new(6, 6).unwrap());
    let p = random_solvable(&goal, &mut Rng::new(5));
    let h = HeuristicChoice::LinearConflict;
    let (observer, improvements) = common::recorder(|e| match e {
        Event::Improvement(i) => Some(i.clone()),
        _ => None,
    });
    let search = Search {
        observer: Some(observer),
        ..anytime(
            None,
            Limits {
                timeout: Some(Duration::from_millis(1500)),
                max_memory: Some(256 << 20),
                ..Limits::default()
            },
        )
    };
    match solve(&search, &h, &p, &goal) {
        Ok(s) => {
            assert_replays(&p, &goal, &s);
            assert!(matches!(s.stopped, Some(Stop::Time | Stop::Memory)));
            assert!(s.lower_bound() >= s.stats.initial_h && s.lower_bound() > 0);
            assert!(s.lower_bound() as usize <= s.len());
            assert!(!s.optimal);
            let seen = improvements.lock().unwrap();
            let last = seen.last().expect("each solution is told");
            assert_eq!(last.length as usize, s.len());
            assert!(seen
                .windows(2)
                .all(|w| w[1].length <= w[0].length && w[1].lower_bound >= w[0].lower_bound));
        }
        Err(SolveError::Stopped { stats, .. }) => {
            assert!(stats.lower_bound >= stats.initial_h && stats.initial_h > 0);
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_node_limit_without_a_solution_reports_the_start_estimate() {
    let goal = Goal::blank_last(Board::new(6, 6).unwrap());
    let p = random_solvable(&goal, &mut Rng::new(6));
    let limits = Limits {
        max_nodes: Some(50),
        ..Limits::default()
    };
    for search in [
        anytime(None, limits),
        Search {
            limits,
            ..Search::new(Weighted { weight: 2.0 })
        },
    ] {
        match solve(&search, &HeuristicChoice::Manhattan, &p, &goal) {
            Err(SolveError::Stopped { stop, stats }) => {
                assert_eq!(stop, Stop::Nodes);
                assert!(stats.initial_h > 0);
                assert!(stats.lower_bound >= stats.initial_h);
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn weighted_solutions_carry_a_bound_that_holds() {
    let goal = Goal::blank_last(Board::new(3, 3).unwrap());
    let mut rng = Rng::new(3);
    for _ in 0..10 {
        let p = random_solvable(&goal, &mut rng);
        let opt = optimum(&p, &goal, &HeuristicChoice::Manhattan);
        let s = solve(
            &Search::new(Weighted { weight: 2.0 }),
            &HeuristicChoice::Manhattan,
            &p,
            &goal,
        )
        .unwrap();
        check(&s, &p, &goal, opt, 2.0);
    }
}

#[test]
fn within_is_a_key_of_anytime_alone() {
    let mut r = Request::default();
    r.set("algorithm", "anytime").unwrap();
    r.set("within", "1.25").unwrap();
    let search = r.resolve().unwrap();
    assert_eq!(
        search.algorithm,
        pdbsolver::Algorithm::Anytime(Anytime { within: Some(1.25) })
    );
    assert!(Request::default().set("within", "0.9").is_err());
    assert!(Request::default().set("within", "abc").is_err());
    assert!(Request::default().set("within", "nan").is_err());
    let mut ida = Request::default();
    ida.set("algorithm", "ida").unwrap();
    ida.set("within", "1.5").unwrap();
    assert_eq!(
        ida.resolve().unwrap_err().to_string(),
        "within is a setting of anytime, not of ida"
    );
}

#[test]
fn boards_past_25_cells_default_to_anytime() {
    assert_eq!(AlgorithmName::default_on(36, None), AlgorithmName::Anytime);
    assert_eq!(
        AlgorithmName::default_on(30, Some(1)),
        AlgorithmName::Anytime
    );
    assert_eq!(AlgorithmName::default_on(25, Some(1)), AlgorithmName::Ida);
    assert_eq!(AlgorithmName::default_on(16, Some(1)), AlgorithmName::Ida);
    let plain = Request::default();
    assert_ne!(
        plain.resolve().unwrap().algorithm.name(),
        AlgorithmName::Anytime
    );
    assert_ne!(
        plain.on_board(25).resolve().unwrap().algorithm.name(),
        AlgorithmName::Anytime
    );
    let on = plain.on_board(36).resolve().unwrap();
    assert_eq!(on.algorithm.name(), AlgorithmName::Anytime);
    // A bound with no algorithm named asks for the one that takes it, on any board.
    let mut r = Request::default();
    r.set("within", "1.5").unwrap();
    assert_eq!(
        r.resolve().unwrap().algorithm.name(),
        AlgorithmName::Anytime
    );
    assert_eq!(
        AlgorithmName::parse("anytime"),
        Some(AlgorithmName::Anytime)
    );
}

#[test]
fn a_6x6_position_solves_by_default_with_a_bound() {
    let goal = Goal::blank_last(Board::new(6, 6).unwrap());
    let p = random_solvable(&goal, &mut Rng::new(7));
    let search = Request::default().on_board(36).resolve().unwrap();
    let search = Search {
        limits: Limits {
            timeout: Some(Duration::from_secs(3)),
            max_memory: Some(512 << 20),
            ..Limits::default()
        },
        ..search
    };
    let s = solve(&search, &HeuristicChoice::LinearConflict, &p, &goal).unwrap();
    assert_replays(&p, &goal, &s);
    assert_eq!(s.algorithm, AlgorithmName::Anytime);
    assert!(s.lower_bound() >= s.stats.initial_h);
    assert!(s.bound_ratio() < 3.0, "ratio {}", s.bound_ratio());
}

#[test]
fn the_memory_limit_returns_the_best_solution_within_it() {
    let goal = Goal::blank_last(Board::new(6, 6).unwrap());
    let p = random_solvable(&goal, &mut Rng::new(8));
    let limit = 8 << 20;
    let search = anytime(
        None,
        Limits {
            timeout: Some(Duration::from_millis(1500)),
            max_memory: Some(limit),
            ..Limits::default()
        },
    );
    match solve(&search, &HeuristicChoice::LinearConflict, &p, &goal) {
        Ok(s) => {
            assert_replays(&p, &goal, &s);
            assert_eq!(s.stopped, Some(Stop::Memory));
            assert!(s.stats.peak_memory <= limit, "{}", s.stats.peak_memory);
            assert!(s.lower_bound() >= s.stats.initial_h);
        }
        Err(SolveError::Stopped { stop, stats }) => {
            assert_eq!(stop, Stop::Memory);
            assert!(stats.lower_bound >= stats.initial_h);
        }
        Err(e) => panic!("{e}"),
    }
}
