//! What the measuring examples share: a reproducible stream of sampled entry indexes.

/// Pseudo-random indexes below `len` (xorshift64 from a fixed seed, the same every run).
pub struct Sampler(u64);

impl Sampler {
    /// The stream's start.
    pub fn new() -> Sampler {
        Sampler(0x9e37_79b9_7f4a_7c15)
    }

    /// The next index below `len`.
    pub fn below(&mut self, len: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % len
    }
}
