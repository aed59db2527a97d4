//! The cost-bounded depth-first search of IDA*, as a reusable probe: run from any position at
//! any depth, under a node budget that is the probe's own or shared between threads. `ida`
//! runs it from the start once per bound, `hybrid` from A*'s frontier; `parallel-ida` uses
//! the same loop with stealable frames (`search/steal.rs`) and this file's shared budget.
//!
//! Moves are made in place, the move back to the parent is never generated, nor a move the
//! duplicate-move machine of `search/prune.rs` forbids (its state is carried per depth, as an
//! argument of the recursion), the children's
//! lookups are prepared (and prefetched) before any child is visited, the heuristic is updated
//! incrementally with an early stop above the bound, and nothing is allocated (the path's
//! capacity is reserved before each search).
//!
//! The [`Cursor`] is the hook of checkpointed searches (`search/checkpoint.rs`): it records
//! which child each level above a cut depth is working on, so that a stopped search can say
//! where it stood, and it makes a search skip the children before a given path, so that a
//! search can start again there.

use super::prune::{Pruner, FORBIDDEN};
use super::{Clock, Stop};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// How many nodes a probe generates between looks at the shared counters.
const FLUSH: u64 = 1024;

/// Limits and counters shared by every probe of one search.
#[derive(Debug)]
pub(crate) struct Shared {
    /// Generated nodes reported by the probes (and by earlier phases).
    pub(crate) nodes: AtomicU64,
    /// Set when a solution is found or a limit is reached: every probe stops.
    pub(crate) abort: AtomicBool,
    /// The limits.
    pub(crate) clock: Clock,
    /// The first limit reached.
    stop: Mutex<Option<Stop>>,
}

impl Shared {
    /// Counters starting at `nodes` (what earlier phases generated).
    pub(crate) fn new(clock: Clock, nodes: u64) -> Shared {
        Shared {
            nodes: AtomicU64::new(nodes),
            abort: AtomicBool::new(false),
            clock,
            stop: Mutex::new(None),
        }
    }

    /// The first limit reached, if any.
    pub(crate) fn stop(&self) -> Option<Stop> {
        *self.stop.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set_stop(&self, s: Stop) {
        let mut g = self.stop.lock().unwrap_or_else(|e| e.into_inner());
        g.get_or_insert(s);
        self.abort.store(true, Relaxed);
    }
}

/// What a probe asks before generating each node: the node and time limits, and (between
/// threads) whether another probe has already ended the search.
pub(crate) trait Budget {
    /// Whether one more node may be generated; counts it when so. False ends the search.
    fn spend(&mut self) -> bool;
    /// Reports what was spent to whoever shares the budget.
    fn flush(&mut self) {}
    /// The limit that ended the search, if one did.
    fn stop(&self) -> Option<Stop>;
}

/// A budget of one probe alone: the limits, checked on a plain counter.
#[derive(Debug)]
pub(crate) struct Local {
    clock: Clock,
    used: u64,
    stop: Option<Stop>,
}

impl Local {
    /// The limits of `clock`, `used` nodes already spent (by earlier phases).
    pub(crate) fn new(clock: Clock, used: u64) -> Local {
        Local {
            clock,
            used,
            stop: None,
        }
    }
}

impl Budget for Local {
    #[inline(always)]
    fn spend(&mut self) -> bool {
        if let Some(s) = self.clock.check(self.used) {
            self.stop = Some(s);
            return false;
        }
        self.used += 1;
        true
    }

    fn stop(&self) -> Option<Stop> {
        self.stop
    }
}

/// A probe's view of a [`Shared`] budget: nodes are counted locally and added to the shared
/// counter every [`FLUSH`] nodes, when the abort flag and the time are read too.
#[derive(Debug)]
pub(crate) struct SharedBudget<'a> {
    shared: &'a Shared,
    unflushed: u64,
    seen_total: u64,
}

impl Shared {
    /// A budget drawing on these counters, for one probe.
    pub(crate) fn budget(&self) -> SharedBudget<'_> {
        SharedBudget {
            shared: self,
            unflushed: 0,
            seen_total: self.nodes.load(Relaxed),
        }
    }
}

