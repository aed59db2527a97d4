//! A*+IDA* after Bu & Korf (2019): A* until a node budget is spent, then IDA* from the nodes
//! of A*'s frontier with one global bound.
//!
//! A* (with the open list [`super::astar`] picks) runs until its table holds the budget of
//! positions. If it has not popped the goal by then, its open nodes (duplicates and stale
//! entries removed) become the frontier, sorted by `f` and, among equal `f`, by smaller `h`
//! (Bu & Korf's order). Every path from the start to the goal leaves A*'s closed set through a
//! frontier node, and A* keeps a frontier node on an optimal path with its optimal `g`, so: the
//! bound starts at the smallest frontier `f`; in an iteration, a cost-bounded depth-first search
//! runs from every frontier node whose `f` is within the bound (at its `g`); the next bound is
//! the smallest `f` that exceeded it anywhere. The first solution found is optimal, as in IDA*:
//! every shorter length was ruled out by the earlier iterations. The solution is A*'s path to
//! the frontier node followed by the probe's moves.
//!
//! **Pruning.** Each frontier node's search starts in the duplicate-move machine's state on the
//! smallest shortest path to it (`search/frontier_states.rs`), and a node whose smallest path
//! the machine forbids is left out: the smallest optimal solution still gets through, and
//! an iteration searches part of what `ida`'s iteration of the same bound searches (the
//! frontier subtrees without the duplicates between them; started from the machine's start
//! state they searched more than `ida`).
//!
//! Bu & Korf run A* until memory is full; here the budget is [`Hybrid::budget`] (default
//! 1,000,000 positions, fewer when the memory limit would not hold them): A* costs several
//! times what IDA* costs per node, and an easy 24-puzzle takes only a few million.
//!
//! **Order.** The first iteration searches the frontier in Bu & Korf's order; each later one
//! takes its frontier nodes in the order the previous iteration taught
//! (`search/root_order.rs`): those whose subtrees pruned nodes at the new bound first, the
//! likeliest per node searched (the rule by which `search/history.rs` orders children near
//! the start) first among them, ties in Bu & Korf's order. The scores come from the same
//! estimates as the search itself, early stops at the bound included, and those depend only
//! on the values, never on how a table stores them: a byte and a `bit1` table of the same
//! values search the same nodes. Inside each frontier node's search the probe is `ida`'s: the
//! compound heuristic with its transposes, duplicate-move pruning.
//!
//! **Threads.** The IDA* phase is parallel IDA*'s (`search/parallel_ida.rs`,
//! `search/steal.rs`) with the frontier nodes as each iteration's first tasks, in the order
//! above: [`Hybrid::threads`] workers (0: one per core) take them in turn, and an idle worker
//! receives the shallowest untried subtree of a busy one, so one large frontier subtree does
//! not leave the others idle. An iteration's bound is finished before the next starts, so the
//! first solution is optimal. With one thread the frontier nodes are searched one after the
//! other (the same nodes and solution every run); with more, which optimal solution is
//! returned and the node counts depend on timing. A* itself runs on one thread.
//!
//! A frontier node's heuristic parts are rebuilt from the memo A* kept for it
//! ([`Heuristic::memo_len`]) in every iteration, never by [`Heuristic::init`], which walks to
//! the goal for every `bit1` table and view.

use super::astar::{finish, queue_for, with_key, Engine, Node, Priority, QueueChoice, Step};
use super::bucket_queue::{BucketQueue, HeapQueue, OpenList, TwoBucketQueue};
use super::frontier_states::FrontierStates;
use super::history::History;
use super::parallel_ida::{first_task, iterate, thread_count, Progress, Setting};
use super::root_order::RootScores;
use super::steal::Task;
use super::{goal_array, Hybrid, Outcome, Search};
use crate::heuristic::Heuristic;
use crate::key::{Layout, Packed};
use crate::position::{MoveTable, Position, MAX_CELLS};
use pdbformat::Goal;

/// The default A* budget, in stored positions.
pub(crate) const DEFAULT_NODES: u64 = 1_000_000;

/// Runs A*+IDA* from `start` to `goal` with `h`.
///
/// # Panics
/// If the board has more than 64 cells.
pub(crate) fn search<H: Heuristic + Sync>(
    h: &H,
    goal: &Goal,
    start: &Position,
    settings: &Hybrid,
    search: &Search,
) -> Outcome {
    with_key!(goal.board().cells(), K => match queue_for(h) {
        QueueChoice::TwoBuckets => two_phases(Engine::<H, K, _>::new(
            h, goal, start, search, TwoBucketQueue::default(), Priority::AStar, true,
        ), goal, start, settings, search),
        QueueChoice::Buckets => two_phases(Engine::<H, K, _>::new(
            h, goal, start, search, BucketQueue::default(), Priority::AStar, true,
        ), goal, start, settings, search),
        QueueChoice::Heap => two_phases(Engine::<H, K, _>::new(
            h, goal, start, search, HeapQueue::default(), Priority::AStar, true,
        ), goal, start, settings, search),
    })
}

