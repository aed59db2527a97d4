//! Long IDA* searches through the library: a search stopped by a node limit within an iteration
//! and resumed from its checkpoint (once, or many times in a chain, or paused periodically in
//! one run) finds the same length with exactly the nodes of an uninterrupted search; the
//! progress reports add up; the interrupt flag stops a search with its lower bound.

use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::checkpoint::SearchState;
use pdbsolver::{
    Algorithm, AlgorithmName, Event, HeuristicChoice, Ida, Observer, Pruning, Search, Solution,
    SolveError, Stop,
};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Korf's first 15-puzzle instance: 57 moves, a few million nodes with linear conflicts.
const KORF1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

fn goal4() -> Goal {
    Goal::blank_first(Board::new(4, 4).unwrap())
}

/// Resumable IDA* (the fixed order of children, checkpoints at a stop).
fn resumable() -> Search {
    Search::new(Ida {
        resumable: true,
        ..Ida::default()
    })
}

/// Resumable IDA* reporting every event into `events`.
fn recording(events: &Arc<Mutex<Vec<Event>>>) -> Search {
    let e = events.clone();
    Search {
        observer: Some(Observer::new(move |ev| e.lock().unwrap().push(ev.clone()))),
        ..resumable()
    }
}

/// The IDA* settings of `search`.
fn ida(search: &mut Search) -> &mut Ida {
    match &mut search.algorithm {
        Algorithm::Ida(settings) => settings,
        other => panic!("not ida: {other:?}"),
    }
}

/// IDA* resuming from `state`.
fn resuming(state: SearchState) -> Search {
    Search::new(Ida {
        resume: Some(state),
        ..Ida::default()
    })
}

fn solve(s: &Search, h: &HeuristicChoice, p: &Puzzle, goal: &Goal) -> Result<Solution, SolveError> {
    pdbsolver::solve(s, h, p, goal)
}

fn last_checkpoint(events: &Arc<Mutex<Vec<Event>>>) -> Option<SearchState> {
    events.lock().unwrap().iter().rev().find_map(|e| match e {
        Event::Checkpoint(s) => Some(s.clone()),
        _ => None,
    })
}

/// Korf's first instance, its goal, linear conflicts, and the resumable search's solution
/// without interruptions.
fn uninterrupted() -> (Goal, Puzzle, HeuristicChoice, Solution) {
    // Solved once for every test of the binary that compares with it.
    static WHOLE: std::sync::OnceLock<(Goal, Puzzle, HeuristicChoice, Solution)> =
        std::sync::OnceLock::new();
    WHOLE
        .get_or_init(|| {
            let goal = goal4();
            let p = Puzzle::parse(KORF1, None).unwrap();
            let h = HeuristicChoice::LinearConflict;
            let whole = solve(&resumable(), &h, &p, &goal).unwrap();
            (goal, p, h, whole)
        })
        .clone()
}

#[test]
fn stopped_and_resumed_search_matches_an_uninterrupted_one() {
    let (goal, p, h, whole) = uninterrupted();
    assert_eq!(whole.len(), 57);

    let events = Arc::new(Mutex::new(Vec::new()));
    let mut opts = recording(&events);
    opts.limits.max_nodes = Some(whole.stats.nodes / 4);
    let e = solve(&opts, &h, &p, &goal).unwrap_err();
    let SolveError::Stopped { stop, stats } = e else {
        panic!("expected a stop, got {e}")
    };
    assert_eq!(stop, Stop::Nodes);
    let state = last_checkpoint(&events).expect("a stop reports a checkpoint");
    // Stopped within an iteration, below the optimum, with a path into the tree.
    assert!(state.bound < 57 && !state.path.is_empty(), "{state:?}");
    assert_eq!(stats.lower_bound, state.bound);
    assert!(state.nodes <= stats.nodes);

    let resumed = solve(&resuming(state.clone()), &h, &p, &goal).unwrap();
    assert_eq!(resumed.len(), whole.len());
    assert_eq!(resumed.stats.nodes, whole.stats.nodes);
    assert_eq!(resumed.stats.expanded, whole.stats.expanded);
    assert_eq!(resumed.stats.iterations, whole.stats.iterations);
}

