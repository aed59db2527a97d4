//! A deterministic pseudo-random source for tests: Marsaglia's xorshift64 (shifts 13, 7, 17).

/// xorshift64: the same seed gives the same stream on every machine; no extra crates.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    /// A generator seeded with `seed`; a zero seed (which xorshift cannot leave) is replaced
    /// by a fixed non-zero one.
    pub fn new(seed: u64) -> XorShift {
        XorShift(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next value (never zero).
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..n` (`n > 0`; slightly biased for huge `n`, which tests do not mind).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "XorShift::below(0)");
        (self.next() % n as u64) as usize
    }

    /// Shuffles `items` (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_stream_and_ranges() {
        // The first value of xorshift64 from seed 1, worked by hand:
        // x = 1 ^ 1<<13 = 0x2001; x ^= x>>7 = 0x2001 ^ 0x40 = 0x2041; x ^= x<<17.
        let mut r = XorShift::new(1);
        assert_eq!(r.next(), 0x2041 ^ (0x2041 << 17));
        let mut z = XorShift::new(0);
        assert_ne!(z.next(), 0);
        let mut r = XorShift::new(42);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            seen[r.below(7)] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let mut v: Vec<u32> = (0..50).collect();
        XorShift::new(7).shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<_>>());
        let (mut a, mut b) = (XorShift::new(9), XorShift::new(9));
        assert!((0..100).all(|_| a.next() == b.next()));
    }
}
