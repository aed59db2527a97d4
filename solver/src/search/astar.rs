//! A* with duplicate detection, a bucket queue where the heuristic allows it, and a memory
//! limit that stops the search cleanly.
//!
//! Every position generated is kept in one hash table (packed key → best `g` found, the
//! blank's cell in the parent, closed or open). A child already in the table is dropped
//! unless the new path is shorter; then its entry is updated and it is pushed again (the old
//! queue entry becomes stale and is skipped when popped). With a heuristic that only promises
//! admissibility a closed node reached by a shorter path is *reopened*, which keeps A*
//! optimal; with a consistent one that never happens. The goal test is made when a node is
//! popped, so the first goal popped is optimal.
//!
//! The open list is chosen from the heuristic's [`StepChange`] (see [`super::bucket_queue`]).
//! The children's estimates are updated incrementally from the parent's, whose heuristic
//! parts are rebuilt from the packed position when it is popped, with the heuristic's memo
//! kept for every stored position ([`Heuristic::memo_len`]: for `bit1` tables a byte per
//! table and view, their exact values, which `init` would find only by a walk to the goal).
//!
//! The same engine, with other priorities and without reopening, runs weighted A* and greedy
//! best-first search ([`super::weighted`]); with a node budget it is the first phase of
//! [`super::hybrid`].

use super::bucket_queue::{BucketQueue, HeapQueue, OpenList, TwoBucketQueue};
use super::{Clock, Outcome, Search, Stats, Stop};
use crate::heuristic::{Heuristic, StepChange};
use crate::key::{map_bytes_next, Layout, Packed, PosMap};
use crate::position::{MoveTable, Position, MAX_CELLS, NO_CELL};
use pdbformat::Goal;
use std::collections::hash_map::Entry;

/// What the table keeps about a position, in eight bytes (with a `u64` key, 16 bytes a slot):
/// the shortest path cost found, the blank's cell in the parent on that path, whether it has
/// been expanded, and the number of its heuristic memo.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Bits 0-23: the cost `g`; bits 24-30: the parent's blank cell plus one (0 for the
    /// start); bit 31: closed (expanded, and not reopened since).
    word: u32,
    /// The position's memo in [`Engine::memos`] (see [`Heuristic::memo_len`]), counted in
    /// memos; unused when the heuristic keeps none.
    pub memo: u32,
}

impl Node {
    /// The largest cost a node holds: a search whose paths grow longer stops as if memory
    /// were full (no search that stores positions gets near it).
    pub const MAX_G: u32 = (1 << 24) - 1;

    /// An open node of cost `g` (at most [`Node::MAX_G`]) reached from the parent whose blank
    /// was on `prev` (`NO_CELL` for none).
    pub(crate) fn new(g: u32, prev: u8, memo: u32) -> Node {
        debug_assert!(g <= Node::MAX_G);
        let prev = if prev == NO_CELL { 0 } else { prev as u32 + 1 };
        Node {
            word: g | prev << 24,
            memo,
        }
    }

    /// The shortest path cost found.
    pub fn g(&self) -> u32 {
        self.word & Node::MAX_G
    }

    /// The blank's cell in the parent on that path (`NO_CELL` for the start).
    pub fn prev(&self) -> u8 {
        match (self.word >> 24) & 0x7f {
            0 => NO_CELL,
            p => p as u8 - 1,
        }
    }

    /// Whether it has been expanded (and not reopened since).
    pub fn closed(&self) -> bool {
        self.word >> 31 != 0
    }

    /// Marks it expanded, or open again.
    pub fn set_closed(&mut self, closed: bool) {
        self.word = (self.word & !(1 << 31)) | (closed as u32) << 31;
    }
}

/// How the open list is ordered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Priority {
    /// `f = g + h`, ties by smaller `h`.
    AStar,
    /// `g + w·h` in fixed point (`w` × 1024), ties by smaller `h`.
    Weighted(u64),
    /// `h`, ties by smaller `g`.
    Greedy,
}

impl Priority {
    #[inline(always)]
    fn of(self, g: u32, h: u32) -> (u64, u32) {
        match self {
            Priority::AStar => (g as u64 + h as u64, h),
            Priority::Weighted(w) => (g as u64 * 1024 + w * h as u64, h),
            Priority::Greedy => (h as u64, g),
        }
    }
}

