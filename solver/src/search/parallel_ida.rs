//! IDA* across threads: a shallow breadth-first split, then every iteration's bounded
//! depth-first searches run from the split's nodes in parallel (rayon).
//!
//! **Split.** Breadth-first from the start to depth `d`, keeping each position once: a
//! position met again (at the same or a smaller depth) is dropped. The goal found on the way
//! is an optimal solution (BFS). Dropping duplicates loses no optimal solution: on a shortest
//! path every prefix is a shortest path, so the path's position at depth `d` is first reached
//! at depth `d`, and the copy that is kept continues it (its first move cannot lead back to
//! the kept copy's parent, which is nearer the start). The roots, the positions at depth
//! `d`, are sorted by `f = d + h` (ties by smaller `h`). By default `d` grows until there are
//! about 64 roots per thread; `Options::split_depth` fixes it.
//!
//! **Iterations.** The bound starts at the smallest root `f`. In an iteration every root with
//! `f` within the bound is searched to the bound by a task on the thread pool; the next bound
//! is the smallest `f` that exceeded it in any task. All roots are searched at a bound unless
//! a solution turns up at that bound; a solution found at bound `B` is optimal because every
//! shorter length was ruled out at the earlier bounds, so the other tasks are stopped at
//! once. Lengths therefore equal those of `ida`; which optimal solution is returned, and the
//! node counts of the last iteration, depend on timing.
//!
//! Node counts include the split; `Stats::per_thread` gives each worker's share of the
//! depth-first nodes. The node limit is checked against a shared counter that each task
//! updates every 1,024 nodes, so it may be passed by up to that much per thread.

use super::astar::with_key;
use super::bounded::{Probe, Shared};
use super::key::{map_bytes, Layout, Packed, PosMap};
use super::{goal_array, Clock, Options, Outcome, Stats, Stop};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS, NO_CELL};
use pdbformat::Goal;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Roots per thread the automatic split aims for.
const ROOTS_PER_THREAD: usize = 64;

