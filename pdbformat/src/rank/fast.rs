//! Table indexes for lookups: the same numbering as the reference indexes of this module,
//! computed with fewer dependent memory accesses (what a search calls for every node).
//!
//! The zero-aware index is `(region_start[set] + region_of[set][blank]) · k! + order`
//! ([`ZeroAwareIndex`]). Here the colex rank of the occupied set comes from
//! one small table per byte of the cell mask (indexed by the byte and the number of occupied
//! cells below it) instead of one binomial per tile; a set's region start and the region of
//! every free cell share one `u64` where they fit (every 4×4 table: one load from a table of
//! 8 bytes per set instead of two loads from two tables); on larger boards (5×5 with 5 to 8
//! tiles) the region counts of six sets share one `u64`, about 1.3 bytes per set, and the
//! blank's region in a set of several is found by flood fill, so that the table every lookup
//! reads stays in the core's own cache while the pattern tables stream through it; where
//! those counts do not fit, one `u64` holds the region of each *free* cell only (found by the
//! blank's rank among the free cells), else one aligned `u128`. The tile order's Lehmer rank
//! is a sum of independent products, each digit counted with one mask of the later tiles'
//! cells, without a scratch array.
//!
//! The tables depend only on the board and the number of tiles, and are shared (`Arc`) by
//! clones: the tables of one size in a database use one copy, which keeps them in the cache.

use super::{
    binomial, flood, popcount_hardware, popcount_with, BoardBits, PermutationIndex, TableIndex,
    ZeroAwareIndex,
};
use crate::board::Board;
use std::sync::Arc;

/// Each cell set's first region and the region of each free cell, as [`FastZeroAware`]
/// looks them up.
#[derive(Clone, Debug)]
enum Regions {
    /// One word per set: the first region in the low `start_bits` bits, then `cell_bits` bits
    /// per cell (lowest cell first) holding the cell's region less the first (0 for occupied
    /// cells, which are never asked for).
    Packed {
        words: Arc<[u64]>,
        start_bits: u32,
        cell_bits: u32,
    },
    /// Where that word would exceed 64 bits but the free cells' regions fit at fewer bits
    /// (5×5 with 5 to 7 tiles): one word per set, the first region in the low `start_bits`
    /// bits, then `cell_bits` bits per free cell in increasing cell order (the blank's slot is
    /// its rank among the free cells). The few sets with more regions than `cell_bits` can
    /// name (5 or 6 regions: 6 or 7 tiles on 5×5 walling off cells) have bit 63 set, their
    /// first region in bits 0-31 and in bits 32-62 a row of `spill`: each cell's region less
    /// the first, a byte per cell.
    PackedFree {
        words: Arc<[u64]>,
        start_bits: u32,
        cell_bits: u32,
        spill: Arc<[u8]>,
    },
    /// Where every set's first region fits in [`BLOCK_BASE_BITS`] bits and every
    /// [`BLOCK_SETS`] consecutive sets have fewer than 64 regions (5×5 with 5 to 8 tiles): one
    /// word per block of [`BLOCK_SETS`] sets, the block's first region in the low
    /// [`BLOCK_BASE_BITS`] bits, then for `j` in `0..=BLOCK_SETS` six bits holding the number
    /// of regions of the block's first `j` sets. A set of one region (most of them) needs
    /// nothing more; in a set of several, the blank's region is found by flood fill (regions
    /// are numbered by their lowest cells). An eighth of the bytes of `PackedFree`: the table
    /// a search reads for every lookup stays in the core's own cache.
    Blocked { blocks: Arc<[u64]>, bits: BoardBits },
    /// Where even the free cells' word would exceed 64 bits but every cell's fits in 128: the
    /// layout of `Packed` in one `u128` per set, 16-byte aligned and so always within one cache
    /// line.
    Packed128 {
        words: Arc<[u128]>,
        start_bits: u32,
        cell_bits: u32,
    },
    /// Where a set's word would exceed 128 bits: the first regions, and a byte per (set, cell).
    Wide {
        region_start: Arc<[u32]>,
        region_of: Arc<[u8]>,
    },
}

