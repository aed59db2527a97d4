//! What one iteration of a cost-bounded search learned about the top of its tree, for the order
//! of children in the next iteration.
//!
//! IDA*'s last iteration stops at the first solution it meets, so its cost is decided by how
//! soon the depth-first order reaches one. An iteration prunes nodes whose `f = g + h` exceeds
//! its bound; those at the smallest such `f`, the next bound, are where the next iteration
//! goes further. Such a node lies on an optimal solution when the next bound is the optimum and
//! its estimate is exact, and small estimates are exact far more often than large ones. So
//! each subtree gets a [`Frontier`]: the least `f` above the bound among its pruned nodes, and
//! the *score* of the pruned nodes at that `f`, the sum of `e^{−λ·h}` over their estimates `h`
//! (λ = [`LAMBDA`]). A [`History`] keeps, for every position within the first [`DEPTH`]
//! levels, the frontier of its subtree with the score divided by the subtree's size (the
//! nodes the iteration generated in it): the score estimates the chance that the subtree holds
//! a solution, the size what searching it costs, and visiting the alternatives in order of
//! chance per cost is the order that least delays the first success (Smith's rule for
//! sequencing). The next iteration visits the children there in order of least `f`, then
//! highest score per node ([`History::order`]); a child the table does not know (pruned by the
//! last iteration, or never met) is judged as such a pruned node by its own estimate, a subtree
//! of one node. Below [`DEPTH`], and among children that tie, the move table's fixed order
//! stands. The levels count from the search's start, whatever task a node is searched in:
//! `parallel-ida`'s tasks (donated subtrees) learn above their depth, `hybrid`'s (A*'s
//! frontier nodes, most of them deeper than [`DEPTH`]) hardly at all.
//!
//! Measured (one thread, 24-puzzle, the 5×5 default `24-6666x7-za-bit1` with its transposes;
//! expanded nodes against the score alone with λ = 0.7, the order before the division):
//! - 26 positions 150 random moves from the goal (`bench/5x5-walk150.txt`, lengths 62-84):
//!   geometric mean 0.98, total 1.08;
//! - 60 positions 200 random moves from it (`bench/5x5-walk200.txt`, lengths 62-94; the 56
//!   that both solved within 120 s): geometric mean 0.95, total 0.95;
//! - Korf's instances 38, 40, 44, 25, 1, 32, 37, 30, 28, 5, 36, 22, 29, 16 and 13: 0.86, total
//!   0.89 (0.21 on 1, 2.0 on 25);
//! - Korf's 100 (15-puzzle, `15-663-za`): 0.99, total 0.95.
//!
//! The score alone with λ = 0.7 had needed 0.67 of the fixed order's nodes on the 150-move
//! positions with `24-6666-za-bit1` (λ = 0.3 0.78, 1.5 0.68; depth 8, 12 and 16 0.70, 0.67
//! and 0.66). With the division, λ = 0.7 gave 1.09 and 0.93 on the first and third sets
//! and depth 16 1.13 and 1.32 (24 of the 26 150-move positions, 5 left out of Korf's), and on
//! the first 42 of the 200-move positions λ = 0.15 1.02 and λ = 0.5 0.94 where λ = 0.3 gave
//! 0.96.
//!
//! The table is direct-mapped, a 64-bit word a slot holding a tag of the position's hash, the
//! frontier's `f` and its score, read and written with relaxed atomics so that the workers of
//! `parallel-ida` share one table. A collision or a torn race only changes an order, never
//! which nodes a completed iteration visits: every order finds an optimal solution.

use crate::position::{Position, MAX_CELLS};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The levels below the search's start whose positions the table keeps.
pub(crate) const DEPTH: usize = 12;

/// The weight λ of an estimate in a pruned node's score `e^{−λ·h}`.
pub(crate) const LAMBDA: f32 = 0.3;

/// Slots of the table (a power of two) on boards of more than 16 cells: 4 MiB, over ten times
/// the positions an iteration of a 24-puzzle search records within [`DEPTH`] levels (34,074 in
/// the last iteration of Korf's instance 36), so that few records collide.
const SLOTS: usize = 1 << 19;

/// Slots on boards of at most 16 cells: 1 MiB, few enough pages that a 15-puzzle search of
/// milliseconds does not spend a noticeable part of its time faulting them in (with 4 MiB,
/// Korf's 100 with the 6-6-3 took 1.13 times as long; with 1 MiB, as long as in the fixed order).
const SMALL_SLOTS: usize = 1 << 17;

/// The pruned nodes of a subtree that the next iteration reaches first: their least `f` above
/// the bound and the score of the nodes at that `f`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Frontier {
    /// The least `f` above the bound (`u32::MAX`: nothing pruned).
    f: u32,
    /// The sum of `e^{−λ·h}` over the pruned nodes at `f`.
    score: f32,
}

