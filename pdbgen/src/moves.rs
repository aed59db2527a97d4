//! Moves in the abstract space of one pattern: a pattern tile next to the blank's free-cell
//! region slides into that region (cost 1); the blank's moves among free cells are free.

use pdbformat::rank::{rank_combination, Binomials, ZeroAwareIndex};
use pdbformat::{Board, Direction};

/// Tile orders are tabulated as slot lists and their inverses up to this pattern size
/// (9! · 32 bytes = 11.6 MB).
const MAX_TABULATED_K: usize = 9;
/// The move table (4 bytes per cell set, slot and direction) is built up to this size.
const MAX_MOVE_TABLE_BYTES: usize = 64 << 20;
const NO_MOVE: u32 = u32::MAX;
/// Direction numbers: the positions in [`Direction::ALL`] (the move table's last digit).
const UP: usize = 0;
const DOWN: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;
/// The most tiles a zero-aware pattern can have: its index holds at most 2^40 entries, so
/// k! <= 2^40 and k <= 14. Hot-path arrays are sized for it.
pub const MAX_TILES: usize = 16;

/// Generates the neighbours of zero-aware states by index.
pub struct ZeroAwareMoves<'a> {
    idx: &'a ZeroAwareIndex,
    binom: Binomials,
    k: usize,
    /// `order_slots[order]`: each tile's slot (first `k` bytes used); empty past
    /// [`MAX_TABULATED_K`] tiles.
    order_slots: Vec<[u8; MAX_TILES]>,
    /// `order_tiles[order]`: the tile on each slot, the inverse of `order_slots[order]`.
    order_tiles: Vec<[u8; MAX_TILES]>,
    /// Board width: the cell distance of a vertical move.
    width: usize,
    /// `can_move[dir]`: the cells with a neighbour in direction `dir`.
    can_move: [u64; 4],
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
    /// `tile_of_slot[slot]`: the tile on each slot (first `k` used), the inverse of `slots`.
    pub tile_of_slot: [u8; MAX_TILES],
}

