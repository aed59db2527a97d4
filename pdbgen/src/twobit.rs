//! Two-bit breadth-first search for `bit1` tables: each entry holds "reached" and bit 1 of its
//! depth, which with the parity of its cell set determine the depth modulo 4.
//!
//! Every move flips the parity of the occupied cell set (see `ZeroAwareMoves::set_parity`), so
//! an entry's depth parity is known from its set; bit 1 of the depth, the very bit a `bit1`
//! file stores, then gives the depth modulo 4. Level `d` either pushes from the entries whose
//! depth is `d` modulo 4 (entries 4, 8, … levels older match too: re-expanding them claims
//! nothing, since all their neighbours are reached) or pulls into the unreached entries of
//! the other parity, each of which is claimed when any neighbour is reached (an unreached
//! entry's reached neighbours all lie at depth `d`, else it would have been claimed before).
//! Every write of a level writes the same two bits, so the table does not depend on the thread
//! count. At the end, bit 1 of every entry is compacted in place into the `bit1` payload.
//!
//! The levels are [`crate::slice`]'s, run by [`crate::levels`]'s loop over a [`TwoBitTable`]
//! (the [`LevelTable`] of two bits per entry): the whole range on one process, one slice per
//! rank in the distributed build.

use crate::byte_table::prefetch_word;
use crate::error::{BuildError, FromIndexError};
use crate::levels::{distances, LevelSaves, Levels};
use crate::observer::{BuildObserver, TableSummary};
use crate::request::check_fits;
use crate::slice::LevelTable;
use crate::stats::ValueStats;
use pdbformat::format::Encoding;
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::{Goal, Pattern, TableKind};
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The "reached" bit of every 2-bit entry of a word.
const REACHED: u64 = 0x5555_5555_5555_5555;

/// A table of 2 bits per entry (bit 0: reached; bit 1: bit 1 of the depth), 32 per `u64`
/// word, shared between threads through word-sized atomics.
pub struct TwoBitTable {
    words: Vec<AtomicU64>,
    len: u64,
}

impl TwoBitTable {
    /// `len` entries, none reached.
    pub fn new(len: u64) -> TwoBitTable {
        let words = pdbformat::memory::huge_vec(len.div_ceil(32) as usize, 0u64)
            .into_iter()
            .map(AtomicU64::new)
            .collect();
        TwoBitTable { words, len }
    }

    /// Number of entries.
    #[cfg(test)]
    fn len(&self) -> u64 {
        self.len
    }

    /// Whether entry `i` is reached.
    #[inline]
    pub fn reached(&self, i: u64) -> bool {
        self.words[(i / 32) as usize].load(Relaxed) >> (2 * (i % 32)) & 1 == 1
    }

    /// Bit 1 of entry `i`'s depth (0 while unreached).
    #[cfg(test)]
    fn bit1(&self, i: u64) -> u8 {
        (self.words[(i / 32) as usize].load(Relaxed) >> (2 * (i % 32) + 1)) as u8 & 1
    }

    /// Marks entry `i` reached at a depth whose bit 1 is `bit1`, if it is not reached yet;
    /// returns whether this call reached it.
    #[inline]
    pub fn claim(&self, i: u64, bit1: u8) -> bool {
        let word = &self.words[(i / 32) as usize];
        let s = 2 * (i % 32);
        let set = (1 | (bit1 as u64) << 1) << s;
        let mut w = word.load(Relaxed);
        loop {
            if w >> s & 1 == 1 {
                return false;
            }
            match word.compare_exchange_weak(w, w | set, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(cur) => w = cur,
            }
        }
    }

    /// Asks the processor to start loading the word of entry `i` (a hint only).
    #[inline]
    pub fn prefetch(&self, i: u64) {
        prefetch_word(&self.words[(i / 32) as usize]);
    }

