//! Work stealing for parallel IDA*: a pool of the current iteration's subtrees shared by
//! long-lived worker threads, and a cost-bounded depth-first probe that hands its shallowest
//! untried subtree to the pool when a worker is idle.
//!
//! **The probe** is the loop of `search/bounded.rs` (moves in place, children's lookups
//! prepared first, incremental heuristic with an early stop, duplicate-move pruning) with one
//! change: the untried moves of every depth live in an explicit per-depth array owned by the
//! probe, the *frames*, instead of the recursion's locals. A move is taken out of its frame
//! before it is made, so the frames always hold exactly the subtrees not yet entered. Every
//! [`POLL`] generated nodes the probe reads the pool's count of idle workers; when one waits
//! and the pool is empty, it removes the shallowest untried move that leaves at least
//! [`MIN_REST`] moves of the bound and gives that child to the pool as a [`Task`]: its
//! position (replayed from the task's root), cost, previous blank cell, the pruning
//! machine's state and the path from the search's start. The split point therefore moves
//! down the tree as work gets scarce. Nothing is allocated per node; a donation allocates
//! the new task's path.
//!
//! **The pool** runs one iteration at a time: the coordinator fills it with the iteration's
//! first tasks and a bound, the workers take tasks until the pool is empty and no worker is
//! busy (then nobody can donate any more, so the iteration is over), report, and wait for
//! the next iteration or the end. Workers live for the whole search.

use super::bounded::{Budget, Shared, SharedBudget};
use super::prune::{Pruner, FORBIDDEN};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Generated nodes between two looks at the pool's idle count.
pub(crate) const POLL: u32 = 64;

/// A donated child leaves at least this many moves of the bound below it: smaller subtrees
/// are not worth the hand-over.
pub(crate) const MIN_REST: u32 = 4;

/// A subtree of the current iteration: a position to search below, to the bound.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    /// The subtree's root.
    pub(crate) position: Position,
    /// The blank's cell before the move that made the root (`NO_CELL`: none).
    pub(crate) prev: u8,
    /// The duplicate-move machine's state at the root.
    pub(crate) state: u32,
    /// The blank's cells after each move from the search's start to the root; its length is
    /// the root's cost `g`.
    pub(crate) path: Vec<u8>,
    /// Whether the root still has to be counted as a generated node (a donated child: its
    /// donor did not count it).
    pub(crate) uncounted: bool,
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

/// One worker's depth-first searcher, reused from task to task and iteration to iteration.
pub(crate) struct Stealer<'a, H: Heuristic> {
    h: &'a H,
    moves: &'a MoveTable,
    prune: &'a Pruner,
    goal: &'a [u8; MAX_CELLS],
    pool: &'a Pool,
    budget: SharedBudget<'a>,
    position: Position,
    parts: H::Parts,
    bound: u32,
    /// The current task's root and its path from the start.
    root: Position,
    prefix: Vec<u8>,
    /// The blank's cells after each move below the task's root (the current line).
    path: Vec<u8>,
    /// Per depth below the root: the machine's state after each move slot of the node on the
    /// current line at that depth, [`FORBIDDEN`] for moves not to be made (pruned, taken or
    /// given away).
    frames: Vec<[u32; 4]>,
    polled: u32,
    /// Nodes generated by this worker over the whole search.
    pub(crate) nodes: u64,
    /// Nodes expanded by this worker over the whole search.
    pub(crate) expanded: u64,
    /// The smallest `f` above the bound met in the current iteration.
    pub(crate) next_bound: u32,
    /// Set when the budget (a limit or another worker's solution) ended the last task.
    pub(crate) interrupted: bool,
    /// Tasks this worker gave to the pool over the whole search.
    pub(crate) donated: u64,
}

impl<'a, H: Heuristic> Stealer<'a, H> {
    /// A searcher for `goal` (tiles per cell) with `moves`, the machine `prune`, `h`, the
    /// limits of `shared` and the tasks of `pool`.
    pub(crate) fn new(
        h: &'a H,
        moves: &'a MoveTable,
        prune: &'a Pruner,
        goal: &'a [u8; MAX_CELLS],
        shared: &'a Shared,
        pool: &'a Pool,
    ) -> Self {
        let position = Position {
            tiles: *goal,
            blank: goal.iter().position(|&t| t == 0).unwrap_or(0) as u8,
        };
        Stealer {
            h,
            moves,
            prune,
            goal,
            pool,
            budget: shared.budget(),
            parts: h.init(&position.tiles),
            root: position.clone(),
            position,
            bound: 0,
            prefix: Vec::new(),
            path: Vec::with_capacity(256),
            frames: Vec::new(),
            polled: 0,
            nodes: 0,
            expanded: 0,
            next_bound: u32::MAX,
            interrupted: false,
            donated: 0,
        }
    }

