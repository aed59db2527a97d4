//! The search algorithms, one per file, behind one entry point, [`solve`], with one result
//! type ([`Solution`]), one error type ([`SolveError`]), one stop reason ([`Stop`]) and one
//! statistics type ([`Stats`]).
//!
//! | name | file | optimal | needs |
//! |---|---|---|---|
//! | `ida` (default) | [`ida`] | yes | a heuristic |
//! | `bfs` | [`bfs`] | yes | memory for the state space (≤ 3×3-sized boards in practice) |
//! | `astar` | [`astar`] | yes | memory for every generated node |
//! | `hybrid` | [`hybrid`] | yes | a node budget for its A* phase; threads for its IDA* phase |
//! | `parallel-ida` | [`parallel_ida`] | yes | threads |
//! | `dfs` | [`dfs`] | no | — |
//! | `weighted` | [`weighted`] | no | memory like A* |
//! | `strategic` | [`strategic`] | no | nothing (any board up to 4096 cells) |
//!
//! Every search but `strategic` works on boards of at most 64 cells with the moves of
//! [`crate::position`] and a [`Heuristic`]; every solution is replayed on the puzzle and checked
//! to reach the goal before [`solve`] returns it.
//!
//! **Node counting** follows [`ida`]: `nodes` counts *generated* nodes (children made
//! by a move, never the move straight back to the parent; the start is not counted), summed
//! over every iteration or phase; `expanded` counts nodes whose children were generated. For
//! BFS and A*, a child already in the table still counts as generated.
//!
//! **Memory** is an estimate of what the search itself holds (hash tables, open lists, the
//! frontier of A*+IDA*), from the containers' capacities; pattern databases are not
//! included. A growing hash table briefly holds its old and new arrays; the estimate and the
//! `max_memory` limit count both.

pub mod astar;
pub mod bfs;
mod bounded;
pub mod bucket_queue;
pub mod checkpoint;
mod children;
pub mod dfs;
pub mod hybrid;
pub mod ida;
pub mod key;
pub mod parallel_ida;
pub mod progress;
pub mod prune;
mod runner;
mod steal;
pub mod strategic;
pub mod weighted;

pub use runner::{replay, solve, Solution, SolveError};

use crate::heuristic::Heuristic;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The search algorithms, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algorithm {
    /// Iterative-deepening A* ([`ida`]).
    Ida,
    /// Breadth-first search ([`bfs`]).
    Bfs,
    /// A* with duplicate detection ([`astar`]).
    AStar,
    /// A* until a node budget is spent, then IDA* over threads from its frontier
    /// ([`hybrid`]).
    Hybrid,
    /// IDA* over threads with work stealing ([`parallel_ida`]).
    ParallelIda,
    /// Depth-limited depth-first search ([`dfs`]).
    Dfs,
    /// Weighted A* and greedy best-first search ([`weighted`]).
    Weighted,
    /// Row-by-row, column-by-column human strategy ([`strategic`]).
    Strategic,
}