    /// Calls `f(i)` for every entry `i` in `range`, in ascending order, for which the word
    /// filter `select(word)` (a word of 2-bit entries in, a mask of their bit-0 positions out)
    /// sets bit `2 · (i % 32)`.
    #[inline]
    fn for_each_selected(
        &self,
        range: Range<u64>,
        select: impl Fn(u64) -> u64,
        mut f: impl FnMut(u64),
    ) {
        let mut i = range.start;
        while i < range.end {
            let wi = i / 32;
            let lo = i % 32;
            let hi = (range.end - wi * 32).min(32);
            let mut m = select(self.words[wi as usize].load(Relaxed)) & REACHED;
            m &= u64::MAX << (2 * lo);
            if hi < 32 {
                m &= (1u64 << (2 * hi)) - 1;
            }
            while m != 0 {
                f(wi * 32 + m.trailing_zeros() as u64 / 2);
                m &= m - 1;
            }
            i = (wi + 1) * 32;
        }
    }

    /// Ends shared use: bit 1 of every entry, packed 8 entries a byte, least significant bit
    /// first (the `bit1` encoding). The payload is compacted in place over the table's memory,
    /// so no second table is ever held.
    pub fn into_bit1(self) -> Bit1Payload {
        let mut words: Vec<u64> = self.words.into_iter().map(AtomicU64::into_inner).collect();
        let n = words.len();
        let base = words.as_mut_ptr();
        for w in 0..n {
            // SAFETY: word `w` is read before bytes 4w..4w+4 are written; those bytes lie in
            // words w/2 <= w, already read, inside the allocation of `n` words.
            unsafe {
                let x = base.add(w).read();
                let out = (gather_odd_bits(x) as u32).to_le_bytes();
                std::ptr::copy_nonoverlapping(out.as_ptr(), base.cast::<u8>().add(4 * w), 4);
            }
        }
        let bytes = self.len.div_ceil(8) as usize;
        words.truncate(bytes.div_ceil(8));
        words.shrink_to_fit();
        Bit1Payload { words, bytes }
    }
}

impl LevelTable for TwoBitTable {
    const BITS: u32 = 2;

    fn unreached(len: usize) -> TwoBitTable {
        TwoBitTable::new(len as u64)
    }

    fn from_words(words: Vec<u64>, len: usize) -> TwoBitTable {
        debug_assert_eq!(words.len(), len.div_ceil(32));
        let words = words.into_iter().map(AtomicU64::new).collect();
        TwoBitTable {
            words,
            len: len as u64,
        }
    }

    fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    fn push_work(histogram: &[u64]) -> u64 {
        // The entries of the depth's code: this level's frontier and those 4, 8, … older.
        histogram.iter().rev().step_by(4).sum()
    }

    #[inline]
    fn for_each_frontier(&self, range: Range<usize>, depth: u8, mut f: impl FnMut(usize)) {
        let range = range.start as u64..range.end as u64;
        // Reached, and bit 1 of the depth equal to `depth`'s.
        let select = |w: u64| w & if depth & 2 != 0 { w >> 1 } else { !(w >> 1) };
        self.for_each_selected(range, select, |i| f(i as usize));
    }

    #[inline]
    fn for_each_unreached(&self, range: Range<usize>, mut f: impl FnMut(usize)) {
        let range = range.start as u64..range.end as u64;
        self.for_each_selected(range, |w| !w, |i| f(i as usize));
    }

    #[inline]
    fn neighbour_at(&self, i: usize, _depth: u8) -> bool {
        self.reached(i as u64)
    }

    #[inline]
    fn claim(&self, i: usize, depth: u8) -> bool {
        TwoBitTable::claim(self, i as u64, depth >> 1 & 1)
    }

    #[inline]
    fn prefetch(&self, i: usize) {
        TwoBitTable::prefetch(self, i as u64);
    }
}

/// Bits 1, 3, 5, … of `x` gathered into the low 32 bits, in order.
#[inline]
fn gather_odd_bits(x: u64) -> u64 {
    let mut y = (x >> 1) & 0x5555_5555_5555_5555;
    y = (y | y >> 1) & 0x3333_3333_3333_3333;
    y = (y | y >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    y = (y | y >> 4) & 0x00ff_00ff_00ff_00ff;
    y = (y | y >> 8) & 0x0000_ffff_0000_ffff;
    (y | y >> 16) & 0x0000_0000_ffff_ffff
}

/// A `bit1` payload (a `u64`-backed buffer that reads as `[u8]`).
pub struct Bit1Payload {
    words: Vec<u64>,
    bytes: usize,
}

impl std::ops::Deref for Bit1Payload {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        // SAFETY: `words` holds at least `bytes` initialised bytes; u8 has alignment 1.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.bytes) }
    }
}

