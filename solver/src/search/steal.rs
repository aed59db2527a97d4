//! Work stealing for parallel IDA*: a pool of the current iteration's subtrees shared by
//! long-lived worker threads, and a cost-bounded depth-first probe that hands its shallowest
//! untried subtree to the pool when a worker is idle.
//!
//! **The probe** is the one loop of `search/bounded.rs` (moves in place, the child step of
//! `search/children.rs`, incremental heuristic, duplicate-move pruning) run with this file's
//! donor, [`Giver`]: with a donor the probe keeps the untried moves of every depth of its
//! current line in an explicit per-depth array, the *frames*, and takes a move out of its
//! frame before it is made, so the frames always hold exactly the subtrees not yet entered.
//! Every [`POLL`](super::bounded::POLL) generated nodes the giver reads the pool's count of idle workers; when one
//! waits and the pool is empty, it removes the shallowest untried move that leaves at least
//! [`MIN_REST`] moves of the bound and gives that child to the pool as a [`Task`]: its
//! position (replayed from the task's root), cost, previous blank cell, the pruning
//! machine's state and the path from the search's start. The split point therefore moves
//! down the tree as work gets scarce. Nothing is allocated per node; a donation allocates
//! the new task's path. A lone worker (`--threads 1`) has nobody to give work to and runs the
//! probe without a donor: no frames, no polls, `ida`'s loop exactly.
//!
//! **The pool** runs one iteration at a time: the coordinator fills it with the iteration's
//! first tasks and a bound, the workers take tasks until the pool is empty and no worker is
//! busy (then nobody can donate any more, so the iteration is over), report, and wait for
//! the next iteration or the end. Workers live for the whole search.

use super::bounded::{Budget, Donor, Line, Probe, Shared, SharedBudget};
use super::history::History;
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS};
use crate::prune::{Pruner, FORBIDDEN};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// A donated child leaves at least this many moves of the bound below it: smaller subtrees
/// are not worth the hand-over.
pub(crate) const MIN_REST: u32 = 4;

/// A subtree of the current iteration: a position to search below, to the bound.
///
/// Every task descends from one of the iteration's first tasks, its *origin* (a root of a
/// `parallel-ida`'s start, a frontier node of A*): the caller of the search keeps the moves from
/// the start to each origin and adds them to the winner's moves, so a first task carries no
/// path and a donated one only the moves below its origin.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    /// The subtree's root.
    pub(crate) position: Position,
    /// The blank's cell before the move that made the root (`NO_CELL`: none).
    pub(crate) prev: u8,
    /// The duplicate-move machine's state at the root.
    pub(crate) state: u32,
    /// The number of the iteration's first task this one descends from (itself for a first
    /// task).
    pub(crate) origin: u32,
    /// The origin's cost `g`.
    pub(crate) base: u32,
    /// The blank's cells after each move from the origin to the root; the root's cost `g` is
    /// `base` plus its length.
    pub(crate) path: Vec<u8>,
    /// Whether the root still has to be counted as a generated node (a donated child: its
    /// donor did not count it).
    pub(crate) uncounted: bool,
    /// The heuristic memo of the root ([`Heuristic::write_memo`]), which rebuilds its parts
    /// without [`Heuristic::init`] (a walk to the goal per `bit1` table): kept for the
    /// iterations' first tasks, which every iteration searches again; none for a donated
    /// child, searched once.
    pub(crate) memo: Option<Arc<[u8]>>,
}

/// What the pool's lock guards.
#[derive(Debug, Default)]
struct State {
    /// Tasks not yet taken, first in first out.
    tasks: VecDeque<Task>,
    /// Workers searching a task.
    active: usize,
    /// Set when the iteration has run out of work.
    closed: bool,
    /// The iteration's number (0: none started yet).
    generation: u64,
    /// The iteration's bound.
    bound: u32,
    /// Workers that have finished the current iteration.
    reported: usize,
    /// Set when the search is over: workers leave.
    finished: bool,
    /// Workers that died (a panic): they count as having finished every later iteration.
    failed: usize,
}

/// The tasks of the current iteration and the hand-shakes between the coordinator and the
/// workers.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    state: Mutex<State>,
    /// Workers wait here for tasks or the next iteration.
    work: Condvar,
    /// The coordinator waits here for the workers' reports.
    idle: Condvar,
    /// Workers waiting for a task in the current iteration.
    hungry: AtomicUsize,
}