    /// Prepares an iteration with `bound`: forgets the smallest exceeded `f` and sizes the
    /// path and the frames for the deepest line (so that the search allocates nothing).
    pub(crate) fn begin(&mut self, bound: u32) {
        self.bound = bound;
        self.next_bound = u32::MAX;
        let depth = bound as usize + 2;
        if self.frames.len() < depth {
            self.frames.resize(depth, [FORBIDDEN; 4]);
        }
        self.path.reserve(depth);
    }

    /// Reports the nodes not yet added to the shared counter.
    pub(crate) fn flush(&mut self) {
        self.budget.flush();
    }

    /// The moves from the search's start to the goal, after [`Stealer::search`] found it.
    pub(crate) fn solution(&self) -> Vec<u8> {
        let mut p = Vec::with_capacity(self.prefix.len() + self.path.len());
        p.extend_from_slice(&self.prefix);
        p.extend_from_slice(&self.path);
        p
    }

    /// Searches below `task` to the bound. True when the goal is found
    /// ([`Stealer::solution`]).
    pub(crate) fn search(&mut self, task: Task) -> bool {
        self.interrupted = false;
        self.path.clear();
        if task.uncounted {
            if !self.budget.spend() {
                self.interrupted = true;
                return false;
            }
            self.nodes += 1;
        }
        let g = task.path.len() as u32;
        self.parts = self.h.init(&task.position.tiles);
        let h0 = self.h.value(&self.parts);
        self.prefix = task.path;
        if g + h0 > self.bound {
            self.next_bound = self.next_bound.min(g + h0);
            return false;
        }
        self.root = task.position;
        self.position = self.root.clone();
        self.dfs(g, h0, task.prev, task.state)
    }

    fn dfs(&mut self, g: u32, hval: u32, prev: u8, state: u32) -> bool {
        if hval == 0 && self.position.tiles == *self.goal {
            return true;
        }
        self.expanded += 1;
        let depth = self.path.len();
        let blank = self.position.blank;
        let moves = self.moves;
        let targets = moves.targets(blank);
        let prune = self.prune;
        let mut frame = [FORBIDDEN; 4];
        for (slot, &next) in targets.iter().enumerate() {
            if next != prev {
                frame[slot] = prune.step(state, slot);
            }
        }
        self.frames[depth] = frame;
        let mut pending = [H::Pending::default(); 4];
        for ((p, &next), &st) in pending.iter_mut().zip(targets).zip(&frame) {
            if st != FORBIDDEN {
                *p = self
                    .h
                    .prepare(&self.parts, self.position.tiles[next as usize], next, blank);
            }
        }
        for (slot, (p, &next)) in pending.iter().zip(targets).enumerate() {
            // Re-read: a donation may have given this move away.
            let st = self.frames[depth][slot];
            if st == FORBIDDEN {
                continue;
            }
            self.frames[depth][slot] = FORBIDDEN;
            if !self.budget.spend() {
                self.interrupted = true;
                return false;
            }
            self.nodes += 1;
            self.polled += 1;
            if self.polled >= POLL {
                self.polled = 0;
                if self.pool.wanted() {
                    self.donate(depth, g - depth as u32);
                }
            }
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
        }
        false
    }

    /// Gives the shallowest untried move of the current line (down to `depth`, the node being
    /// expanded) to the pool, if a worker still waits and the pool is empty. `g0` is the
    /// root's cost.
    #[cold]
    #[inline(never)]
    fn donate(&mut self, depth: usize, g0: u32) {
        let pool = self.pool;
        let mut s = pool.lock();
        if s.closed || s.tasks.len() >= pool.hungry.load(Relaxed) {
            return;
        }
        for k in 0..=depth {
            let g = g0 + k as u32 + 1;
            if g + MIN_REST > self.bound {
                return;
            }
            let Some(slot) = self.frames[k].iter().position(|&st| st != FORBIDDEN) else {
                continue;
            };
            let state = self.frames[k][slot];
            self.frames[k][slot] = FORBIDDEN;
            let mut position = self.root.clone();
            for &cell in &self.path[..k] {
                position.slide(cell);
            }
            let prev = position.blank;
            let to = self.moves.targets(prev)[slot];
            position.slide(to);
            let mut path = Vec::with_capacity(self.prefix.len() + k + 1);
            path.extend_from_slice(&self.prefix);
            path.extend_from_slice(&self.path[..k]);
            path.push(to);
            s.tasks.push_back(Task {
                position,
                prev,
                state,
                path,
                uncounted: true,
            });
            self.donated += 1;
            pool.work.notify_all();
            return;
        }
    }
}
