//! The byte table of the BFS ([`ByteTable`]: an exact depth per entry, stored in `u64` words
//! shared between threads through word-sized atomics), and the finished table it leaves
//! ([`Entries`]).
//!
//! The BFS scans for bytes equal to the current depth while other threads claim unreached
//! bytes; doing both through `AtomicU64` keeps every concurrent access the same size, so the
//! program has no data race and the result does not depend on the thread count.

use std::ops::Deref;

// Tables of more than 2^32 entries (7 tiles on 5x5 and up) are indexed by `usize`.
#[cfg(not(target_pointer_width = "64"))]
compile_error!("pdbgen indexes tables of more than 2^32 entries and needs a 64-bit target");
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The value of entries not reached (yet, or ever: parity-unreachable states).
pub const UNREACHED: u8 = 0xFF;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The shift of byte `j` (memory order) inside a native-endian word.
#[inline]
fn shift(j: usize) -> u32 {
    if cfg!(target_endian = "little") {
        8 * j as u32
    } else {
        8 * (7 - j) as u32
    }
}

/// A table of one byte per entry, all [`UNREACHED`] at first, writable from many threads.
pub struct ByteTable {
    words: Vec<AtomicU64>,
    len: usize,
}

impl ByteTable {
    /// `len` entries, all [`UNREACHED`].
    pub fn new(len: usize) -> ByteTable {
        // AtomicU64 has the size and layout of u64: fill plain words (on huge pages), then view
        // them as atomics.
        let words = pdbformat::memory::huge_vec(len.div_ceil(8), u64::MAX)
            .into_iter()
            .map(AtomicU64::new)
            .collect();
        ByteTable { words, len }
    }

    /// The table of `len` entries held in `words` (as [`Self::words`] gave them).
    pub fn from_words(words: Vec<u64>, len: usize) -> ByteTable {
        debug_assert_eq!(words.len(), len.div_ceil(8));
        let words = words.into_iter().map(AtomicU64::new).collect();
        ByteTable { words, len }
    }

    /// The words holding the entries, 8 per word.
    pub fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// Entry `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        let w = self.words[i / 8].load(Relaxed);
        (w >> shift(i % 8)) as u8
    }

    /// Sets entry `i` to `value` if it is still [`UNREACHED`]; returns whether this call set it.
    #[inline]
    pub fn claim(&self, i: usize, value: u8) -> bool {
        let word = &self.words[i / 8];
        let s = shift(i % 8);
        let mut w = word.load(Relaxed);
        loop {
            if (w >> s) as u8 != UNREACHED {
                return false;
            }
            let new = w & !(0xFF << s) | (value as u64) << s;
            match word.compare_exchange_weak(w, new, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(cur) => w = cur,
            }
        }
    }

    /// Asks the processor to start loading the word of entry `i` into the cache (a hint only:
    /// it changes no value). Used to overlap the cache misses of random claims.
    #[inline]
    pub fn prefetch(&self, i: usize) {
        prefetch_word(&self.words[i / 8]);
    }

    /// Calls `f(i)` for every entry in `range` equal to `value`, in ascending order.
    #[inline]
    pub fn for_each_equal(
        &self,
        range: std::ops::Range<usize>,
        value: u8,
        mut f: impl FnMut(usize),
    ) {
        let pattern = ONES * value as u64;
        let mut i = range.start;
        while i < range.end {
            let wi = i / 8;
            let x = self.words[wi].load(Relaxed) ^ pattern;
            // Candidate zero bytes of x (exact test below: borrows can flag a 0x01 byte).
            let mut cand = x.wrapping_sub(ONES) & !x & HIGHS;
            if cand != 0 {
                let bytes = x.to_ne_bytes();
                while cand != 0 {
                    let bit = cand.trailing_zeros() as usize;
                    cand &= cand - 1;
                    let j = if cfg!(target_endian = "little") {
                        bit / 8
                    } else {
                        7 - bit / 8
                    };
                    let idx = wi * 8 + j;
                    if bytes[j] == 0 && idx >= i && idx < range.end {
                        f(idx);
                    }
                }
            }
            i = (wi + 1) * 8;
        }
    }

    /// Ends shared use: the entries as bytes.
    pub fn into_entries(self) -> Entries {
        let words = self.words.into_iter().map(AtomicU64::into_inner).collect();
        Entries {
            words,
            len: self.len,
        }
    }
}

/// Finished entries, one byte each (a `u64`-backed buffer that reads as `[u8]`).
pub struct Entries {
    words: Vec<u64>,
    len: usize,
}

impl Entries {
    /// A copy as a plain vector.
    pub fn to_vec(&self) -> Vec<u8> {
        self.deref().to_vec()
    }
}

impl Deref for Entries {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        // SAFETY: `words` holds at least `len` initialised bytes; u8 has alignment 1.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.len) }
    }
}

impl std::fmt::Debug for Entries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Entries({} bytes)", self.len)
    }
}

/// A read prefetch of the cache line holding `word`.
#[inline(always)]
pub(crate) fn prefetch_word(word: &AtomicU64) {
    pdbformat::memory::prefetch_read(word.as_ptr().cast_const().cast());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_and_scan() {
        let t = ByteTable::new(21);
        assert!(t.claim(3, 1));
        assert!(!t.claim(3, 2));
        assert!(t.claim(9, 1));
        assert!(t.claim(20, 1));
        assert!(t.claim(10, 0));
        let mut found = vec![];
        t.for_each_equal(0..21, 1, |i| found.push(i));
        assert_eq!(found, vec![3, 9, 20]);
        found.clear();
        t.for_each_equal(4..20, 1, |i| found.push(i));
        assert_eq!(found, vec![9]);
        let e = t.into_entries();
        assert_eq!(e.len(), 21);
        assert_eq!(e[3], 1);
        assert_eq!(e[10], 0);
        assert_eq!(e[0], UNREACHED);
    }

    #[test]
    fn scan_is_exact_next_to_zero_bytes() {
        // A byte equal to value+1 just above a matching byte must not be reported.
        let t = ByteTable::new(16);
        for i in 0..16 {
            t.claim(i, if i % 2 == 0 { 5 } else { 6 });
        }
        let mut found = vec![];
        t.for_each_equal(0..16, 5, |i| found.push(i));
        assert_eq!(found, (0..16).step_by(2).collect::<Vec<_>>());
    }
}
