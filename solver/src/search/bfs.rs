//! Breadth-first search: optimal without a heuristic, for boards whose state space fits in
//! memory.
//!
//! Level by level from the start; every position generated is kept in a hash table (packed
//! key → the blank's cell in its parent), so each is expanded once, and the goal is recognised
//! when it is generated (the first time a position is reached is by a shortest path). A board
//! of `n` cells has `n!/2` positions that can reach a given goal; [`check_fits`] refuses boards
//! where they would not fit in the memory limit (the 15-puzzle's 10^13 positions do not; the
//! 8-puzzle's 181,440 take a few MB). The search also stops cleanly if its table outgrows the
//! limit on the way.

use super::astar::with_key;
use super::{goal_array, Clock, Outcome, Search, Stats, Stop};
use crate::key::{map_bytes, map_bytes_next, Layout, Packed, PosMap};
use crate::position::{MoveTable, Position, MAX_CELLS, NO_CELL};
use pdbformat::units::{approx_bytes, approx_count};
use pdbformat::{Board, Goal};

/// Positions of `board` that can reach a given goal: `n!/2` (as a float: it overflows).
pub fn state_space(board: Board) -> f64 {
    (2..=board.cells()).map(|k| k as f64).product::<f64>() / 2.0
}

/// Estimated bytes per position held: a table slot and control byte (at 7/8 load at most,
/// so up to twice that just after growing) and a queue entry.
pub fn bytes_per_position(board: Board) -> u64 {
    fn per<K: Packed>() -> u64 {
        map_bytes::<K, u8>(7 << 20) / (7 << 20) + std::mem::size_of::<K>() as u64
    }
    with_key!(board.cells(), K => per::<K>())
}

/// Whether the whole state space of `board` fits in `max_memory` bytes; an error that says
/// how much it would need otherwise.
pub fn check_fits(board: Board, max_memory: u64) -> Result<(), String> {
    let states = state_space(board);
    let need = states * bytes_per_position(board) as f64;
    if need > max_memory as f64 {
        return Err(format!(
            "breadth-first search keeps every position it reaches: the {board} board has {} positions that reach the goal, about {} of memory, more than the limit of {} (use --max-memory to change it, or an algorithm with a heuristic: ida, astar)",
            approx_count(states),
            approx_bytes(need),
            approx_bytes(max_memory as f64)
        ));
    }
    Ok(())
}

/// Runs breadth-first search from `start` to `goal`. The caller checks [`check_fits`] first
/// if it wants to refuse hopeless boards; the search itself stops at the memory limit.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search(goal: &Goal, start: &Position, search: &Search) -> Outcome {
    with_key!(goal.board().cells(), K => run::<K>(goal, start, search))
}

fn run<K: Packed>(goal: &Goal, start: &Position, search: &Search) -> Outcome {
    let moves = MoveTable::new(goal.board());
    let detail = "level by level, goal tested when generated";
    let mut bfs = Levels::<K>::new(goal, start, search, detail);
    bfs.run(|bfs, key, blank, prev, tiles| {
        for &n in moves.targets(blank) {
            if n != prev && !bfs.child(bfs.layout.slide(key, tiles[n as usize], n, blank), blank) {
                return false;
            }
        }
        true
    });
    let (found, stop, depth) = (bfs.found, bfs.stop, bfs.depth);
    let stats = bfs.finish();
    match found {
        Some(k) => Outcome::solved(bfs.layout.trace(k, |k| bfs.map.get(k).copied()), stats),
        // Every position within `depth` moves has been generated.
        None => Outcome::unsolved(stop, depth + 1, stats),
    }
}

