//! IDA* across threads with work stealing: long-lived workers share each iteration's tree,
//! an idle worker receiving the shallowest untried subtree of a busy one (`search/steal.rs`).
//!
//! **Start.** Every iteration starts from the start position alone: one worker takes it and
//! the others are fed by donations, the split point moving down the tree as work gets
//! scarce. (A breadth-first split into first tasks was tried and generated more nodes.)
//!
//! **Iterations.** The bound starts at the smallest `f` of the first tasks (here the start's
//! estimate; `hybrid` gives A*'s frontier). Each iteration
//! runs until the pool is empty and no worker is busy; the next bound is the smallest `f`
//! that exceeded it in any worker. Iteration `B + 1` starts only once `B` is over, so a
//! solution found at bound `B` is optimal (every shorter length was ruled out at the earlier
//! bounds): the other workers stop at their next look at the shared counters. Lengths equal
//! those of `ida`; which optimal solution is returned, and the node counts, depend on timing
//! with more than one thread. With one thread the search visits the nodes of `ida` in its
//! order (same counts).
//!
//! **Small iterations alone.** Iterations that generate fewer than [`SERIAL_NODES`] nodes
//! run on the calling thread alone (`ida`'s loop, learning the same order of children); the
//! workers start with the first iteration after a larger one, so short searches (most
//! 15-puzzles) cost what `ida`'s do and long ones (the 24-puzzle) are spread over the cores.
//!
//! `Stats::per_thread` gives each worker's share of the nodes; they sum to the total. The node limit is checked
//! against a shared counter that each worker updates every 1,024 nodes, so it may be passed
//! by up to that much per thread.

use super::bounded::{Budget, Donor, Keep, Local, Probe, Shared};
use super::history::History;
use super::observer::{Event, Observer, Tracker};
use super::root_order::RootScores;
use super::steal::{Giver, Pool, Stealer, Task};
use super::{goal_array, Clock, Outcome, ParallelIda, Search, Stats, Stop};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS, NO_CELL};
use crate::prune::Pruner;
use pdbformat::Goal;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::Mutex;

/// The threads that a `threads` setting asks for (0: one per core).
pub(crate) fn thread_count(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        super::threads::cores().min(super::threads::MAX_THREADS)
    }
}

