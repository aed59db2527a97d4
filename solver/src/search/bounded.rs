//! The cost-bounded depth-first search of IDA*, as a reusable probe: run from any position at
//! any depth, under a node budget that is the probe's own or shared between threads. `ida`
//! runs it from the start once per bound, `hybrid` from A*'s frontier, and `parallel-ida`'s
//! workers from their tasks with a [`Donor`] that gives untried subtrees to idle threads
//! (`search/steal.rs`): one loop for every cost-bounded search.
//!
//! Moves are made in place, the move back to the parent is never generated, nor a move the
//! duplicate-move machine of `prune/` forbids (its state is carried per depth, as an
//! argument of the recursion); each node's children are readied by the one child step of
//! `search/children.rs` (lookups prepared and prefetched together, estimates looked up before
//! any child is made, children visited in the move table's order), a child whose `g + h`
//! exceeds the bound is counted and never made, the heuristic is updated incrementally, and
//! nothing is allocated (the path's capacity, and a donor's frames, are reserved before each
//! search).
//!
//! The [`Cursor`] is the hook of checkpointed searches (`checkpoint/`): it records
//! which child each level above a cut depth is working on, so that a stopped search can say
//! where it stood, and it makes a search skip the children before a given path (in the
//! visiting order), so that a search can start again there.

use super::children::Children;
use super::history::{Frontier, History, DEPTH as HISTORY_DEPTH};
use super::{Clock, Stop};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS};
use crate::prune::{Pruner, FORBIDDEN};
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

/// How many nodes a donating probe generates between two calls of [`Donor::poll`].
pub(crate) const POLL: u32 = 64;

/// What a probe does with its untried subtrees besides searching them in turn: nothing
/// ([`Keep`], for `ida` and a lone worker), or hand one to an idle thread (the donor of
/// `search/steal.rs`, for `parallel-ida` and `hybrid`).
pub(crate) trait Donor {
    /// Whether the probe keeps each node's untried moves in frames (see [`Line::frames`]) and
    /// calls [`Donor::poll`] every [`POLL`] generated nodes. False compiles both away.
    const DONATES: bool;

    /// Called every [`POLL`] generated nodes when [`Donor::DONATES`]: may take untried moves
    /// out of the frames (setting them to [`FORBIDDEN`]) and give their subtrees away.
    fn poll(&mut self, line: Line<'_>);

    /// Told before each search below a node met inside a larger search: the iteration's first
    /// task it descends from (its number `origin`, its cost `base`) and the blank's cells
    /// after each move from there to the probe's start.
    fn begin_task(&mut self, _origin: u32, _base: u32, _prefix: &[u8]) {}

    /// Subtrees given away so far.
    fn donated(&self) -> u64 {
        0
    }
}

/// The probe's current line as a [`Donor`] sees it.
pub(crate) struct Line<'p> {
    /// Per depth below the probe's start, down to the node being expanded: the pruning
    /// machine's state after each move slot of the line's node at that depth, [`FORBIDDEN`] for
    /// moves not to be made (pruned, already made, or given away).
    pub(crate) frames: &'p mut [[u32; 4]],
    /// The blank's cells after each move from the probe's start along the line.
    pub(crate) path: &'p [u8],
    /// The probe's start.
    pub(crate) root: &'p Position,
    /// The start's cost.
    pub(crate) g0: u32,
    /// The iteration's bound.
    pub(crate) bound: u32,
    /// The board's moves.
    pub(crate) moves: &'p MoveTable,
}

/// The donor of a probe that searches every subtree itself.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Keep;

impl Donor for Keep {
    const DONATES: bool = false;