impl Pool {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts an iteration with `tasks` and `bound`, and waits until `workers` workers have
    /// finished it.
    pub(crate) fn run_iteration(&self, tasks: VecDeque<Task>, bound: u32, workers: usize) {
        let mut s = self.lock();
        s.tasks = tasks;
        s.active = 0;
        s.closed = false;
        s.reported = 0;
        s.bound = bound;
        s.generation += 1;
        self.work.notify_all();
        while s.reported + s.failed < workers {
            s = self.idle.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.tasks.clear();
    }

    /// Ends the search: every worker's [`Pool::next_iteration`] returns `None`.
    pub(crate) fn finish(&self) {
        self.lock().finished = true;
        self.work.notify_all();
    }

    /// For a worker: reports the end of iteration `seen` (unless 0) and waits for the next
    /// one; returns its bound, or `None` when the search is over.
    pub(crate) fn next_iteration(&self, seen: &mut u64) -> Option<u32> {
        let mut s = self.lock();
        if *seen > 0 {
            s.reported += 1;
            self.idle.notify_all();
        }
        while !s.finished && s.generation == *seen {
            s = self.work.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        if s.finished {
            return None;
        }
        *seen = s.generation;
        Some(s.bound)
    }

    /// For a worker: the next task of the iteration, waiting while other workers may still
    /// donate one; `None` when the iteration is over or `abort` is set.
    pub(crate) fn take(&self, abort: &AtomicBool) -> Option<Task> {
        let mut s = self.lock();
        loop {
            if s.closed || abort.load(Relaxed) {
                return None;
            }
            if let Some(t) = s.tasks.pop_front() {
                s.active += 1;
                return Some(t);
            }
            if s.active == 0 {
                s.closed = true;
                self.work.notify_all();
                return None;
            }
            self.hungry.fetch_add(1, Relaxed);
            s = self.work.wait(s).unwrap_or_else(|e| e.into_inner());
            self.hungry.fetch_sub(1, Relaxed);
        }
    }

    /// For a worker: the task it took is finished (searched, or abandoned on an abort).
    pub(crate) fn done(&self) {
        let mut s = self.lock();
        s.active -= 1;
        if s.active == 0 && s.tasks.is_empty() {
            self.work.notify_all();
        }
    }

    /// For a worker that panicked (after setting the abort flag): gives back the task it
    /// held, if `holding`, and stops counting it, so that nobody waits for it.
    pub(crate) fn fail(&self, holding: bool) {
        let mut s = self.lock();
        if holding {
            s.active -= 1;
        }
        s.failed += 1;
        self.work.notify_all();
        self.idle.notify_all();
    }

    /// Wakes every waiting worker (after setting the abort flag).
    pub(crate) fn wake_all(&self) {
        let _s = self.lock();
        self.work.notify_all();
    }

    /// Whether some worker waits for a task (a cheap, unsynchronised hint).
    #[inline(always)]
    fn wanted(&self) -> bool {
        self.hungry.load(Relaxed) > 0
    }
}

/// The donor of a worker's probe: every [`POLL`](super::bounded::POLL) nodes, if another worker waits and the pool
/// is empty, it gives the shallowest untried move of the current line to the pool.
pub(crate) struct Giver<'a> {
    pool: &'a Pool,
    /// The current task's origin and its cost.
    origin: u32,
    base: u32,
    /// The path from the current task's origin to its root.
    prefix: Vec<u8>,
    /// Tasks given to the pool over the whole search.
    donated: u64,
}

impl Donor for Giver<'_> {
    const DONATES: bool = true;

    #[inline(always)]
    fn poll(&mut self, line: Line<'_>) {
        if self.pool.wanted() {
            self.donate(line);
        }
    }

    fn begin_task(&mut self, origin: u32, base: u32, prefix: &[u8]) {
        self.origin = origin;
        self.base = base;
        self.prefix.clear();
        self.prefix.extend_from_slice(prefix);
    }

    fn donated(&self) -> u64 {
        self.donated
    }
}

impl<'a> Giver<'a> {
    /// A giver to `pool`.
    pub(crate) fn new(pool: &'a Pool) -> Self {
        Giver {
            pool,
            origin: 0,
            base: 0,
            prefix: Vec::new(),
            donated: 0,
        }
    }

    /// Gives the shallowest untried move of `line` that leaves at least [`MIN_REST`] moves of
    /// the bound to the pool (at that depth, the first in the visiting order), if a worker still
    /// waits and the pool is empty.
    #[cold]
    #[inline(never)]
    fn donate(&mut self, line: Line<'_>) {
        let pool = self.pool;
        let mut s = pool.lock();
        if s.closed || s.tasks.len() >= pool.hungry.load(Relaxed) {
            return;
        }
        let mut position = line.root.clone();
        for k in 0..line.frames.len() {
            if k > 0 {
                position.slide(line.path[k - 1]);
            }
            let g = line.g0 + k as u32 + 1;
            if g + MIN_REST > line.bound {
                return;
            }
            // The move the giver would make next at this depth, in the visiting order: the
            // two workers then go through the subtrees about as one would alone.
            let prev = position.blank;
            let frame = &mut line.frames[k];
            let Some(slot) = line
                .moves
                .visit(prev)
                .into_iter()
                .map(usize::from)
                .find(|&s| frame[s] != FORBIDDEN)
            else {
                continue;
            };
            let state = std::mem::replace(&mut frame[slot], FORBIDDEN);
            let to = line.moves.targets(prev)[slot];
            position.slide(to);
            let mut path = Vec::with_capacity(self.prefix.len() + k + 1);
            path.extend_from_slice(&self.prefix);
            path.extend_from_slice(&line.path[..k]);
            path.push(to);
            s.tasks.push_back(Task {
                position,
                prev,
                state,
                origin: self.origin,
                base: self.base,
                path,
                uncounted: true,
                memo: None,
            });
            self.donated += 1;
            pool.work.notify_all();
            return;
        }
    }
}

