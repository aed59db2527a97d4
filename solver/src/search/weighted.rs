//! Weighted A* (`f = g + w·h`) and greedy best-first search (`f = h`): fast, not optimal.
//!
//! The engine of [`super::astar`] with a binary heap ordered by `g + w·h` (in fixed point,
//! `w` to 1/1024; ties by smaller `h`) or, for `w = ∞`, by `h` alone (ties by smaller `g`).
//! Closed nodes are never reopened, the usual choice for weighted searches: with a consistent
//! heuristic the solution is still at most `w` times the optimum; greedy search promises no
//! bound. The larger `w`, the fewer nodes and the longer the solutions; both work on boards
//! far beyond optimal search (5×5, 6×6, up to 64 cells) as long as the table fits in memory.

use super::astar::{finish, with_key, Engine, Priority};
use super::bucket_queue::HeapQueue;
use super::{Outcome, Search, Weighted};
use crate::heuristic::Heuristic;
use crate::position::Position;
use pdbformat::Goal;

/// The priority for weight `w` (at least 1; infinity for greedy).
fn priority(w: f64) -> Priority {
    if w.is_infinite() {
        Priority::Greedy
    } else {
        Priority::Weighted((w * 1024.0).round() as u64)
    }
}

/// Runs weighted A* (or greedy best-first search for an infinite weight) from `start` to
/// `goal` with `h`.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search<H: Heuristic>(
    h: &H,
    goal: &Goal,
    start: &Position,
    settings: &Weighted,
    search: &Search,
) -> Outcome {
    let prio = priority(settings.weight);
    with_key!(goal.board().cells(), K => {
        let mut e = Engine::<H, K, _>::new(
            h, goal, start, search, HeapQueue::default(), prio, false,
        );
        let end = e.run(u64::MAX);
        let mut out = finish(&mut e, end, false);
        out.stats.detail = format!("{}, {}", out.stats.detail, settings.describe());
        out
    })
}