/// The two-bit BFS of the zero-aware space of `pattern` towards `goal` (its push levels'
/// `expanded` entries count the frontier and the older ones of the same code).
fn two_bit_distances(
    goal: &Goal,
    pattern: &Pattern,
    idx: &ZeroAwareIndex,
    table: usize,
    obs: &dyn BuildObserver,
    saves: Option<&mut dyn LevelSaves<TwoBitTable>>,
) -> Result<(TwoBitTable, Levels), BuildError> {
    distances::<TwoBitTable, _>(goal, pattern, idx, table, obs, &|_, _| true, saves)
}

/// Builds the `bit1` payload of the zero-aware table of `pattern` towards `goal` through the
/// two-bit BFS (2 bits per entry while building, compacted to 1 in place), with its summary.
/// A pattern that leaves parity-unreachable entries (one that fills the board) is refused:
/// only `u8` entries can mark them.
pub fn build_bit1_table(
    goal: &Goal,
    pattern: &Pattern,
    table: usize,
    obs: &dyn BuildObserver,
    saves: Option<&mut dyn LevelSaves<TwoBitTable>>,
) -> Result<(Bit1Payload, TableSummary), BuildError> {
    let start = std::time::Instant::now();
    let idx = ZeroAwareIndex::new(goal.board(), pattern.len())
        .map_err(BuildError::index_error(pattern))?;
    obs.table_started(table, pattern, TableKind::ZeroAware, idx.len());
    let (t, stats) = two_bit_distances(goal, pattern, &idx, table, obs, saves)?;
    let values = ValueStats::of_levels(stats.histogram, idx.len());
    let mut summary = TableSummary::new(pattern, TableKind::ZeroAware, values, start);
    summary.seconds += stats.seconds;
    check_fits(Encoding::Bit1, &summary)?;
    let payload = t.into_bit1();
    obs.table_done(table, &summary);
    Ok((payload, summary))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::in_pool;
    use crate::{build_table, NoProgress, UNREACHED};
    use pdbformat::format::encode_entries;
    use pdbformat::Board;

    #[test]
    fn gather_and_scan() {
        assert_eq!(gather_odd_bits(0b10_00_10_10), 0b1011);
        assert_eq!(gather_odd_bits(u64::MAX), 0xffff_ffff);
        let t = TwoBitTable::new(70);
        assert!(t.claim(3, 1));
        assert!(!t.claim(3, 0));
        assert!(t.claim(33, 0));
        assert!(t.claim(69, 1));
        assert!(t.reached(3) && t.bit1(3) == 1 && t.bit1(33) == 0 && !t.reached(4));
        let mut found = vec![];
        t.for_each_selected(0..70, |w| w, |i| found.push(i));
        assert_eq!(found, vec![3, 33, 69]);
        found.clear();
        t.for_each_selected(4..69, |w| w, |i| found.push(i));
        assert_eq!(found, vec![33]);
        found.clear();
        t.for_each_selected(0..70, |w| w & w >> 1, |i| found.push(i));
        assert_eq!(found, vec![3, 69]);
        let unreached = {
            let mut n = 0;
            t.for_each_selected(0..70, |w| !w, |_| n += 1);
            n
        };
        assert_eq!(unreached, 67);
        let p = t.into_bit1();
        assert_eq!(p.len(), 9);
        assert_eq!(p[0], 1 << 3);
        assert_eq!(p[4], 0);
        assert_eq!(p[8], 1 << 5);
    }

    /// Boards, goals and patterns covering corner, middle and explicit goals, narrow boards
    /// (where regions split often) and patterns that fill the whole board (parity-unreachable
    /// entries).
    fn cases() -> Vec<(usize, usize, &'static str, Vec<usize>)> {
        vec![
            (3, 3, "blank-first", vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (3, 3, "blank-last", vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (3, 3, "1 2 3 4 0 5 6 7 8", vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (3, 3, "blank-first", vec![1, 3, 5, 7]),
            (3, 3, "1 2 3 4 0 5 6 7 8", vec![2, 4, 6]),
            (2, 4, "blank-first", vec![1, 2, 3, 4, 5]),
            (4, 2, "blank-last", vec![1, 2, 3, 4, 5, 6, 7]),
            (4, 2, "blank-first", vec![2, 3, 6]),
            (3, 4, "blank-first", vec![1, 2, 3, 4, 5, 6]),
            (4, 3, "blank-last", vec![3, 4, 7, 8, 11]),
            (4, 4, "blank-first", vec![1, 2, 3, 4, 5]),
            (4, 4, "blank-last", vec![9, 10, 13, 14, 15]),
            (
                4,
                4,
                "5 1 2 3 4 0 6 7 8 9 10 11 12 13 14 15",
                vec![1, 4, 6, 11],
            ),
        ]
    }

    /// The two-bit BFS against the byte BFS: every entry's "reached" and bit 1 agree with the
    /// exact distances, and the compacted payload equals the `bit1` encoding of the byte table.
    #[test]
    fn two_bit_bfs_matches_the_byte_bfs() {
        for (w, h, g, tiles) in cases() {
            let b = Board::new(w, h).unwrap();
            let goal = Goal::parse(b, g).unwrap();
            let p = Pattern::new(b, &tiles).unwrap();
            let exact =
                build_table(&goal, &p, TableKind::ZeroAware, Some(2), 0, &NoProgress).unwrap();
            let idx = ZeroAwareIndex::new(b, p.len()).unwrap();
            let (t, stats) = two_bit_distances(&goal, &p, &idx, 0, &NoProgress, None).unwrap();
            assert_eq!(t.len(), exact.len() as u64);
            let mut histogram = vec![0u64; stats.histogram.len()];
            for (i, &v) in exact.iter().enumerate() {
                let i = i as u64;
                assert_eq!(
                    t.reached(i),
                    v != UNREACHED,
                    "{w}x{h} {g} {tiles:?} entry {i}"
                );
                if v != UNREACHED {
                    assert_eq!(t.bit1(i), (v >> 1) & 1, "{w}x{h} {g} {tiles:?} entry {i}");
                    histogram[v as usize] += 1;
                }
            }
            assert_eq!(stats.histogram, histogram, "{w}x{h} {g} {tiles:?}");
            assert!(stats.expanded >= stats.frontier);
            let unreached = exact.iter().filter(|&&v| v == UNREACHED).count();
            let built = build_bit1_table(&goal, &p, 0, &NoProgress, None);
            if unreached == 0 {
                let (payload, summary) = built.unwrap();
                assert_eq!(&*payload, &encode_entries(&exact, Encoding::Bit1)[..]);
                assert_eq!(summary.histogram, histogram);
                assert_eq!(summary.entries, exact.len() as u64);
            } else {
                let e = built
                    .err()
                    .expect("a board-filling pattern is refused")
                    .to_string();
                assert!(e.contains("parity-unreachable"), "{e}");
            }
        }
    }

    #[test]
    fn two_bit_bfs_is_the_same_on_one_and_two_threads() {
        for (w, h, g, tiles) in [
            (4, 4, "blank-first", vec![1, 2, 3, 4, 5, 6]),
            (3, 4, "blank-last", vec![1, 2, 3, 4, 5, 6, 7]),
        ] {
            let b = Board::new(w, h).unwrap();
            let goal = Goal::parse(b, g).unwrap();
            let p = Pattern::new(b, &tiles).unwrap();
            let one = in_pool(Some(1), || {
                build_bit1_table(&goal, &p, 0, &NoProgress, None)
            })
            .unwrap();
            let two = in_pool(Some(2), || {
                build_bit1_table(&goal, &p, 0, &NoProgress, None)
            })
            .unwrap();
            assert_eq!(&*one.0, &*two.0);
            assert_eq!(one.1.histogram, two.1.histogram);
        }
    }
}
