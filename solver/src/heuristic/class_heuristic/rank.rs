//! Table-driven ranking of class boards of at most 16 cells: the same numbers as
//! [`ClassIndex::rank`], from a handful of small-table lookups instead of a loop over every
//! tile with a population count and a binomial each.
//!
//! [`ClassIndex`] ranks class `c`'s cells as a combination (colex) of the cells still free
//! after the blank and the classes before it. Here the free cells are squeezed out of the
//! class mask (a bit-gather, "pext", done a byte at a time from a 64 KiB table), and the
//! colex rank of the squeezed mask comes from a table over every 15-bit mask: two byte
//! gathers and one rank lookup per class, all in tables that stay in the cache.

use pdbformat::rank::{binomial, ClassIndex};
use std::sync::{Arc, OnceLock};

/// The lookup tables, built once per process on first use.
static TABLES: OnceLock<Arc<Tables>> = OnceLock::new();

/// The most cells a board may have for [`SmallRank`].
pub(super) const SMALL_CELLS: usize = 16;

/// The most classes [`SmallRank`] handles (one radix per class but the last).
const MAX_RADICES: usize = 8;

/// The lookup tables every [`SmallRank`] shares (128 KiB).
#[derive(Debug)]
struct Tables {
    /// `gather[f * 256 + m]`: the bits of `m` at the set bits of `f`, packed low.
    gather: Box<[u8]>,
    /// Set bits of each byte.
    ones: [u8; 256],
    /// `colex[x]`: the colex rank of the set `x` among the sets of its size.
    colex: Box<[u16]>,
}

/// Fast ranks for one [`ClassIndex`] of a board of at most [`SMALL_CELLS`] cells.
#[derive(Clone, Debug)]
pub(super) struct SmallRank {
    tables: Arc<Tables>,
    /// The radix of each class but the last (as in [`ClassIndex`]).
    radices: [u64; MAX_RADICES],
    /// Classes but the last.
    ranked: usize,
    /// The mask of all cells.
    full: u32,
}

impl SmallRank {
    /// The fast ranking of `index`, or `None` when its board has more than
    /// [`SMALL_CELLS`] cells or it has more classes than handled here.
    pub(super) fn new(index: &ClassIndex) -> Option<SmallRank> {
        let n = index.board().cells();
        let counts = index.counts();
        if n > SMALL_CELLS || counts.len() > MAX_RADICES + 1 {
            return None;
        }
        let mut radices = [0u64; MAX_RADICES];
        let mut left = n - 1;
        for (c, &k) in counts[..counts.len() - 1].iter().enumerate() {
            radices[c] = binomial(left, k);
            left -= k;
        }
        Some(SmallRank {
            tables: TABLES.get_or_init(|| Arc::new(Tables::new())).clone(),
            radices,
            ranked: counts.len() - 1,
            full: ((1u64 << n) - 1) as u32,
        })
    }

    /// The bits of `m` at the set bits of `f` (16-bit values), packed low.
    #[inline(always)]
    fn squeeze(&self, m: u32, f: u32) -> usize {
        let t = &*self.tables;
        let (flo, fhi) = ((f & 0xff) as usize, (f >> 8 & 0xff) as usize);
        let lo = t.gather[flo * 256 + (m & 0xff) as usize] as usize;
        let hi = t.gather[fhi * 256 + (m >> 8 & 0xff) as usize] as usize;
        lo | hi << t.ones[flo]
    }

    /// The index of the class board with the blank on `blank` and class `c` on `masks[c]`:
    /// [`ClassIndex::rank`]'s value for the same board.
    #[inline(always)]
    pub(super) fn rank(&self, blank: u8, masks: &[u32]) -> u64 {
        let mut free = self.full & !(1u32 << blank);
        let mut r = blank as u64;
        for (c, &m) in masks[..self.ranked].iter().enumerate() {
            let x = self.squeeze(m, free);
            r = r * self.radices[c] + self.tables.colex[x & 0x7fff] as u64;
            free &= !m;
        }
        r
    }
}

impl Tables {
    /// Builds the tables.
    fn new() -> Tables {
        let mut gather = vec![0u8; 256 * 256].into_boxed_slice();
        for f in 0..256usize {
            for m in 0..256usize {
                let (mut out, mut at) = (0u8, 0);
                for b in 0..8 {
                    if f >> b & 1 == 1 {
                        out |= ((m >> b & 1) as u8) << at;
                        at += 1;
                    }
                }
                gather[f * 256 + m] = out;
            }
        }
        let mut ones = [0u8; 256];
        for (b, o) in ones.iter_mut().enumerate() {
            *o = b.count_ones() as u8;
        }
        let width = SMALL_CELLS - 1;
        let mut colex = vec![0u16; 1 << width].into_boxed_slice();
        for (x, r) in colex.iter_mut().enumerate() {
            let (mut sum, mut i, mut m) = (0u64, 1usize, x);
            while m != 0 {
                sum += binomial(m.trailing_zeros() as usize, i);
                i += 1;
                m &= m - 1;
            }
            *r = sum as u16;
        }
        Tables {
            gather,
            ones,
            colex,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::rank::ClassLabels;
    use pdbformat::{Board, Goal};

    /// Every index of small boards, ranked both ways, agrees; on the 4x4 a spread of indexes.
    #[test]
    fn agrees_with_the_class_index() {
        for (w, h, step) in [(3, 3, 1), (2, 4, 1), (4, 3, 7), (4, 4, 9973)] {
            let board = Board::new(w, h).unwrap();
            for goal in [Goal::blank_first(board), Goal::blank_last(board)] {
                // Rows, columns, and a labelling of neither (Rokicki's on the 4x4).
                let odd = match (w, h) {
                    (4, 4) => ClassLabels::parse(&goal, "rokicki").unwrap(),
                    _ => {
                        let n = board.cells();
                        let spec = format!("1,{}/2-{}", n - 1, n - 2);
                        ClassLabels::parse(&goal, &spec).unwrap()
                    }
                };
                for labels in [ClassLabels::Rows, ClassLabels::Columns, odd] {
                    let ix = ClassIndex::for_goal(&goal, labels).unwrap();
                    let fast = SmallRank::new(&ix).unwrap();
                    let mut masks = vec![0u64; ix.classes()];
                    let mut i = 0;
                    while i < ix.len() {
                        let blank = ix.unrank(i, &mut masks);
                        let narrow: Vec<u32> = masks.iter().map(|&m| m as u32).collect();
                        assert_eq!(fast.rank(blank as u8, &narrow), i, "{board} {labels}");
                        i += step;
                    }
                }
            }
        }
        let big = ClassIndex::new(Board::new(5, 4).unwrap(), ClassLabels::Rows, 0).unwrap();
        assert!(SmallRank::new(&big).is_none());
    }
}
