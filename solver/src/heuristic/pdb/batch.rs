//! The estimates of many positions at once ([`PdbHeuristic::estimate_many`]): positions go in
//! blocks; the table indexes of a whole block are computed first, one table at a time, then
//! each table's entries are read in one loop of independent loads, so that the processor keeps
//! as many cache misses in flight as it can (far more than software prefetches issued between
//! index computations do, and more than a loop that computes and loads in turn).

use super::entry::Entry;
use super::{shuffle, PdbHeuristic};
use crate::position::MAX_CELLS;
use pdbformat::rank::FastZeroAware;

/// How many positions [`PdbHeuristic::estimate_many`] takes at a time.
const BLOCK: usize = 1024;

impl PdbHeuristic {
    /// The estimates of many positions, each the value [`super::Heuristic::init`] gives it
    /// (the solver's start estimate): `positions` holds one position per `cells` bytes of this
    /// heuristic's board (`tiles[cell]`, 0 for the blank) and `out` receives one estimate per
    /// position. `bit1` tables give their values by the walk of `init` (a corrupt table counts
    /// 0, as there).
    ///
    /// `Err(r)`: position `r` is not a permutation of `0..cells` (nothing of it is looked
    /// up; `out` is written up to there).
    ///
    /// # Panics
    /// If `positions` does not hold `out.len()` positions.
    pub fn estimate_many(&self, positions: &[u8], out: &mut [u32]) -> Result<(), usize> {
        let n = self.cells;
        assert_eq!(positions.len(), out.len() * n, "one position per {n} bytes");
        let entries = self.entries.len();
        // Per position of the block: the cell of each tile (a row of `MAX_CELLS`, so that a
        // tile number masked to it needs no bounds check; narrower rows measured slower).
        let mut cell_of = vec![[0u8; MAX_CELLS]; BLOCK];
        // Per entry and position of the block: the table index.
        let mut index = vec![0u64; BLOCK * entries];
        // Per entry and position of the block: the value.
        let mut value = vec![0u8; BLOCK * entries];
        // Per position of the block: the estimate so far, and one component's sum.
        let mut best = vec![0u32; BLOCK];
        let mut sum = vec![0u32; BLOCK];
        for (b, block) in out.chunks_mut(BLOCK).enumerate() {
            let first = b * BLOCK;
            let rows = &mut cell_of[..block.len()];
            let bad = invert(&positions[first * n..][..block.len() * n], n, rows);
            let done = bad.unwrap_or(block.len());
            let rows = &cell_of[..done];
            // Every entry's index for every position of the block (or its value, for `bit1`
            // tables), then the entries of each table in one loop of independent loads.
            for (e, entry) in self.entries.iter().enumerate() {
                let table = &entry.table;
                if table.is_differential() {
                    let k = entry.slot_tile.len();
                    let mut cells = [0u8; MAX_CELLS];
                    for (p, row) in rows.iter().enumerate() {
                        let occ = entry.place(row, &mut cells);
                        let blank = entry.cellmap[row[0] as usize & (MAX_CELLS - 1)];
                        value[e * BLOCK + p] =
                            table.exact_value(&cells[..k], occ, blank).unwrap_or(0);
                    }
                } else {
                    entry.indexes(n, rows, &mut index[e * BLOCK..][..done]);
                }
            }
            for (e, entry) in self.entries.iter().enumerate() {
                let table = &entry.table;
                if !table.is_differential() {
                    let values = &mut value[e * BLOCK..][..done];
                    for (v, &i) in values.iter_mut().zip(&index[e * BLOCK..][..done]) {
                        *v = table.value(i);
                    }
                }
            }
            // The largest of the components' sums.
            let (best, sum) = (&mut best[..done], &mut sum[..done]);
            best.fill(0);
            for comp in &self.comps {
                sum.fill(0);
                for &e in &comp.entries {
                    for (s, &v) in sum.iter_mut().zip(&value[e as usize * BLOCK..][..done]) {
                        *s += v as u32;
                    }
                }
                for (b, &s) in best.iter_mut().zip(sum.iter()) {
                    *b = (*b).max(s);
                }
            }
            block[..done].copy_from_slice(best);
            if let Some(p) = bad {
                return Err(first + p);
            }
        }
        Ok(())
    }
}

/// Writes into `rows[p]` the cell of each tile of position `p` of `positions` (`n` bytes
/// each: the tile on each cell); stops at the first position that is not a permutation of
/// `0..n` and returns its number.
fn invert(positions: &[u8], n: usize, rows: &mut [[u8; MAX_CELLS]]) -> Option<usize> {
    let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (p, (tiles, row)) in positions.chunks_exact(n).zip(rows).enumerate() {
        // Every tile below 64 (`high`) and every cell of the board seen once.
        let (mut seen, mut high) = (0u64, 0u8);
        for (c, &t) in tiles.iter().enumerate() {
            seen |= 1u64 << (t & 63);
            high |= t;
            row[t as usize & (MAX_CELLS - 1)] = c as u8;
        }
        if seen != full || high >= 64 {
            return Some(p);
        }
    }
    None
}

