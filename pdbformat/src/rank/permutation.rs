//! Ranking of k-permutations of n cells (the zero-unaware index) by mixed-radix Lehmer codes.

use super::{check_pattern_size, checked_len, popcount, IndexError};
use crate::board::Board;

/// `n!/(n-k)!`, or `None` on overflow.
pub fn permutation_count(n: usize, k: usize) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    (0..k).try_fold(1u64, |acc, i| acc.checked_mul((n - i) as u64))
}

/// The rank of `positions` (distinct values below `n`, at most 64) among all k-permutations of
/// `0..n`, in `0..n!/(n-k)!`. Digit `i` is the number of free values below `positions[i]`.
#[inline]
pub fn rank_permutation(positions: &[u8], n: usize) -> u64 {
    let mut used = 0u64;
    let mut r = 0u64;
    for (i, &p) in positions.iter().enumerate() {
        let below = (1u64 << p) - 1;
        let digit = p as u64 - popcount(used & below) as u64;
        r = r * (n - i) as u64 + digit;
        used |= 1 << p;
    }
    r
}

/// Fills `positions` with the k-permutation of `0..n` whose rank is `rank`
/// (inverse of [`rank_permutation`]; `k = positions.len()`).
pub fn unrank_permutation(mut rank: u64, n: usize, positions: &mut [u8]) {
    let k = positions.len();
    let mut digits = [0u8; 64];
    for i in (0..k).rev() {
        let radix = (n - i) as u64;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut used = 0u64;
    for i in 0..k {
        // The digits[i]-th value (from 0) not yet used.
        let mut free = !used;
        for _ in 0..digits[i] {
            free &= free - 1;
        }
        let p = free.trailing_zeros() as u8;
        positions[i] = p;
        used |= 1 << p;
    }
}

/// The zero-unaware index: k pattern tiles on the n cells of a board.
#[derive(Clone, Debug)]
pub struct PermutationIndex {
    n: usize,
    k: usize,
    len: u64,
}

impl PermutationIndex {
    /// The index for `k` tiles on `board` (at most 64 cells, `1 ≤ k < cells`).
    pub fn new(board: Board, k: usize) -> Result<PermutationIndex, IndexError> {
        let n = board.cells();
        check_pattern_size(board, k)?;
        let len = checked_len(board, k, permutation_count(n, k))?;
        Ok(PermutationIndex { n, k, len })
    }

    /// Number of entries, `n!/(n-k)!`.
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

    /// The index of the tiles on `cells`.
    #[inline]
    pub fn index(&self, cells: &[u8]) -> u64 {
        rank_permutation(cells, self.n)
    }

    /// The cells of the state `index`.
    pub fn unrank(&self, index: u64, cells: &mut [u8]) {
        unrank_permutation(index, self.n, cells)
    }
}

/// The largest table any index accepts (2^40 entries): a bound that keeps hostile file headers
/// from describing absurd tables while leaving room for every table in practical use.
pub const MAX_ENTRIES: u64 = 1 << 40;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(permutation_count(16, 6), Some(5_765_760));
        assert_eq!(permutation_count(16, 7), Some(57_657_600));
        assert_eq!(permutation_count(16, 8), Some(518_918_400));
        assert_eq!(permutation_count(25, 6), Some(127_512_000));
        assert_eq!(permutation_count(64, 63), None);
    }

    #[test]
    fn exhaustive_bijection_small() {
        for (n, k) in [(4, 2), (6, 3), (9, 8), (8, 4)] {
            let total = permutation_count(n, k).unwrap();
            let mut cells = vec![0u8; k];
            let mut seen = std::collections::HashSet::new();
            for r in 0..total {
                unrank_permutation(r, n, &mut cells);
                assert!(cells.iter().all(|&c| (c as usize) < n));
                assert!(seen.insert(cells.clone()), "duplicate at {r}");
                assert_eq!(rank_permutation(&cells, n), r);
            }
        }
    }
}