    fn poll(&mut self, _line: Line<'_>) {}
}

/// One depth-first searcher; reusable from position to position. The one loop of every
/// cost-bounded search: `ida` and `hybrid` run it with [`Keep`], `parallel-ida` with a donor
/// that gives subtrees to idle threads.
pub(crate) struct Probe<'a, H: Heuristic, B: Budget, D: Donor = Keep> {
    h: &'a H,
    moves: &'a MoveTable,
    prune: &'a Pruner,
    goal: &'a [u8; MAX_CELLS],
    /// The limits it searches under.
    pub(crate) budget: B,
    position: Position,
    /// The start of the current search.
    root: Position,
    parts: H::Parts,
    /// The tiles of the position `parts` describes when the last search ended by exhausting
    /// its bound (every move undone, so the parts are the start's again), else `None`. A next
    /// search from the same start (IDA*'s next iteration) then skips [`Heuristic::init`],
    /// which for `bit1` tables walks each table down to its goal.
    parts_of: Option<[u8; MAX_CELLS]>,
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
    /// With a donating `D`: the untried moves per depth (see [`Line::frames`]).
    frames: Vec<[u32; 4]>,
    /// Nodes generated since the last [`Donor::poll`].
    polled: u32,
    /// What is done with untried subtrees.
    pub(crate) donor: D,
    /// Where the probe learns the order of children near its start and records what each
    /// iteration found there (`search/history.rs`); `None`: the move table's fixed order.
    pub(crate) history: Option<&'a History>,
    /// The frontier of the subtree the last call of `dfs` searched (with a history).
    pub(crate) last_frontier: Frontier,
}

impl<'a, H: Heuristic, B: Budget> Probe<'a, H, B, Keep> {
    /// A probe for `goal` (tiles per cell) using `moves`, the pruning machine `prune`, `h`
    /// and `budget`, that searches every subtree itself.
    pub(crate) fn new(
        h: &'a H,
        moves: &'a MoveTable,
        prune: &'a Pruner,
        goal: &'a [u8; MAX_CELLS],
        budget: B,
    ) -> Self {
        Probe::with_donor(h, moves, prune, goal, budget, Keep)
    }
}