impl Frontier {
    /// A subtree that pruned nothing.
    pub(crate) const NONE: Frontier = Frontier {
        f: u32::MAX,
        score: 0.0,
    };

    /// A node pruned at `f` with estimate `h`, alone.
    #[inline(always)]
    pub(crate) fn pruned(f: u32, h: u32) -> Frontier {
        Frontier {
            f,
            score: weight(h),
        }
    }

    /// Adds the pruned nodes of `other` (a disjoint part of the same subtree).
    #[inline(always)]
    pub(crate) fn merge(&mut self, other: Frontier) {
        if other.f < self.f {
            *self = other;
        } else if other.f == self.f {
            self.score += other.score;
        }
    }

    /// Divides the score by the subtree's `size` (at least 1): the score per node.
    pub(crate) fn scale(&mut self, size: u64) {
        self.score /= size.max(1) as f32;
    }

    /// The order key: least `f` first, then highest score.
    pub(crate) fn key(&self) -> (u32, u32) {
        // A score is positive, so its bits order as the score does; inverted, highest first.
        (self.f, !self.score.to_bits())
    }

    /// The frontier packed in the low 48 bits of a slot: `f` (16 bits, saturated) and the
    /// score's bits.
    pub(crate) fn pack(&self) -> u64 {
        (self.f.min(0xffff) as u64) << 32 | self.score.to_bits() as u64
    }

    /// The frontier [`Frontier::pack`] packed.
    pub(crate) fn unpack(bits: u64) -> Frontier {
        let f = (bits >> 32 & 0xffff) as u32;
        Frontier {
            f: if f == 0xffff { u32::MAX } else { f },
            score: f32::from_bits(bits as u32),
        }
    }
}

/// `e^{−λ·h}`, from a table.
#[inline(always)]
fn weight(h: u32) -> f32 {
    WEIGHTS[h.min(255) as usize]
}

/// `e^{−λ·h}` for `h` in `0..256`.
static WEIGHTS: std::sync::LazyLock<[f32; 256]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|h| (-LAMBDA * h as f32).exp()));

/// The frontiers of the positions near the start of a search, by position, shared by the
/// threads of one search.
pub(crate) struct History {
    slots: Box<[AtomicU64]>,
    /// `slots.len() - 1`.
    mask: usize,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "History({} slots)", self.slots.len())
    }
}

impl History {
    /// An empty table for searches on a board of `cells` cells.
    pub(crate) fn new(cells: usize) -> History {
        // Touch the weights now, not in the search.
        let _ = weight(0);
        let n = if cells > 16 { SLOTS } else { SMALL_SLOTS };
        History {
            slots: zeroed_slots(n),
            mask: n - 1,
        }
    }

    /// Records `frontier` as that of the subtree below `tiles`, in which the iteration
    /// generated `size` nodes (at least 1): kept with its score per node.
    pub(crate) fn record(&self, tiles: &[u8; MAX_CELLS], mut frontier: Frontier, size: u64) {
        frontier.scale(size);
        let hash = hash(tiles);
        let slot = &self.slots[hash as usize & self.mask];
        // Tag: the hash's top 16 bits, never 0 (0 marks an empty slot).
        let tag = (hash >> 48).max(1);
        slot.store(tag << 48 | frontier.pack(), Relaxed);
    }

    /// How many slots hold a frontier.
    #[cfg(test)]
    pub(crate) fn recorded(&self) -> usize {
        self.slots.iter().filter(|s| s.load(Relaxed) != 0).count()
    }

    /// The frontier recorded for `tiles`, if any.
    fn recall(&self, tiles: &[u8; MAX_CELLS]) -> Option<Frontier> {
        let hash = hash(tiles);
        let bits = self.slots[hash as usize & self.mask].load(Relaxed);
        (bits >> 48 == (hash >> 48).max(1)).then(|| Frontier::unpack(bits))
    }

    /// Reorders `order` (the first `targets.len()` slots of the move table's visiting order,
    /// at a node on `position` reached at cost `g`) by the children's recorded frontiers, least
    /// `f` then highest score first, ties in the given order; `estimates[slot]` is the child's
    /// estimate (`u32::MAX` for a move not to be made, which goes last), which judges a child
    /// the table does not know.
    pub(crate) fn order(
        &self,
        position: &Position,
        targets: &[u8],
        g: u32,
        order: &mut [u8; 4],
        estimates: &[u32; 4],
    ) {
        let n = targets.len();
        let mut keyed = [((u32::MAX, u32::MAX), 0usize, 0u8); 4];
        for (rank, k) in keyed.iter_mut().enumerate().take(n) {
            let slot = order[rank];
            let h = estimates[slot as usize];
            let key = if h == u32::MAX {
                (u32::MAX, u32::MAX)
            } else {
                let mut child = position.tiles;
                let next = targets[slot as usize] as usize;
                child[position.blank as usize] = child[next];
                child[next] = 0;
                self.recall(&child)
                    .unwrap_or_else(|| Frontier::pruned(g + 1 + h, h))
                    .key()
            };
            *k = (key, rank, slot);
        }
        keyed[..n].sort_unstable();
        for (o, k) in order.iter_mut().zip(&keyed[..n]) {
            *o = k.2;
        }
    }
}