/// A frontier node: its key, its estimate, and its A* node (cost, the blank's cell in the A*
/// parent, and the memo that rebuilds its heuristic parts).
struct Frontier<K> {
    key: K,
    h: u32,
    node: Node,
    /// The duplicate-move machine's state on the smallest shortest path to it
    /// (`search/frontier_states.rs`), and the blank's cell in its parent on that path.
    state: u32,
    prev: u8,
}

impl<K> Frontier<K> {
    fn f(&self) -> u32 {
        self.node.g() + self.h
    }
}

fn two_phases<H: Heuristic + Sync, K: Packed, Q: OpenList<K>>(
    mut e: Engine<H, K, Q>,
    goal: &Goal,
    start: &Position,
    settings: &Hybrid,
    search: &Search,
) -> Outcome {
    // The budget: what was asked, but no more than about a third of the memory limit at
    // roughly 48 bytes per stored position (table, open list and growth).
    let by_memory = (search.limits.memory_limit() / 3 / 48).max(1);
    let budget = settings.budget.unwrap_or(DEFAULT_NODES.min(by_memory));
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
    let pruner = settings.pruning.machine(goal.board());
    let layout = Layout::new(goal.board().cells());
    let states = FrontierStates::new(
        &e.map,
        layout.pack(&start.tiles),
        start.blank,
        &pruner,
        layout,
        MoveTable::new(goal.board()),
    );
    let mut tiles = [0u8; MAX_CELLS];
    let mut parts = e.heuristic().init(&goal_array(goal));
    let mut frontier: Vec<Frontier<K>> = Vec::new();
    let mut left_out = 0u64;
    for (g, key) in e.open.drain_all() {
        let Some(n) = e.map.get_mut(&key) else {
            continue;
        };
        if n.closed() || n.g() != g {
            continue;
        }
        n.set_closed(true); // taken: later duplicates are skipped
        let node = *n;
        let Some((state, prev)) = states.at(key, g, &pruner) else {
            left_out += 1;
            continue;
        };
        e.unpack(key, &mut tiles);
        e.heuristic().restore(&mut parts, &tiles, e.memo(&node));
        let hv = e.heuristic().value(&parts);
        frontier.push(Frontier {
            key,
            h: hv,
            node,
            state,
            prev,
        });
    }
    let states_bytes = states.bytes();
    drop(states);
    let astar_seconds = e.clock.seconds();
    frontier.sort_by_key(|n| (n.f(), n.h));
    // Every frontier node is an origin of the iterations, numbered in this order.
    let h = e.heuristic();
    let roots: Vec<(Task, u32)> = frontier
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let blank = e.unpack(n.key, &mut tiles);
            let position = Position { tiles, blank };
            let mut task = first_task(
                &pruner,
                position,
                n.prev,
                i as u32,
                n.node.g(),
                e.memo(&n.node),
            );
            task.state = n.state;
            (task, n.f())
        })
        .collect();
    let threads = thread_count(settings.threads);
    let moves = MoveTable::for_goal(goal);
    let goal_tiles = goal_array(goal);
    let history = History::new(goal.board().cells());
    let learned = RootScores::new(roots.len());
    let setting = Setting {
        moves: &moves,
        pruner: &pruner,
        goal: &goal_tiles,
        clock: &e.clock,
        threads,
        history: &history,
        learned: Some(&learned),
    };
    // The frontier's tasks, held beside A*'s table: the roots, each iteration's queue of
    // their copies, and each root's memo (an `Arc` of its own).
    let task_bytes = 2 * std::mem::size_of::<(Task, u32)>() + 16 + h.memo_len();
    let frontier_bytes = (roots.len() * task_bytes) as u64;
    let progress = search.observer.as_ref().map(|observer| Progress {
        observer,
        tracker: Default::default(),
        before: 0,
    });
    let run = iterate(h, &setting, &roots, e.nodes, progress);
    drop(roots);
    let mut stats = astar_stats;
    stats.peak_memory += frontier_bytes.max(states_bytes);
    stats.nodes = e.nodes + run.nodes;
    stats.expanded = e.expanded + run.expanded;
    stats.iterations = run.iterations;
    stats.per_thread = run.per_thread.clone();
    stats.detail = format!(
        "A* ({}) to {} positions in {:.2} s, then IDA* from {} frontier nodes ({} left out, \
         pruned by the duplicate-move machine): {}",
        stats.detail,
        stats.stored,
        astar_seconds,
        frontier.len(),
        left_out,
        run.detail()
    );
    stats.seconds = e.clock.seconds();
    match run.found {
        Some((origin, moves)) => {
            let mut path = e.path_to(frontier[origin as usize].key);
            path.extend_from_slice(&moves);
            Outcome::solved(path, stats)
        }
        None if run.bound == u32::MAX => Outcome::unsolved(run.stop, 0, stats),
        None => Outcome::unsolved(run.stop, run.bound, stats),
    }
}