/// A 5x5 position (a random walk) stopped again and again at many node limits, each run
/// resuming from the previous checkpoint.
#[test]
fn a_chain_of_resumptions_on_5x5_matches_too() {
    let goal = Goal::blank_first(Board::new(5, 5).unwrap());
    // 80 moves from the goal by a fixed xorshift sequence.
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut q = Puzzle::solved(&goal);
    let mut done = 0;
    while done < 80 {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let d = pdbformat::Direction::ALL[(rng % 4) as usize];
        if q.apply(d).is_some() {
            done += 1;
        }
    }
    let h = HeuristicChoice::LinearConflict;
    // A shallow pruning machine: the 5x5 default one takes half a minute to build, and the
    // resumption does not depend on the machine's depth.
    let shallow = |mut s: Search| {
        ida(&mut s).pruning = Pruning::Depth(10);
        s
    };
    let whole = solve(&shallow(resumable()), &h, &q, &goal).unwrap();
    assert!(whole.stats.iterations >= 2, "{:?}", whole.stats);
    let mut state: Option<SearchState> = None;
    let step = (whole.stats.nodes / 7).max(50);
    let mut runs = 0;
    let solution = loop {
        runs += 1;
        assert!(runs < 100, "no progress");
        let events = Arc::new(Mutex::new(Vec::new()));
        let mut opts = shallow(recording(&events));
        ida(&mut opts).resume = state.take();
        opts.limits.max_nodes = Some(step);
        match solve(&opts, &h, &q, &goal) {
            Ok(s) => break s,
            Err(SolveError::Stopped { .. }) => state = last_checkpoint(&events),
            Err(e) => panic!("{e}"),
        }
        assert!(state.is_some());
    };
    assert!(runs >= 3, "only {runs} runs");
    assert_eq!(solution.len(), whole.len());
    assert_eq!(solution.stats.nodes, whole.stats.nodes);
    assert_eq!(solution.stats.expanded, whole.stats.expanded);
}

#[test]
fn periodic_pauses_change_nothing_and_progress_adds_up() {
    let (goal, p, h, whole) = uninterrupted();
    let events = Arc::new(Mutex::new(Vec::new()));
    let mut opts = recording(&events);
    ida(&mut opts).checkpoint_every = Some(Duration::from_millis(2));
    let paused = solve(&opts, &h, &p, &goal).unwrap();
    assert_eq!(paused.moves, whole.moves);
    assert_eq!(paused.stats.nodes, whole.stats.nodes);
    let ev = events.lock().unwrap();
    let checkpoints = ev
        .iter()
        .filter(|e| matches!(e, Event::Checkpoint(_)))
        .count();
    assert!(checkpoints > 0, "no pause in {} s", paused.stats.seconds);
    let its: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Iteration(i) => Some(i.clone()),
            _ => None,
        })
        .collect();
    // Every iteration but the last (which found the solution) is reported, in order.
    assert_eq!(its.len() as u32, whole.stats.iterations - 1);
    let mut bound = whole.stats.initial_h;
    let mut total = 0;
    for (k, it) in its.iter().enumerate() {
        assert_eq!(it.iteration, k as u32 + 1);
        assert_eq!(it.bound, bound);
        assert!(it.next_bound > it.bound);
        total += it.nodes;
        assert_eq!(it.total_nodes, total);
        assert_eq!(it.growth.is_some(), k > 0);
        if let (Some(g), Some(prev)) = (it.growth, k.checked_sub(1).map(|j| &its[j])) {
            assert!((g - it.nodes as f64 / prev.nodes as f64).abs() < 1e-9);
        }
        bound = it.next_bound;
    }
    assert_eq!(bound, 57);
}

#[test]
fn the_interrupt_flag_stops_with_the_lower_bound() {
    let goal = goal4();
    let p = Puzzle::parse(KORF1, None).unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    let with_flag = |alg: AlgorithmName| Search {
        interrupt: Some(flag.clone()),
        ..Search::new(alg)
    };
    for alg in [
        AlgorithmName::Ida,
        AlgorithmName::AStar,
        AlgorithmName::Hybrid,
    ] {
        let e = solve(&with_flag(alg), &HeuristicChoice::LinearConflict, &p, &goal).unwrap_err();
        match e {
            SolveError::Stopped { stop, .. } => assert_eq!(stop, Stop::Interrupted, "{alg}"),
            e => panic!("{alg}: {e}"),
        }
    }
    let e = solve(
        &with_flag(AlgorithmName::Ida),
        &HeuristicChoice::LinearConflict,
        &p,
        &goal,
    )
    .unwrap_err();
    // Interrupted in the first iteration: the start's estimate (41 or more, of the blank's
    // parity) is proven.
    let s = e.stats().unwrap();
    assert!(s.lower_bound >= s.initial_h && s.lower_bound % 2 == 57 % 2);
    assert!(e.to_string().contains("proven lower bound"));
}

#[test]
fn a_state_for_another_start_is_refused() {
    let goal = goal4();
    let p = Puzzle::parse(KORF1, None).unwrap();
    let state = SearchState {
        initial_h: 1,
        iteration: 1,
        bound: 1,
        next_bound: None,
        path: vec![0],
        nodes: 0,
        expanded: 0,
        iteration_start_nodes: 0,
    };
    let e = solve(
        &resuming(state),
        &HeuristicChoice::LinearConflict,
        &p,
        &goal,
    )
    .unwrap_err();
    assert!(e.to_string().contains("initial estimate"), "{e}");
}
