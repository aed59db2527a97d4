//! Weighted A* (`f = g + w·h`) and greedy best-first search (`f = h`): fast, not optimal.
//!
//! The engine of [`super::astar`] with a binary heap ordered by `g + w·h` (in fixed point,
//! `w` to 1/1024; ties by smaller `h`) or, for `w = ∞`, by `h` alone (ties by smaller `g`).
//! Closed nodes are never reopened, the usual choice for weighted searches: with a consistent
//! heuristic the solution is still at most `w` times the optimum; greedy search promises no
//! bound. The larger `w`, the fewer nodes and the longer the solutions; both work on boards
//! far beyond optimal search (5×5, 6×6, up to 64 cells) as long as the table fits in memory.
//!
//! The lower bound reported is the start's estimate, and with a consistent heuristic the
//! solution's length divided by `w` ([`proven_bound`]).

use super::astar::{finish, with_key, Engine, Priority};
use super::bucket_queue::HeapQueue;
use super::{Outcome, Search, Weighted};
use crate::heuristic::{Heuristic, StepChange};
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

/// The lower bound that a solution of `length` moves found with weight `w` proves: with a
/// consistent heuristic (one that changes by at most 1 per move) the solution is at most `w`
/// times the optimum (the fixed-point weight, rounded up), so the optimum is at least
/// `length / w`; otherwise nothing beyond the start's estimate, which the caller adds.
fn proven_bound<H: Heuristic>(h: &H, w: f64, length: Option<usize>) -> u32 {
    match (length, h.step_change()) {
        (Some(len), StepChange::AtMostOne | StepChange::ExactlyOne) if w.is_finite() => {
            let w = ((w * 1024.0).round() / 1024.0).max(1.0);
            // A hair below the quotient, so that rounding never claims too much.
            ((len as f64 / w) - 1e-9).ceil().max(0.0) as u32
        }
        _ => 0,
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
        out.stats.lower_bound = proven_bound(h, settings.weight, out.path.as_ref().map(Vec::len));
        out.stats.detail = format!("{}, {}", out.stats.detail, settings.describe());
        out
    })
}