/// The sets per word of [`Regions::Blocked`].
const BLOCK_SETS: usize = 6;
/// The bits of a block's first region in [`Regions::Blocked`].
const BLOCK_BASE_BITS: u32 = 64 - 6 * (BLOCK_SETS as u32 + 1);

/// The words of [`Regions::Blocked`] for sets whose region counts `start` gives
/// (`start[set]`: the first region of `set`, `start[sets]` the total), or `None` where they do
/// not fit.
fn blocks(start: &[u64]) -> Option<Vec<u64>> {
    let sets = start.len() - 1;
    let mut words = Vec::with_capacity(sets.div_ceil(BLOCK_SETS));
    for first in (0..sets).step_by(BLOCK_SETS) {
        let base = start[first];
        if base >> BLOCK_BASE_BITS != 0 {
            return None;
        }
        let mut w = base;
        for j in 1..=BLOCK_SETS {
            let below = start[(first + j).min(sets)] - base;
            if below > 63 {
                return None;
            }
            w |= below << (BLOCK_BASE_BITS + 6 * j as u32);
        }
        words.push(w);
    }
    Some(words)
}

/// The number of `free`'s regions (the cells of `free` connected through `free`) numbered
/// below the blank's, the set having `count` (at least two) of them: regions are numbered by
/// their lowest cells.
#[inline(always)]
fn region_rank(bits: &BoardBits, free: u64, blank: u8, count: u64) -> u64 {
    let lowest = free & free.wrapping_neg();
    let seed = 1u64 << blank;
    if count == 2 {
        // Most often one of the two is a single cell walled off (a corner behind two tiles).
        let alone = free & !bits.neighbours(free);
        if alone & seed != 0 {
            return (seed != lowest) as u64;
        }
        if alone != 0 {
            return (alone & lowest != 0) as u64;
        }
        // Else grow the blank's region and the first region together: whichever is complete
        // first, or their meeting, tells.
        let (mut a, mut b) = (seed, lowest);
        loop {
            if a & b != 0 {
                return 0;
            }
            let (ga, gb) = (bits.grow(a) & free, bits.grow(b) & free);
            if ga == a || gb == b {
                return 1;
            }
            a = ga;
            b = gb;
        }
    }
    let region = flood(bits, seed, free);
    // Every region with a cell below the blank region's lowest cell is numbered before it.
    let mut below = free & ((region & region.wrapping_neg()) - 1);
    let mut rank = 0;
    while below != 0 {
        below &= !flood(bits, below & below.wrapping_neg(), free);
        rank += 1;
    }
    rank
}

/// A zero-aware index prepared for fast lookups.
#[derive(Clone, Debug)]
pub struct FastZeroAware {
    n: usize,
    k: usize,
    /// `colex[(chunk · 256 + byte) · (k + 1) + below]`: the colex contribution of the cells of
    /// `byte` in chunk `chunk` (cells `8·chunk ..`), with `below` occupied cells before them.
    colex: Arc<[u32]>,
    regions: Regions,
    /// The weight of each tile's Lehmer digit: `weights[i] = (k − 1 − i)!`.
    weights: Arc<[u64]>,
    order_count: u64,
}

/// The number of bits that hold every value up to `max`.
fn bits_for(max: u64) -> u32 {
    64 - max.leading_zeros()
}

impl FastZeroAware {
    /// Prepares `z`, the zero-aware index of `z.k()` tiles on `board`.
    pub fn new(board: Board, z: &ZeroAwareIndex) -> FastZeroAware {
        FastZeroAware::build(board, z, true)
    }

