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

    #[test]
    fn ties_keep_the_given_order() {
        let s = RootScores::new(3);
        let mut tasks = vec![(2, 40, 10), (0, 40, 10), (1, 40, 10)];
        s.sort(&mut tasks);
        assert_eq!(tasks, vec![(2, 40, 10), (0, 40, 10), (1, 40, 10)]);
    }
}