impl Algorithm {
    /// Every algorithm, in the order of the table above.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Ida,
        Algorithm::Bfs,
        Algorithm::AStar,
        Algorithm::Hybrid,
        Algorithm::ParallelIda,
        Algorithm::Dfs,
        Algorithm::Weighted,
        Algorithm::Strategic,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Ida => "ida",
            Algorithm::Bfs => "bfs",
            Algorithm::AStar => "astar",
            Algorithm::Hybrid => "hybrid",
            Algorithm::ParallelIda => "parallel-ida",
            Algorithm::Dfs => "dfs",
            Algorithm::Weighted => "weighted",
            Algorithm::Strategic => "strategic",
        }
    }

    /// Parses a name or an alias (`ida*`, `a*`, `idastar`, `greedy` is `weighted`, …).
    pub fn parse(s: &str) -> Option<Algorithm> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "ida" | "ida*" | "idastar" => Algorithm::Ida,
            "bfs" | "breadth-first" => Algorithm::Bfs,
            "astar" | "a*" | "a-star" => Algorithm::AStar,
            "hybrid" | "a*+ida*" | "astar+ida" => Algorithm::Hybrid,
            "parallel-ida" | "pida" | "parallel" => Algorithm::ParallelIda,
            "dfs" | "depth-first" => Algorithm::Dfs,
            "weighted" | "wastar" | "weighted-astar" | "greedy" => Algorithm::Weighted,
            "strategic" | "human" => Algorithm::Strategic,
            _ => return None,
        })
    }

    /// Whether a solution it returns is always optimal.
    pub fn is_optimal(self) -> bool {
        matches!(
            self,
            Algorithm::Ida
                | Algorithm::Bfs
                | Algorithm::AStar
                | Algorithm::Hybrid
                | Algorithm::ParallelIda
        )
    }

    /// Whether it uses a heuristic (`bfs` and `strategic` do not).
    pub fn uses_heuristic(self) -> bool {
        !matches!(self, Algorithm::Bfs | Algorithm::Strategic)
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Limits that stop a search early.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after generating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this much time (checked every 1,024 nodes).
    pub timeout: Option<Duration>,
}

/// Settings of one search.
#[derive(Clone, Debug)]
pub struct Options {
    /// Node and time limits (nodes as counted in the module documentation).
    pub limits: Limits,
    /// Stop (cleanly) before the estimated memory would exceed this many bytes; BFS refuses
    /// to start when the whole state space would not fit. `None`: half the available memory.
    pub max_memory: Option<u64>,
    /// `weighted`: the weight `w` of `f = g + w·h` (at least 1); infinity for greedy
    /// best-first search (`f = h`).
    pub weight: f64,
    /// `parallel-ida`, and the IDA* phase of `hybrid`: threads (0: one per core).
    pub threads: usize,
    /// `dfs`: the depth limit (`None`: start at twice the start's estimate and double it
    /// until a solution is found).
    pub depth_limit: Option<u32>,
    /// `hybrid`: how many nodes A* may store before switching to IDA* (`None`: 1,000,000, or
    /// fewer when `max_memory` is lower).
    pub hybrid_nodes: Option<u64>,
    /// `ida`, `hybrid` and `parallel-ida`: the word depth of the duplicate-move pruning
    /// machine (`search/prune.rs`); `Some(0)` turns pruning off (the move back to the parent
    /// is still never made), `None` takes the board's default ([`prune::default_depth`]).
    pub prune_depth: Option<u32>,
    /// Wait for the databases' background digest checks before returning (see
    /// [`crate::OpenOptions::verify_in_background`]). A caller that solves many puzzles may
    /// turn it off and call [`crate::HeuristicChoice::wait_verified`] itself before it presents
    /// any result as final.
    pub wait_verified: bool,
    /// Set from outside (e.g. by a Ctrl-C handler) to stop the search cleanly with
    /// [`Stop::Interrupted`]; read with the time, every 1,024 nodes. Every search honours it.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// `ida`: told of each finished iteration and of each checkpoint ([`progress::Event`]).
    pub observer: Option<progress::Observer>,
    /// `ida`: also report a checkpoint this often while searching (it always reports one when
    /// a limit or the interrupt stops it within an iteration).
    pub checkpoint_every: Option<Duration>,
    /// `ida`: start from this saved search state instead of the start's estimate.
    pub resume: Option<checkpoint::SearchState>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            limits: Limits::default(),
            max_memory: None,
            weight: 2.0,
            threads: 0,
            depth_limit: None,
            hybrid_nodes: None,
            prune_depth: None,
            wait_verified: true,
            interrupt: None,
            observer: None,
            checkpoint_every: None,
            resume: None,
        }
    }
}