impl<'a, H: Heuristic, B: Budget, D: Donor> Probe<'a, H, B, D> {
    /// A probe like [`Probe::new`] whose untried subtrees `donor` may give away.
    pub(crate) fn with_donor(
        h: &'a H,
        moves: &'a MoveTable,
        prune: &'a Pruner,
        goal: &'a [u8; MAX_CELLS],
        budget: B,
        donor: D,
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
            parts_of: None,
            root: position.clone(),
            position,
            bound: 0,
            path: Vec::with_capacity(256),
            nodes: 0,
            expanded: 0,
            next_bound: u32::MAX,
            interrupted: false,
            cursor: Cursor::new(0),
            g0: 0,
            frames: Vec::new(),
            polled: 0,
            donor,
            history: None,
            last_frontier: Frontier::NONE,
        }
    }

    /// Hands the probe `parts`, made by [`Heuristic::init`] for the position `tiles`, so that
    /// a search from there does not make them again.
    pub(crate) fn seed(&mut self, tiles: [u8; MAX_CELLS], parts: H::Parts) {
        self.parts = parts;
        self.parts_of = Some(tiles);
    }

    /// Like [`Probe::seed`], with the parts of the position `tiles` rebuilt in place from
    /// its heuristic `memo` ([`Heuristic::restore`]).
    pub(crate) fn restore(&mut self, tiles: [u8; MAX_CELLS], memo: &[u8]) {
        self.h.restore(&mut self.parts, &tiles, memo);
        self.parts_of = Some(tiles);
    }

    /// Makes `self.parts` those of the position `tiles`, unless they already are.
    fn make_parts(&mut self, tiles: &[u8; MAX_CELLS]) {
        if self.parts_of != Some(*tiles) {
            self.parts = self.h.init(tiles);
            self.parts_of = Some(*tiles);
        }
    }

    /// Forgets the smallest exceeded `f` (call before each iteration).
    pub(crate) fn reset_bound(&mut self) {
        self.next_bound = u32::MAX;
    }

    /// Sizes the path (and a donor's frames) for searches to `bound`, so that they allocate
    /// nothing.
    pub(crate) fn reserve(&mut self, bound: u32) {
        let depth = bound as usize + 2;
        self.path.reserve(depth);
        if D::DONATES && self.frames.len() < depth {
            self.frames.resize(depth, [FORBIDDEN; 4]);
        }
    }

    /// Searches below `start`, reached at cost `g0` with the blank's previous cell `prev`
    /// (`NO_CELL`: none), for a goal within `bound`. True when found: [`Probe::path`] holds
    /// the moves after `start`. `h0` is the start's estimate. The pruning machine starts
    /// afresh at `start`.
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
        self.make_parts(&start.tiles);
        let state = self.prune.start(start.blank);
        self.run(start, g0, h0, prev, state, bound)
    }

    /// Like [`Probe::search`], below a node met inside another search: the pruning machine
    /// continues from `state`, and the start's estimate is computed here.
    pub(crate) fn search_below(
        &mut self,
        start: &Position,
        g0: u32,
        prev: u8,
        state: u32,
        bound: u32,
    ) -> bool {
        self.path.clear();
        self.interrupted = false;
        self.make_parts(&start.tiles);
        let h0 = self.h.value(&self.parts);
        if g0 + h0 > bound {
            self.next_bound = self.next_bound.min(g0 + h0);
            return false;
        }
        self.run(start, g0, h0, prev, state, bound)
    }

    /// The search itself, `self.parts` already made for `start`.
    fn run(
        &mut self,
        start: &Position,
        g0: u32,
        h0: u32,
        prev: u8,
        state: u32,
        bound: u32,
    ) -> bool {
        self.reserve(bound - g0);
        self.position = start.clone();
        if D::DONATES {
            self.root = start.clone();
        }
        self.bound = bound;
        self.g0 = g0;
        self.cursor.resuming = self.cursor.resume_len > 0;
        // Until the search ends with every move undone the parts describe other positions.
        self.parts_of = None;
        let found = self.dfs(g0, h0, prev, state);
        if !found && !self.interrupted {
            self.parts_of = Some(start.tiles);
        }
        self.cursor.resume_len = 0;
        self.cursor.resuming = false;
        found
    }

    fn dfs(&mut self, g: u32, hval: u32, prev: u8, state: u32) -> bool {
        if hval == 0 && self.position.tiles == *self.goal {
            return true;
        }
        self.expanded += 1;
        // The nodes generated so far: the subtree's size, for the history.
        let nodes_before = self.nodes;
        let blank = self.position.blank;
        let moves = self.moves;
        let targets = moves.targets(blank);
        let mut kids = Children::<H>::new(
            self.h,
            self.prune,
            &self.parts,
            &self.position,
            (targets, moves.visit(blank)),
            prev,
            state,
            self.bound.saturating_sub(g + 1),
        );
        let depth = (g - self.g0) as usize;
        if D::DONATES {
            self.frames[depth] = kids.states;
        }
        // With a history: the pruned nodes below this one, and near the start the order of
        // the children that the last iteration's findings give. Near the start means within
        // HISTORY_DEPTH moves of the search's start, not of this task's root: a task of
        // `hybrid` starts at one of A*'s frontier nodes, one of `parallel-ida` wherever a
        // donation split the tree.
        let learn = self.history.is_some();
        let near_start = (g as usize) < HISTORY_DEPTH;
        let mut frontier = Frontier::NONE;
        if let Some(history) = self.history {
            if near_start {
                let estimates = *kids.estimates();
                history.order(&self.position, targets, g, &mut kids.order, &estimates);
            }
        }
        for rank in 0..targets.len() {
            let slot = kids.order[rank] as usize;
            let st = if D::DONATES {
                // Re-read: a donation may have given this move away. Taken out before it is
                // made, so the frames hold exactly the subtrees not yet entered.
                std::mem::replace(&mut self.frames[depth][slot], FORBIDDEN)
            } else {
                kids.states[slot]
            };
            if st == FORBIDDEN {
                continue;
            }
            if depth < self.cursor.cut && self.track(depth, slot as u8, &kids.order) {
                continue;
            }
            if !self.budget.spend() {
                self.interrupted = true;
                self.cursor.stop_depth = depth;
                return false;
            }
            self.nodes += 1;
            if D::DONATES {
                self.polled += 1;
                if self.polled >= POLL {
                    self.polled = 0;
                    self.donor.poll(Line {
                        frames: &mut self.frames[..=depth],
                        path: &self.path,
                        root: &self.root,
                        g0: self.g0,
                        bound: self.bound,
                        moves: self.moves,
                    });
                }
            }
            let next = targets[slot];
            match kids.above_bound(slot, g, self.bound) {
                Some(f) => {
                    // Evaluated above the bound: counted, and pruned without being made.
                    self.next_bound = self.next_bound.min(f);
                    if learn {
                        frontier.merge(Frontier::pruned(f, f - g - 1));
                    }
                }
                None => {
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
                        &kids.pending[slot],
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
                        if learn {
                            frontier.merge(self.last_frontier);
                        }
                    } else {
                        self.next_bound = self.next_bound.min(f);
                        if learn {
                            frontier.merge(Frontier::pruned(f, hv));
                        }
                    }
                    self.h.undo(&mut self.parts, tile, next, blank, undo);
                    self.position.slide(blank);
                }
            }
            if self.cursor.resuming && depth < self.cursor.resume_len {
                // The child on the resumed path is done: search freely from here on.
                self.cursor.resuming = false;
            }
        }
        if let Some(history) = self.history {
            if near_start {
                history.record(
                    &self.position.tiles,
                    frontier,
                    self.nodes - nodes_before + 1,
                );
            }
            self.last_frontier = frontier;
        }
        false
    }

    /// The cursor's work before the child `slot` at `depth` (below the cut), the children
    /// being visited in `order`: true when a resumed search skips it (it comes before the
    /// recorded child), else its slot and the counters are recorded.
    #[inline]
    fn track(&mut self, depth: usize, slot: u8, order: &[u8; 4]) -> bool {
        let c = &mut self.cursor;
        if c.resuming && depth < c.resume_len {
            let rank = |s: u8| order.iter().position(|&o| o == s);
            let (here, recorded) = (rank(slot), rank(c.slots[depth]));
            if here < recorded {
                return true;
            }
            if here > recorded {
                c.resuming = false;
            }
        }
        c.slots[depth] = slot;
        c.nodes_at[depth] = self.nodes;
        c.expanded_at[depth] = self.expanded;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::Manhattan;
    use crate::prune::Pruning;
    use crate::search::{goal_array, Limits};
    use pdbformat::{Board, Goal};

    /// Records into a fresh history one iteration of a search from Korf's first 15-puzzle
    /// instance reached at cost `g0` (bound: its `f` + 2); returns how many positions it
    /// recorded.
    fn recorded_from(g0: u32) -> usize {
        let board = Board::new(4, 4).unwrap();
        let goal = Goal::blank_first(board);
        let h = Manhattan::new(&goal);
        let moves = MoveTable::new(board);
        let prune = Pruning::Off.machine(board);
        let goal_tiles = goal_array(&goal);
        let history = History::new(board.cells());
        let clock = Clock::new(&Limits::default());
        let mut probe = Probe::new(&h, &moves, &prune, &goal_tiles, Local::new(clock, 0));
        probe.history = Some(&history);
        let start =
            Position::from_tiles(&[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]).unwrap();
        let h0 = h.value(&h.init(&start.tiles));
        assert!(!probe.search(&start, g0, h0, crate::position::NO_CELL, g0 + h0 + 2));
        assert!(probe.nodes > 1000);
        history.recorded()
    }

    #[test]
    fn only_positions_near_the_search_start_are_learned() {
        // From the start: the positions within the history's depth are recorded.
        assert!(recorded_from(0) > 100);
        // A task rooted deeper (hybrid's frontier nodes, a donated subtree) is not near the
        // start, however close its nodes are to the task's root.
        assert_eq!(recorded_from(HISTORY_DEPTH as u32), 0);
    }
}