impl<'a> ZeroAwareMoves<'a> {
    /// The move generator for `idx` on `board`.
    pub fn new(board: Board, idx: &'a ZeroAwareIndex) -> ZeroAwareMoves<'a> {
        let k = idx.k();
        assert!(
            k <= MAX_TILES,
            "zero-aware patterns hold at most {MAX_TILES} tiles"
        );
        assert_eq!(
            [UP, DOWN, LEFT, RIGHT].map(|d| Direction::ALL[d]),
            [
                Direction::Up,
                Direction::Down,
                Direction::Left,
                Direction::Right
            ]
        );
        let mut order_slots = Vec::new();
        let mut order_tiles = Vec::new();
        if k <= MAX_TABULATED_K {
            for o in 0..idx.order_count() {
                let (slots, tiles) = order_rows(o, k);
                order_slots.push(slots);
                order_tiles.push(tiles);
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
        let mut can_move = [0u64; 4];
        for (d, mask) in can_move.iter_mut().enumerate() {
            for c in 0..board.cells() {
                if step[c * 4 + d] != u8::MAX {
                    *mask |= 1 << c;
                }
            }
        }
        let odd_cells = (0..board.cells())
            .filter(|&c| (c / board.width() + c % board.width()) % 2 == 1)
            .fold(0u64, |m, c| m | 1 << c);
        ZeroAwareMoves {
            idx,
            binom,
            k,
            order_slots,
            order_tiles,
            width: board.width(),
            can_move,
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
        let (slots, tile_of_slot) = if self.order_slots.is_empty() {
            order_rows(order, self.k)
        } else {
            (
                self.order_slots[order as usize],
                self.order_tiles[order as usize],
            )
        };
        let mut sorted = [0u8; MAX_TILES];
        let mut m = occ;
        for s in sorted.iter_mut().take(self.k) {
            *s = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        let mut cells = [0u8; MAX_TILES];
        for i in 0..self.k {
            cells[i] = sorted[slots[i] as usize];
        }
        State {
            set,
            occ,
            region: self.idx.region_mask(region),
            cells,
            slots,
            order,
            tile_of_slot,
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
    /// The moves are found direction by direction as bit masks (the occupied cells whose
    /// neighbour in that direction is a free cell of the blank's region), so each loop turn is
    /// a move; a tile's slot is the number of occupied cells below it.
    ///
    /// The neighbour's tile order is derived from the state's: a move to the next or previous
    /// cell passes no other occupied cell and keeps every slot, so the order is unchanged; a
    /// vertical move passes the occupied cells between its two cells, and only the moving tile's
    /// comparisons with the tiles on those cells flip, each changing one Lehmer digit by 1.
    #[inline]
    pub fn any_neighbour(&self, state: &State, mut f: impl FnMut(u64) -> bool) -> bool {
        for d in [LEFT, RIGHT] {
            let mut movers = self.movers(state, d);
            while movers != 0 {
                let p = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                let slot = (state.occ & ((1u64 << p) - 1)).count_ones() as usize;
                let region = self.region_after(state, p, slot, d);
                if f(self.idx.index_of(region, state.order)) {
                    return true;
                }
            }
        }
        for d in [UP, DOWN] {
            let mut movers = self.movers(state, d);
            while movers != 0 {
                let p = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                let slot = (state.occ & ((1u64 << p) - 1)).count_ones() as usize;
                let region = self.region_after(state, p, slot, d);
                // The tiles passed sit on the slots between the old and the new cell.
                let i = state.tile_of_slot[slot] as usize;
                let (first, count) = if d == DOWN {
                    let q = p + self.width;
                    (slot + 1, between(state.occ, p, q).count_ones() as usize)
                } else {
                    let q = p - self.width;
                    let m = between(state.occ, q, p).count_ones() as usize;
                    (slot - m, m)
                };
                let mut after = 0u64;
                let mut before_weight = 0u64;
                for t in first..first + count {
                    let j = state.tile_of_slot[t] as usize;
                    after += (j > i) as u64;
                    before_weight += if j < i { self.weight[j] } else { 0 };
                }
                let order = if d == DOWN {
                    state.order + after * self.weight[i] - before_weight
                } else {
                    state.order + before_weight - after * self.weight[i]
                };
                debug_assert_eq!(order, {
                    let q = if d == DOWN {
                        p + self.width
                    } else {
                        p - self.width
                    };
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

    /// The occupied cells of `state` whose neighbour in direction `d` is a free cell of the
    /// blank's region: the tiles that can move in direction `d`.
    #[inline(always)]
    fn movers(&self, state: &State, d: usize) -> u64 {
        let targets = state.region;
        let sources = match d {
            UP => targets << self.width,
            DOWN => targets >> self.width,
            LEFT => targets << 1,
            _ => targets >> 1,
        };
        sources & state.occ & self.can_move[d]
    }

    /// The global region of the blank (left behind on cell `p`) after the tile on `p` (slot
    /// `slot`) moves in direction `d`.
    #[inline(always)]
    fn region_after(&self, state: &State, p: usize, slot: usize, d: usize) -> usize {
        if self.move_region.is_empty() {
            let q = self.step[p * 4 + d] as usize;
            let nocc = state.occ ^ (1 << p) ^ (1 << q);
            let set = rank_combination(nocc, &self.binom) as usize;
            self.idx.region_at(set, p)
        } else {
            self.move_region[(state.set * self.k + slot) * 4 + d] as usize
        }
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

/// The slots of each tile and the tile of each slot for tile order `order` of `k` tiles.
fn order_rows(order: u64, k: usize) -> ([u8; MAX_TILES], [u8; MAX_TILES]) {
    let mut slots = [0u8; MAX_TILES];
    pdbformat::rank::unrank_permutation(order, k, &mut slots[..k]);
    let mut tiles = [0u8; MAX_TILES];
    for (i, &s) in slots[..k].iter().enumerate() {
        tiles[s as usize] = i as u8;
    }
    (slots, tiles)
}

/// The cells of `occ` strictly between the cells `lo < hi`.
#[inline(always)]
fn between(occ: u64, lo: usize, hi: usize) -> u64 {
    occ & ((1u64 << hi) - 1) & !((1u64 << lo) - 1) & !(1u64 << lo)
}
