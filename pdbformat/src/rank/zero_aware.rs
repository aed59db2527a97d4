//! The zero-aware index: (occupied cell set, blank region within it, tile order inside the set).
//!
//! Index = `(region_start[set] + region) · k! + order`, where `set` is the colex rank of the
//! occupied cells, `region` numbers the free-cell regions of that set by their lowest cell, and
//! `order` is the Lehmer rank of the tiles' slots (slot = rank of a tile's cell inside the set).

use super::binomial::{binomial, Binomials};
use super::combination::{rank_combination, unrank_combination};
use super::permutation::{rank_permutation, unrank_permutation};
use super::regions::{flood, BoardBits};
use super::{check_pattern_size, checked_len, popcount, IndexError};
use crate::board::Board;

/// The largest number of cell sets a zero-aware index may tabulate (2^22).
pub const MAX_CELL_SETS: u64 = 1 << 22;

/// Dense index of zero-aware states for `k` tiles on a board of at most 64 cells.
#[derive(Clone, Debug)]
pub struct ZeroAwareIndex {
    n: usize,
    k: usize,
    order_count: u64,
    binom: Binomials,
    set_masks: Vec<u64>,
    region_start: Vec<u64>,
    region_masks: Vec<u64>,
    region_of: Vec<u8>,
    len: u64,
}

impl ZeroAwareIndex {
    /// Tabulates every cell set's regions (`C(n, k)` flood fills).
    pub fn new(board: Board, k: usize) -> Result<ZeroAwareIndex, IndexError> {
        let n = board.cells();
        check_shape(board, k)?;
        let binom = Binomials::new();
        let sets = binom.get(n, k);
        let order_count: u64 = (1..=k as u64).product();
        let bits = BoardBits::new(board);
        let mut set_masks = Vec::with_capacity(sets as usize);
        let mut region_start = Vec::with_capacity(sets as usize + 1);
        let mut region_masks = Vec::new();
        let mut region_of = vec![u8::MAX; sets as usize * n];
        region_start.push(0u64);
        for s in 0..sets {
            let occ = unrank_combination(s, k, &binom);
            set_masks.push(occ);
            for (r, region) in each_region(&bits, occ).enumerate() {
                let mut m = region;
                while m != 0 {
                    region_of[s as usize * n + m.trailing_zeros() as usize] = r as u8;
                    m &= m - 1;
                }
                region_masks.push(region);
            }
            region_start.push(region_masks.len() as u64);
        }
        let len = checked_len(
            board,
            k,
            (region_masks.len() as u64).checked_mul(order_count),
        )?;
        Ok(ZeroAwareIndex {
            n,
            k,
            order_count,
            binom,
            set_masks,
            region_start,
            region_masks,
            region_of,
            len,
        })
    }

