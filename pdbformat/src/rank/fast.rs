//! Table indexes for lookups: the same numbering as the reference indexes of this module,
//! computed with fewer dependent memory accesses (what a search calls for every node).
//!
//! The zero-aware index is `(region_start[set] + region_of[set][blank]) · k! + order`
//! ([`ZeroAwareIndex`]). Here the colex rank of the occupied set comes from
//! one small table per byte of the cell mask (indexed by the byte and the number of occupied
//! cells below it) instead of one binomial per tile; region starts are 32-bit; and the tile
//! order's Lehmer rank is computed with bit masks, without a scratch array.

use super::{binomial, PermutationIndex, TableIndex, ZeroAwareIndex};
use crate::board::Board;

/// A zero-aware index prepared for fast lookups.
#[derive(Clone, Debug)]
pub struct FastZeroAware {
    n: usize,
    k: usize,
    /// `colex[(chunk · 256 + byte) · (k + 1) + below]`: the colex contribution of the cells of
    /// `byte` in chunk `chunk` (cells `8·chunk ..`), with `below` occupied cells before them.
    colex: Vec<u32>,
    region_start: Vec<u32>,
    region_of: Vec<u8>,
    order_count: u64,
}

impl FastZeroAware {
    /// Prepares `z`, the zero-aware index of `z.k()` tiles on `board`.
    pub fn new(board: Board, z: &ZeroAwareIndex) -> FastZeroAware {
        let n = board.cells();
        let k = z.k();
        let chunks = n.div_ceil(8);
        let mut colex = vec![0u32; chunks * 256 * (k + 1)];
        for chunk in 0..chunks {
            for byte in 0..256usize {
                for below in 0..=k {
                    // Σ C(cell, j + 1) over the byte's cells, j counting from `below`.
                    let mut r = 0u64;
                    let mut j = below;
                    for b in 0..8 {
                        if byte >> b & 1 == 1 {
                            r = r.wrapping_add(binomial(8 * chunk + b, j + 1));
                            j += 1;
                        }
                    }
                    colex[(chunk * 256 + byte) * (k + 1) + below] = r as u32;
                }
            }
        }
        let sets = z.set_count();
        let mut region_start = Vec::with_capacity(sets);
        let mut region_of = vec![0u8; sets * n];
        for set in 0..sets {
            let start = z.regions_of_set(set).start;
            region_start.push(start as u32);
            let free = !z.set_mask(set);
            for cell in (0..n).filter(|&c| free >> c & 1 == 1) {
                region_of[set * n + cell] = (z.region_at(set, cell) - start) as u8;
            }
        }
        FastZeroAware {
            n,
            k,
            colex,
            region_start,
            region_of,
            order_count: z.order_count(),
        }
    }

    /// The colex rank of the occupied set `occ` (k cells).
    #[inline(always)]
    fn set_rank(&self, occ: u64) -> usize {
        let mut r = 0u32;
        let mut below = 0usize;
        let mut m = occ;
        let mut chunk = 0usize;
        while m != 0 {
            let byte = (m & 0xff) as usize;
            if byte != 0 {
                r = r.wrapping_add(self.colex[(chunk * 256 + byte) * (self.k + 1) + below]);
                below += byte.count_ones() as usize;
            }
            m >>= 8;
            chunk += 1;
        }
        r as usize
    }

    /// The index of the state with the tiles on `cells` (tile order; they occupy `occ`) and
    /// the blank on the free cell `blank`.
    #[inline(always)]
    pub fn index(&self, cells: &[u8], occ: u64, blank: u8) -> u64 {
        let set = self.set_rank(occ);
        let region =
            self.region_start[set] as u64 + self.region_of[set * self.n + blank as usize] as u64;
        // Lehmer rank of the tiles' slots (slot: rank of the tile's cell within `occ`).
        let mut used = 0u64;
        let mut order = 0u64;
        for (i, &c) in cells.iter().enumerate() {
            let slot = (occ & ((1u64 << c) - 1)).count_ones();
            let digit = slot - (used & ((1u64 << slot) - 1)).count_ones();
            order = order * (self.k - i) as u64 + digit as u64;
            used |= 1 << slot;
        }
        region * self.order_count + order
    }
}

/// Either kind of index, ready for lookups.
#[derive(Clone, Debug)]
pub enum FastIndex {
    /// Zero-aware tables.
    ZeroAware(FastZeroAware),
    /// Zero-unaware tables (the permutation rank is already branch-free).
    Permutation(PermutationIndex),
}

impl FastIndex {
    /// Prepares `index` for `board`.
    pub fn new(board: Board, index: &TableIndex) -> FastIndex {
        match index {
            TableIndex::ZeroAware(z) => FastIndex::ZeroAware(FastZeroAware::new(board, z)),
            TableIndex::Permutation(p) => FastIndex::Permutation(p.clone()),
        }
    }

    /// The index of the state with the tiles on `cells` (occupying `occ`) and the blank on
    /// `blank` (ignored by zero-unaware indexes).
    #[inline(always)]
    pub fn index(&self, cells: &[u8], occ: u64, blank: u8) -> u64 {
        match self {
            FastIndex::ZeroAware(z) => z.index(cells, occ, blank),
            FastIndex::Permutation(p) => p.index(cells),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::TableKind;

    #[test]
    fn same_numbering_as_the_reference_ranking() {
        for (w, h, k) in [(3, 3, 4), (3, 3, 8), (4, 3, 3), (2, 5, 5), (4, 4, 2)] {
            let b = Board::new(w, h).unwrap();
            let idx = TableIndex::new(b, k, TableKind::ZeroAware).unwrap();
            let fast = FastIndex::new(b, &idx);
            let mut cells = vec![0u8; k];
            for i in 0..idx.len() {
                let blank = idx.unrank(i, &mut cells);
                let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                assert_eq!(fast.index(&cells, occ, blank as u8), i, "{w}x{h} k={k}");
            }
        }
        // Larger boards: random states against the reference ranking.
        let mut rng = crate::testkit::XorShift::new(0x2545_f491_4f6c_dd1d);
        for (w, h, k) in [(4, 4, 6), (4, 4, 8), (5, 5, 5), (8, 8, 3), (5, 4, 7)] {
            let b = Board::new(w, h).unwrap();
            let TableIndex::ZeroAware(z) = TableIndex::new(b, k, TableKind::ZeroAware).unwrap()
            else {
                unreachable!()
            };
            let fast = FastZeroAware::new(b, &z);
            for _ in 0..20_000 {
                let mut perm: Vec<u8> = (0..b.cells() as u8).collect();
                rng.shuffle(&mut perm);
                let (cells, blank) = (&perm[..k], perm[k]);
                let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                assert_eq!(
                    fast.index(cells, occ, blank),
                    z.index(cells, blank as usize),
                    "{w}x{h} k={k}"
                );
            }
        }
    }
}