/// How a run of the engine ended.
pub(crate) enum Step<K> {
    /// The goal was popped.
    Found(K),
    /// A limit stopped it; the node being expanded was put back.
    Stopped(Stop),
    /// The table holds as many positions as the budget allows.
    Budget,
    /// The open list is empty (an unsolvable start, or a bug).
    Exhausted,
}

/// The A* engine over keys `K` and open list `Q`.
pub(crate) struct Engine<'a, H: Heuristic, K: Packed, Q: OpenList<K>> {
    h: &'a H,
    layout: Layout,
    moves: MoveTable,
    goal_key: K,
    pub(crate) map: PosMap<K, Node>,
    /// Every stored position's heuristic memo, `memo_len` bytes each, in the order the
    /// positions were first stored: what rebuilds a popped position's parts without
    /// [`Heuristic::init`] (a walk to the goal per `bit1` table).
    memos: Vec<u8>,
    memo_len: usize,
    /// The start's parts: the buffer a run clones once and restores popped positions into.
    start_parts: H::Parts,
    pub(crate) open: Q,
    priority: Priority,
    reopen: bool,
    pub(crate) nodes: u64,
    pub(crate) expanded: u64,
    pub(crate) peak: u64,
    pub(crate) stored_peak: u64,
    pub(crate) clock: Clock,
    max_memory: u64,
    pub(crate) initial_h: u32,
}

impl<'a, H: Heuristic, K: Packed, Q: OpenList<K>> Engine<'a, H, K, Q> {
    /// An engine with the start position in its open list.
    pub(crate) fn new(
        h: &'a H,
        goal: &Goal,
        start: &Position,
        search: &Search,
        open: Q,
        priority: Priority,
        reopen: bool,
    ) -> Self {
        let board = goal.board();
        let layout = Layout::new(board.cells());
        let goal_key = layout.pack(&super::goal_array(goal));
        let start_parts = h.init(&start.tiles);
        let initial_h = h.value(&start_parts);
        let memo_len = h.memo_len();
        let mut e = Engine {
            h,
            layout,
            moves: MoveTable::new(board),
            goal_key,
            map: PosMap::default(),
            memos: Vec::new(),
            memo_len,
            open,
            priority,
            reopen,
            nodes: 0,
            expanded: 0,
            peak: 0,
            stored_peak: 0,
            clock: search.clock(),
            max_memory: search.limits.memory_limit(),
            initial_h,
            start_parts,
        };
        let key = layout.pack(&start.tiles);
        let memo = keep_memo(h, &mut e.memos, memo_len, &e.start_parts);
        e.map.insert(key, Node::new(0, NO_CELL, memo));
        let (p, t) = priority.of(0, initial_h);
        e.open.push(p, t, 0, key);
        e
    }

    /// Estimated bytes now, and at the peak of the next insertion.
    fn memory(&self) -> (u64, u64) {
        let (m, m2) = map_bytes_next(&self.map);
        let (q, q2) = self.open.bytes();
        let k = self.memos.capacity() as u64;
        let k2 = if self.memos.len() + self.memo_len > self.memos.capacity() {
            // Growing: the old buffer and one of twice the size (or the first) at once.
            k + (2 * k).max(self.memo_len as u64 * 8)
        } else {
            k
        };
        (m + q + k, m2.max(m) + q2.max(q) + k2)
    }

    /// The heuristic memo of the stored position whose node is `node`.
    pub(crate) fn memo(&self, node: &Node) -> &[u8] {
        let at = node.memo as usize * self.memo_len;
        &self.memos[at..at + self.memo_len]
    }