    /// The number of entries of the index for `k` tiles on `board`, without tabulating it.
    pub fn count_entries(board: Board, k: usize) -> Result<u64, IndexError> {
        let n = board.cells();
        check_shape(board, k)?;
        let binom = Binomials::new();
        let bits = BoardBits::new(board);
        let mut regions = 0u64;
        for s in 0..binom.get(n, k) {
            let occ = unrank_combination(s, k, &binom);
            regions += each_region(&bits, occ).count() as u64;
        }
        let order_count: u64 = (1..=k as u64).product();
        checked_len(board, k, regions.checked_mul(order_count))
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether empty (never).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Pattern size.
    pub fn k(&self) -> usize {
        self.k
    }

    /// `k!`, the number of tile orders per (set, region).
    pub fn order_count(&self) -> u64 {
        self.order_count
    }

    /// Number of occupied cell sets, `C(n, k)`.
    pub fn set_count(&self) -> usize {
        self.set_masks.len()
    }

    /// Total number of (set, region) pairs.
    pub fn region_count(&self) -> usize {
        self.region_masks.len()
    }

    /// The occupied cells of set `set`.
    pub fn set_mask(&self, set: usize) -> u64 {
        self.set_masks[set]
    }

    /// The global region numbers of set `set` (a range into [`Self::region_mask`]).
    pub fn regions_of_set(&self, set: usize) -> std::ops::Range<usize> {
        self.region_start[set] as usize..self.region_start[set + 1] as usize
    }

    /// The free cells of global region `region`.
    pub fn region_mask(&self, region: usize) -> u64 {
        self.region_masks[region]
    }

    /// The colex rank of the occupied set `mask`.
    #[inline]
    pub fn set_rank(&self, mask: u64) -> usize {
        rank_combination(mask, &self.binom) as usize
    }

    /// The global region number of the free cell `blank` in set `set`.
    #[inline]
    pub fn region_at(&self, set: usize, blank: usize) -> usize {
        self.region_start[set] as usize + self.region_of[set * self.n + blank] as usize
    }

    /// The Lehmer rank of the tiles' order inside the occupied set `occ`.
    #[inline]
    pub fn order_rank(&self, cells: &[u8], occ: u64) -> u64 {
        let mut slots = [0u8; 64];
        for (i, &c) in cells.iter().enumerate() {
            slots[i] = popcount(occ & ((1u64 << c) - 1)) as u8;
        }
        rank_permutation(&slots[..cells.len()], cells.len())
    }

    /// The index of the state with the tiles on `cells` and the blank on the free cell `blank`.
    #[inline]
    pub fn index(&self, cells: &[u8], blank: usize) -> u64 {
        let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let set = self.set_rank(occ);
        let region = self.region_at(set, blank);
        region as u64 * self.order_count + self.order_rank(cells, occ)
    }

    /// The index of global region `region` with tile order `order`.
    #[inline]
    pub fn index_of(&self, region: usize, order: u64) -> u64 {
        region as u64 * self.order_count + order
    }

    /// The state of `index`: fills `cells` and returns the lowest cell of the blank's region.
    pub fn unrank(&self, index: u64, cells: &mut [u8]) -> usize {
        let region = (index / self.order_count) as usize;
        let order = index % self.order_count;
        let set = self.region_start.partition_point(|&s| s <= region as u64) - 1;
        self.place_tiles(self.set_masks[set], order, cells);
        self.region_masks[region].trailing_zeros() as usize
    }

    /// Fills `cells` with the tiles' cells for tile order `order` in the occupied set `occ`.
    pub fn place_tiles(&self, occ: u64, order: u64, cells: &mut [u8]) {
        let mut slots = [0u8; 64];
        let k = cells.len();
        unrank_permutation(order, k, &mut slots[..k]);
        let mut sorted = [0u8; 64];
        let mut m = occ;
        for s in sorted.iter_mut().take(k) {
            *s = m.trailing_zeros() as u8;
            m &= m - 1;
        }
        for i in 0..k {
            cells[i] = sorted[slots[i] as usize];
        }
    }
}

/// Refuses boards and pattern sizes the index cannot tabulate.
fn check_shape(board: Board, k: usize) -> Result<(), IndexError> {
    check_pattern_size(board, k)?;
    if binomial(board.cells(), k) > MAX_CELL_SETS {
        return Err(IndexError::unsupported(
            board,
            k,
            "more than 2^22 occupied cell sets",
        ));
    }
    Ok(())
}

/// The free-cell regions of the occupied set `occ`, ordered by their lowest cell.
fn each_region(bits: &BoardBits, occ: u64) -> impl Iterator<Item = u64> + '_ {
    let mut free = bits.all() & !occ;
    std::iter::from_fn(move || {
        (free != 0).then(|| {
            let region = flood(bits, free & free.wrapping_neg(), free);
            free &= !region;
            region
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn notes_region_averages_on_4x4() {
        // The shared notes: 2.05 regions per set for 6 tiles, 2.43 for 7, 2.75 for 8.
        let b = Board::new(4, 4).unwrap();
        for (k, avg) in [(6, 2.05), (7, 2.43), (8, 2.75)] {
            let z = ZeroAwareIndex::new(b, k).unwrap();
            let a = z.region_count() as f64 / z.set_count() as f64;
            assert!((a - avg).abs() < 0.01, "k={k}: {a}");
        }
    }

    #[test]
    fn indexes_past_2_pow_32_round_trip() {
        // 8 tiles on 5x5: about 2^35 entries, so every index computation must stay in u64.
        let b = Board::new(5, 5).unwrap();
        let z = ZeroAwareIndex::new(b, 8).unwrap();
        assert!(z.len() > 1 << 32, "{}", z.len());
        assert_eq!(ZeroAwareIndex::count_entries(b, 8).unwrap(), z.len());
        let mut cells = [0u8; 8];
        let step = z.len() / 997;
        for i in (0..z.len())
            .step_by(step as usize)
            .chain([(1 << 32) - 1, 1 << 32, z.len() - 1])
        {
            let blank = z.unrank(i, &mut cells);
            assert_eq!(z.index(&cells, blank), i);
        }
    }

    #[test]
    fn exhaustive_bijection_on_small_boards() {
        for (w, h, k) in [(3, 3, 3), (2, 4, 4), (3, 3, 8), (4, 3, 3)] {
            let b = Board::new(w, h).unwrap();
            let z = ZeroAwareIndex::new(b, k).unwrap();
            let mut cells = vec![0u8; k];
            let mut seen = HashSet::new();
            for i in 0..z.len() {
                let blank = z.unrank(i, &mut cells);
                let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                assert_eq!(occ & (1 << blank), 0);
                assert!(seen.insert((cells.clone(), z.region_at(z.set_rank(occ), blank))));
                assert_eq!(z.index(&cells, blank), i);
                // Every free cell of the region gives the same index.
                let reg = z.region_mask(z.region_at(z.set_rank(occ), blank));
                let mut m = reg;
                while m != 0 {
                    assert_eq!(z.index(&cells, m.trailing_zeros() as usize), i);
                    m &= m - 1;
                }
            }
        }
    }
}