/// Runs parallel IDA* from `start` to `goal` with `h`.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search<H>(
    h: &H,
    goal: &Goal,
    start: &Position,
    settings: &ParallelIda,
    search: &Search,
) -> Outcome
where
    H: Heuristic + Sync,
{
    let clock = search.clock();
    let threads = thread_count(settings.threads);
    let board = goal.board();
    let moves = MoveTable::for_goal(goal);
    let pruner = settings.pruning.machine(board);
    let goal_tiles = goal_array(goal);
    let history = History::new(board.cells());
    // The start is the one root: every iteration searches it again from its memo.
    let parts = h.init(&start.tiles);
    let h0 = h.value(&parts);
    let mut memo = vec![0u8; h.memo_len()];
    h.write_memo(&parts, &mut memo);
    let mut progress = search.observer.as_ref().map(|observer| Progress {
        observer,
        tracker: Tracker::default(),
        before: 0,
    });
    // The small first iterations on this thread alone.
    let alone = if threads > 1 {
        let mut probe = Probe::new(
            h,
            &moves,
            &pruner,
            &goal_tiles,
            Local::new(clock.clone(), 0),
        );
        probe.history = Some(&history);
        probe.seed(start.tiles, parts);
        serial(&mut probe, start, h0, &clock, &mut progress)
    } else {
        Alone::default_at(h0)
    };
    let stats = |nodes: u64, expanded: u64, iterations: u32, bound: u32, detail: String| Stats {
        nodes,
        expanded,
        iterations,
        initial_h: h0,
        // The line of each worker and the root's memo.
        peak_memory: (threads * (bound.min(1024) as usize + 2 + std::mem::size_of::<Position>())
            + memo.len()) as u64,
        detail,
        seconds: clock.seconds(),
        ..Stats::default()
    };
    let serial_detail = format!(
        "{} iteration{} on one thread",
        alone.iterations,
        if alone.iterations == 1 { "" } else { "s" }
    );
    if let Some(end) = alone.end {
        let mut st = stats(
            alone.nodes,
            alone.expanded,
            alone.iterations,
            alone.bound,
            serial_detail,
        );
        st.per_thread = vec![0; threads];
        st.per_thread[0] = alone.nodes;
        return match end {
            Ok(path) => Outcome::solved(path, st),
            Err(stop) => Outcome::unsolved(stop, alone.bound, st),
        };
    }
    let roots = [(
        first_task(&pruner, start.clone(), NO_CELL, 0, 0, &memo),
        alone.bound,
    )];
    let run = iterate(
        h,
        &Setting {
            moves: &moves,
            pruner: &pruner,
            goal: &goal_tiles,
            clock: &clock,
            threads,
            history: &history,
            learned: None,
        },
        &roots,
        alone.nodes,
        progress.map(|p| Progress {
            before: alone.iterations,
            ..p
        }),
    );
    let detail = if alone.iterations > 0 {
        format!("{serial_detail}, then {}", run.detail())
    } else {
        run.detail()
    };
    let mut st = stats(
        alone.nodes + run.nodes,
        alone.expanded + run.expanded,
        alone.iterations + run.iterations,
        run.bound,
        detail,
    );
    st.per_thread = run.per_thread.clone();
    if let Some(first) = st.per_thread.first_mut() {
        *first += alone.nodes;
    }
    match run.found {
        Some((_, path)) => Outcome::solved(path, st),
        None if run.bound == u32::MAX => Outcome::unsolved(run.stop, 0, st),
        None => Outcome::unsolved(run.stop, run.bound, st),
    }
}

/// Iterations that generate fewer nodes than this run on the calling thread alone: starting
/// and feeding the workers costs more than they give there. The iteration after the first
/// larger one starts the workers.
pub(crate) const SERIAL_NODES: u64 = 1 << 18;

/// An iteration on the calling thread alone that passes this many nodes (an unusually steep
/// growth) is abandoned and searched again by the workers.
const SERIAL_CAP: u64 = 1 << 22;

/// What the iterations on the calling thread alone did.
struct Alone {
    /// The bound the workers start at (or that the search ended at).
    bound: u32,
    iterations: u32,
    nodes: u64,
    expanded: u64,
    /// How the search ended, if it did: the solution, or the limit that stopped it (`None`:
    /// the tree was exhausted).
    end: Option<Result<Vec<u8>, Option<Stop>>>,
}

impl Alone {
    /// Nothing done yet, the workers to start at `bound`.
    fn default_at(bound: u32) -> Alone {
        Alone {
            bound,
            iterations: 0,
            nodes: 0,
            expanded: 0,
            end: None,
        }
    }
}