/// The level-by-level search of both metrics (`bfs.rs`, `mtm_bfs.rs`), over keys `K`: every
/// position generated kept in a hash table (packed key → the blank's cell in its parent), each
/// expanded once, the goal recognised when generated; the limits checked before every node.
/// A metric gives [`Levels::run`] the children of a node, each through [`Levels::child`].
pub(super) struct Levels<K: Packed> {
    pub(super) layout: Layout,
    pub(super) map: PosMap<K, u8>,
    level: Vec<K>,
    next: Vec<K>,
    stats: Stats,
    clock: Clock,
    max_memory: u64,
    goal_key: K,
    pub(super) start_key: K,
    /// The goal, once generated.
    pub(super) found: Option<K>,
    /// The limit that stopped the search, if one did.
    pub(super) stop: Option<Stop>,
    /// The level being expanded (its positions are `depth` moves from the start).
    pub(super) depth: u32,
}

impl<K: Packed> Levels<K> {
    /// The search from `start` to `goal` under `search`'s limits, its report's detail `detail`.
    pub(super) fn new(goal: &Goal, start: &Position, search: &Search, detail: &str) -> Self {
        let layout = Layout::new(goal.board().cells());
        let start_key: K = layout.pack(&start.tiles);
        let goal_key: K = layout.pack(&goal_array(goal));
        let mut map: PosMap<K, u8> = PosMap::default();
        map.insert(start_key, NO_CELL);
        Levels {
            layout,
            map,
            level: vec![start_key],
            next: Vec::new(),
            stats: Stats {
                detail: detail.into(),
                ..Stats::default()
            },
            clock: search.clock(),
            max_memory: search.limits.memory_limit(),
            goal_key,
            start_key,
            found: (start_key == goal_key).then_some(start_key),
            stop: None,
            depth: 0,
        }
    }

    /// Bytes of the two levels' queues.
    fn queue_bytes(&self) -> u64 {
        ((self.level.capacity() + self.next.capacity()) * std::mem::size_of::<K>()) as u64
    }

    /// Expands the levels until the goal is generated, a limit stops the search or nothing is
    /// left: `expand(self, key, blank, prev, tiles)` generates the children of the position
    /// `key` (its tiles, its blank's cell, the blank's cell in its parent) through
    /// [`Levels::child`], and returns false as soon as that does.
    pub(super) fn run(
        &mut self,
        mut expand: impl FnMut(&mut Self, K, u8, u8, &[u8; MAX_CELLS]) -> bool,
    ) {
        let mut tiles = [0u8; MAX_CELLS];
        'search: while self.found.is_none() && !self.level.is_empty() {
            for i in 0..self.level.len() {
                let key = self.level[i];
                let blank = self.layout.unpack(key, &mut tiles);
                let prev = self.map.get(&key).copied().unwrap_or(NO_CELL);
                self.stats.expanded += 1;
                if !expand(self, key, blank, prev, &tiles) {
                    break 'search;
                }
            }
            self.depth += 1;
            std::mem::swap(&mut self.level, &mut self.next);
            self.next.clear();
        }
    }

    /// The child `child` of the position being expanded, whose blank is on `blank`: counted
    /// and, when new, stored and queued for the next level. False when the search ends here:
    /// the child is the goal, or a limit (nodes, time, memory) stops it before the child.
    pub(super) fn child(&mut self, child: K, blank: u8) -> bool {
        let (now, est) = map_bytes_next(&self.map);
        let q = self.queue_bytes();
        self.stats.peak_memory = self.stats.peak_memory.max(now + q);
        let full = self.next.len() == self.next.capacity();
        let over = (est + q + full as u64 * q > self.max_memory).then_some(Stop::Memory);
        if let Some(s) = self.clock.check(self.stats.nodes).or(over) {
            self.stop = Some(s);
            return false;
        }
        self.stats.nodes += 1;
        if let std::collections::hash_map::Entry::Vacant(v) = self.map.entry(child) {
            v.insert(blank);
            if child == self.goal_key {
                self.found = Some(child);
                return false;
            }
            self.next.push(child);
        }
        true
    }

    /// What the search cost, once it has ended.
    pub(super) fn finish(&mut self) -> Stats {
        self.stats.stored = self.map.len() as u64;
        let held = map_bytes_next(&self.map).0 + self.queue_bytes();
        self.stats.peak_memory = self.stats.peak_memory.max(held);
        self.stats.seconds = self.clock.seconds();
        std::mem::take(&mut self.stats)
    }
}