    /// Expands nodes until the goal is popped, a limit stops the search, or the table holds
    /// `max_stored` positions.
    pub(crate) fn run(&mut self, max_stored: u64) -> Step<K> {
        let mut tiles = [0u8; MAX_CELLS];
        // One set of parts, rebuilt in place for every popped position.
        let mut parts = self.start_parts.clone();
        while let Some((prio, g, key)) = self.open.pop() {
            let node = match self.map.get_mut(&key) {
                Some(n) if !n.closed() && n.g() == g => n,
                _ => continue, // stale: a shorter path or an expansion came first
            };
            if key == self.goal_key {
                return Step::Found(key);
            }
            node.set_closed(true);
            let node = *node;
            let prev = node.prev();
            let blank = self.layout.unpack(key, &mut tiles);
            self.h.restore(&mut parts, &tiles, self.memo(&node));
            let h_here = self.h.value(&parts);
            self.expanded += 1;
            let moves = self.moves.targets(blank);
            for &next in moves {
                if next == prev {
                    continue;
                }
                let stop = self.clock.check(self.nodes);
                let (_, est) = self.memory();
                // A memo number is a `u32` and a cost 24 bits: 2^32 positions, or paths of
                // 2^24 moves, count as memory full too.
                let full = est > self.max_memory
                    || self.map.len() >= u32::MAX as usize
                    || g >= Node::MAX_G;
                let stop = stop.or(full.then_some(Stop::Memory));
                if let Some(stop) = stop {
                    // Put the node back so that the table and open list stay coherent (its
                    // children already pushed are found again as duplicates).
                    if let Some(n) = self.map.get_mut(&key) {
                        n.set_closed(false);
                    }
                    let (p, t) = self.priority.of(g, h_here);
                    debug_assert_eq!(p, prio);
                    self.open.push(p, t, g, key);
                    return Step::Stopped(stop);
                }
                self.nodes += 1;
                let tile = tiles[next as usize];
                tiles[blank as usize] = tile;
                tiles[next as usize] = 0;
                let pending = self.h.prepare(&parts, tile, next, blank);
                let (hv, undo) =
                    self.h
                        .apply(&mut parts, &tiles, tile, next, blank, u32::MAX, &pending);
                let ck = self.layout.slide(key, tile, next, blank);
                let cg = g + 1;
                let push = match self.map.entry(ck) {
                    Entry::Vacant(v) => {
                        // A new position: its parts are complete (applied without a limit).
                        let memo = keep_memo(self.h, &mut self.memos, self.memo_len, &parts);
                        v.insert(Node::new(cg, blank, memo));
                        true
                    }
                    Entry::Occupied(mut o) => {
                        let n = o.get_mut();
                        if cg < n.g() && (self.reopen || !n.closed()) {
                            // The same position: its memo stays.
                            *n = Node::new(cg, blank, n.memo);
                            true
                        } else {
                            false
                        }
                    }
                };
                if push {
                    let (p, t) = self.priority.of(cg, hv);
                    self.open.push(p, t, cg, ck);
                }
                self.h.undo(&mut parts, tile, next, blank, undo);
                tiles[next as usize] = tile;
                tiles[blank as usize] = 0;
            }
            let (now, _) = self.memory();
            self.peak = self.peak.max(now);
            self.stored_peak = self.stored_peak.max(self.map.len() as u64);
            if self.map.len() as u64 >= max_stored {
                return Step::Budget;
            }
        }
        Step::Exhausted
    }

    /// The blank's cells after each move on the recorded path from the start to `key`.
    pub(crate) fn path_to(&self, key: K) -> Vec<u8> {
        self.layout
            .trace(key, |k| self.map.get(k).map(|n| n.prev()))
    }

    /// The heuristic.
    pub(crate) fn heuristic(&self) -> &'a H {
        self.h
    }

    /// The positions of `key` (written into `tiles`); returns the blank's cell.
    pub(crate) fn unpack(&self, key: K, tiles: &mut [u8; MAX_CELLS]) -> u8 {
        self.layout.unpack(key, tiles)
    }

    /// Statistics so far (the caller sets `seconds` and `lower_bound`).
    pub(crate) fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            expanded: self.expanded,
            iterations: 0,
            initial_h: self.initial_h,
            lower_bound: 0,
            stored: self.stored_peak.max(self.map.len() as u64),
            peak_memory: self.peak.max(self.memory().0),
            per_thread: Vec::new(),
            detail: self.open.name().to_string(),
            seconds: self.clock.seconds(),
        }
    }
}

/// Appends to `memos` the memo (`memo_len` bytes) of `parts`, the complete parts of a position
/// about to be stored, and returns its number; nothing when the heuristic keeps none.
pub(crate) fn keep_memo<H: Heuristic>(
    h: &H,
    memos: &mut Vec<u8>,
    memo_len: usize,
    parts: &H::Parts,
) -> u32 {
    if memo_len == 0 {
        return 0;
    }
    let at = memos.len();
    memos.resize(at + memo_len, 0);
    h.write_memo(parts, &mut memos[at..]);
    // Below 2^32: `Engine::run` stops at that many stored positions.
    (at / memo_len) as u32
}

