//! What a long search tells its caller while it runs: one report per finished IDA* iteration
//! (with an estimate of the next one from the growth factor), the checkpoints, and each
//! improvement of an anytime search, through a callback in [`super::Search`]. The library
//! only calls it; the command line prints.

use crate::checkpoint::SearchState;
use std::fmt;
use std::sync::Arc;

/// One finished iteration of IDA* (no solution within its bound).
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The iteration's number, from 1.
    pub iteration: u32,
    /// Its cost bound.
    pub bound: u32,
    /// The bound of the next iteration (the smallest `g + h` above this one).
    pub next_bound: u32,
    /// Nodes generated in this iteration (across resumptions).
    pub nodes: u64,
    /// Nodes generated so far, over all iterations.
    pub total_nodes: u64,
    /// Seconds this iteration took (in this run: a resumed iteration counts from the resume).
    pub seconds: f64,
    /// Seconds since the search started (in this run).
    pub total_seconds: f64,
    /// The previous iteration's nodes divided into this one's (`None` for the first).
    pub growth: Option<f64>,
    /// The next iteration's nodes, estimated as this one's times the growth factor.
    pub next_nodes: Option<f64>,
    /// The next iteration's seconds at this iteration's rate.
    pub next_seconds: Option<f64>,
}

impl Iteration {
    /// Generated nodes per second in this iteration (0 when too fast to measure).
    pub fn nodes_per_second(&self) -> f64 {
        super::per_second(self.nodes, self.seconds)
    }
}

/// A better answer of the anytime search (`anytime`): a shorter solution, or a higher proven
/// lower bound under the solution held.
#[derive(Clone, Debug, PartialEq)]
pub struct Improvement {
    /// The length of the best solution found so far.
    pub length: u32,
    /// The proven lower bound on the optimal length (at most `length`).
    pub lower_bound: u32,
    /// The weight `w` of `g + w·h` the search runs with now.
    pub weight: f64,
    /// Nodes generated so far.
    pub nodes: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

impl Improvement {
    /// `length / lower_bound`: the solution is at most this many times the optimum (1 when
    /// both are 0).
    pub fn ratio(&self) -> f64 {
        bound_ratio(self.length, self.lower_bound)
    }
}

/// `length / lower_bound`, 1 for an empty solution, infinity with no bound.
pub(crate) fn bound_ratio(length: u32, lower_bound: u32) -> f64 {
    match (length, lower_bound) {
        (0, _) => 1.0,
        (_, 0) => f64::INFINITY,
        (l, b) => l as f64 / b as f64,
    }
}

/// Something a search reports while it runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// An iteration ended without a solution.
    Iteration(Iteration),
    /// Where the search stands: written periodically (every
    /// [`super::Ida::checkpoint_every`]) and when a limit or the interrupt stops it.
    Checkpoint(SearchState),
    /// The anytime search found a shorter solution or proved a higher lower bound.
    Improvement(Improvement),
}

/// The callback that receives [`Event`]s (called on the searching thread; keep it quick).
#[derive(Clone)]
pub struct Observer(pub Arc<dyn Fn(&Event) + Send + Sync>);

impl Observer {
    /// An observer calling `f`.
    pub fn new(f: impl Fn(&Event) + Send + Sync + 'static) -> Observer {
        Observer(Arc::new(f))
    }

    /// Passes `e` on.
    pub fn tell(&self, e: &Event) {
        (self.0)(e)
    }
}

impl fmt::Debug for Observer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Observer(..)")
    }
}

/// Follows the iterations and builds their reports with the growth estimate.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tracker {
    last_nodes: Option<u64>,
}

impl Tracker {
    /// The report of a finished iteration.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn finish(
        &mut self,
        iteration: u32,
        bound: u32,
        next_bound: u32,
        nodes: u64,
        total_nodes: u64,
        seconds: f64,
        total_seconds: f64,
    ) -> Iteration {
        let growth = self
            .last_nodes
            .filter(|&n| n > 0)
            .map(|n| nodes as f64 / n as f64);
        self.last_nodes = Some(nodes);
        let next_nodes = growth.map(|g| nodes as f64 * g);
        let next_seconds = growth.map(|g| seconds * g);
        Iteration {
            iteration,
            bound,
            next_bound,
            nodes,
            total_nodes,
            seconds,
            total_seconds,
            growth,
            next_nodes,
            next_seconds,
        }
    }
}

/// An observer that keeps the latest checkpoint in `slot` (for callers that write it
/// themselves), passing every event on to `then` as well.
pub fn keep_latest(
    slot: std::sync::Arc<std::sync::Mutex<Option<SearchState>>>,
    then: Option<Observer>,
) -> Observer {
    Observer::new(move |e| {
        if let Event::Checkpoint(s) = e {
            *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(s.clone());
        }
        if let Some(t) = &then {
            t.tell(e);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_is_the_ratio_of_the_last_two_iterations() {
        let mut t = Tracker::default();
        let a = t.finish(1, 40, 42, 100, 100, 1.0, 1.0);
        assert_eq!((a.growth, a.next_nodes, a.next_seconds), (None, None, None));
        let b = t.finish(2, 42, 44, 600, 700, 2.0, 3.0);
        assert_eq!(b.growth, Some(6.0));
        assert_eq!(b.next_nodes, Some(3600.0));
        assert_eq!(b.next_seconds, Some(12.0));
        assert_eq!(b.nodes_per_second(), 300.0);
    }
}