    /// [`FastZeroAware::new`], counting regions in blocks only where `blocks` allows (the
    /// other layouts serve the boards and sizes that blocks do not fit).
    fn build(board: Board, z: &ZeroAwareIndex, blocks_allowed: bool) -> FastZeroAware {
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
        let mut most = 0u64;
        for set in 0..sets {
            let regions = z.regions_of_set(set);
            region_start.push(regions.start as u32);
            most = most.max((regions.end - regions.start) as u64);
            let free = !z.set_mask(set);
            for cell in (0..n).filter(|&c| free >> c & 1 == 1) {
                region_of[set * n + cell] = (z.region_at(set, cell) - regions.start) as u8;
            }
        }
        let start_bits = bits_for(region_start.last().copied().unwrap_or(0) as u64);
        let cell_bits = bits_for(most.saturating_sub(1));
        let word_bits = start_bits as usize + n * cell_bits as usize;
        // Set `set`'s word: the first region, then each cell's region less the first.
        let word = |set: usize| {
            (0..n).fold(region_start[set] as u128, |w, cell| {
                let r = region_of[set * n + cell] as u128;
                w | r << (start_bits as usize + cell * cell_bits as usize)
            })
        };
        // The free cells only, in increasing order, at the most bits per cell that fit below
        // bit 63 (the spill flag); a set whose regions need more is flagged.
        let free_bits =
            (63usize.saturating_sub(start_bits as usize) / (n - k).max(1)).min(8) as u32;
        let free_bits = free_bits.min(cell_bits.max(1));
        let mut spill: Vec<u8> = Vec::new();
        let mut free_word = |set: usize| {
            let free = !z.set_mask(set);
            let mut w = region_start[set] as u64;
            for (i, cell) in (0..n).filter(|&c| free >> c & 1 == 1).enumerate() {
                let r = region_of[set * n + cell] as u64;
                if r >> free_bits != 0 {
                    let row = (spill.len() / n) as u64;
                    spill.extend_from_slice(&region_of[set * n..(set + 1) * n]);
                    return region_start[set] as u64 | row << 32 | 1 << 63;
                }
                w |= r << (start_bits as usize + i * free_bits as usize);
            }
            w
        };
        let starts: Vec<u64> = region_start
            .iter()
            .map(|&r| r as u64)
            .chain(std::iter::once(z.region_count() as u64))
            .collect();
        let regions = if word_bits <= 64 {
            Regions::Packed {
                words: (0..sets).map(|set| word(set) as u64).collect(),
                start_bits,
                cell_bits,
            }
        } else if let Some(blocks) = blocks(&starts).filter(|_| blocks_allowed && n <= 64) {
            Regions::Blocked {
                blocks: blocks.into(),
                bits: BoardBits::new(board),
            }
        } else if n <= 64 && free_bits >= 1 && start_bits < 32 {
            let words = (0..sets).map(&mut free_word).collect();
            Regions::PackedFree {
                words,
                start_bits,
                cell_bits: free_bits,
                spill: spill.into(),
            }
        } else if word_bits <= 128 {
            Regions::Packed128 {
                words: (0..sets).map(word).collect(),
                start_bits,
                cell_bits,
            }
        } else {
            Regions::Wide {
                region_start: region_start.into(),
                region_of: region_of.into(),
            }
        };
        let weights = (0..k)
            .map(|i| (1..(k - i) as u64).product::<u64>())
            .collect();
        FastZeroAware {
            n,
            k,
            colex: colex.into(),
            regions,
            weights,
            order_count: z.order_count(),
        }
    }

    /// Whether each set's regions sit in one `u64` word (see the module documentation).
    pub fn packs_regions(&self) -> bool {
        matches!(self.regions, Regions::Packed { .. })
    }

    /// Whether each set's regions sit in one `u64` word of its free cells only (see the module
    /// documentation).
    pub fn packs_free_cells(&self) -> bool {
        matches!(self.regions, Regions::PackedFree { .. })
    }

    /// Whether the sets' regions are counted in blocks, a set of several found by flood fill
    /// (see the module documentation).
    pub fn counts_regions_in_blocks(&self) -> bool {
        matches!(self.regions, Regions::Blocked { .. })
    }