/// `n` empty slots, in memory the allocator hands out zeroed: a fresh mapping whose pages cost
/// nothing until a search touches them, so that a search of a few milliseconds does not spend
/// one clearing megabytes.
fn zeroed_slots(n: usize) -> Box<[AtomicU64]> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n).expect("a table of a few megabytes");
    assert!(layout.size() > 0);
    // SAFETY: the layout's size is not zero; all-zero bits are a valid `AtomicU64` (it has the
    // bit validity of `u64`); the pointer comes from the global allocator with this very layout
    // (`n` elements of `AtomicU64`), which is what `Box<[AtomicU64]>` frees it with.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
    }
}

/// A 64-bit hash of a position's tiles.
#[inline]
fn hash(tiles: &[u8; MAX_CELLS]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for chunk in tiles.chunks_exact(8) {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 29;
    }
    h ^ h >> 32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiles(seed: u8) -> [u8; MAX_CELLS] {
        let mut t = [0u8; MAX_CELLS];
        for (i, c) in t.iter_mut().enumerate().take(25) {
            *c = ((i as u8).wrapping_mul(7).wrapping_add(seed)) % 25;
        }
        t
    }

    #[test]
    fn frontiers_keep_the_least_f_and_add_scores_there() {
        let mut a = Frontier::NONE;
        a.merge(Frontier::pruned(60, 3));
        a.merge(Frontier::pruned(62, 0));
        assert_eq!(a.f, 60);
        a.merge(Frontier::pruned(60, 5));
        assert!((a.score - (weight(3) + weight(5))).abs() < 1e-6);
        a.merge(Frontier::pruned(58, 20));
        assert_eq!(a, Frontier::pruned(58, 20));
        // Least f first, then the higher score.
        assert!(Frontier::pruned(58, 9).key() < Frontier::pruned(60, 0).key());
        assert!(Frontier::pruned(60, 2).key() < Frontier::pruned(60, 3).key());
        for f in [Frontier::NONE, a, Frontier::pruned(97, 40)] {
            assert_eq!(Frontier::unpack(f.pack()), f);
        }
    }

    #[test]
    fn recorded_frontiers_order_the_children() {
        let h = History::new(25);
        let p = Position {
            tiles: tiles(3),
            blank: tiles(3).iter().position(|&t| t == 0).unwrap() as u8,
        };
        let b = p.blank as usize;
        let targets: Vec<u8> = [b.wrapping_sub(5), b + 5, b.wrapping_sub(1), b + 1]
            .into_iter()
            .filter(|&c| c < 25)
            .map(|c| c as u8)
            .collect();
        let child = |slot: usize| {
            let mut t = p.tiles;
            let n = targets[slot] as usize;
            t[b] = t[n];
            t[n] = 0;
            t
        };
        // Unknown children: judged by their estimates (equal f: the smaller estimate first,
        // ties in the given order).
        let mut order = [0, 1, 2, 3];
        h.order(&p, &targets, 10, &mut order, &[7, 5, 7, 9]);
        assert_eq!(&order[..targets.len()], &[1, 0, 2, 3][..targets.len()]);
        // The last child's subtree scored best at the least f: it comes first.
        let last = targets.len() - 1;
        let mut best = Frontier::pruned(20, 1);
        best.merge(Frontier::pruned(20, 2));
        h.record(&child(last), best, 3);
        let mut order = [0, 1, 2, 3];
        h.order(&p, &targets, 10, &mut order, &[9; 4]);
        assert_eq!(order[0] as usize, last);
        // At the same f and score, the smaller subtree first: more chance per node.
        let h = History::new(25);
        h.record(&child(0), best, 1000);
        h.record(&child(1), best, 10);
        let mut order = [0, 1, 2, 3];
        h.order(&p, &targets, 10, &mut order, &[9, 9, 11, 11]);
        assert_eq!(&order[..2], &[1, 0]);
        // A move not to be made goes last.
        let mut order = [0, 1, 2, 3];
        h.order(&p, &targets, 10, &mut order, &[u32::MAX, 9, 9, 9]);
        assert_eq!(order[targets.len() - 1], 0);
        assert_eq!(h.recall(&tiles(4)), None);
    }
}
