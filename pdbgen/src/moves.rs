//! Moves in the abstract space of one pattern: a pattern tile next to the blank's free-cell
//! region slides into that region (cost 1); the blank's moves among free cells are free.

use pdbformat::rank::{rank_combination, Binomials, BoardBits, ZeroAwareIndex};
use pdbformat::{Board, Direction};

/// Tile orders are tabulated as slot lists up to this pattern size (9! · 9 bytes = 3.3 MB).
const MAX_TABULATED_K: usize = 9;
/// The move table (4 bytes per cell set, slot and direction) is built up to this size.
const MAX_MOVE_TABLE_BYTES: usize = 64 << 20;
const NO_MOVE: u32 = u32::MAX;
/// The most tiles a zero-aware pattern can have: its index holds at most 2^40 entries, so
/// k! <= 2^40 and k <= 14. Hot-path arrays are sized for it.
pub const MAX_TILES: usize = 16;

/// Generates the neighbours of zero-aware states by index.
pub struct ZeroAwareMoves<'a> {
    idx: &'a ZeroAwareIndex,
    bits: BoardBits,
    binom: Binomials,
    k: usize,
    order_slots: Vec<u8>,
    /// `step[cell * 4 + dir]`: the neighbouring cell, or `u8::MAX` off the board.
    step: Vec<u8>,
    /// `move_region[(set * k + slot) * 4 + dir]`: the global region of the blank (left behind on
    /// the tile's old cell) after the tile on `slot` of `set` moves in `dir`; empty when the
    /// table would be too large.
    move_region: Vec<u32>,
    /// `weight[i] = (k-1-i)!`: the weight of tile `i`'s Lehmer digit in a tile order's rank.
    weight: [u64; MAX_TILES],
    /// Cells whose row + column is odd.
    odd_cells: u64,
}

/// A zero-aware state taken apart: its occupied cells, blank region and tiles' cells.
pub struct State {
    /// The cell set's number.
    pub set: usize,
    /// Occupied cells.
    pub occ: u64,
    /// Free cells of the blank's region.
    pub region: u64,
    /// Cells of the pattern tiles in tile order (first `k` used).
    pub cells: [u8; MAX_TILES],
    /// Rank of each tile's cell inside the occupied set (first `k` used).
    pub slots: [u8; MAX_TILES],
    /// The tile order's rank (the Lehmer rank of `slots`).
    pub order: u64,
    /// `tile_at[cell]`: the tile on an occupied cell (other cells: unspecified).
    pub tile_at: [u8; 64],
}

