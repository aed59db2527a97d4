//! Parallel IDA* in the multi-tile metric: each iteration splits the tree at a few moves below
//! the start and lets threads take the subtrees from a shared counter.
//!
//! Per iteration, one probe of `search/mtm_ida.rs` records the nodes at cost [`SPLIT`] (fewer
//! when the bound is smaller) within the bound, finding the goal itself if it lies above them;
//! then every thread takes the next recorded node, searches its subtree with the same probe
//! under the shared budget of `search/bounded.rs`, and so on. The first thread to meet the goal
//! stops the others: every solution within the iteration's bound is optimal, so which thread
//! finds one changes the path, never its length. The next bound is the smallest `f` above the
//! bound that any thread saw.

use super::bounded::{Budget, Local, Shared};
use super::mtm_ida::{outcome, root, MtmProbe, Node, Rays, NO_AXIS};
use super::parallel_ida::thread_count;
use super::{Outcome, Search};
use crate::heuristic::Heuristic;
use crate::position::Position;
use pdbformat::Goal;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// The cost at which each iteration's tree is split into tasks.
const SPLIT: u32 = 3;

/// MTM IDA* on `threads` threads (0: one per core) from `start` to `goal` with `h`, within the
/// limits of `search`.
pub(crate) fn search<H: Heuristic + Sync>(
    h: &H,
    goal: &Goal,
    start: &Position,
    threads: usize,
    search: &Search,
) -> Outcome {
    let clock = search.clock();
    let threads = thread_count(threads);
    let rays = Rays::new(goal.board());
    let start_node = root(start);
    let mut splitter = MtmProbe::new(h, &rays, goal, Local::new(clock.clone(), 0), &start_node);
    let h0 = splitter.place(&start_node);
    let (mut bound, mut iterations) = (h0, 1u32);
    let mut per_thread = vec![0u64; threads];
    let (mut nodes, mut expanded) = (0u64, 0u64);
    let mut stop = None;
    let mut path = None;
    loop {
        // The split: the nodes at cost SPLIT (or the goal, if it lies above them).
        splitter.place(&start_node);
        splitter.budget = Local::new(clock.clone(), nodes);
        splitter.collect_at = SPLIT.min(bound).max(1);
        splitter.frontier.clear();
        splitter.next_bound = u32::MAX;
        splitter.nodes = 0;
        splitter.expanded = 0;
        let found = splitter.search(0, h0, NO_AXIS, bound);
        nodes += splitter.nodes;
        expanded += splitter.expanded;
        let mut next_bound = splitter.next_bound;
        if found {
            path = Some(std::mem::take(&mut splitter.path));
            break;
        }
        if splitter.stopped {
            stop = splitter.budget.stop();
            break;
        }
        let tasks = std::mem::take(&mut splitter.frontier);
        let shared = Shared::new(clock.clone(), nodes);
        let next = AtomicUsize::new(0);
        let winner: Mutex<Option<Vec<u8>>> = Mutex::new(None);
        let results: Vec<(u64, u64, u32)> = std::thread::scope(|s| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    let (shared, next, winner, tasks, rays) =
                        (&shared, &next, &winner, &tasks, &rays);
                    s.spawn(move || work(h, rays, goal, shared, next, winner, tasks, bound))
                })
                .collect();
            (workers.into_iter())
                .map(|w| w.join().unwrap_or((0, 0, u32::MAX)))
                .collect()
        });
        for (t, &(n, e, nb)) in results.iter().enumerate() {
            per_thread[t] += n;
            nodes += n;
            expanded += e;
            next_bound = next_bound.min(nb);
        }
        if let Some(p) = winner.into_inner().unwrap_or_else(|e| e.into_inner()) {
            path = Some(p);
            break;
        }
        if let Some(s) = shared.stop() {
            stop = Some(s);
            break;
        }
        if next_bound == u32::MAX {
            break;
        }
        bound = next_bound;
        iterations += 1;
    }
    outcome(
        path,
        stop,
        (nodes, expanded),
        (iterations, h0, bound),
        per_thread,
        &clock,
    )
}

/// One thread's share of an iteration: the next task while any is left and no thread has
/// found the goal. Returns the nodes it generated and expanded, and the smallest `f` above the
/// bound it saw.
#[allow(clippy::too_many_arguments)]
fn work<H: Heuristic>(
    h: &H,
    rays: &Rays,
    goal: &Goal,
    shared: &Shared,
    next: &AtomicUsize,
    winner: &Mutex<Option<Vec<u8>>>,
    tasks: &[Node],
    bound: u32,
) -> (u64, u64, u32) {
    let Some(first) = tasks.first() else {
        return (0, 0, u32::MAX);
    };
    let mut probe = MtmProbe::new(h, rays, goal, shared.budget(), first);
    loop {
        let i = next.fetch_add(1, Relaxed);
        if i >= tasks.len() || shared.abort.load(Relaxed) {
            break;
        }
        let task = &tasks[i];
        let est = probe.place(task);
        if probe.search(task.g, est, task.axis, bound) {
            let mut w = winner.lock().unwrap_or_else(|e| e.into_inner());
            w.get_or_insert_with(|| probe.path.clone());
            shared.abort.store(true, Relaxed);
            break;
        }
        if probe.stopped {
            break;
        }
    }
    probe.budget.flush();
    (probe.nodes, probe.expanded, probe.next_bound)
}
