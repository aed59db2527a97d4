//! Table indexes of up to 8 pattern tiles on boards of up to 16 cells (the 15-puzzle's
//! tables) by byte shuffles (SSSE3), for [`super::PdbHeuristic::estimate_many`]: a position's
//! row of tile cells fits one 16-byte register, two shuffles give the pattern tiles' cells in
//! the table's frame, two more their occupied set, and the Lehmer digits come from comparing
//! every tile's cell with every later one's (two tiles per register, a sum of absolute
//! differences counting each). What remains, the set's colex rank and the blank's region, is
//! [`FastZeroAware::index_from`]. About half the instructions of the scalar ranking.

use crate::position::MAX_CELLS;
use pdbformat::rank::FastZeroAware;

/// Writes into `index` the index in `z` of each position of `rows` (tile `t` of a board of at
/// most 16 cells on `row[t]`), the table's tile `s` being the user's tile `slot_tile[s]` and
/// user cell `c` the table's cell `cellmap[c]`, and returns true; or returns false without
/// writing when the shuffles cannot serve: not an x86-64 processor with SSSE3, or more than 8
/// tiles.
pub(super) fn indexes(
    slot_tile: &[u8],
    cellmap: &[u8; MAX_CELLS],
    z: &FastZeroAware,
    rows: &[[u8; MAX_CELLS]],
    index: &mut [u64],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("ssse3") {
        // SAFETY: the processor has SSSE3 (checked just above).
        unsafe {
            match slot_tile.len() {
                8 => x86::indexes::<8>(slot_tile, cellmap, z, rows, index),
                7 => x86::indexes::<7>(slot_tile, cellmap, z, rows, index),
                6 => x86::indexes::<6>(slot_tile, cellmap, z, rows, index),
                5 => x86::indexes::<5>(slot_tile, cellmap, z, rows, index),
                4 => x86::indexes::<4>(slot_tile, cellmap, z, rows, index),
                3 => x86::indexes::<3>(slot_tile, cellmap, z, rows, index),
                2 => x86::indexes::<2>(slot_tile, cellmap, z, rows, index),
                1 => x86::indexes::<1>(slot_tile, cellmap, z, rows, index),
                _ => return false,
            }
        }
        return true;
    }
    let _ = (slot_tile, cellmap, z, rows, index);
    false
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{FastZeroAware, MAX_CELLS};
    use std::arch::x86_64::*;

    /// A register holding `b`.
    #[target_feature(enable = "ssse3")]
    fn bytes(b: &[u8]) -> __m128i {
        let lane = |i: usize| i64::from_le_bytes(b[8 * i..][..8].try_into().expect("16 bytes"));
        _mm_set_epi64x(lane(1), lane(0))
    }

    /// [`super::indexes`] for `K` tiles.
    #[target_feature(enable = "ssse3")]
    #[inline(never)]
    pub(super) fn indexes<const K: usize>(
        slot_tile: &[u8],
        cellmap: &[u8; MAX_CELLS],
        z: &FastZeroAware,
        rows: &[[u8; MAX_CELLS]],
        index: &mut [u64],
    ) {
        // Lane s: the user tile of slot s; lanes past K select nothing (a shuffle gives 0).
        let mut slot = [0x80u8; 16];
        slot[..K].copy_from_slice(slot_tile);
        let slot = bytes(&slot);
        // Set in the lanes past K: they then select nothing in the next shuffles.
        let mut past = [0x80u8; 16];
        past[..K].fill(0);
        let past = bytes(&past);
        let cells_of = bytes(&cellmap[..16]);
        // Lane c: the bit of cell c within its byte of the occupied set.
        let (mut low, mut high) = ([0u8; 16], [0u8; 16]);
        for c in 0..8 {
            low[c] = 1 << c;
            high[c + 8] = 1 << c;
        }
        let (low, high) = (bytes(&low), bytes(&high));
        // The K cells twice over (lanes 0-7 and 8-15), to compare with two tiles at once.
        let twice: Vec<u8> = (0..16).map(|j| (j % 8) as u8).collect();
        let twice = bytes(&twice);
        // Per pair of tiles (2q, 2q + 1): their cells broadcast to the two halves, the later
        // tiles' lanes (1) in each half, and the two digits' weights.
        let pairs = K.div_ceil(2);
        let mut spread = [_mm_setzero_si128(); 4];
        let mut later = [_mm_setzero_si128(); 4];
        let mut weight = [_mm_setzero_si128(); 4];
        let factorial = |m: usize| (1..=m as i64).product::<i64>();
        for q in 0..pairs {
            let (mut s, mut l) = ([0u8; 16], [0u8; 16]);
            for h in 0..2 {
                let i = 2 * q + h;
                for j in 0..8 {
                    s[8 * h + j] = i as u8;
                    l[8 * h + j] = (i < K && j > i && j < K) as u8;
                }
            }
            spread[q] = bytes(&s);
            later[q] = bytes(&l);
            let w = |i: usize| if i < K { factorial(K - 1 - i) } else { 0 };
            weight[q] = _mm_set_epi64x(w(2 * q + 1), w(2 * q));
        }
        let zero = _mm_setzero_si128();
        for (i, row) in index.iter_mut().zip(rows) {
            let r = bytes(&row[..16]);
            // The tiles' cells in the user's frame, then in the table's (0 past K).
            let user = _mm_or_si128(_mm_shuffle_epi8(r, slot), past);
            let cells = _mm_or_si128(_mm_shuffle_epi8(cells_of, user), past);
            // The occupied set: each cell's bit, summed (the cells differ) per byte.
            let sum_bits =
                |bits| _mm_cvtsi128_si64(_mm_sad_epu8(_mm_shuffle_epi8(bits, cells), zero));
            let occ = (sum_bits(low) | sum_bits(high) << 8) as u64;
            // Tile i's digit: the later tiles on lower cells.
            let all = _mm_shuffle_epi8(cells, twice);
            let mut order = zero;
            for q in 0..pairs {
                let mine = _mm_shuffle_epi8(cells, spread[q]);
                let lower = _mm_and_si128(_mm_cmpgt_epi8(mine, all), later[q]);
                let digits = _mm_sad_epu8(lower, zero);
                order = _mm_add_epi64(order, _mm_mul_epu32(digits, weight[q]));
            }
            let order = _mm_cvtsi128_si64(_mm_add_epi64(order, _mm_unpackhi_epi64(order, order)));
            let blank = cellmap[row[0] as usize & (MAX_CELLS - 1)];
            *i = z.index_from::<K>(occ, blank, order as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::pdb::batch::tests::{reference, some_tiles};
    use pdbformat::rank::ZeroAwareIndex;
    use pdbformat::testkit::XorShift;
    use pdbformat::{Board, Symmetry};

    #[test]
    fn shuffled_indexes_are_the_reference_indexes() {
        let mut rng = XorShift::new(5);
        for (w, h) in [(3, 3), (4, 3), (4, 4), (2, 8)] {
            let board = Board::new(w, h).unwrap();
            for k in 1..=8.min(board.cells() - 1) {
                let z = FastZeroAware::new(board, &ZeroAwareIndex::new(board, k).unwrap());
                let slot_tile = some_tiles(board, k, &mut rng);
                for sym in Symmetry::fixing(board, 0) {
                    let (rows, cellmap, want) =
                        reference(board, &z, &slot_tile, sym, 300, &mut rng);
                    let mut got = vec![0u64; rows.len()];
                    if !indexes(&slot_tile, &cellmap, &z, &rows, &mut got) {
                        // No SSSE3 here: nothing to compare.
                        assert!(
                            !cfg!(target_arch = "x86_64")
                                || !std::is_x86_feature_detected!("ssse3")
                        );
                        return;
                    }
                    assert_eq!(got, want, "{w}x{h}, {k} tiles, {sym:?}");
                }
            }
        }
        // Nine tiles or more: left to the other paths.
        let board = Board::new(4, 4).unwrap();
        let z = FastZeroAware::new(board, &ZeroAwareIndex::new(board, 9).unwrap());
        let slot_tile: Vec<u8> = (1..=9).collect();
        assert!(!indexes(&slot_tile, &[0; MAX_CELLS], &z, &[], &mut []));
    }
}
