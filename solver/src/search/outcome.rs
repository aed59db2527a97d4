//! What a search gives back besides a solution: why it stopped ([`Stop`]), what it cost
//! ([`Stats`]), and the raw [`Outcome`] of one algorithm before [`super::solve`] replays it.

#[cfg(doc)]
use super::Search;

/// Why a search ended without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node limit was reached.
    Nodes,
    /// The time limit passed.
    Time,
    /// The memory limit would have been exceeded.
    Memory,
    /// The search was interrupted from outside ([`Search::interrupt`], e.g. Ctrl-C).
    Interrupted,
}

impl Stop {
    /// A few words for messages and tables.
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Nodes => "node limit",
            Stop::Time => "time limit",
            Stop::Memory => "memory limit",
            Stop::Interrupted => "interrupted",
        }
    }

    /// The words that open an error message: the node and time limits were reached; the
    /// memory limit stops a search before it would be exceeded.
    pub fn headline(self) -> &'static str {
        match self {
            Stop::Nodes => "node limit reached",
            Stop::Time => "time limit reached",
            Stop::Memory => "memory limit",
            Stop::Interrupted => "interrupted",
        }
    }
}

/// What a search cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Generated nodes (see the module documentation).
    pub nodes: u64,
    /// Expanded nodes.
    pub expanded: u64,
    /// Depth-first iterations (IDA* bounds, DFS restarts); 0 for BFS and A*.
    pub iterations: u32,
    /// The heuristic's estimate of the start (0 without a heuristic).
    pub initial_h: u32,
    /// Every solution shorter than this has been ruled out (for optimal searches).
    pub lower_bound: u32,
    /// Positions held in the search's hash table at its largest (0 without one).
    pub stored: u64,
    /// Estimated peak memory of the search, in bytes.
    pub peak_memory: u64,
    /// Generated nodes per worker thread (`parallel-ida` only).
    pub per_thread: Vec<u64>,
    /// Notes on how the search ran (open list, threads, phases).
    pub detail: String,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl Stats {
    /// Generated nodes per second (0 when too fast to measure).
    pub fn nodes_per_second(&self) -> f64 {
        per_second(self.nodes, self.seconds)
    }
}

/// `count` per second over `seconds` (0 when too fast to measure).
pub(crate) fn per_second(count: u64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        count as f64 / seconds
    } else {
        0.0
    }
}

/// The raw result of one search: the blank's cells after each move, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Outcome {
    /// The blank's cell after each move, when a solution was found.
    pub(crate) path: Option<Vec<u8>>,
    /// Why the search stopped without a solution (`None` with no path: the search space was
    /// exhausted, e.g. by a fixed DFS depth limit).
    pub(crate) stop: Option<Stop>,
    /// What it cost.
    pub(crate) stats: Stats,
}

impl Outcome {
    /// A search that found `path` (an optimal one, so its length is the proven bound).
    pub(crate) fn solved(path: Vec<u8>, mut stats: Stats) -> Outcome {
        stats.lower_bound = path.len() as u32;
        Outcome {
            path: Some(path),
            stop: None,
            stats,
        }
    }

    /// A search that ended without a solution: stopped by `stop`, or (`None`) having
    /// exhausted its space, with `lower_bound` proven.
    pub(crate) fn unsolved(stop: Option<Stop>, lower_bound: u32, mut stats: Stats) -> Outcome {
        stats.lower_bound = lower_bound;
        Outcome {
            path: None,
            stop,
            stats,
        }
    }
}
