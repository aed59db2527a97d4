//! Which rank owns which entries of a table: one contiguous slice each, in rank order, of
//! whole 64-entry blocks, cut so that every slice holds about the same work (an entry's
//! expansion and its moves), not the same number of entries.

use crate::moves::ZeroAwareMoves;
use pdbformat::rank::ZeroAwareIndex;
use std::ops::Range;

/// Which rank owns which entries: one contiguous slice each, in rank order, of whole 64-entry
/// blocks (so that every slice's `u4` and `bit1` bytes start on a byte of the file), the last
/// rank taking the rest.
#[derive(Clone, Debug)]
pub(super) struct Ownership {
    total: u64,
    /// `starts[r]`: rank `r`'s first entry; `starts[ranks]` is `total`.
    starts: Vec<u64>,
}

impl Ownership {
    /// `total` entries over `ranks` ranks in equal slices (what [`Self::balanced`] improves
    /// on, for the tests).
    #[cfg(test)]
    fn new(total: u64, ranks: usize) -> Ownership {
        let ranks = ranks.max(1);
        let per_rank = total.div_ceil(ranks as u64).div_ceil(64).max(1) * 64;
        Ownership {
            total,
            starts: (0..=ranks as u64)
                .map(|r| (r * per_rank).min(total))
                .collect(),
        }
    }

    /// The entries of the table of `idx` over `ranks` ranks in slices of about equal work:
    /// every entry is expanded once and each of its moves tried once, so a block of entries
    /// (a cell set and a blank region: all its entries have the same moves) weighs its
    /// entries times one plus its moves. On the zero-aware 4x4 7-8 the second half of the
    /// index range has 16 % more moves than the first; equal slices left the first rank
    /// waiting for the second at the end of every level.
    pub fn balanced(idx: &ZeroAwareIndex, moves: &ZeroAwareMoves<'_>, ranks: usize) -> Ownership {
        let ranks = ranks.max(1);
        let total = idx.len();
        let fact = idx.order_count();
        // Cost per entry of each block, in index order (the blocks tile the index range).
        let mut blocks = Vec::new();
        let mut work = 0u128;
        for set in 0..idx.set_count() {
            for region in idx.regions_of_set(set) {
                let cost = 1 + moves.block(set, region).len() as u64;
                blocks.push(cost);
                work += (cost * fact) as u128;
            }
        }
        let mut starts = vec![0u64; ranks + 1];
        starts[ranks] = total;
        let (mut done, mut block) = (0u128, 0usize);
        for (r, start) in starts.iter_mut().enumerate().take(ranks).skip(1) {
            let target = work * r as u128 / ranks as u128;
            while block < blocks.len() && done + (blocks[block] * fact) as u128 <= target {
                done += (blocks[block] * fact) as u128;
                block += 1;
            }
            // Inside the block that crosses the target: its entries weigh alike.
            let within = match blocks.get(block) {
                Some(&cost) => ((target - done) / cost as u128) as u64,
                None => 0,
            };
            let at = block as u64 * fact + within;
            *start = (at.div_ceil(64) * 64).min(total);
        }
        for r in 1..=ranks {
            starts[r] = starts[r].max(starts[r - 1]);
        }
        Ownership { total, starts }
    }

    /// Entries of the whole table.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The entries rank `r` owns (empty for trailing ranks of a tiny table).
    pub fn range(&self, r: usize) -> Range<u64> {
        self.starts[r]..self.starts[r + 1]
    }

    /// The rank that owns entry `n`.
    #[inline]
    pub fn owner(&self, n: u64) -> usize {
        self.starts[1..].partition_point(|&s| s <= n)
    }

    /// The rank that owns entry `n`, and `n`'s offset in that rank's slice.
    #[inline]
    pub fn split(&self, n: u64) -> (usize, u64) {
        let o = self.owner(n);
        (o, n - self.starts[o])
    }

    /// The largest number of entries a rank owns.
    pub fn largest(&self) -> u64 {
        self.starts
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn ownership_covers_the_range_in_whole_blocks() {
        for (total, ranks) in [(1u64, 4usize), (100, 3), (64 * 7 + 5, 4), (1 << 20, 16)] {
            check_covers(&Ownership::new(total, ranks), total, ranks);
        }
        for (w, h, k, ranks) in [(3, 3, 2, 7), (3, 4, 5, 2), (3, 4, 5, 5), (4, 4, 4, 3)] {
            let board = Board::new(w, h).unwrap();
            let idx = ZeroAwareIndex::new(board, k).unwrap();
            let moves = ZeroAwareMoves::new(board, &idx);
            check_covers(&Ownership::balanced(&idx, &moves, ranks), idx.len(), ranks);
        }
    }

    #[test]
    fn balanced_slices_hold_equal_work() {
        // Work counted entry by entry (one plus its moves, found from the state itself),
        // against the block sums `balanced` splits by: every slice is within 64 entries'
        // work (the alignment) of an equal share.
        for (w, h, k, ranks) in [(3, 4, 5, 2), (3, 4, 5, 3), (4, 3, 4, 4)] {
            let board = Board::new(w, h).unwrap();
            let idx = ZeroAwareIndex::new(board, k).unwrap();
            let moves = ZeroAwareMoves::new(board, &idx);
            let own = Ownership::balanced(&idx, &moves, ranks);
            let fact = idx.order_count();
            let mut work = vec![0u64; ranks];
            let mut most = 0;
            for set in 0..idx.set_count() {
                for region in idx.regions_of_set(set) {
                    for order in 0..fact {
                        let mut cost = 1;
                        moves.for_each_neighbour(&moves.state(set, region, order), |_| cost += 1);
                        most = most.max(cost);
                        work[own.owner(region as u64 * fact + order)] += cost;
                    }
                }
            }
            let share = work.iter().sum::<u64>() / ranks as u64;
            for (r, &wr) in work.iter().enumerate() {
                assert!(
                    wr.abs_diff(share) <= 64 * most + ranks as u64,
                    "{w}x{h} k={k} rank {r} of {ranks}: {wr} against {share}"
                );
            }
            // The equal split is less even on these boards.
            let equal = Ownership::new(idx.len(), ranks);
            assert_ne!(equal.range(0), own.range(0));
        }
    }

    /// `own` tiles `0..total` over `ranks` ranks in slices starting on 64-entry blocks, and
    /// finds each slice's first and last entries in it.
    fn check_covers(own: &Ownership, total: u64, ranks: usize) {
        let mut next = 0;
        for r in 0..ranks {
            let range = own.range(r);
            assert_eq!(range.start, next);
            assert!(range.start.is_multiple_of(64) || range.is_empty());
            for n in [range.start, range.end.saturating_sub(1)] {
                if !range.is_empty() {
                    assert_eq!(own.owner(n), r);
                    assert_eq!(own.split(n), (r, n - range.start));
                }
            }
            next = range.end;
        }
        assert_eq!(next, total);
    }
}
