//! The order in which `hybrid` searches A*'s frontier nodes in each iteration after the
//! first: what the previous iteration learned below each of them, by the rule of
//! `search/history.rs`.
//!
//! Bu & Korf sort the frontier once, by `f` and then by `h`, and search it in that order in
//! every iteration. Most frontier nodes lie deeper than the levels the learned order of
//! children (`search/history.rs`) covers, so inside the frontier that order hardly acts; here
//! it acts on the frontier itself. After an iteration, each frontier node's search leaves the
//! [`Frontier`] of its subtree (the least `f` above the bound among the nodes it pruned, and
//! their score `e^{−λ·h}` summed) and its size; the next iteration takes the nodes within its
//! bound in order of least such `f` (a node whose subtree pruned nothing at the new bound
//! cannot hold a solution of it, so it goes after those that did), then highest score per node
//! (Smith's rule: the chance of a solution per node searched), ties in Bu & Korf's order. A
//! node searched for the first time is judged as a pruned node of its own `f` and `h`, a
//! subtree of one node. A subtree split between threads (a donation) leaves the frontier of
//! the part its first worker searched. The order only changes which optimal solution is met
//! first and how soon, never which nodes a completed iteration visits.

use super::history::Frontier;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The frontier of each root's subtree, as the last iteration that searched it left it (0:
/// never searched), shared by the workers.
pub(crate) struct RootScores {
    slots: Box<[AtomicU64]>,
}

impl RootScores {
    /// No root searched yet, for `n` roots.
    pub(crate) fn new(n: usize) -> RootScores {
        RootScores {
            slots: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Records that root `i`'s search left `frontier` after generating `size` nodes.
    pub(crate) fn record(&self, i: u32, mut frontier: Frontier, size: u64) {
        if let Some(slot) = self.slots.get(i as usize) {
            frontier.scale(size.max(1));
            // Bit 63 marks a recorded slot (a packed frontier uses 48 bits).
            slot.store(1 << 63 | frontier.pack(), Relaxed);
        }
    }

    /// The order key of root `i` whose own `f` is `f` and estimate `h`: its recorded frontier,
    /// or itself as a pruned node when it was never searched.
    fn key(&self, i: usize, f: u32, h: u32) -> (u32, u32) {
        let bits = self.slots.get(i).map_or(0, |s| s.load(Relaxed));
        if bits >> 63 == 1 {
            Frontier::unpack(bits & !(1 << 63)).key()
        } else {
            Frontier::pruned(f, h).key()
        }
    }

    /// Sorts `tasks` (root numbers with their `f` and estimate `h`, in Bu & Korf's order) into
    /// the learned order, stably.
    pub(crate) fn sort(&self, tasks: &mut [(u32, u32, u32)]) {
        let mut keyed: Vec<((u32, u32), usize)> = tasks
            .iter()
            .enumerate()
            .map(|(rank, &(i, f, h))| (self.key(i as usize, f, h), rank))
            .collect();
        keyed.sort_unstable();
        let sorted: Vec<(u32, u32, u32)> = keyed.iter().map(|&(_, rank)| tasks[rank]).collect();
        tasks.copy_from_slice(&sorted);
    }

    /// How many roots have a recorded frontier.
    #[cfg(test)]
    fn recorded(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| s.load(Relaxed) >> 63 == 1)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learned_frontiers_order_the_roots() {
        let s = RootScores::new(4);
        // Root 0 pruned nothing below 60; roots 1 and 2 pruned at 58, root 2 closer to the
        // goal per node; root 3 was never searched (its own f 58, h 30).
        s.record(0, Frontier::pruned(60, 2), 10);
        s.record(1, Frontier::pruned(58, 20), 100);
        s.record(2, Frontier::pruned(58, 4), 100);
        let mut tasks = vec![(0, 50, 20), (1, 50, 20), (2, 52, 18), (3, 58, 30)];
        s.sort(&mut tasks);
        let order: Vec<u32> = tasks.iter().map(|t| t.0).collect();
        // Root 3's one node (e^{-9}) outscores root 1's hundred (e^{-6} / 100).
        assert_eq!(order, vec![2, 3, 1, 0]);
    }

    /// One thread, a heuristic that keeps no memo of a root (Manhattan, as byte tables): every
    /// root searched in a completed iteration is recorded, and the order learned differs from
    /// the one given.
    #[test]
    fn one_thread_learns_without_a_memo() {
        use crate::heuristic::{Heuristic, Manhattan};
        use crate::position::{MoveTable, Position};
        use crate::prune::Pruning;
        use crate::search::history::History;
        use crate::search::parallel_ida::{first_task, iterate, Setting};
        use crate::search::{estimate, goal_array, Clock, Limits};
        use pdbformat::{Board, Goal};

        let board = Board::new(4, 4).unwrap();
        let goal = Goal::blank_first(board);
        let h = Manhattan::new(&goal);
        assert_eq!(h.memo_len(), 0);
        let moves = MoveTable::for_goal(&goal);
        let pruner = Pruning::default().machine(board);
        let goal_tiles = goal_array(&goal);
        // Korf's first 15-puzzle instance; the roots are the positions two moves away.
        let start =
            Position::from_tiles(&[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]).unwrap();
        let mut roots = Vec::new();
        for &a in moves.targets(start.blank) {
            let mut one = start.clone();
            one.slide(a);
            for &b in moves
                .targets(one.blank)
                .iter()
                .filter(|&&b| b != start.blank)
            {
                let mut two = one.clone();
                two.slide(b);
                let f = 2 + estimate(&h, &two.tiles);
                let i = roots.len() as u32;
                roots.push((first_task(&pruner, two, one.blank, i, 2, &[]), f));
            }
        }
        // Bu & Korf's order, as `hybrid` gives it.
        roots.sort_by_key(|(t, f)| (*f, *f - t.base));
        for (i, r) in roots.iter_mut().enumerate() {
            r.0.origin = i as u32;
        }
        let scores = RootScores::new(roots.len());
        let history = History::new(board.cells());
        let limits = Limits {
            max_nodes: Some(300_000),
            ..Limits::default()
        };
        let clock = Clock::new(&limits);
        let setting = Setting {
            moves: &moves,
            pruner: &pruner,
            goal: &goal_tiles,
            clock: &clock,
            threads: 1,
            history: &history,
            learned: Some(&scores),
        };
        let run = iterate(&h, &setting, &roots, 0, None);
        assert!(run.found.is_none(), "the node limit stops it first");
        assert!(run.iterations >= 3, "{} iterations", run.iterations);
        // The last completed bound: every root within it was searched and recorded.
        let within = roots.iter().filter(|r| r.1 < run.bound).count();
        assert!(
            within >= 2,
            "{within} roots within the last completed bound"
        );
        assert!(
            scores.recorded() >= within,
            "{} recorded",
            scores.recorded()
        );
        let given: Vec<(u32, u32, u32)> = roots
            .iter()
            .enumerate()
            .filter(|(_, r)| r.1 <= run.bound)
            .map(|(i, r)| (i as u32, r.1, r.1 - r.0.base))
            .collect();
        let mut learned = given.clone();
        scores.sort(&mut learned);
        assert_ne!(learned, given, "the learned order is Bu & Korf's");
    }

    #[test]
    fn ties_keep_the_given_order() {
        let s = RootScores::new(3);
        let mut tasks = vec![(2, 40, 10), (0, 40, 10), (1, 40, 10)];
        s.sort(&mut tasks);
        assert_eq!(tasks, vec![(2, 40, 10), (0, 40, 10), (1, 40, 10)]);
    }
}