impl Entry {
    /// The index in this entry's (byte) table of each position of `rows` (positions of a
    /// board of `n` cells, tile `t` on `row[t]`) into `index`: by shuffles for up to 8 tiles
    /// on up to 16 cells where the processor has them, else with the Lehmer digits unrolled
    /// for the common pattern sizes, else by the table's own index.
    fn indexes(&self, n: usize, rows: &[[u8; MAX_CELLS]], index: &mut [u64]) {
        let k = self.slot_tile.len();
        if let Some(z) = self.table.zero_aware_index() {
            if n <= 16 && shuffle::indexes(&self.slot_tile, &self.cellmap, z, rows, index) {
                return;
            }
            match k {
                8 => return unrolled_indexes::<8>(&self.slot_tile, &self.cellmap, z, rows, index),
                7 => return unrolled_indexes::<7>(&self.slot_tile, &self.cellmap, z, rows, index),
                6 => return unrolled_indexes::<6>(&self.slot_tile, &self.cellmap, z, rows, index),
                5 => return unrolled_indexes::<5>(&self.slot_tile, &self.cellmap, z, rows, index),
                _ => {}
            }
        }
        let mut cells = [0u8; MAX_CELLS];
        for (i, row) in index.iter_mut().zip(rows) {
            let occ = self.place(row, &mut cells);
            let blank = self.cellmap[row[0] as usize & (MAX_CELLS - 1)];
            *i = self.table.index(&cells[..k], occ, blank);
        }
    }
}

/// The index in `z` (a zero-aware table of `K` tiles) of each position of `rows` into `index`,
/// the table's tile `s` being the user's tile `slot_tile[s]` and user cell `c` the table's
/// cell `cellmap[c]`: one instance per common pattern size, so that the Lehmer digits unroll.
#[inline(never)]
fn unrolled_indexes<const K: usize>(
    slot_tile: &[u8],
    cellmap: &[u8; MAX_CELLS],
    z: &FastZeroAware,
    rows: &[[u8; MAX_CELLS]],
    index: &mut [u64],
) {
    let slot_tile: &[u8; K] = slot_tile.try_into().expect("K tiles");
    for (i, row) in index.iter_mut().zip(rows) {
        let cell_of = |s: usize| {
            cellmap[row[slot_tile[s] as usize & (MAX_CELLS - 1)] as usize & (MAX_CELLS - 1)]
        };
        let blank = cellmap[row[0] as usize & (MAX_CELLS - 1)];
        *i = z.index_of::<K>(cell_of, blank);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use pdbformat::rank::ZeroAwareIndex;
    use pdbformat::testkit::XorShift;
    use pdbformat::{Board, Symmetry};

    /// `count` random positions of `board` as rows of tile cells, and the same positions'
    /// table indexes by the reference ranking for the pattern of user tiles `slot_tile`
    /// seen through `sym`.
    pub(in super::super) fn reference(
        board: Board,
        z: &FastZeroAware,
        slot_tile: &[u8],
        sym: Symmetry,
        count: usize,
        rng: &mut XorShift,
    ) -> (Vec<[u8; MAX_CELLS]>, [u8; MAX_CELLS], Vec<u64>) {
        let n = board.cells();
        let mut cellmap = [0u8; MAX_CELLS];
        for (c, m) in cellmap.iter_mut().enumerate().take(n) {
            *m = sym.map(board, c) as u8;
        }
        let mut rows = Vec::new();
        let mut want = Vec::new();
        for _ in 0..count {
            let mut row = [0u8; MAX_CELLS];
            let mut cells: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                cells.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
            row[..n].copy_from_slice(&cells);
            let mapped: Vec<u8> = slot_tile
                .iter()
                .map(|&t| cellmap[row[t as usize] as usize])
                .collect();
            let occ = mapped.iter().fold(0u64, |m, &c| m | 1 << c);
            want.push(z.index(&mapped, occ, cellmap[row[0] as usize]));
            rows.push(row);
        }
        (rows, cellmap, want)
    }

    /// `k` distinct tiles of `board` (no blank), in random order.
    pub(in super::super) fn some_tiles(board: Board, k: usize, rng: &mut XorShift) -> Vec<u8> {
        let mut tiles: Vec<u8> = (1..board.cells() as u8).collect();
        for i in (1..tiles.len()).rev() {
            tiles.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        tiles.truncate(k);
        tiles
    }

    #[test]
    fn unrolled_indexes_are_the_reference_indexes() {
        let mut rng = XorShift::new(11);
        for (w, h) in [(3, 3), (4, 4), (5, 4), (5, 5)] {
            let board = Board::new(w, h).unwrap();
            for k in 5..=8 {
                let z = FastZeroAware::new(board, &ZeroAwareIndex::new(board, k).unwrap());
                if k >= board.cells() {
                    continue;
                }
                let slot_tile = some_tiles(board, k, &mut rng);
                for sym in Symmetry::fixing(board, 0) {
                    let (rows, cellmap, want) =
                        reference(board, &z, &slot_tile, sym, 300, &mut rng);
                    let mut got = vec![0u64; rows.len()];
                    match k {
                        8 => unrolled_indexes::<8>(&slot_tile, &cellmap, &z, &rows, &mut got),
                        7 => unrolled_indexes::<7>(&slot_tile, &cellmap, &z, &rows, &mut got),
                        6 => unrolled_indexes::<6>(&slot_tile, &cellmap, &z, &rows, &mut got),
                        _ => unrolled_indexes::<5>(&slot_tile, &cellmap, &z, &rows, &mut got),
                    }
                    assert_eq!(got, want, "{w}x{h}, {k} tiles, {sym:?}");
                }
            }
        }
    }
}
