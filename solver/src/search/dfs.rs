//! Depth-limited depth-first search: the teaching baseline. Not optimal.
//!
//! It returns the first solution it meets within a depth limit. Children are tried in order
//! of their estimate (smallest first, so the search heads for the goal greedily), and a
//! branch is cut when `g + h` exceeds the limit: the admissible estimate proves that no
//! solution within the limit lies below it. Without a fixed limit the search starts at twice
//! the start's estimate (at least 2) and doubles the limit each time the tree is exhausted,
//! so it always ends with some solution; with [`Dfs::depth_limit`] it runs once and may
//! report that no solution exists within the limit. Solutions are usually far longer than
//! optimal: depth-first search takes the first path it finds, not the shortest.

use super::{goal_array, Clock, Dfs, Outcome, Search, Stats, Stop};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS, NO_CELL};
use pdbformat::Goal;

/// Runs depth-limited DFS from `start` to `goal` with `h`.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search<H: Heuristic>(
    h: &H,
    goal: &Goal,
    start: &Position,
    settings: &Dfs,
    search: &Search,
) -> Outcome {
    let clock = search.clock();
    let moves = MoveTable::new(goal.board());
    let goal_tiles = goal_array(goal);
    let parts = h.init(&start.tiles);
    let h0 = h.value(&parts);
    let mut d = Walk {
        h,
        parts,
        position: start.clone(),
        moves: &moves,
        goal: goal_tiles,
        clock: &clock,
        path: Vec::new(),
        nodes: 0,
        expanded: 0,
        limit: 0,
        stop: None,
    };
    let mut limit = settings.depth_limit.unwrap_or((2 * h0).max(2));
    let mut iterations = 0;
    let found = loop {
        iterations += 1;
        d.limit = limit;
        d.path.clear();
        if h0 <= limit && d.dfs(0, h0, NO_CELL) {
            break true;
        }
        if d.stop.is_some() || settings.depth_limit.is_some() {
            break false;
        }
        limit = limit.saturating_mul(2);
    };
    let stats = Stats {
        nodes: d.nodes,
        expanded: d.expanded,
        iterations,
        initial_h: h0,
        lower_bound: 0,
        stored: 0,
        peak_memory: (d.path.capacity() + std::mem::size_of::<Position>()) as u64,
        per_thread: Vec::new(),
        detail: format!("depth limit {limit}, children by smallest h"),
        seconds: clock.seconds(),
    };
    Outcome {
        path: found.then_some(d.path),
        stop: d.stop,
        stats,
    }
}

/// The walk of one depth-limited search.
struct Walk<'a, H: Heuristic> {
    h: &'a H,
    parts: H::Parts,
    position: Position,
    moves: &'a MoveTable,
    goal: [u8; MAX_CELLS],
    clock: &'a Clock,
    path: Vec<u8>,
    nodes: u64,
    expanded: u64,
    limit: u32,
    stop: Option<Stop>,
}

impl<H: Heuristic> Walk<'_, H> {
    fn dfs(&mut self, g: u32, hval: u32, prev: u8) -> bool {
        if hval == 0 && self.position.tiles == self.goal {
            return true;
        }
        self.expanded += 1;
        let blank = self.position.blank;
        let moves = self.moves;
        // Generate the children, note their estimates, and order them.
        let mut kids = [(u32::MAX, NO_CELL); 4];
        let mut count = 0;
        for &next in moves.targets(blank) {
            if next == prev {
                continue;
            }
            if let Some(s) = self.clock.check(self.nodes) {
                self.stop = Some(s);
                return false;
            }
            self.nodes += 1;
            let (tile, hv, undo) = self.enter(next, blank);
            self.leave(tile, next, blank, undo);
            kids[count] = (hv, next);
            count += 1;
        }
        kids[..count].sort_unstable();
        for &(hv, next) in &kids[..count] {
            if g + 1 + hv > self.limit {
                break;
            }
            let (tile, _, undo) = self.enter(next, blank);
            self.path.push(next);
            if self.dfs(g + 1, hv, blank) {
                return true;
            }
            if self.stop.is_some() {
                return false;
            }
            self.path.pop();
            self.leave(tile, next, blank, undo);
        }
        false
    }

    /// Moves the blank to `next` (the tile there slides to `blank`) and updates the
    /// heuristic's parts: the tile, the child's estimate, and what undoes the update.
    fn enter(&mut self, next: u8, blank: u8) -> (u8, u32, H::Undo) {
        let tile = self.position.slide(next);
        let p = self.h.prepare(&self.parts, tile, next, blank);
        let tiles = &self.position.tiles;
        let (hv, undo) = self
            .h
            .apply(&mut self.parts, tiles, tile, next, blank, u32::MAX, &p);
        (tile, hv, undo)
    }

    /// Undoes [`Walk::enter`]: the blank back on `blank`, the parts as they were.
    fn leave(&mut self, tile: u8, next: u8, blank: u8, undo: H::Undo) {
        self.h.undo(&mut self.parts, tile, next, blank, undo);
        self.position.slide(blank);
    }
}