impl Budget for SharedBudget<'_> {
    #[inline(always)]
    fn spend(&mut self) -> bool {
        if self.unflushed >= FLUSH {
            self.flush();
            if self.shared.abort.load(Relaxed) {
                return false;
            }
            if let Some(s) = self.shared.clock.time_up() {
                self.shared.set_stop(s);
                return false;
            }
        }
        if self.seen_total + self.unflushed >= self.shared.clock.max_nodes {
            self.shared.set_stop(Stop::Nodes);
            return false;
        }
        self.unflushed += 1;
        true
    }

    fn flush(&mut self) {
        if self.unflushed > 0 {
            self.seen_total = self.shared.nodes.fetch_add(self.unflushed, Relaxed) + self.unflushed;
            self.unflushed = 0;
        }
    }

    fn stop(&self) -> Option<Stop> {
        self.shared.stop()
    }
}

/// The deepest cut a [`Cursor`] tracks.
pub(crate) const MAX_CUT: usize = 24;

/// Where a search stands within its iteration, in the DFS order of the bounded loop: the slot
/// (index into the blank's targets) of the child being worked on at each depth below the
/// probe's start, down to `cut`, and the counters just before that child was generated. With
/// `resume_len > 0` the next search skips, at each depth `d < resume_len`, the children before
/// `slots[d]` (they were searched before), until the child on that path is done.
#[derive(Clone, Debug)]
pub(crate) struct Cursor {
    /// How many levels are tracked (0: none, the plain search).
    pub(crate) cut: usize,
    /// The child being worked on at each tracked depth.
    pub(crate) slots: [u8; MAX_CUT],
    /// The probe's `nodes` just before that child was generated.
    pub(crate) nodes_at: [u64; MAX_CUT],
    /// The probe's `expanded` at the same moment.
    pub(crate) expanded_at: [u64; MAX_CUT],
    /// The depth at which the last search was interrupted.
    pub(crate) stop_depth: usize,
    /// The length of the path to start from (0: from the first child).
    pub(crate) resume_len: usize,
    resuming: bool,
}

impl Cursor {
    /// Tracks the first `cut` levels (at most [`MAX_CUT`]).
    pub(crate) fn new(cut: usize) -> Cursor {
        Cursor {
            cut: cut.min(MAX_CUT),
            slots: [0; MAX_CUT],
            nodes_at: [0; MAX_CUT],
            expanded_at: [0; MAX_CUT],
            stop_depth: 0,
            resume_len: 0,
            resuming: false,
        }
    }

    /// The tracked part of the path where the last search was interrupted: the child being
    /// generated or searched at each depth, at most `cut` of them.
    pub(crate) fn stopped_path(&self) -> &[u8] {
        &self.slots[..(self.stop_depth + 1).min(self.cut)]
    }

    /// Makes the next search start at `path` (slots from the probe's start).
    pub(crate) fn resume_at(&mut self, path: &[u8]) {
        let n = path.len().min(self.cut);
        self.slots[..n].copy_from_slice(&path[..n]);
        self.resume_len = n;
    }
}

/// One depth-first searcher; reusable from position to position.
pub(crate) struct Probe<'a, H: Heuristic, B: Budget> {
    h: &'a H,
    moves: &'a MoveTable,
    prune: &'a Pruner,
    goal: &'a [u8; MAX_CELLS],
    /// The limits it searches under.
    pub(crate) budget: B,
    position: Position,
    parts: H::Parts,
    bound: u32,
    /// The blank's cells after each move below the probe's start, once a solution is found.
    pub(crate) path: Vec<u8>,
    /// Nodes generated by this probe over all its searches.
    pub(crate) nodes: u64,
    /// Nodes expanded by this probe over all its searches.
    pub(crate) expanded: u64,
    /// The smallest `f` above the bound met since [`Probe::reset_bound`].
    pub(crate) next_bound: u32,
    /// Set when the budget ended the last search.
    pub(crate) interrupted: bool,
    /// Where the search stands (see [`Cursor`]; off unless its `cut` is set).
    pub(crate) cursor: Cursor,
    g0: u32,
}

impl<'a, H: Heuristic, B: Budget> Probe<'a, H, B> {
    /// A probe for `goal` (tiles per cell) using `moves`, the pruning machine `prune`, `h`
    /// and `budget`.
    pub(crate) fn new(
        h: &'a H,
        moves: &'a MoveTable,
        prune: &'a Pruner,
        goal: &'a [u8; MAX_CELLS],
        budget: B,
    ) -> Self {
        let position = Position {
            tiles: *goal,
            blank: goal.iter().position(|&t| t == 0).unwrap_or(0) as u8,
        };
        Probe {
            h,
            moves,
            prune,
            goal,
            budget,
            parts: h.init(&position.tiles),
            position,
            bound: 0,
            path: Vec::with_capacity(256),
            nodes: 0,
            expanded: 0,
            next_bound: u32::MAX,
            interrupted: false,
            cursor: Cursor::new(0),
            g0: 0,
        }
    }