/// Runs IDA*'s iterations from `start` (estimate `h0`) with `probe` on this thread while they
/// stay below [`SERIAL_NODES`]: `ida`'s loop exactly, the same nodes in the same order.
fn serial<H: Heuristic>(
    probe: &mut Probe<'_, H, Local>,
    start: &Position,
    h0: u32,
    clock: &Clock,
    progress: &mut Option<Progress<'_>>,
) -> Alone {
    let mut alone = Alone::default_at(h0);
    loop {
        let before = probe.nodes;
        let t0 = std::time::Instant::now();
        let mut capped = clock.clone();
        capped.max_nodes = clock.max_nodes.min(before.saturating_add(SERIAL_CAP));
        probe.budget = Local::new(capped, before);
        probe.reset_bound();
        probe.reserve(alone.bound);
        let found = probe.search(start, 0, h0, NO_CELL, alone.bound);
        if probe.interrupted {
            let stop = probe.budget.stop();
            if stop == Some(Stop::Nodes) && probe.nodes < clock.max_nodes {
                // Only the cap: the workers search this bound again from the start; its
                // nodes so far count as generated.
                alone.nodes = probe.nodes;
                alone.expanded = probe.expanded;
                return alone;
            }
            alone.end = Some(Err(stop));
        }
        alone.iterations += 1;
        alone.nodes = probe.nodes;
        alone.expanded = probe.expanded;
        if found {
            alone.end = Some(Ok(std::mem::take(&mut probe.path)));
        }
        if alone.end.is_some() {
            return alone;
        }
        if probe.next_bound == u32::MAX {
            alone.end = Some(Err(None));
            alone.bound = 0;
            return alone;
        }
        if let Some(p) = progress.as_mut() {
            let secs = t0.elapsed().as_secs_f64();
            let (n, bound, next) = (alone.iterations, alone.bound, probe.next_bound);
            p.tell(
                n,
                bound,
                next,
                probe.nodes - before,
                probe.nodes,
                secs,
                clock,
            );
        }
        alone.bound = probe.next_bound;
        if probe.nodes - before >= SERIAL_NODES {
            return alone;
        }
    }
}

/// An iteration's first task: `position`, reached at cost `base` from the parent whose blank
/// was on `prev`, as origin number `origin`, with its heuristic `memo` (every iteration
/// searches it again, and rebuilds its parts from the memo; empty: none).
pub(crate) fn first_task(
    pruner: &Pruner,
    position: Position,
    prev: u8,
    origin: u32,
    base: u32,
    memo: &[u8],
) -> Task {
    Task {
        state: pruner.start(position.blank),
        position,
        prev,
        origin,
        base,
        path: Vec::new(),
        uncounted: false,
        memo: (!memo.is_empty()).then(|| memo.into()),
    }
}

/// What the iterations of [`iterate`] share besides the heuristic.
pub(crate) struct Setting<'a> {
    pub(crate) moves: &'a MoveTable,
    pub(crate) pruner: &'a Pruner,
    /// The goal, tiles per cell.
    pub(crate) goal: &'a [u8; MAX_CELLS],
    pub(crate) clock: &'a Clock,
    pub(crate) threads: usize,
    /// What the iterations learn about the order of children near each task's start, shared
    /// by the workers (`search/history.rs`).
    pub(crate) history: &'a History,
    /// Where the roots' searches record what they found, to order the roots of each next
    /// iteration (`search/root_order.rs`); `None`: the order given.
    pub(crate) learned: Option<&'a RootScores>,
}

/// Where [`iterate`] reports each finished iteration: the observer, the tracker of the
/// growth, and the iterations finished before (on one thread).
pub(crate) struct Progress<'a> {
    pub(crate) observer: &'a Observer,
    pub(crate) tracker: Tracker,
    pub(crate) before: u32,
}

impl Progress<'_> {
    /// Reports the finished iteration `number` (from 1) of bound `bound`.
    #[allow(clippy::too_many_arguments)]
    fn tell(
        &mut self,
        number: u32,
        bound: u32,
        next_bound: u32,
        nodes: u64,
        total_nodes: u64,
        seconds: f64,
        clock: &Clock,
    ) {
        let report = self.tracker.finish(
            number,
            bound,
            next_bound,
            nodes,
            total_nodes,
            seconds,
            clock.seconds(),
        );
        self.observer.tell(&Event::Iteration(report));
    }
}

/// How the iterations of [`iterate`] ended.
pub(crate) struct Iterated {
    /// The winning task's origin and the moves from the origin to the goal.
    pub(crate) found: Option<(u32, Vec<u8>)>,
    /// The limit that stopped the search, if one did.
    pub(crate) stop: Option<Stop>,
    /// The last bound (`u32::MAX`: the tree was exhausted).
    pub(crate) bound: u32,
    pub(crate) iterations: u32,
    /// Nodes generated and expanded by the workers.
    pub(crate) nodes: u64,
    pub(crate) expanded: u64,
    /// Each worker's generated nodes.
    pub(crate) per_thread: Vec<u64>,
    donated: u64,
    workers: usize,
    failed: usize,
    spawn_error: Option<String>,
}

