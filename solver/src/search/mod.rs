//! The search algorithms, one per file, behind one entry point, [`solve`], with one request
//! type ([`Search`]: the [`Algorithm`] with its settings, the [`Limits`], the hooks), one result
//! type ([`Solution`]), one error type ([`SolveError`]), one stop reason ([`Stop`]) and one
//! statistics type ([`Stats`]).
//!
//! | name | file | optimal | settings | needs |
//! |---|---|---|---|---|
//! | `ida` (default) | `ida.rs` | yes | [`Ida`] | a heuristic |
//! | `bfs` | `bfs.rs` | yes | — | memory for the state space (≤ 3×3-sized boards in practice) |
//! | `astar` | `astar.rs` | yes | — | memory for every generated node |
//! | `hybrid` | `hybrid.rs` | yes | [`Hybrid`] | a node budget for its A* phase; threads for its IDA* phase |
//! | `parallel-ida` | `parallel_ida.rs` | yes | [`ParallelIda`] | threads |
//! | `dfs` | `dfs.rs` | no | [`Dfs`] | — |
//! | `weighted` | `weighted.rs` | no | [`Weighted`] | memory like A* |
//! | `strategic` | `strategic.rs` | no | — | nothing (any board up to 4096 cells) |
//! | `anytime` (default beyond 25 cells) | `anytime.rs` | when proven | [`Anytime`] | memory like A* |
//!
//! In the multi-tile metric ([`Search::metric`]) `ida` and `parallel-ida` run
//! `mtm_ida.rs` and `mtm_parallel.rs`, `bfs` runs `mtm_bfs.rs`; the others refuse it.
//!
//! Every search but `strategic` works on boards of at most 64 cells with the moves of
//! `position.rs` and a [`Heuristic`]; every solution is replayed on the puzzle and checked
//! to reach the goal before [`solve`] returns it.
//!
//! **Node counting** follows `ida`: `nodes` counts *generated* nodes (children made
//! by a move, never the move straight back to the parent; the start is not counted), summed
//! over every iteration or phase; `expanded` counts nodes whose children were generated. For
//! BFS and A*, a child already in the table still counts as generated.
//!
//! **Memory** is an estimate of what the search itself holds (hash tables, open lists, the
//! frontier of A*+IDA*), from the containers' capacities; pattern databases are not
//! included. A growing hash table briefly holds its old and new arrays; the estimate and the
//! `max_memory` limit count both.

mod algorithm;
mod anytime;
mod astar;
mod bfs;
mod bounded;
mod bucket_queue;
mod children;
mod dfs;
mod frontier_states;
mod history;
mod hybrid;
mod ida;
mod limits;
mod mtm_bfs;
mod mtm_ida;
mod mtm_parallel;
mod observer;
mod outcome;
mod parallel_ida;
mod root_order;
mod runner;
mod settings;
mod shortcut;
mod solution;
mod steal;
mod strategic;
mod threads;
mod weighted;

pub(crate) use algorithm::{check_weight, check_within};
pub use algorithm::{Algorithm, AlgorithmName, Anytime, Dfs, Hybrid, Ida, ParallelIda, Weighted};
pub use anytime::{
    DEFAULT_SECONDS as ANYTIME_DEFAULT_SECONDS, START_WEIGHT as ANYTIME_START_WEIGHT,
};
pub(crate) use limits::Clock;
pub use limits::Limits;
pub use observer::{keep_latest, Event, Improvement, Iteration, Observer};
pub(crate) use outcome::{per_second, Outcome};
pub use outcome::{Stats, Stop};
pub use runner::solve;
pub use settings::Search;
pub use solution::{mtm_length, replay, Solution, SolveError};
pub(crate) use threads::check_threads;
pub use threads::MAX_THREADS;

use crate::heuristic::Heuristic;

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