    /// Forgets the smallest exceeded `f` (call before each iteration).
    pub(crate) fn reset_bound(&mut self) {
        self.next_bound = u32::MAX;
    }

    /// Searches below `start`, reached at cost `g0` with the blank's previous cell `prev`
    /// (`NO_CELL`: none), for a goal within `bound`. True when found: [`Probe::path`] holds
    /// the moves after `start`. `h0` is the start's estimate.
    pub(crate) fn search(
        &mut self,
        start: &Position,
        g0: u32,
        h0: u32,
        prev: u8,
        bound: u32,
    ) -> bool {
        self.path.clear();
        self.interrupted = false;
        if g0 + h0 > bound {
            self.next_bound = self.next_bound.min(g0 + h0);
            return false;
        }
        self.path.reserve((bound - g0) as usize + 1);
        self.position = start.clone();
        self.parts = self.h.init(&start.tiles);
        self.bound = bound;
        self.g0 = g0;
        self.cursor.resuming = self.cursor.resume_len > 0;
        let state = self.prune.start(start.blank);
        let found = self.dfs(g0, h0, prev, state);
        self.cursor.resume_len = 0;
        self.cursor.resuming = false;
        found
    }

    fn dfs(&mut self, g: u32, hval: u32, prev: u8, state: u32) -> bool {
        if hval == 0 && self.position.tiles == *self.goal {
            return true;
        }
        self.expanded += 1;
        let blank = self.position.blank;
        let moves = self.moves;
        let targets = moves.targets(blank);
        let prune = self.prune;
        let mut pending = [H::Pending::default(); 4];
        let mut states = [FORBIDDEN; 4];
        for (slot, &next) in targets.iter().enumerate() {
            if next != prev {
                states[slot] = prune.step(state, slot);
            }
        }
        for ((p, &next), &st) in pending.iter_mut().zip(targets).zip(&states) {
            if st != FORBIDDEN {
                *p = self
                    .h
                    .prepare(&self.parts, self.position.tiles[next as usize], next, blank);
            }
        }
        let depth = (g - self.g0) as usize;
        for (slot, ((p, &next), &st)) in pending.iter().zip(targets).zip(&states).enumerate() {
            if st == FORBIDDEN {
                continue;
            }
            if depth < self.cursor.cut && self.track(depth, slot as u8) {
                continue;
            }
            if !self.budget.spend() {
                self.interrupted = true;
                self.cursor.stop_depth = depth;
                return false;
            }
            self.nodes += 1;
            // The tile on `next` slides into the blank's cell.
            let tile = self.position.slide(next);
            let limit = self.bound.saturating_sub(g + 1);
            let (hv, undo) = self.h.apply(
                &mut self.parts,
                &self.position.tiles,
                tile,
                next,
                blank,
                limit,
                p,
            );
            let f = g + 1 + hv;
            if f <= self.bound {
                self.path.push(next);
                if self.dfs(g + 1, hv, blank, st) {
                    return true;
                }
                if self.interrupted {
                    return false;
                }
                self.path.pop();
            } else if f < self.next_bound {
                self.next_bound = f;
            }
            self.h.undo(&mut self.parts, tile, next, blank, undo);
            self.position.slide(blank);
            if self.cursor.resuming && depth < self.cursor.resume_len {
                // The child on the resumed path is done: search freely from here on.
                self.cursor.resuming = false;
            }
        }
        false
    }

    /// The cursor's work before the child `slot` at `depth` (below the cut): true when a
    /// resumed search skips it, else its slot and the counters are recorded.
    #[inline]
    fn track(&mut self, depth: usize, slot: u8) -> bool {
        let c = &mut self.cursor;
        if c.resuming && depth < c.resume_len {
            if slot < c.slots[depth] {
                return true;
            }
            if slot > c.slots[depth] {
                c.resuming = false;
            }
        }
        c.slots[depth] = slot;
        c.nodes_at[depth] = self.nodes;
        c.expanded_at[depth] = self.expanded;
        false
    }
}
