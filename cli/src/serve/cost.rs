//! The expected cost of a search, in seconds of one search slot: what admission weighs a
//! request by. A first guess from the request's board, algorithm and heuristic, replaced by
//! the running mean of the searches of the same kind this server has run, and never more than
//! the request's own time limit.

use pdbsolver::AlgorithmName;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// What searches of similar cost share: the board, the algorithm, and whether the heuristic
/// is a pattern database (`true`), a classic one or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kind {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The algorithm.
    pub algorithm: AlgorithmName,
    /// Whether the heuristic is a pattern database.
    pub pdb: bool,
}

impl Kind {
    /// The first guess of a search of this kind, before any has run: a millisecond on boards
    /// of up to 9 cells, and growing steeply with the board (a 4x4 search with a database takes
    /// from milliseconds to many seconds; without one, far longer; A* and breadth-first
    /// search longer than depth-first ones).
    fn prior(self) -> f64 {
        let cells = self.width * self.height;
        if self.algorithm == AlgorithmName::Strategic {
            return 0.001 * (cells as f64 / 9.0).powi(2);
        }
        if cells <= 9 {
            return 0.001;
        }
        let base = match cells {
            10..=12 => 0.05,
            13..=16 => 1.0,
            _ => 10.0,
        };
        let breadth = matches!(self.algorithm, AlgorithmName::Bfs | AlgorithmName::AStar);
        let classic = !self.pdb && cells > 12;
        base * if classic { 10.0 } else { 1.0 } * if breadth { 5.0 } else { 1.0 }
    }
}

impl Kind {
    /// Whether searches of this kind are cheap by their board and algorithm alone (their
    /// first guess under [`CHEAP`]): they queue in a lane of their own, which
    /// never waits behind dear searches however long those have taken.
    pub fn is_cheap(self) -> bool {
        self.prior() < CHEAP.as_secs_f64()
    }
}

/// Searches whose kind is expected to take less than this go to the cheap lane.
pub const CHEAP: Duration = Duration::from_millis(5);

/// The weight of the newest search in the running mean of its kind.
const NEWEST: f64 = 0.2;

/// The expected costs by kind: a first guess, then the running mean of what searches of that
/// kind took on this server.
#[derive(Debug, Default)]
pub struct Costs {
    seen: Mutex<HashMap<Kind, f64>>,
}

impl Costs {
    /// The expected seconds of a search of `kind` limited to `limit`.
    pub fn expected(&self, kind: Kind, limit: Duration) -> Duration {
        let mean = self
            .seen
            .lock()
            .map(|m| m.get(&kind).copied())
            .unwrap_or(None)
            .unwrap_or_else(|| kind.prior());
        Duration::from_secs_f64(mean.clamp(1e-6, limit.as_secs_f64().max(1e-6)))
    }

    /// Records that a search of `kind` took `took`.
    pub fn record(&self, kind: Kind, took: Duration) {
        let t = took.as_secs_f64();
        if let Ok(mut m) = self.seen.lock() {
            m.entry(kind)
                .and_modify(|mean| *mean += NEWEST * (t - *mean))
                .or_insert(t);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(w: usize, algorithm: AlgorithmName, pdb: bool) -> Kind {
        Kind {
            width: w,
            height: w,
            algorithm,
            pdb,
        }
    }

    #[test]
    fn guesses_grow_with_the_board_and_stay_within_the_limit() {
        let c = Costs::default();
        let long = Duration::from_secs(60);
        let small = c.expected(kind(3, AlgorithmName::Ida, false), long);
        let big = c.expected(kind(4, AlgorithmName::Ida, true), long);
        let bigger = c.expected(kind(5, AlgorithmName::Ida, true), long);
        assert!(small < Duration::from_millis(10), "{small:?}");
        assert!(small < big && big < bigger);
        let limit = Duration::from_millis(5);
        assert_eq!(c.expected(kind(5, AlgorithmName::Bfs, false), limit), limit);
    }

    #[test]
    fn the_mean_follows_what_searches_took() {
        let c = Costs::default();
        let k = kind(4, AlgorithmName::Ida, true);
        let long = Duration::from_secs(60);
        c.record(k, Duration::from_millis(10));
        assert_eq!(c.expected(k, long), Duration::from_millis(10));
        for _ in 0..50 {
            c.record(k, Duration::from_millis(100));
        }
        let e = c.expected(k, long).as_secs_f64();
        assert!((e - 0.1).abs() < 0.001, "{e}");
        // Other kinds keep their own.
        let other = c.expected(kind(3, AlgorithmName::Ida, true), long);
        assert!(other < Duration::from_millis(10));
    }
}
