//! What [`super::solve`] runs: [`Search`], the algorithm with its settings, the metric, the
//! limits and the hooks a caller may attach.

use super::observer::Observer;
use super::{Algorithm, Clock, Limits};
use pdbformat::Metric;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// One search as [`super::solve`] runs it: the algorithm with its settings, the limits, and the
/// hooks a caller may attach (an interrupt flag, a progress observer, whether to wait for the
/// databases' digest checks).
///
/// ```
/// use pdbsolver::{AlgorithmName, Limits, Search, Weighted};
///
/// let plain = Search::new(AlgorithmName::AStar);
/// assert_eq!(plain.algorithm.name(), AlgorithmName::AStar);
/// let greedy = Search {
///     limits: Limits { max_nodes: Some(1_000_000), ..Limits::default() },
///     ..Search::new(Weighted { weight: f64::INFINITY })
/// };
/// assert!(greedy.wait_verified);
/// ```
#[derive(Clone, Debug)]
pub struct Search {
    /// The algorithm and its settings.
    pub algorithm: Algorithm,
    /// The metric moves are counted in (the single-tile one by default). The multi-tile
    /// metric is searched by `ida`, `parallel-ida` (their own loops, `search/mtm_ida.rs`,
    /// which ignore the duplicate-move machine) and `bfs`, with a heuristic admissible in it
    /// ([`HeuristicChoice::admissible_in`]); the other algorithms refuse it.
    pub metric: Metric,
    /// Node, time and memory limits (nodes as counted in the module documentation).
    pub limits: Limits,
    /// Set from outside (e.g. by a Ctrl-C handler) to stop the search cleanly with
    /// [`super::Stop::Interrupted`]; read with the time, every 1,024 nodes. Every algorithm
    /// honours it.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Told of each finished IDA* iteration and of each checkpoint
    /// ([`super::observer::Event`]); only `ida` reports.
    pub observer: Option<Observer>,
    /// Wait for the databases' background digest checks before returning (see
    /// [`crate::OpenOptions::verify_in_background`]). A caller that solves many puzzles may
    /// turn it off and call [`crate::HeuristicChoice::wait_verified`] itself before it presents
    /// any result as final.
    pub wait_verified: bool,
}

impl Search {
    /// A search with `algorithm` (a name for its default settings, or its settings), no
    /// limits and no hooks, waiting for the databases' digest checks.
    pub fn new(algorithm: impl Into<Algorithm>) -> Search {
        Search {
            algorithm: algorithm.into(),
            metric: Metric::Stm,
            limits: Limits::default(),
            interrupt: None,
            observer: None,
            wait_verified: true,
        }
    }
}

impl Search {
    /// The clock of this search: its limits and its interrupt flag, started now.
    pub(crate) fn clock(&self) -> Clock {
        Clock::with_interrupt(&self.limits, self.interrupt.clone())
    }
}

impl Default for Search {
    /// IDA* with its default settings ([`Search::new`]).
    fn default() -> Search {
        Search::new(Algorithm::default())
    }
}