impl<'a> ZeroAwareMoves<'a> {
    /// The move generator for `idx` on `board`.
    pub fn new(board: Board, idx: &'a ZeroAwareIndex) -> ZeroAwareMoves<'a> {
        let k = idx.k();
        assert!(
            k <= MAX_TILES,
            "zero-aware patterns hold at most {MAX_TILES} tiles"
        );
        let mut order_slots = Vec::new();
        if k <= MAX_TABULATED_K {
            order_slots = vec![0u8; idx.order_count() as usize * k];
            for (o, slots) in order_slots.chunks_mut(k).enumerate() {
                pdbformat::rank::unrank_permutation(o as u64, k, slots);
            }
        }
        let step: Vec<u8> = (0..board.cells())
            .flat_map(|c| {
                Direction::ALL.map(|d| board.neighbour(c, d).map_or(u8::MAX, |n| n as u8))
            })
            .collect();
        let binom = Binomials::new();
        let mut move_region = Vec::new();
        if idx.set_count() * k * 4 * 4 <= MAX_MOVE_TABLE_BYTES {
            move_region = vec![NO_MOVE; idx.set_count() * k * 4];
            for set in 0..idx.set_count() {
                let occ = idx.set_mask(set);
                let mut m = occ;
                for slot in 0..k {
                    let p = m.trailing_zeros() as usize;
                    m &= m - 1;
                    for d in 0..4 {
                        let q = step[p * 4 + d];
                        if q != u8::MAX && occ >> q & 1 == 0 {
                            let nset = rank_combination(occ ^ (1 << p) ^ (1 << q), &binom) as usize;
                            move_region[(set * k + slot) * 4 + d] = idx.region_at(nset, p) as u32;
                        }
                    }
                }
            }
        }
        let mut weight = [0u64; MAX_TILES];
        for (i, w) in weight.iter_mut().enumerate().take(k) {
            *w = (1..(k - i) as u64).product();
        }
        let odd_cells = (0..board.cells())
            .filter(|&c| (c / board.width() + c % board.width()) % 2 == 1)
            .fold(0u64, |m, c| m | 1 << c);
        ZeroAwareMoves {
            idx,
            bits: BoardBits::new(board),
            binom,
            k,
            order_slots,
            step,
            move_region,
            weight,
            odd_cells,
        }
    }

    /// The state of global region `region` of cell set `set` with tile order `order`.
    #[inline(always)]
    pub fn state(&self, set: usize, region: usize, order: u64) -> State {
        let occ = self.idx.set_mask(set);
        let mut cells = [0u8; MAX_TILES];
        let mut slots = [0u8; MAX_TILES];
        let mut sorted = [0u8; MAX_TILES];
        let mut m = occ;
        for s in sorted.iter_mut().take(self.k) {
            *s = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        if self.order_slots.is_empty() {
            pdbformat::rank::unrank_permutation(order, self.k, &mut slots[..self.k]);
        } else {
            slots[..self.k].copy_from_slice(&self.order_slots[order as usize * self.k..][..self.k]);
        }
        let mut tile_at = [0u8; 64];
        for i in 0..self.k {
            cells[i] = sorted[slots[i] as usize];
            tile_at[cells[i] as usize] = i as u8;
        }
        State {
            set,
            occ,
            region: self.idx.region_mask(region),
            cells,
            slots,
            order,
            tile_at,
        }
    }

    /// The parity (0 or 1) of the sum of row + column over the occupied cells `occ`. A move
    /// changes it, blank moves keep it: every entry of a cell set has a distance of the same
    /// parity (the parity of the pattern tiles' Manhattan distance), so a BFS level can skip
    /// the sets of the other parity.
    #[inline]
    pub fn set_parity(&self, occ: u64) -> u8 {
        (occ & self.odd_cells).count_ones() as u8 & 1
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
    ///
    /// The neighbour's tile order is derived from the state's: a move to the next or previous
    /// cell passes no other occupied cell and keeps every slot, so the order is unchanged; a
    /// vertical move passes the occupied cells between its two cells, and only the moving tile's
    /// comparisons with the tiles on those cells flip, each changing one Lehmer digit by 1.
    #[inline]
    pub fn any_neighbour(&self, state: &State, mut f: impl FnMut(u64) -> bool) -> bool {
        let frontier = self.bits.grow(state.region) & state.occ;
        let tabulated = !self.move_region.is_empty();
        for i in 0..self.k {
            let p = state.cells[i] as usize;
            if frontier >> p & 1 == 0 {
                continue;
            }
            for d in 0..4 {
                let q = self.step[p * 4 + d];
                if q == u8::MAX || state.region >> q & 1 == 0 {
                    continue;
                }
                let q = q as usize;
                let region = if tabulated {
                    self.move_region[(state.set * self.k + state.slots[i] as usize) * 4 + d]
                        as usize
                } else {
                    let nocc = state.occ ^ (1 << p) ^ (1 << q);
                    let set = rank_combination(nocc, &self.binom) as usize;
                    self.idx.region_at(set, p)
                };
                let order = if q > p + 1 {
                    state.order + self.passed_weight(state, i, between(state.occ, p, q))
                        - self.passed_back(state, i, between(state.occ, p, q))
                } else if q + 1 < p {
                    state.order + self.passed_back(state, i, between(state.occ, q, p))
                        - self.passed_weight(state, i, between(state.occ, q, p))
                } else {
                    state.order
                };
                debug_assert_eq!(order, {
                    let mut cells = state.cells;
                    cells[i] = q as u8;
                    self.order_rank(&cells[..self.k], state.occ ^ (1 << p) ^ (1 << q))
                });
                if f(self.idx.index_of(region, order)) {
                    return true;
                }
            }
        }
        false
    }

    /// When tile `i` moves to a higher slot past the tiles on `passed`: the Lehmer digit of
    /// tile `i` grows by one for each passed tile after it in tile order.
    #[inline(always)]
    fn passed_weight(&self, state: &State, i: usize, passed: u64) -> u64 {
        let mut m = passed;
        let mut n = 0u64;
        while m != 0 {
            n += (state.tile_at[m.trailing_zeros() as usize] as usize > i) as u64;
            m &= m - 1;
        }
        n * self.weight[i]
    }

    /// When tile `i` moves to a higher slot past the tiles on `passed`: the digit of each passed
    /// tile before `i` in tile order shrinks by one (it no longer precedes a smaller slot).
    #[inline(always)]
    fn passed_back(&self, state: &State, i: usize, passed: u64) -> u64 {
        let mut m = passed;
        let mut w = 0u64;
        while m != 0 {
            let j = state.tile_at[m.trailing_zeros() as usize] as usize;
            if j < i {
                w += self.weight[j];
            }
            m &= m - 1;
        }
        w
    }

    /// The full Lehmer rank of the tiles on `cells` in the set `occ` (checks the incremental one).
    #[inline]
    fn order_rank(&self, cells: &[u8], occ: u64) -> u64 {
        let mut slots = [0u8; MAX_TILES];
        for (i, &c) in cells.iter().enumerate() {
            slots[i] = (occ & ((1u64 << c) - 1)).count_ones() as u8;
        }
        pdbformat::rank::rank_permutation(&slots[..cells.len()], cells.len())
    }
}

/// The cells of `occ` strictly between the cells `lo < hi`.
#[inline(always)]
fn between(occ: u64, lo: usize, hi: usize) -> u64 {
    occ & ((1u64 << hi) - 1) & !((1u64 << lo) - 1) & !(1u64 << lo)
}
