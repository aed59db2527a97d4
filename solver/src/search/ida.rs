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

//!
//! **Order of children**: the move table's fixed order (the blank towards its goal corner
//! first), except within the first levels below the start, where each iteration orders the
//! children by what the previous one found in their subtrees (`search/history.rs`): the last
//! iteration then tends to meet the goal sooner. A resumable search keeps the fixed order
//! everywhere.
//!
//! **Long searches**: with [`Search::observer`] the search reports each finished iteration
//! ([`super::observer::Iteration`]). A [resumable](Ida::resumable) one also reports
//! checkpoints ([`SearchState`]), one when a limit or [`Search::interrupt`] stops it within an
//! iteration and one every [`Ida::checkpoint_every`]: the search pauses at the next node,
//! reports where it stands, and goes on from there (redoing only the unfinished subtree below
//! the cut depth). [`Ida::resume`] starts it from such a state; the node counts come out as if
//! it had never stopped.

use super::bounded::{Budget, Cursor, Local, Probe};
use super::history::History;
use super::observer::{Event, Tracker};
use super::{goal_array, Clock, Ida, Outcome, Search, Stats, Stop};
use crate::checkpoint::{SearchState, CUT_DEPTH};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, NO_CELL};
use pdbformat::Goal;
use std::time::Instant;

/// Runs IDA* from `start` to `goal` with the heuristic `h` (prepared for `goal`), with
/// `settings`, within the limits of `search`. The caller checks solvability and the board's
/// size first.
pub(crate) fn search<H: Heuristic>(
    h: &H,
    goal: &Goal,
    start: &Position,
    settings: &Ida,
    search: &Search,
) -> Outcome {
    let clock = search.clock();
    let board = goal.board();
    let moves = MoveTable::for_goal(goal);
    let goal_tiles = goal_array(goal);
    let pruner = settings.pruning.machine(board);
    let history = (!settings.is_resumable()).then(|| History::new(board.cells()));
    let mut probe = Probe::new(
        h,
        &moves,
        &pruner,
        &goal_tiles,
        Local::new(clock.clone(), 0),
    );
    let resumable = settings.is_resumable();
    let tracking = resumable && (search.observer.is_some() || settings.resume.is_some());
    probe.cursor = Cursor::new(if tracking { CUT_DEPTH } else { 0 });
    probe.history = history.as_ref();
    // The start's parts serve every iteration (for `bit1` tables they take a walk per table).
    let parts = h.init(&start.tiles);
    let h0 = h.value(&parts);
    probe.seed(start.tiles, parts.clone());
    // Every move moves the blank to a cell of the other colour of the checkerboard.
    let goal_blank = goal.tiles().iter().position(|&t| t == 0).unwrap_or(0);
    let parity = (board.manhattan(start.blank as usize, goal_blank) & 1) as u32;
    let tell = |e: Event| {
        if let Some(o) = &search.observer {
            o.tell(&e)
        }
    };
    let mut tracker = Tracker::default();
    let (mut bound, mut iterations, mut iteration_start_nodes) = (h0, 1u32, 0u64);
    if let Some(r) = &settings.resume {
        (bound, iterations, iteration_start_nodes) =
            (r.bound, r.iteration, r.iteration_start_nodes);
        probe.nodes = r.nodes;
        probe.expanded = r.expanded;
        probe.next_bound = r.next_bound.unwrap_or(u32::MAX);
        probe.cursor.resume_at(&r.path);
    }
    let session_start_nodes = probe.nodes;
    let mut next_pause = settings.checkpoint_every.map(|d| Instant::now() + d);
    let mut iteration_t0 = Instant::now();
    let mut fresh = settings.resume.is_none();
    let mut stop = None;
    let found = loop {
        if fresh {
            probe.reset_bound();
            iteration_start_nodes = probe.nodes;
            iteration_t0 = Instant::now();
        }
        fresh = true;
        let segment = next_pause.map_or_else(|| clock.clone(), |t| clock.until(t));
        probe.budget = Local::new(segment, probe.nodes - session_start_nodes);
        if probe.search(start, 0, h0, NO_CELL, bound) {
            break true;
        }
        if probe.interrupted {
            stop = match probe.budget.stop() {
                // The segment's deadline: the search's own, or only the next pause.
                Some(Stop::Time) => clock.time_up(),
                s => s,
            };
            if tracking {
                let path = probe.cursor.stopped_path().to_vec();
                let n = path.len();
                let state = SearchState {
                    initial_h: h0,
                    iteration: iterations,
                    bound,
                    next_bound: (probe.next_bound != u32::MAX).then_some(probe.next_bound),
                    nodes: probe.cursor.nodes_at[n - 1] - (n as u64 - 1),
                    expanded: probe.cursor.expanded_at[n - 1] - n as u64,
                    iteration_start_nodes,
                    path,
                };
                tell(Event::Checkpoint(state.clone()));
                if stop.is_none() {
                    // A pause: go on from the state just reported.
                    probe.nodes = state.nodes;
                    probe.expanded = state.expanded;
                    probe.cursor.resume_at(&state.path);
                    next_pause = settings.checkpoint_every.map(|d| Instant::now() + d);
                    fresh = false;
                    continue;
                }
            }
            break false;
        }
        // Boards of at least 2x2 always have children, so a next bound exists.
        if search.observer.is_some() {
            tell(Event::Iteration(tracker.finish(
                iterations,
                bound,
                probe.next_bound,
                probe.nodes - iteration_start_nodes,
                probe.nodes,
                iteration_t0.elapsed().as_secs_f64(),
                clock.seconds(),
            )));
        }
        bound = probe.next_bound;
        iterations += 1;
    };
    let detail = format!(
        "{iterations} iteration{}",
        if iterations == 1 { "" } else { "s" }
    );
    let path = found.then(|| std::mem::take(&mut probe.path));
    let sizes = (probe.nodes, probe.expanded);
    outcome(
        path, stop, sizes, iterations, h0, bound, parity, detail, &clock,
    )
}

/// The outcome of a search that ended at `bound` after `iterations`, having generated and
/// expanded `sizes` nodes, with the solution `path` if one was found, else the limit `stop`.
#[allow(clippy::too_many_arguments)]
fn outcome(
    path: Option<Vec<u8>>,
    stop: Option<Stop>,
    sizes: (u64, u64),
    iterations: u32,
    h0: u32,
    bound: u32,
    parity: u32,
    detail: String,
    clock: &Clock,
) -> Outcome {
    // No solution is shorter than the bound, and its length has the blank's parity.
    let lower_bound = if path.is_some() {
        bound
    } else {
        bound + ((bound + parity) & 1)
    };
    let stats = Stats {
        nodes: sizes.0,
        expanded: sizes.1,
        iterations,
        initial_h: h0,
        lower_bound,
        stored: 0,
        // The path and the position: IDA* holds nothing else.
        peak_memory: (bound as usize + 1 + std::mem::size_of::<Position>()) as u64,
        per_thread: Vec::new(),
        detail,
        seconds: clock.seconds(),
    };
    Outcome { path, stop, stats }
}