/// One worker's depth-first searcher, reused from task to task and iteration to iteration:
/// the probe of `search/bounded.rs` with a donor ([`Giver`] when other workers may wait for
/// work; a lone worker needs none and runs `ida`'s loop exactly).
pub(crate) struct Stealer<'a, H: Heuristic, D: Donor> {
    probe: Probe<'a, H, SharedBudget<'a>, D>,
    bound: u32,
    /// The current task's origin.
    origin: u32,
    /// The path from the current task's origin to its root.
    prefix: Vec<u8>,
}

impl<'a, H: Heuristic, D: Donor> Stealer<'a, H, D> {
    /// A searcher for `goal` (tiles per cell) with `moves`, the machine `prune`, `h`, the
    /// limits of `shared` and `donor`.
    pub(crate) fn new(
        h: &'a H,
        moves: &'a MoveTable,
        prune: &'a Pruner,
        goal: &'a [u8; MAX_CELLS],
        shared: &'a Shared,
        donor: D,
    ) -> Self {
        Stealer {
            probe: Probe::with_donor(h, moves, prune, goal, shared.budget(), donor),
            bound: 0,
            origin: 0,
            prefix: Vec::new(),
        }
    }

    /// Makes the probe order the children near each task's start by what `history` holds,
    /// and record there what it finds (see `search/history.rs`).
    pub(crate) fn learn_from(&mut self, history: &'a History) {
        self.probe.history = Some(history);
    }

    /// Prepares an iteration with `bound`: forgets the smallest exceeded `f` and sizes the
    /// path and the frames for the deepest line (so that the search allocates nothing).
    pub(crate) fn begin(&mut self, bound: u32) {
        self.bound = bound;
        self.probe.reset_bound();
        self.probe.reserve(bound);
    }

    /// Reports the nodes not yet added to the shared counter.
    pub(crate) fn flush(&mut self) {
        self.probe.budget.flush();
    }

    /// After [`Stealer::search`] found the goal: the winning task's origin, and the moves
    /// from the origin to the goal.
    pub(crate) fn solution(&self) -> (u32, Vec<u8>) {
        let mut p = Vec::with_capacity(self.prefix.len() + self.probe.path.len());
        p.extend_from_slice(&self.prefix);
        p.extend_from_slice(&self.probe.path);
        (self.origin, p)
    }

    /// Searches below `task` to the bound. True when the goal is found
    /// ([`Stealer::solution`]).
    pub(crate) fn search(&mut self, task: Task) -> bool {
        let p = &mut self.probe;
        p.interrupted = false;
        p.path.clear();
        if task.uncounted {
            if !p.budget.spend() {
                p.interrupted = true;
                return false;
            }
            p.nodes += 1;
        }
        let g = task.base + task.path.len() as u32;
        if let Some(memo) = &task.memo {
            p.restore(task.position.tiles, memo);
        }
        self.origin = task.origin;
        self.prefix = task.path;
        p.donor.begin_task(task.origin, task.base, &self.prefix);
        p.search_below(&task.position, g, task.prev, task.state, self.bound)
    }

    /// The frontier of the subtree the last task's search left (with a history).
    pub(crate) fn last_frontier(&self) -> super::history::Frontier {
        self.probe.last_frontier
    }

    /// Nodes generated by this worker over the whole search.
    pub(crate) fn nodes(&self) -> u64 {
        self.probe.nodes
    }

    /// Nodes expanded by this worker over the whole search.
    pub(crate) fn expanded(&self) -> u64 {
        self.probe.expanded
    }

    /// The smallest `f` above the bound met in the current iteration.
    pub(crate) fn next_bound(&self) -> u32 {
        self.probe.next_bound
    }

    /// Whether the budget (a limit or another worker's solution) ended the last task.
    pub(crate) fn interrupted(&self) -> bool {
        self.probe.interrupted
    }

    /// Tasks this worker gave to the pool over the whole search.
    pub(crate) fn donated(&self) -> u64 {
        self.probe.donor.donated()
    }
}
