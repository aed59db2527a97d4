//! Ranking of k-subsets of cells (as bit masks) in colexicographic order.

use super::binomial::Binomials;

/// The colex rank of the set `mask`: `Σ C(c_j, j+1)` over its cells `c_0 < c_1 < …`.
/// The ranks of k-sets of n cells are exactly `0..C(n, k)`.
#[inline]
pub fn rank_combination(mut mask: u64, binom: &Binomials) -> u64 {
    let mut r = 0;
    let mut j = 1;
    while mask != 0 {
        let c = mask.trailing_zeros() as usize;
        r += binom.get(c, j);
        j += 1;
        mask &= mask - 1;
    }
    r
}

/// The k-set of colex rank `rank` (inverse of [`rank_combination`]).
pub fn unrank_combination(mut rank: u64, k: usize, binom: &Binomials) -> u64 {
    let mut mask = 0u64;
    for j in (1..=k).rev() {
        // The largest c with C(c, j) <= rank.
        let mut c = j - 1;
        while c < 64 && binom.get(c + 1, j) <= rank {
            c += 1;
        }
        rank -= binom.get(c, j);
        mask |= 1 << c;
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bijection_on_16_cells() {
        let b = Binomials::new();
        for k in 1..=8 {
            let total = b.get(16, k);
            let mut seen = vec![false; total as usize];
            for m in 0u64..(1 << 16) {
                if m.count_ones() as usize != k {
                    continue;
                }
                let r = rank_combination(m, &b);
                assert!(r < total);
                assert!(!seen[r as usize]);
                seen[r as usize] = true;
                assert_eq!(unrank_combination(r, k, &b), m);
            }
            assert!(seen.iter().all(|&s| s));
        }
    }
}