    /// Whether each set's regions are one load: one `u64` or one `u128` word.
    pub fn regions_in_one_word(&self) -> bool {
        !matches!(self.regions, Regions::Wide { .. })
    }

    /// Whether `self` and `other` share their tables (one is a clone of the other).
    pub fn shares_tables_with(&self, other: &FastZeroAware) -> bool {
        Arc::ptr_eq(&self.colex, &other.colex)
    }

    /// The region of the free cell `blank` of the set of rank `set` (the cells of `occ`), in
    /// the whole numbering.
    #[inline(always)]
    fn region(&self, hw: bool, set: usize, occ: u64, blank: u8) -> u64 {
        match &self.regions {
            Regions::Packed {
                words,
                start_bits,
                cell_bits,
            } => {
                let w = words[set];
                let start = w & ((1u64 << start_bits) - 1);
                let shift = start_bits + blank as u32 * cell_bits;
                start + ((w >> shift) & ((1u64 << cell_bits) - 1))
            }
            Regions::PackedFree {
                words,
                start_bits,
                cell_bits,
                spill,
            } => {
                let w = words[set];
                if w >> 63 != 0 {
                    return self.spilled_region(spill, w, blank);
                }
                let start = w & ((1u64 << start_bits) - 1);
                let rank = popcount_with(hw, !occ & ((1u64 << blank) - 1));
                let shift = start_bits + rank * cell_bits;
                start + ((w >> shift) & ((1u64 << cell_bits) - 1))
            }
            Regions::Blocked { blocks, bits } => {
                let w = blocks[set / BLOCK_SETS];
                let shift = BLOCK_BASE_BITS + 6 * (set % BLOCK_SETS) as u32;
                let begin = w >> shift & 63;
                let count = (w >> (shift + 6) & 63) - begin;
                let first = (w & ((1u64 << BLOCK_BASE_BITS) - 1)) + begin;
                if count == 1 {
                    first
                } else {
                    first + region_rank(bits, bits.all() & !occ, blank, count)
                }
            }
            Regions::Packed128 {
                words,
                start_bits,
                cell_bits,
            } => {
                let w = words[set];
                let start = w as u64 & ((1u64 << start_bits) - 1);
                let shift = start_bits + blank as u32 * cell_bits;
                start + ((w >> shift) as u64 & ((1u64 << cell_bits) - 1))
            }
            Regions::Wide {
                region_start,
                region_of,
            } => region_start[set] as u64 + region_of[set * self.n + blank as usize] as u64,
        }
    }

    /// The region of `blank` in a set of [`Regions::PackedFree`] whose `word` is flagged: read
    /// from its row of `spill` (rare; kept out of line).
    #[cold]
    #[inline(never)]
    fn spilled_region(&self, spill: &[u8], word: u64, blank: u8) -> u64 {
        let row = (word >> 32 & 0x7fff_ffff) as usize;
        (word & 0xffff_ffff) + spill[row * self.n + blank as usize] as u64
    }

