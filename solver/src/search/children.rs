//! One node's children as the depth-first searches generate them (`search/bounded.rs` for
//! `ida` and `hybrid`, `search/steal.rs` for `parallel-ida`): the one child step they share.
//!
//! For a node it decides which moves are made (never back to the parent's cell, nor a move the
//! duplicate-move machine forbids, whose next state it keeps per move), readies every child's
//! heuristic update ([`Heuristic::prepare`]: table indexes computed and their cache lines
//! prefetched together, so that the lookups overlap), and looks up every child's estimate
//! before any child is made ([`Heuristic::evaluate`]). A child whose `g + h` exceeds the bound
//! is then counted and passed over without being made. The children are visited in the move
//! table's fixed visiting order ([`MoveTable::visit`]: the blank towards its goal corner first),
//! which decides how soon the last iteration meets the goal (the earlier iterations visit every
//! child whatever the order). Visiting the smallest estimate first was measured against it and
//! lost: no fewer nodes on Korf's 100, 1.5 times the time on ten 24-puzzle instances, and a sort
//! per node. Nothing is allocated.
//!
//! [`MoveTable::visit`]: crate::position::MoveTable::visit

use crate::heuristic::Heuristic;
use crate::position::Position;
use crate::prune::{Pruner, FORBIDDEN};

/// The children of one node: per move slot (index into the blank's targets), the pruning
/// machine's next state, the heuristic's prepared update and the estimate; and the order in
/// which to visit the slots.
pub(crate) struct Children<H: Heuristic> {
    /// The machine's state after each move, [`FORBIDDEN`] for moves not to be made.
    pub(crate) states: [u32; 4],
    /// What [`Heuristic::apply`] needs for each move.
    pub(crate) pending: [H::Pending; 4],
    /// Each child's estimate (`u32::MAX` for moves not to be made).
    estimates: [u32; 4],
    /// The slots in visiting order (the first `targets.len()` are meaningful), as the move
    /// table gave them.
    pub(crate) order: [u8; 4],
}

impl<H: Heuristic> Children<H> {
    /// The children of `position` (whose heuristic parts are `parts`) reached by moving the
    /// blank to `targets`, to be visited in `order` (slots of `targets`), the blank having come
    /// from `prev`, the machine in `state`; `limit` is the largest child estimate within the
    /// bound (a child above it may be evaluated only as far as needed to tell):
    /// [`Children::prepare`] then [`Children::finish`] at once.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn new(
        h: &H,
        prune: &Pruner,
        parts: &H::Parts,
        position: &Position,
        (targets, order): (&[u8], [u8; 4]),
        prev: u8,
        state: u32,
        limit: u32,
    ) -> Self {
        let mut kids = Children::prepare(h, prune, parts, position, (targets, order), prev, state);
        kids.finish(h, parts, position, targets, limit);
        kids
    }

    /// The first half of the child step, which waits for no memory: which moves are made
    /// (their machine states, whose rows are prefetched), and each child's heuristic update
    /// prepared ([`Heuristic::prepare`]: indexes computed, cache lines prefetched). The
    /// children are not evaluated until [`Children::finish`].
    #[inline(always)]
    pub(crate) fn prepare(
        h: &H,
        prune: &Pruner,
        parts: &H::Parts,
        position: &Position,
        (targets, order): (&[u8], [u8; 4]),
        prev: u8,
        state: u32,
    ) -> Self {
        let mut states = [FORBIDDEN; 4];
        let mut pending = [H::Pending::default(); 4];
        fill(
            &mut states,
            &mut pending,
            h,
            prune,
            parts,
            position,
            targets,
            prev,
            state,
        );
        Children {
            states,
            pending,
            estimates: [u32::MAX; 4],
            order,
        }
    }

    /// The second half, which reads the lines [`Children::prepare`] prefetched: every child's
    /// estimate (`limit` as in [`Children::new`]). `parts`, `position` and `targets` are those
    /// `prepare` was given.
    #[inline(always)]
    pub(crate) fn finish(
        &mut self,
        h: &H,
        parts: &H::Parts,
        position: &Position,
        targets: &[u8],
        limit: u32,
    ) {
        let blank = position.blank;
        for (slot, &next) in targets.iter().enumerate() {
            if self.states[slot] != FORBIDDEN {
                let tile = position.tiles[next as usize];
                self.estimates[slot] = h.evaluate(
                    parts,
                    &position.tiles,
                    tile,
                    next,
                    blank,
                    limit,
                    &mut self.pending[slot],
                );
            }
        }
    }

    /// Each child's estimate by slot (`u32::MAX` for moves not to be made; a child above the
    /// bound may have been evaluated only as far as needed to tell).
    #[inline(always)]
    pub(crate) fn estimates(&self) -> &[u32; 4] {
        &self.estimates
    }

    /// For the child in `slot` (a move to be made) of a node at cost `g`: its
    /// `f = g + 1 + h` when that exceeds `bound` (the child is pruned without being made),
    /// else `None` (the child is to be made and applied).
    #[inline(always)]
    pub(crate) fn above_bound(&self, slot: usize, g: u32, bound: u32) -> Option<u32> {
        let f = g + 1 + self.estimates[slot];
        (f > bound).then_some(f)
    }
}

/// The work of [`Children::prepare`]: each move's machine state into `states` (which holds
/// [`FORBIDDEN`] throughout on entry), its row prefetched, and each move's prepared update
/// into `pending` (only the entries of moves to be made are written, and only they are read).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn fill<H: Heuristic>(
    states: &mut [u32; 4],
    pending: &mut [H::Pending; 4],
    h: &H,
    prune: &Pruner,
    parts: &H::Parts,
    position: &Position,
    targets: &[u8],
    prev: u8,
    state: u32,
) {
    let blank = position.blank;
    for (slot, &next) in targets.iter().enumerate() {
        if next != prev {
            states[slot] = prune.step(state, slot);
            // The child's own step reads this row: on its way while the lookups run.
            prune.prefetch(states[slot]);
        }
    }
    for ((p, &next), &st) in pending.iter_mut().zip(targets).zip(states.iter()) {
        if st != FORBIDDEN {
            *p = h.prepare(parts, position.tiles[next as usize], next, blank);
        }
    }
}
