//! Iterative-deepening A* (IDA*): cost-bounded depth-first searches from the start with a
//! growing bound.
//!
//! The first bound is the start's estimate, each next bound the smallest `g + h` that exceeded
//! the previous one. With an admissible heuristic the first solution found is optimal. Each
//! iteration is one run of the depth-first loop of `search/bounded.rs` under the search's own
//! node and time budget.
//!
//! **Node counting** (the convention of every search, see [`super`]): `nodes` counts
//! *generated* nodes, every child made by a move, including children pruned at once because
//! `g + h` exceeds the bound, summed over all iterations (the start is not counted);
//! `expanded` counts nodes whose children were generated. Both include the last, successful
//! iteration up to the moment the goal is found.

use super::bounded::{Budget, Local, Probe};
use super::{estimate, goal_array, Clock, Options, Outcome, Stats};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, NO_CELL};
use pdbformat::Goal;

/// Runs IDA* from `start` to `goal` with the heuristic `h` (prepared for `goal`), within
/// `opts.limits`. The caller checks solvability and the board's size first.
pub fn search<H: Heuristic>(h: &H, goal: &Goal, start: &Position, opts: &Options) -> Outcome {
    let clock = Clock::new(&opts.limits);
    let moves = MoveTable::new(goal.board());
    let goal_tiles = goal_array(goal);
    let pruner = opts.pruner(goal.board());
    let mut probe = Probe::new(h, &moves, &pruner, &goal_tiles, Local::new(clock, 0));
    let h0 = estimate(h, &start.tiles);
    let mut bound = h0;
    let mut iterations = 0u32;
    let found = loop {
        iterations += 1;
        probe.reset_bound();
        if probe.search(start, 0, h0, NO_CELL, bound) {
            break true;
        }
        if probe.interrupted {
            break false;
        }
        // Boards of at least 2x2 always have children, so a next bound exists.
        bound = probe.next_bound;
    };
    let stats = Stats {
        nodes: probe.nodes,
        expanded: probe.expanded,
        iterations,
        initial_h: h0,
        lower_bound: bound,
        stored: 0,
        // The path and the position: IDA* holds nothing else.
        peak_memory: (bound as usize + 1 + std::mem::size_of::<Position>()) as u64,
        per_thread: Vec::new(),
        detail: format!(
            "{iterations} iteration{}",
            if iterations == 1 { "" } else { "s" }
        ),
        seconds: probe.budget.clock().seconds(),
    };
    Outcome {
        path: found.then(|| std::mem::take(&mut probe.path)),
        stop: probe.budget.stop(),
        stats,
    }
}