    /// The colex rank of the occupied set `occ` (k cells).
    #[inline(always)]
    fn set_rank(&self, hw: bool, occ: u64) -> usize {
        let mut r = 0u32;
        let mut below = 0usize;
        let mut m = occ;
        let mut chunk = 0usize;
        while m != 0 {
            let byte = (m & 0xff) as usize;
            if byte != 0 {
                r = r.wrapping_add(self.colex[(chunk * 256 + byte) * (self.k + 1) + below]);
                below += popcount_with(hw, byte as u64) as usize;
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
        let hw = popcount_hardware();
        let region = self.region(hw, self.set_rank(hw, occ), occ, blank);
        // Lehmer rank of the tiles' slots (slot: rank of the tile's cell within `occ`). Tile
        // i's digit is the number of later tiles on lower slots, i.e. on lower cells, and
        // weighs (k − 1 − i)!: a sum of independent products.
        let mut later = 0u64;
        let mut order = 0u64;
        for (&c, &w) in cells.iter().zip(self.weights.iter()).rev() {
            let digit = popcount_with(hw, later & ((1u64 << c) - 1));
            order += digit as u64 * w;
            later |= 1u64 << c;
        }
        region * self.order_count + order
    }
}

/// `FACTORIALS[i] = i!` up to 20!, the largest that fits a `u64`.
const FACTORIALS: [u64; 21] = {
    let mut f = [1u64; 21];
    let mut i = 1;
    while i < 21 {
        f[i] = f[i - 1] * i as u64;
        i += 1;
    }
    f
};

impl FastZeroAware {
    /// The number of pattern tiles.
    pub fn k(&self) -> usize {
        self.k
    }

    /// [`FastZeroAware::index`] for exactly `K` tiles (`K` must be [`FastZeroAware::k`]),
    /// tile `i` on cell `cell_of(i)`, the blank on `blank`: one pass over the tiles, last
    /// first, gives the Lehmer digits (unrolled, their weights constants) and the occupied
    /// set. For callers that rank many states of one table in a row.
    #[inline(always)]
    pub fn index_of<const K: usize>(&self, cell_of: impl Fn(usize) -> u8, blank: u8) -> u64 {
        debug_assert_eq!(K, self.k);
        let hw = popcount_hardware();
        // Tile i's digit is the number of later tiles on lower cells.
        let mut later = 0u64;
        let mut order = 0u64;
        let mut i = K;
        while i > 0 {
            i -= 1;
            let c = cell_of(i) & 63;
            let digit = popcount_with(hw, later & ((1u64 << c) - 1)) as u64;
            order += digit * FACTORIALS[K - 1 - i];
            later |= 1u64 << c;
        }
        self.index_from_with::<K>(hw, later, blank, order)
    }

    /// The index of the state whose `K` tiles (`K` must be [`FastZeroAware::k`]) occupy
    /// `occ` in the order of Lehmer rank `order` (tile `i`'s digit: the number of later tiles
    /// on lower cells, weighing `(K − 1 − i)!`), the blank on `blank`: for callers that
    /// compute the order themselves.
    #[inline(always)]
    pub fn index_from<const K: usize>(&self, occ: u64, blank: u8, order: u64) -> u64 {
        self.index_from_with::<K>(popcount_hardware(), occ, blank, order)
    }

    /// [`FastZeroAware::index_from`], counting bits by POPCNT when `hw`
    /// ([`popcount_hardware`], read once by the caller).
    #[inline(always)]
    fn index_from_with<const K: usize>(&self, hw: bool, occ: u64, blank: u8, order: u64) -> u64 {
        debug_assert_eq!(K, self.k);
        // The colex rank of `occ`, one table row per byte of the cell mask.
        let mut set = 0u32;
        let mut below = 0usize;
        for chunk in 0..self.n.div_ceil(8) {
            let byte = (occ >> (8 * chunk) & 0xff) as usize;
            set = set.wrapping_add(self.colex[(chunk * 256 + byte) * (K + 1) + below]);
            below += popcount_with(hw, byte as u64) as usize;
        }
        let region = self.region(hw, set as usize, occ, blank);
        region * FACTORIALS[K] + order
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
        for (w, h, k) in [
            (4, 4, 6),
            (4, 4, 7),
            (4, 4, 8),
            (5, 5, 5),
            (5, 5, 6),
            (5, 5, 7),
            (8, 8, 3),
            (8, 8, 4),
            (5, 4, 7),
        ] {
            let b = Board::new(w, h).unwrap();
            let TableIndex::ZeroAware(z) = TableIndex::new(b, k, TableKind::ZeroAware).unwrap()
            else {
                unreachable!()
            };
            let unblocked = FastZeroAware::build(b, &z, false);
            let fast = FastZeroAware::new(b, &z);
            // Without blocks, the 5×4 and 5×5 tables pack their free cells' regions; 8×8 needs
            // a `u128` or, with 4 tiles (3 regions: 2 bits per cell), the two wide tables.
            let free = (17..=25).contains(&b.cells());
            assert_eq!(unblocked.packs_free_cells(), free, "{w}x{h} k={k}");
            assert_eq!(
                unblocked.regions_in_one_word(),
                (w, k) != (8, 4),
                "{w}x{h} k={k}"
            );
            // Every 4×4 table packs its regions; the larger boards here count them in blocks.
            assert_eq!(fast.packs_regions(), b.cells() <= 16, "{w}x{h} k={k}");
            let blocked = b.cells() > 16;
            assert_eq!(fast.counts_regions_in_blocks(), blocked, "{w}x{h} k={k}");
            assert!(!fast.packs_free_cells(), "{w}x{h} k={k}");
            assert!(fast.regions_in_one_word(), "{w}x{h} k={k}");
            // Every set of several regions, every free blank cell, two tile orders: the
            // flood fill's rank of the blank's region.
            let mut several = 0;
            for set in 0..z.set_count() {
                if z.regions_of_set(set).len() < 2 {
                    continue;
                }
                several += 1;
                let occ = z.set_mask(set);
                let mut cells: Vec<u8> = (0..b.cells() as u8)
                    .filter(|&c| occ >> c & 1 == 1)
                    .collect();
                for _ in 0..2 {
                    for blank in (0..b.cells() as u8).filter(|&c| occ >> c & 1 == 0) {
                        let want = z.index(&cells, blank as usize);
                        assert_eq!(fast.index(&cells, occ, blank), want, "{w}x{h} k={k}");
                        assert_eq!(unblocked.index(&cells, occ, blank), want, "{w}x{h} k={k}");
                    }
                    cells.reverse();
                }
            }
            // Five tiles on 5×5 can wall off two corners, besides the rest.
            if (w, h) == (5, 5) {
                assert!(several > 0, "{w}x{h} k={k}");
            }
            // A clone shares the tables and numbers the same.
            let shared = fast.clone();
            assert!(shared.shares_tables_with(&fast));
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
                assert_eq!(
                    shared.index(cells, occ, blank),
                    fast.index(cells, occ, blank)
                );
                assert_eq!(
                    unblocked.index(cells, occ, blank),
                    fast.index(cells, occ, blank)
                );
            }
        }
    }

    #[test]
    fn unrolled_index_is_the_index() {
        let mut rng = crate::testkit::XorShift::new(0x1234_5678);
        for (w, h) in [(3, 3), (4, 4), (5, 5)] {
            let b = Board::new(w, h).unwrap();
            for k in 1..=8 {
                let z = FastZeroAware::new(b, &ZeroAwareIndex::new(b, k).unwrap());
                assert_eq!(z.k(), k);
                for _ in 0..500 {
                    let mut cells: Vec<u8> = (0..b.cells() as u8).collect();
                    for i in (1..cells.len()).rev() {
                        cells.swap(i, (rng.next() % (i as u64 + 1)) as usize);
                    }
                    let (tiles, blank) = (&cells[..k], cells[k]);
                    let occ = tiles.iter().fold(0u64, |m, &c| m | 1 << c);
                    let want = z.index(tiles, occ, blank);
                    let cell_of = |i: usize| tiles[i];
                    let got = match k {
                        1 => z.index_of::<1>(cell_of, blank),
                        2 => z.index_of::<2>(cell_of, blank),
                        3 => z.index_of::<3>(cell_of, blank),
                        4 => z.index_of::<4>(cell_of, blank),
                        5 => z.index_of::<5>(cell_of, blank),
                        6 => z.index_of::<6>(cell_of, blank),
                        7 => z.index_of::<7>(cell_of, blank),
                        _ => z.index_of::<8>(cell_of, blank),
                    };
                    assert_eq!(got, want, "{w}x{h}, {k} tiles");
                }
            }
        }
    }
}