impl Options {
    /// The duplicate-move pruning machine these options ask for on `board`, built once per
    /// process for each board and depth.
    pub fn pruner(&self, board: pdbformat::Board) -> std::sync::Arc<prune::Pruner> {
        prune::Pruner::shared(
            board,
            self.prune_depth
                .unwrap_or_else(|| prune::default_depth(board)),
        )
    }

    /// The memory limit in bytes: the one given, or half of the available memory (4 GiB when
    /// it cannot be read).
    pub fn memory_limit(&self) -> u64 {
        self.max_memory.unwrap_or_else(default_memory_limit)
    }
}

/// Half of the available memory (`MemAvailable`, [`pdbformat::system::available_memory`]),
/// or 4 GiB when it cannot be read.
pub fn default_memory_limit() -> u64 {
    pdbformat::system::available_memory()
        .map(|b| b / 2)
        .unwrap_or(4 << 30)
}

/// Why a search ended without a solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node limit was reached.
    Nodes,
    /// The time limit passed.
    Time,
    /// The memory limit would have been exceeded.
    Memory,
    /// The search was interrupted from outside ([`Options::interrupt`], e.g. Ctrl-C).
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
pub struct Outcome {
    /// The blank's cell after each move, when a solution was found.
    pub path: Option<Vec<u8>>,
    /// Why the search stopped without a solution (`None` with no path: the search space was
    /// exhausted, e.g. by a fixed DFS depth limit).
    pub stop: Option<Stop>,
    /// What it cost.
    pub stats: Stats,
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

/// Node, time and abort checks shared by the searches: cheap enough for every node.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    pub(crate) t0: Instant,
    deadline: Option<Instant>,
    pub(crate) max_nodes: u64,
    interrupt: Option<Arc<AtomicBool>>,
}

impl Clock {
    /// The clock for `limits`, started now.
    pub(crate) fn new(limits: &Limits) -> Clock {
        let t0 = Instant::now();
        Clock {
            t0,
            deadline: limits.timeout.map(|d: Duration| t0 + d),
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            interrupt: None,
        }
    }

    /// The clock of `opts`: its limits and its interrupt flag, started now.
    pub(crate) fn of(opts: &Options) -> Clock {
        Clock {
            interrupt: opts.interrupt.clone(),
            ..Clock::new(&opts.limits)
        }
    }

    /// The same clock with the deadline moved earlier to `at` (when it is earlier).
    pub(crate) fn until(&self, at: Instant) -> Clock {
        Clock {
            deadline: Some(self.deadline.map_or(at, |d| d.min(at))),
            ..self.clone()
        }
    }

    /// Whether a limit stops the search before generating node number `nodes + 1`; the
    /// time is read every 1,024 nodes.
    #[inline(always)]
    pub(crate) fn check(&self, nodes: u64) -> Option<Stop> {
        if nodes >= self.max_nodes {
            return Some(Stop::Nodes);
        }
        if nodes & 0x3FF == 0 {
            return self.time_up();
        }
        None
    }

    /// Whether the interrupt flag is set or the deadline has passed.
    pub(crate) fn time_up(&self) -> Option<Stop> {
        if let Some(i) = &self.interrupt {
            if i.load(Ordering::Relaxed) {
                return Some(Stop::Interrupted);
            }
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Some(Stop::Time),
            _ => None,
        }
    }

    /// Seconds since the start.
    pub(crate) fn seconds(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }
}

/// The goal's tiles in a search array.
pub(crate) fn goal_array(goal: &pdbformat::Goal) -> [u8; crate::position::MAX_CELLS] {
    let mut g = [0u8; crate::position::MAX_CELLS];
    for (c, &t) in goal.tiles().iter().enumerate() {
        g[c] = t as u8;
    }
    g
}

/// The estimate of `tiles` from the heuristic's parts computed afresh.
pub(crate) fn estimate<H: Heuristic>(h: &H, tiles: &[u8; crate::position::MAX_CELLS]) -> u32 {
    h.value(&h.init(tiles))
}
