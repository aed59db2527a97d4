//! Moves in the abstract space of one pattern: a pattern tile next to the blank's free-cell
//! region slides into that region (cost 1); the blank's moves among free cells are free.

use pdbformat::rank::{rank_combination, rank_permutation, Binomials, BoardBits, ZeroAwareIndex};
use pdbformat::Board;

/// Tile orders are tabulated as slot lists up to this pattern size (9! · 9 bytes = 3.3 MB).
const MAX_TABULATED_K: usize = 9;

/// Generates the neighbours of zero-aware states by index.
pub struct ZeroAwareMoves<'a> {
    idx: &'a ZeroAwareIndex,
    bits: BoardBits,
    nbr: Vec<u64>,
    binom: Binomials,
    k: usize,
    order_slots: Vec<u8>,
}

/// A zero-aware state taken apart: its occupied cells, blank region and tiles' cells.
pub struct State {
    /// Occupied cells.
    pub occ: u64,
    /// Free cells of the blank's region.
    pub region: u64,
    /// Cells of the pattern tiles in tile order (first `k` used).
    pub cells: [u8; 64],
}

impl<'a> ZeroAwareMoves<'a> {
    /// The move generator for `idx` on `board`.
    pub fn new(board: Board, idx: &'a ZeroAwareIndex) -> ZeroAwareMoves<'a> {
        let k = idx.k();
        let mut order_slots = Vec::new();
        if k <= MAX_TABULATED_K {
            order_slots = vec![0u8; idx.order_count() as usize * k];
            for (o, slots) in order_slots.chunks_mut(k).enumerate() {
                pdbformat::rank::unrank_permutation(o as u64, k, slots);
            }
        }
        ZeroAwareMoves {
            idx,
            bits: BoardBits::new(board),
            nbr: board.neighbour_masks(),
            binom: Binomials::new(),
            k,
            order_slots,
        }
    }

    /// The state of global region `region` of cell set `set` with tile order `order`.
    #[inline]
    pub fn state(&self, set: usize, region: usize, order: u64) -> State {
        let occ = self.idx.set_mask(set);
        let mut cells = [0u8; 64];
        if self.order_slots.is_empty() {
            self.idx.place_tiles(occ, order, &mut cells[..self.k]);
        } else {
            let mut sorted = [0u8; 64];
            let mut m = occ;
            for s in sorted.iter_mut().take(self.k) {
                *s = m.trailing_zeros() as u8;
                m &= m - 1;
            }
            let slots = &self.order_slots[order as usize * self.k..][..self.k];
            for i in 0..self.k {
                cells[i] = sorted[slots[i] as usize];
            }
        }
        State {
            occ,
            region: self.idx.region_mask(region),
            cells,
        }
    }

    /// Calls `f(index)` for every neighbour of `state` (each pattern-tile move into the region).
    #[inline]
    pub fn for_each_neighbour(&self, state: &State, mut f: impl FnMut(u64)) {
        self.any_neighbour(state, |n| {
            f(n);
            false
        });
    }

    /// Whether `f(index)` holds for some neighbour of `state`; stops at the first that does.
    #[inline]
    pub fn any_neighbour(&self, state: &State, mut f: impl FnMut(u64) -> bool) -> bool {
        let mut cells = state.cells;
        let frontier = self.bits.grow(state.region) & state.occ;
        for i in 0..self.k {
            let p = cells[i] as usize;
            if frontier >> p & 1 == 0 {
                continue;
            }
            let mut targets = self.nbr[p] & state.region;
            while targets != 0 {
                let q = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let nocc = state.occ ^ (1 << p) ^ (1 << q);
                cells[i] = q as u8;
                let set = rank_combination(nocc, &self.binom) as usize;
                let region = self.idx.region_at(set, p);
                let order = self.order_rank(&cells[..self.k], nocc);
                if f(self.idx.index_of(region, order)) {
                    return true;
                }
            }
            cells[i] = p as u8;
        }
        false
    }

    #[inline]
    fn order_rank(&self, cells: &[u8], occ: u64) -> u64 {
        let mut slots = [0u8; 64];
        for (i, &c) in cells.iter().enumerate() {
            slots[i] = (occ & ((1u64 << c) - 1)).count_ones() as u8;
        }
        rank_permutation(&slots[..cells.len()], cells.len())
    }
}