/// The threads `opts.threads` asks for (0: one per core).
pub fn thread_count(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// Runs parallel IDA* from `start` to `goal` with `h`.
///
/// # Panics
/// If the board has more than 64 cells.
pub fn search<H>(h: &H, goal: &Goal, start: &Position, opts: &Options) -> Outcome
where
    H: Heuristic + Sync,
{
    with_key!(goal.board().cells(), K => run::<H, K>(h, goal, start, opts))
}

/// A node of the split: its key, its parent's index in the level above, the blank's cell
/// here and in the parent.
#[derive(Clone, Copy)]
struct SplitNode<K> {
    key: K,
    parent: u32,
    blank: u8,
    prev: u8,
}

/// A root of the depth-first phase.
#[derive(Clone, Copy)]
struct Root {
    index: u32,
    h: u32,
}

fn run<H: Heuristic + Sync, K: Packed>(
    h: &H,
    goal: &Goal,
    start: &Position,
    opts: &Options,
) -> Outcome {
    let clock = Clock::new(&opts.limits);
    let threads = thread_count(opts.threads);
    let board = goal.board();
    let layout = Layout::new(board.cells());
    let moves = MoveTable::new(board);
    let pruner = opts.pruner(board);
    let goal_tiles = goal_array(goal);
    let goal_key: K = layout.pack(&goal_tiles);
    let h0 = super::estimate(h, &start.tiles);
    let mut stats = Stats {
        initial_h: h0,
        ..Stats::default()
    };

    // The split.
    let start_key: K = layout.pack(&start.tiles);
    let mut levels: Vec<Vec<SplitNode<K>>> = vec![vec![SplitNode {
        key: start_key,
        parent: u32::MAX,
        blank: start.blank,
        prev: NO_CELL,
    }]];
    let mut seen: PosMap<K, ()> = PosMap::default();
    seen.insert(start_key, ());
    let mut tiles = [0u8; MAX_CELLS];
    let mut found: Option<Vec<u8>> = (start_key == goal_key).then(Vec::new);
    let mut stop: Option<Stop> = None;
    let target = ROOTS_PER_THREAD * threads;
    'split: while found.is_none() {
        let depth = levels.len() as u32 - 1;
        let last = levels.last().expect("at least the start");
        let enough = match opts.split_depth {
            Some(d) => depth >= d,
            None => last.len() >= target || depth >= 40,
        };
        if enough && depth > 0 {
            break;
        }
        let mut next = Vec::new();
        for (i, n) in last.iter().enumerate() {
            layout.unpack(n.key, &mut tiles);
            stats.expanded += 1;
            for &to in moves.targets(n.blank) {
                if to == n.prev {
                    continue;
                }
                if let Some(s) = clock.check(stats.nodes) {
                    stop = Some(s);
                    break 'split;
                }
                stats.nodes += 1;
                let child = layout.slide(n.key, tiles[to as usize], to, n.blank);
                if seen.insert(child, ()).is_none() {
                    next.push(SplitNode {
                        key: child,
                        parent: i as u32,
                        blank: to,
                        prev: n.blank,
                    });
                    if child == goal_key {
                        levels.push(next);
                        let last = levels.len() - 1;
                        found = Some(split_path(&levels, last, levels[last].len() - 1));
                        break 'split;
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        levels.push(next);
    }
    let depth = levels.len() as u32 - 1;
    let level_bytes: u64 = levels
        .iter()
        .map(|l| (l.capacity() * std::mem::size_of::<SplitNode<K>>()) as u64)
        .sum();
    stats.stored = seen.len() as u64;
    stats.peak_memory = map_bytes::<K, ()>(seen.capacity()) + level_bytes;
    drop(seen);
    stats.lower_bound = depth;
    if found.is_some() || stop.is_some() {
        stats.detail = format!("solved in the split (depth {depth})");
        stats.seconds = clock.seconds();
        return Outcome {
            path: found,
            stop,
            stats,
        };
    }

    // The roots, by f then h.
    let split_nodes = stats.nodes;
    let last = &levels[depth as usize];
    let mut roots: Vec<Root> = last
        .iter()
        .enumerate()
        .map(|(i, n)| {
            layout.unpack(n.key, &mut tiles);
            Root {
                index: i as u32,
                h: super::estimate(h, &tiles),
            }
        })
        .collect();
    roots.sort_by_key(|r| (depth + r.h, r.h));
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(p) => p,
        Err(e) => {
            stats.detail = format!("cannot start {threads} threads: {e}");
            return Outcome {
                path: None,
                stop: None,
                stats,
            };
        }
    };
    let workers = pool.current_num_threads();
    let per_thread: Vec<AtomicU64> = (0..workers).map(|_| AtomicU64::new(0)).collect();
    let expanded = AtomicU64::new(0);
    let shared = Shared::new(clock.clone(), split_nodes);
    let winner: Mutex<Option<(u32, Vec<u8>)>> = Mutex::new(None);
    let mut bound = roots.first().map_or(u32::MAX, |r| depth + r.h);
    let mut iterations = 0;
    while bound != u32::MAX {
        iterations += 1;
        let next_bound = AtomicU32::new(u32::MAX);
        pool.install(|| {
            roots.par_iter().with_max_len(1).for_each_init(
                || Probe::new(h, &moves, &pruner, &goal_tiles, shared.budget()),
                |probe, r| {
                    let f = depth + r.h;
                    if f > bound {
                        next_bound.fetch_min(f, Relaxed);
                        return;
                    }
                    if shared.abort.load(Relaxed) {
                        return;
                    }
                    let n = &last[r.index as usize];
                    let mut t = [0u8; MAX_CELLS];
                    let blank = layout.unpack(n.key, &mut t);
                    let root = Position { tiles: t, blank };
                    let (nodes0, exp0) = (probe.nodes, probe.expanded);
                    probe.reset_bound();
                    let hit = probe.search(&root, depth, r.h, n.prev, bound);
                    probe.flush();
                    next_bound.fetch_min(probe.next_bound, Relaxed);
                    let me = rayon::current_thread_index().unwrap_or(0) % workers;
                    per_thread[me].fetch_add(probe.nodes - nodes0, Relaxed);
                    expanded.fetch_add(probe.expanded - exp0, Relaxed);
                    if hit {
                        let mut w = winner.lock().unwrap_or_else(|e| e.into_inner());
                        if w.is_none() {
                            *w = Some((r.index, probe.path.clone()));
                        }
                        shared.abort.store(true, Relaxed);
                    }
                },
            )
        });
        if winner.lock().unwrap_or_else(|e| e.into_inner()).is_some() || shared.stop().is_some() {
            break;
        }
        bound = next_bound.load(Relaxed);
    }
    let per: Vec<u64> = per_thread.iter().map(|a| a.load(Relaxed)).collect();
    stats.nodes = split_nodes + per.iter().sum::<u64>();
    stats.expanded += expanded.load(Relaxed);
    stats.per_thread = per;
    stats.iterations = iterations;
    stats.detail = format!(
        "{workers} threads, split at depth {depth} into {} roots",
        roots.len()
    );
    stats.seconds = clock.seconds();
    let won = winner.into_inner().unwrap_or_else(|e| e.into_inner());
    match won {
        Some((i, tail)) => {
            let mut path = split_path(&levels, depth as usize, i as usize);
            path.extend_from_slice(&tail);
            stats.lower_bound = path.len() as u32;
            Outcome {
                path: Some(path),
                stop: None,
                stats,
            }
        }
        None => {
            stats.lower_bound = if bound == u32::MAX { depth } else { bound };
            Outcome {
                path: None,
                stop: shared.stop(),
                stats,
            }
        }
    }
}

/// The blank's cells after each move from the start to node `i` of `levels[level]`.
fn split_path<K>(levels: &[Vec<SplitNode<K>>], level: usize, i: usize) -> Vec<u8> {
    let mut path = Vec::with_capacity(level);
    let mut i = i;
    for l in (1..=level).rev() {
        let n = &levels[l][i];
        path.push(n.blank);
        i = n.parent as usize;
    }
    path.reverse();
    path
}
