//! Binomial coefficients for boards of up to 64 cells.

/// `C(n, k)` for `n, k ≤ 64` (0 when `k > n`), exact in `u64`.
pub fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * (n - i) as u128 / (i + 1) as u128;
    }
    r as u64
}

/// A table of `C(n, k)` for `n ≤ 64`, `k ≤ 64`, for ranking loops.
#[derive(Clone, Debug)]
pub struct Binomials {
    table: Vec<u64>,
}

impl Binomials {
    /// Builds the table.
    pub fn new() -> Binomials {
        // Pascal's rule: a few thousand additions, so that building the table is cheap enough
        // to do on every header decode. Every C(n, k) with n <= 64 fits in u64.
        let mut table = vec![0u64; 65 * 65];
        for n in 0..=64 {
            table[n * 65] = 1;
            for k in 1..=n {
                table[n * 65 + k] = table[(n - 1) * 65 + k - 1] + table[(n - 1) * 65 + k];
            }
        }
        Binomials { table }
    }

    /// `C(n, k)`.
    #[inline]
    pub fn get(&self, n: usize, k: usize) -> u64 {
        self.table[n * 65 + k]
    }
}

impl Default for Binomials {
    fn default() -> Self {
        Binomials::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pascal() {
        let b = Binomials::new();
        for n in 1..=64 {
            for k in 1..=n {
                assert_eq!(
                    b.get(n, k),
                    b.get(n - 1, k - 1) + b.get(n - 1, k),
                    "{n} {k}"
                );
            }
        }
        assert_eq!(binomial(16, 8), 12870);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        for n in 0..=64 {
            for k in 0..=64 {
                assert_eq!(b.get(n, k), binomial(n, k), "{n} {k}");
            }
        }
    }
}