impl Iterated {
    /// The threads in words: how many, and the subtrees they handed over (or what failed).
    pub(crate) fn detail(&self) -> String {
        match &self.spawn_error {
            Some(e) if self.workers == 0 => e.clone(),
            _ if self.failed > 0 => format!(
                "{} of {} worker threads failed (a bug)",
                self.failed, self.workers
            ),
            _ if self.workers == 1 => "1 thread".to_string(),
            _ => format!(
                "{} threads, work stealing ({} subtrees handed over)",
                self.workers, self.donated
            ),
        }
    }
}

/// Runs cost-bounded iterations over threads until a goal is found, a limit stops them or the
/// tree is exhausted: each iteration's first tasks are the `roots` (task and `f`) whose `f` is
/// within the bound, in the order given or, with [`Setting::learned`], in the order the
/// earlier iterations taught (ties in the order given); the first bound is the smallest `f`. `base_nodes`
/// were generated before (they count against the node limit). With `progress`, each finished
/// iteration is reported.
pub(crate) fn iterate<H: Heuristic + Sync>(
    h: &H,
    set: &Setting<'_>,
    roots: &[(Task, u32)],
    base_nodes: u64,
    mut progress: Option<Progress<'_>>,
) -> Iterated {
    let shared = Shared::new(set.clock.clone(), base_nodes);
    let pool = Pool::default();
    let next_bound = AtomicU32::new(u32::MAX);
    let winner: Mutex<Option<(u32, Vec<u8>)>> = Mutex::new(None);
    let mut bound = roots.iter().map(|r| r.1).min().unwrap_or(u32::MAX);
    let mut iterations = 0;
    let mut workers = 0;
    let mut spawn_error = None;
    let mut per: Vec<(u64, u64, u64, bool)> = Vec::new();
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(set.threads);
        for w in 0..set.threads {
            let ctx = Worker {
                h,
                moves: set.moves,
                pruner: set.pruner,
                goal: set.goal,
                history: set.history,
                shared: &shared,
                pool: &pool,
                next_bound: &next_bound,
                winner: &winner,
                learned: set.learned,
                solo: set.threads == 1,
            };
            match std::thread::Builder::new()
                .name(format!("pida-{w}"))
                .spawn_scoped(scope, move || ctx.run())
            {
                Ok(handle) => handles.push(handle),
                Err(e) => {
                    spawn_error = Some(format!("cannot start thread {w}: {e}"));
                    break;
                }
            }
        }
        workers = handles.len();
        while workers > 0 && bound != u32::MAX {
            iterations += 1;
            let (t0, nodes0) = (std::time::Instant::now(), shared.nodes.load(Relaxed));
            next_bound.store(u32::MAX, Relaxed);
            let mut chosen: Vec<(u32, u32, u32)> = roots
                .iter()
                .enumerate()
                .filter(|(_, r)| r.1 <= bound)
                .map(|(i, r)| (i as u32, r.1, r.1.saturating_sub(r.0.base)))
                .collect();
            if let Some(learned) = set.learned {
                learned.sort(&mut chosen);
            }
            let tasks: VecDeque<Task> = chosen
                .iter()
                .map(|c| roots[c.0 as usize].0.clone())
                .collect();
            for r in roots.iter().filter(|r| r.1 > bound) {
                next_bound.fetch_min(r.1, Relaxed);
            }
            pool.run_iteration(tasks, bound, workers);
            if winner.lock().unwrap_or_else(|e| e.into_inner()).is_some() || shared.stop().is_some()
            {
                break;
            }
            let next = next_bound.load(Relaxed);
            if let Some(p) = progress.as_mut() {
                let total = shared.nodes.load(Relaxed);
                let number = p.before + iterations;
                let secs = t0.elapsed().as_secs_f64();
                p.tell(number, bound, next, total - nodes0, total, secs, set.clock);
            }
            bound = next;
        }
        pool.finish();
        // Workers catch their own panics (and report them), so joining cannot fail.
        per = handles
            .into_iter()
            .map(|h| h.join().unwrap_or((0, 0, 0, false)))
            .collect();
    });
    let found = winner.into_inner().unwrap_or_else(|e| e.into_inner());
    Iterated {
        stop: if found.is_some() { None } else { shared.stop() },
        found,
        bound,
        iterations,
        nodes: per.iter().map(|p| p.0).sum(),
        expanded: per.iter().map(|p| p.1).sum(),
        per_thread: per.iter().map(|p| p.0).collect(),
        donated: per.iter().map(|p| p.2).sum(),
        workers,
        failed: per.iter().filter(|p| !p.3).count(),
        spawn_error,
    }
}

