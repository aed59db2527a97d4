//! Moves in the abstract space of one pattern: a pattern tile next to the blank's free-cell
//! region slides into that region (cost 1); the blank's moves among free cells are free.

use pdbformat::rank::{popcount, rank_combination, Binomials, ZeroAwareIndex};
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

/// The most moves a state can have: each tile in each direction.
const MAX_MOVES: usize = 4 * MAX_TILES;

/// The moves shared by every state of one block (a cell set and a blank region of it), found
/// once per block by [`ZeroAwareMoves::block`].
pub struct BlockMoves {
    /// `keep[..keep_len]`: the neighbour's block base (region times `k!`) of each move that
    /// passes no tile; the neighbour's index is that base plus the state's tile order.
    keep: [u64; MAX_MOVES],
    keep_len: usize,
    /// `pass[..pass_len]`: the vertical moves that pass tiles.
    pass: [Pass; MAX_MOVES],
    pass_len: usize,
}

impl BlockMoves {
    /// The moves of each state of the block (the distributed build weighs blocks by it).
    #[cfg(feature = "mpi")]
    pub fn len(&self) -> usize {
        self.keep_len + self.pass_len
    }
}

/// A move that passes tiles: the slot of the moving tile and the slots it passes.
#[derive(Clone, Copy, Default)]
struct Pass {
    /// The neighbour's block base (region times `k!`).
    base: u64,
    /// The moving tile's slot.
    slot: u8,
    /// The first of the passed slots.
    first: u8,
    /// How many slots it passes.
    count: u8,
    /// Whether the tile moves to a higher cell (and slot).
    down: bool,
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
    /// The tile order's rank (the Lehmer rank of the tiles' slots: each tile's rank among the
    /// occupied cells).
    pub order: u64,
    /// `tile_of_slot[slot]`: the tile on each slot (first `k` used).
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
        popcount(occ & self.odd_cells) as u8 & 1
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
            let mut movers = self.movers(state.occ, state.region, d);
            while movers != 0 {
                let p = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                let slot = popcount(state.occ & ((1u64 << p) - 1)) as usize;
                let region = self.region_after(state.set, state.occ, p, slot, d);
                if f(self.idx.index_of(region, state.order)) {
                    return true;
                }
            }
        }
        for d in [UP, DOWN] {
            let mut movers = self.movers(state.occ, state.region, d);
            while movers != 0 {
                let p = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                let slot = popcount(state.occ & ((1u64 << p) - 1)) as usize;
                let region = self.region_after(state.set, state.occ, p, slot, d);
                // The tiles passed sit on the slots between the old and the new cell.
                let i = state.tile_of_slot[slot] as usize;
                let (first, count) = if d == DOWN {
                    let q = p + self.width;
                    (slot + 1, popcount(between(state.occ, p, q)) as usize)
                } else {
                    let q = p - self.width;
                    let m = popcount(between(state.occ, q, p)) as usize;
                    (slot - m, m)
                };
                let passed = &state.tile_of_slot[first..first + count];
                let order = self.order_after_pass(state.order, i, passed, d == DOWN);
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

    /// The moves of every state of the block of global region `region` of cell set `set`:
    /// which tiles can move, where to, and what they pass depend on the cells only, not on the
    /// tile order.
    #[inline]
    pub fn block(&self, set: usize, region: usize) -> BlockMoves {
        let occ = self.idx.set_mask(set);
        let free = self.idx.region_mask(region);
        let fact = self.idx.order_count();
        let mut block = BlockMoves {
            keep: [0; MAX_MOVES],
            keep_len: 0,
            pass: [Pass::default(); MAX_MOVES],
            pass_len: 0,
        };
        for d in [UP, DOWN, LEFT, RIGHT] {
            let mut movers = self.movers(occ, free, d);
            while movers != 0 {
                let p = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                let slot = popcount(occ & ((1u64 << p) - 1)) as usize;
                let base = self.region_after(set, occ, p, slot, d) as u64 * fact;
                let passed = match d {
                    DOWN => popcount(between(occ, p, p + self.width)) as usize,
                    UP => popcount(between(occ, p - self.width, p)) as usize,
                    _ => 0,
                };
                if passed == 0 {
                    block.keep[block.keep_len] = base;
                    block.keep_len += 1;
                } else {
                    block.pass[block.pass_len] = Pass {
                        base,
                        slot: slot as u8,
                        first: if d == DOWN { slot + 1 } else { slot - passed } as u8,
                        count: passed as u8,
                        down: d == DOWN,
                    };
                    block.pass_len += 1;
                }
            }
        }
        block
    }

    /// Calls `f(index)` for every neighbour of the state of tile order `order` in `block`.
    #[inline]
    pub fn for_each_neighbour_in(&self, block: &BlockMoves, order: u64, mut f: impl FnMut(u64)) {
        self.any_neighbour_in(block, order, |n| {
            f(n);
            false
        });
    }

    /// Whether `f(index)` holds for some neighbour of the state of tile order `order` in
    /// `block`; stops at the first that does. The same neighbours as [`Self::any_neighbour`]
    /// finds for that state, without taking the state apart: a move that passes no tile keeps
    /// the order, one that passes tiles changes the Lehmer digits of the tiles it passes.
    #[inline]
    pub fn any_neighbour_in(
        &self,
        block: &BlockMoves,
        order: u64,
        mut f: impl FnMut(u64) -> bool,
    ) -> bool {
        for &base in &block.keep[..block.keep_len] {
            if f(base + order) {
                return true;
            }
        }
        if block.pass_len == 0 {
            return false;
        }
        let tiles = if self.order_tiles.is_empty() {
            order_rows(order, self.k).1
        } else {
            self.order_tiles[order as usize]
        };
        for m in &block.pass[..block.pass_len] {
            let i = tiles[m.slot as usize] as usize;
            let passed = &tiles[m.first as usize..(m.first + m.count) as usize];
            if f(m.base + self.order_after_pass(order, i, passed, m.down)) {
                return true;
            }
        }
        false
    }

    /// The tile order (rank `order`) after tile `i` moves vertically past the tiles `passed`
    /// (down: to a later cell; up: to an earlier one): only tile `i`'s comparisons with the
    /// passed tiles flip, and each changes one Lehmer digit by 1 (tile `i`'s, weighted by its
    /// own weight, for a later tile; the passed tile's, weighted by its weight, for an earlier).
    #[inline(always)]
    fn order_after_pass(&self, order: u64, i: usize, passed: &[u8], down: bool) -> u64 {
        let mut after = 0u64;
        let mut before_weight = 0u64;
        for &j in passed {
            let j = j as usize;
            after += (j > i) as u64;
            before_weight += if j < i { self.weight[j] } else { 0 };
        }
        if down {
            order + after * self.weight[i] - before_weight
        } else {
            order + before_weight - after * self.weight[i]
        }
    }

    /// The cells of `occ` whose neighbour in direction `d` is a free cell of the blank's region
    /// `region`: the tiles that can move in direction `d`.
    #[inline(always)]
    fn movers(&self, occ: u64, region: u64, d: usize) -> u64 {
        let targets = region;
        let sources = match d {
            UP => targets << self.width,
            DOWN => targets >> self.width,
            LEFT => targets << 1,
            _ => targets >> 1,
        };
        sources & occ & self.can_move[d]
    }

    /// The global region of the blank (left behind on cell `p`) after the tile on `p` (slot
    /// `slot`) moves in direction `d`.
    #[inline(always)]
    fn region_after(&self, set: usize, occ: u64, p: usize, slot: usize, d: usize) -> usize {
        if self.move_region.is_empty() {
            let q = self.step[p * 4 + d] as usize;
            let nocc = occ ^ (1 << p) ^ (1 << q);
            let set = rank_combination(nocc, &self.binom) as usize;
            self.idx.region_at(set, p)
        } else {
            self.move_region[(set * self.k + slot) * 4 + d] as usize
        }
    }

    /// The full Lehmer rank of the tiles on `cells` in the set `occ` (checks the incremental one).
    #[inline]
    fn order_rank(&self, cells: &[u8], occ: u64) -> u64 {
        let mut slots = [0u8; MAX_TILES];
        for (i, &c) in cells.iter().enumerate() {
            slots[i] = popcount(occ & ((1u64 << c) - 1)) as u8;
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

#[cfg(test)]
mod tests {
    use super::*;

    impl ZeroAwareMoves<'_> {
        /// The same generator without its tables (move regions, tile orders), as patterns too
        /// large to tabulate run it.
        fn untabulated(mut self) -> Self {
            self.move_region.clear();
            self.order_slots.clear();
            self.order_tiles.clear();
            self
        }
    }

    /// Every neighbour of every state, sorted, through `State` and through `BlockMoves`.
    fn neighbours_both_ways(moves: &ZeroAwareMoves, idx: &ZeroAwareIndex) -> (u64, u64) {
        let mut counted = (0, 0);
        for set in 0..idx.set_count() {
            for region in idx.regions_of_set(set) {
                let block = moves.block(set, region);
                for order in 0..idx.order_count() {
                    let state = moves.state(set, region, order);
                    let mut a = vec![];
                    moves.for_each_neighbour(&state, |n| a.push(n));
                    let mut b = vec![];
                    moves.for_each_neighbour_in(&block, order, |n| b.push(n));
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "set {set} region {region} order {order}");
                    // Each neighbour is a state one tile move away: its cells differ in one tile.
                    let cells = state.cells;
                    for &n in &a {
                        let mut other = [0u8; MAX_TILES];
                        let blank = idx.unrank(n, &mut other[..idx.k()]);
                        let moved: Vec<usize> =
                            (0..idx.k()).filter(|&t| other[t] != cells[t]).collect();
                        assert_eq!(moved.len(), 1, "index {n}");
                        // The blank's new region holds the moved tile's old cell.
                        let t = moved[0];
                        let nocc = other[..idx.k()].iter().fold(0u64, |m, &c| m | 1 << c);
                        let nregion = idx.region_at(idx.set_rank(nocc), cells[t] as usize);
                        assert_eq!(idx.region_mask(nregion) >> blank & 1, 1);
                    }
                    counted.0 += a.len() as u64;
                    let stop = moves.any_neighbour_in(&block, order, |_| true);
                    assert_eq!(stop, !a.is_empty());
                    counted.1 += 1;
                }
            }
        }
        counted
    }

    #[test]
    fn block_moves_find_the_neighbours_of_each_state() {
        for (w, h, k) in [
            (3, 3, 1),
            (3, 3, 3),
            (3, 3, 5),
            (2, 5, 4),
            (5, 2, 4),
            (4, 4, 3),
            (4, 3, 5),
            (5, 4, 3),
        ] {
            let board = Board::new(w, h).unwrap();
            let idx = ZeroAwareIndex::new(board, k).unwrap();
            let tabulated = ZeroAwareMoves::new(board, &idx);
            let (moves, states) = neighbours_both_ways(&tabulated, &idx);
            assert_eq!(states, idx.len());
            assert!(moves > states, "{w}x{h}, {k} tiles: {moves} moves");
            let bare = ZeroAwareMoves::new(board, &idx).untabulated();
            assert_eq!(neighbours_both_ways(&bare, &idx), (moves, states));
        }
    }
}