/// The open lists of A* (see [`super::bucket_queue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QueueChoice {
    /// A binary heap (any heuristic).
    Heap,
    /// Buckets indexed by `f` (heuristics that change by at most 1 per move).
    Buckets,
    /// Two buckets, `f` and `f + 2` (heuristics that change by exactly 1 per move).
    TwoBuckets,
}

/// The fastest open list that the promise of `h` ([`Heuristic::step_change`]) allows.
pub(crate) fn queue_for<H: Heuristic>(h: &H) -> QueueChoice {
    match h.step_change() {
        StepChange::ExactlyOne => QueueChoice::TwoBuckets,
        StepChange::AtMostOne => QueueChoice::Buckets,
        StepChange::Any => QueueChoice::Heap,
    }
}

/// Calls `f` with the key type that fits `cells` cells.
macro_rules! with_key {
    ($cells:expr, $k:ident => $body:expr) => {
        match $crate::key::Layout::new($cells).key_width() {
            $crate::key::KeyWidth::U64 => {
                type $k = u64;
                $body
            }
            $crate::key::KeyWidth::U128 => {
                type $k = u128;
                $body
            }
            $crate::key::KeyWidth::Wide => {
                type $k = $crate::key::Wide;
                $body
            }
        }
    };
}
pub(crate) use with_key;

/// Runs A* from `start` to `goal` with `h`, on the open list [`queue_for`] picks.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search<H: Heuristic>(
    h: &H,
    goal: &Goal,
    start: &Position,
    search: &Search,
) -> Outcome {
    with_key!(goal.board().cells(), K => match queue_for(h) {
        QueueChoice::TwoBuckets => run_to_end(Engine::<H, K, _>::new(
            h, goal, start, search, TwoBucketQueue::default(), Priority::AStar, true,
        )),
        QueueChoice::Buckets => run_to_end(Engine::<H, K, _>::new(
            h, goal, start, search, BucketQueue::default(), Priority::AStar, true,
        )),
        QueueChoice::Heap => run_to_end(Engine::<H, K, _>::new(
            h, goal, start, search, HeapQueue::default(), Priority::AStar, true,
        )),
    })
}

/// Runs an engine with `Priority::AStar` until it ends, and reports.
fn run_to_end<H: Heuristic, K: Packed, Q: OpenList<K>>(mut e: Engine<H, K, Q>) -> Outcome {
    let end = e.run(u64::MAX);
    finish(&mut e, end, true)
}

/// The outcome of an engine that ended with `end`; `bounds`: whether the open list's
/// smallest priority is a lower bound on the solution length (A* priorities).
pub(crate) fn finish<H: Heuristic, K: Packed, Q: OpenList<K>>(
    e: &mut Engine<H, K, Q>,
    end: Step<K>,
    bounds: bool,
) -> Outcome {
    let mut stats = e.stats();
    match end {
        Step::Found(k) => {
            let path = e.path_to(k);
            if bounds {
                stats.lower_bound = path.len() as u32;
            }
            Outcome {
                path: Some(path),
                stop: None,
                stats,
            }
        }
        Step::Stopped(stop) => {
            if bounds {
                stats.lower_bound = e.open.min_prio().unwrap_or(0) as u32;
            }
            Outcome {
                path: None,
                stop: Some(stop),
                stats,
            }
        }
        Step::Budget | Step::Exhausted => Outcome {
            path: None,
            stop: None,
            stats,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_keeps_its_cost_parent_flag_and_memo() {
        assert_eq!(std::mem::size_of::<Node>(), 8);
        assert_eq!(std::mem::size_of::<(u64, Node)>(), 16);
        let cells = (0..MAX_CELLS as u8).chain([NO_CELL]);
        for prev in cells {
            for g in [0, 1, 80, 1 << 20, Node::MAX_G] {
                let mut n = Node::new(g, prev, g ^ 0xdead_beef);
                assert_eq!((n.g(), n.prev(), n.closed()), (g, prev, false));
                n.set_closed(true);
                assert_eq!((n.g(), n.prev(), n.closed()), (g, prev, true));
                n.set_closed(false);
                assert_eq!((n.g(), n.prev(), n.closed()), (g, prev, false));
                assert_eq!(n.memo, g ^ 0xdead_beef);
            }
        }
    }
}
