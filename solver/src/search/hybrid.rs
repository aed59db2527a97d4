//! A*+IDA* after Bu & Korf (2019): A* until a node budget is spent, then IDA* from the nodes
//! of A*'s frontier, in order of `f`, with one global bound.
//!
//! A* (with the open list [`super::astar`] picks) runs until its table holds the budget of
//! positions. If it has not popped the goal by then, its open nodes (duplicates and stale
//! entries removed) become the frontier, sorted by `f` and, among equal `f`, by smaller `h`.
//! Every path from the start to the goal leaves A*'s closed set through a frontier node, and
//! A* keeps a frontier node on an optimal path with its optimal `g`, so: the bound starts at
//! the smallest frontier `f`; in an iteration, a cost-bounded depth-first search runs from every
//! frontier node whose `f` is within the bound (at its `g`, never moving straight back to its
//! A* parent); the next bound is the smallest `f` that exceeded it anywhere. The first
//! solution found is optimal, as in IDA*: every shorter length was ruled out by the earlier
//! iterations. The solution is A*'s path to the frontier node followed by the probe's moves.
//!
//! Bu & Korf run A* until memory is full; here the budget is `Options::hybrid_nodes` (default
//! 1,000,000 positions, fewer when `max_memory` would not hold them).
//!
//! A frontier node's heuristic parts are rebuilt from the memo A* kept for it
//! ([`Heuristic::memo_len`]) in every iteration, never by [`Heuristic::init`], which walks to
//! the goal for every `bit1` table and view.

use super::astar::{finish, queue_for, with_key, Engine, Node, Priority, Step};
use super::bounded::{Budget, Local, Probe};
use super::bucket_queue::{BucketQueue, HeapQueue, OpenList, TwoBucketQueue};
use super::key::Packed;
use super::{goal_array, Options, Outcome, QueueChoice};
use crate::heuristic::Heuristic;
use crate::position::{MoveTable, Position, MAX_CELLS};
use pdbformat::Goal;

/// The default A* budget, in stored positions.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// Runs A*+IDA* from `start` to `goal` with `h`.
///
/// # Panics
/// If the board has more than 64 cells.
pub fn search<H: Heuristic>(h: &H, goal: &Goal, start: &Position, opts: &Options) -> Outcome {
    let queue = queue_for(h, opts.queue).unwrap_or(QueueChoice::Heap);
    with_key!(goal.board().cells(), K => match queue {
        QueueChoice::TwoBuckets => two_phases(Engine::<H, K, _>::new(
            h, goal, start, opts, TwoBucketQueue::default(), Priority::AStar, true,
        ), goal, opts),
        QueueChoice::Buckets => two_phases(Engine::<H, K, _>::new(
            h, goal, start, opts, BucketQueue::default(), Priority::AStar, true,
        ), goal, opts),
        _ => two_phases(Engine::<H, K, _>::new(
            h, goal, start, opts, HeapQueue::default(), Priority::AStar, true,
        ), goal, opts),
    })
}

/// A frontier node: its key, cost, estimate, the blank's cell in its A* parent, and its
/// A* node (whose memo rebuilds its heuristic parts).
struct Frontier<K> {
    key: K,
    g: u32,
    h: u32,
    prev: u8,
    node: Node,
}

fn two_phases<H: Heuristic, K: Packed, Q: OpenList<K>>(
    mut e: Engine<H, K, Q>,
    goal: &Goal,
    opts: &Options,
) -> Outcome {
    // The budget: what was asked, but no more than about a third of the memory limit at
    // roughly 48 bytes per stored position (table, open list and growth).
    let by_memory = (opts.memory_limit() / 3 / 48).max(1);
    let budget = opts.hybrid_nodes.unwrap_or(DEFAULT_NODES.min(by_memory));
    let end = e.run(budget.max(1));
    if !matches!(end, Step::Budget) {
        let mut out = finish(&mut e, end, true);
        out.stats.detail = format!(
            "A* only ({}; budget {} positions not reached)",
            out.stats.detail, budget
        );
        return out;
    }
    // The frontier: live open entries, each once.
    let astar_stats = e.stats();
    let mut tiles = [0u8; MAX_CELLS];
    let mut parts = e.heuristic().init(&goal_array(goal));
    let mut frontier: Vec<Frontier<K>> = Vec::new();
    for (g, key) in e.open.drain_all() {
        let Some(n) = e.map.get_mut(&key) else {
            continue;
        };
        if n.closed() || n.g() != g {
            continue;
        }
        n.set_closed(true); // taken: later duplicates are skipped
        let node = *n;
        e.unpack(key, &mut tiles);
        e.heuristic().restore(&mut parts, &tiles, e.memo(&node));
        let hv = e.heuristic().value(&parts);
        frontier.push(Frontier {
            key,
            g,
            h: hv,
            prev: node.prev(),
            node,
        });
    }
    frontier.sort_by_key(|n| (n.g + n.h, n.h));
    let h = e.heuristic();
    let moves = MoveTable::new(goal.board());
    let goal_tiles = goal_array(goal);
    let pruner = opts.pruner(goal.board());
    let mut probe = Probe::new(
        h,
        &moves,
        &pruner,
        &goal_tiles,
        Local::new(e.clock.clone(), e.nodes),
    );
    probe.order = opts.order;
    let mut bound = frontier.first().map_or(u32::MAX, |n| n.g + n.h);
    let mut iterations = 0;
    let found = 'outer: loop {
        if frontier.is_empty() || bound == u32::MAX {
            break None;
        }
        iterations += 1;
        probe.reset_bound();
        for n in &frontier {
            if n.g + n.h > bound {
                probe.next_bound = probe.next_bound.min(n.g + n.h);
                break; // sorted by f: the rest are above the bound too
            }
            let blank = e.unpack(n.key, &mut tiles);
            let start = Position { tiles, blank };
            // The parts from the memo, not `init` (a walk to the goal per `bit1` table).
            probe.restore(tiles, e.memo(&n.node));
            if probe.search(&start, n.g, n.h, n.prev, bound) {
                let mut path = e.path_to(n.key);
                path.extend_from_slice(&probe.path);
                break 'outer Some(path);
            }
            if probe.interrupted {
                break 'outer None;
            }
        }
        bound = probe.next_bound;
    };
    let mut stats = astar_stats;
    stats.nodes = e.nodes + probe.nodes;
    stats.expanded = e.expanded + probe.expanded;
    stats.iterations = iterations;
    stats.detail = format!(
        "A* ({}) to {} positions, then IDA* from {} frontier nodes",
        stats.detail,
        stats.stored,
        frontier.len()
    );
    stats.seconds = e.clock.seconds();
    let stop = probe.budget.stop();
    stats.lower_bound = match &found {
        Some(p) => p.len() as u32,
        None if bound == u32::MAX => 0,
        None => bound,
    };
    Outcome {
        path: found,
        stop,
        stats,
    }
}