/// What a worker thread shares with the others.
struct Worker<'a, H> {
    h: &'a H,
    moves: &'a MoveTable,
    pruner: &'a Pruner,
    goal: &'a [u8; MAX_CELLS],
    history: &'a History,
    shared: &'a Shared,
    pool: &'a Pool,
    next_bound: &'a AtomicU32,
    winner: &'a Mutex<Option<(u32, Vec<u8>)>>,
    /// Where a root's search records what it found (`hybrid`).
    learned: Option<&'a RootScores>,
    /// The only worker: it keeps every subtree.
    solo: bool,
}

impl<H: Heuristic> Worker<'_, H> {
    /// Runs iterations until the search is over; returns the nodes generated and expanded,
    /// the subtrees handed over, and false if the worker panicked (the search is then
    /// aborted instead of waiting for it).
    fn run(self) -> (u64, u64, u64, bool) {
        if self.solo {
            // Nobody to give work to: `ida`'s loop exactly, without frames or polls.
            self.run_with(Keep)
        } else {
            self.run_with(Giver::new(self.pool))
        }
    }

    /// [`Worker::run`] with `donor`.
    fn run_with<D: Donor>(&self, donor: D) -> (u64, u64, u64, bool) {
        let mut probe = Stealer::new(
            self.h,
            self.moves,
            self.pruner,
            self.goal,
            self.shared,
            donor,
        );
        probe.learn_from(self.history);
        let mut holding = false;
        let body = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut seen = 0;
            while let Some(bound) = self.pool.next_iteration(&mut seen) {
                probe.begin(bound);
                while let Some(task) = self.pool.take(&self.shared.abort) {
                    // A root of the iteration: a first task carries no path (a donated
                    // subtree carries at least the move to it). Not told by its memo, which
                    // only `bit1` tables keep: with byte tables no root would be recorded.
                    let root = task.path.is_empty().then_some(task.origin);
                    let before = probe.nodes();
                    holding = true;
                    let hit = probe.search(task);
                    holding = false;
                    if let (Some(learned), Some(i)) = (self.learned, root) {
                        if !hit && !probe.interrupted() {
                            learned.record(i, probe.last_frontier(), probe.nodes() - before);
                        }
                    }
                    self.pool.done();
                    if hit {
                        let mut w = self.winner.lock().unwrap_or_else(|e| e.into_inner());
                        if w.is_none() {
                            *w = Some(probe.solution());
                        }
                        self.shared.abort.store(true, Relaxed);
                    }
                    if hit || probe.interrupted() {
                        self.pool.wake_all();
                    }
                }
                probe.flush();
                self.next_bound.fetch_min(probe.next_bound(), Relaxed);
            }
        }));
        if body.is_err() {
            self.shared.abort.store(true, Relaxed);
            self.pool.fail(holding);
        }
        (
            probe.nodes(),
            probe.expanded(),
            probe.donated(),
            body.is_ok(),
        )
    }
}
