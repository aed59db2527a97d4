//! One BFS level over one slice of a table's index range: the expand (push) and fill (pull)
//! code shared by the single-process BFS ([`crate::levels`], whose slice is the whole range) and
//! the distributed one (`crate::distributed`, one slice per MPI rank).
//!
//! A slice holds the entries of the contiguous global index range it owns, in a
//! [`LevelTable`]: a byte per entry ([`ByteTable`], exact depths) or two bits
//! ([`crate::twobit::TwoBitTable`], "reached" and bit 1 of the depth, for `bit1` output).
//! Neighbours it owns are claimed in place; neighbours owned elsewhere are handed to the
//! caller, who sends them to their owner (push) or asks their owner whether they are at the
//! level's depth (pull). Every write of a level stores the same value, so the result depends
//! neither on the thread count nor on how the range is cut into slices.

use crate::byte_table::{ByteTable, UNREACHED};
use crate::moves::ZeroAwareMoves;
use pdbformat::rank::ZeroAwareIndex;
use std::ops::{AddAssign, Range};
use std::sync::atomic::AtomicU64;

/// Entries scanned per unit of parallel work (and per progress report).
pub(crate) const CHUNK_ENTRIES: u64 = 1 << 20;

/// Neighbours gathered (and prefetched) before they are claimed.
const PREFETCH_BATCH: usize = 48;

/// The entries of a table during its BFS, as one level reads and writes them (by local index,
/// `0..len`): what [`Slice`]'s level code needs of the byte table and of the two-bit table.
pub trait LevelTable: Sync + Sized {
    /// Bits each entry takes (8 or 2).
    const BITS: u32;

    /// `len` entries, none reached.
    fn unreached(len: usize) -> Self;

    /// The table of `len` entries held in `words` (as [`Self::words`] gave them).
    fn from_words(words: Vec<u64>, len: usize) -> Self;

    /// The words holding the entries (for the build's resumable state, read between levels).
    fn words(&self) -> &[AtomicU64];

    /// The entries a push level at `depth` expands, given the entries first reached at each
    /// depth so far (`histogram[d]`): the frontier for the byte table; for the two-bit table,
    /// which stores the depth modulo 4, also the entries 4, 8, … levels older.
    fn push_work(histogram: &[u64]) -> u64;

    /// Calls `f(i)`, in ascending order, for every entry in `range` that a push level at
    /// `depth` expands (see [`Self::push_work`]). The caller passes only ranges of the right
    /// depth parity.
    fn for_each_frontier(&self, range: Range<usize>, depth: u8, f: impl FnMut(usize));

    /// Calls `f(i)`, in ascending order, for every unreached entry in `range`.
    fn for_each_unreached(&self, range: Range<usize>, f: impl FnMut(usize));

    /// Whether entry `i`, a neighbour of an entry still unreached in a pull level at `depth`,
    /// is at `depth` (for the two-bit table: reached, since an unreached entry's reached
    /// neighbours all are).
    fn neighbour_at(&self, i: usize, depth: u8) -> bool;

    /// Gives unreached entry `i` the depth `depth`; returns whether this call reached it.
    fn claim(&self, i: usize, depth: u8) -> bool;

    /// Asks the processor to start loading entry `i` (a hint only).
    fn prefetch(&self, i: usize);
}

impl LevelTable for ByteTable {
    const BITS: u32 = 8;

    fn unreached(len: usize) -> ByteTable {
        ByteTable::new(len)
    }

    fn from_words(words: Vec<u64>, len: usize) -> ByteTable {
        ByteTable::from_words(words, len)
    }

    fn words(&self) -> &[AtomicU64] {
        ByteTable::words(self)
    }

    fn push_work(histogram: &[u64]) -> u64 {
        histogram.last().copied().unwrap_or(0)
    }

    #[inline]
    fn for_each_frontier(&self, range: Range<usize>, depth: u8, f: impl FnMut(usize)) {
        self.for_each_equal(range, depth, f);
    }

    #[inline]
    fn for_each_unreached(&self, range: Range<usize>, f: impl FnMut(usize)) {
        self.for_each_equal(range, UNREACHED, f);
    }

    #[inline]
    fn neighbour_at(&self, i: usize, depth: u8) -> bool {
        self.get(i) == depth
    }

    #[inline]
    fn claim(&self, i: usize, depth: u8) -> bool {
        ByteTable::claim(self, i, depth)
    }

    #[inline]
    fn prefetch(&self, i: usize) {
        ByteTable::prefetch(self, i);
    }
}

/// What one unit of work of a level did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Entries it reached.
    pub claimed: u64,
    /// Owned entries its cell sets hold (for progress).
    pub scanned: u64,
    /// Entries it expanded (push levels).
    pub expanded: u64,
}

impl AddAssign for Work {
    fn add_assign(&mut self, o: Work) {
        self.claimed += o.claimed;
        self.scanned += o.scanned;
        self.expanded += o.expanded;
    }
}

/// The owned part of one table during a BFS: the index range, its entries, and the units of
/// parallel work (ranges of cell sets) that meet it.
pub struct Slice<'a, T, A> {
    moves: &'a ZeroAwareMoves<'a>,
    idx: &'a ZeroAwareIndex,
    table: T,
    owned: Range<u64>,
    goal_parity: u8,
    accept: &'a A,
    chunks: Vec<Range<usize>>,
}

impl<'a, T: LevelTable, A: Fn(usize, u8) -> bool + Sync> Slice<'a, T, A> {
    /// The slice of global entries `owned`, all unreached; `goal_parity` is the set parity of
    /// the goal state (entries at even depths lie in sets of that parity); an unreached entry
    /// `i` may only be given the value `v` when `accept(i, v)` holds.
    pub fn new(
        moves: &'a ZeroAwareMoves<'a>,
        idx: &'a ZeroAwareIndex,
        owned: Range<u64>,
        goal_parity: u8,
        accept: &'a A,
    ) -> Slice<'a, T, A> {
        let table = T::unreached((owned.end - owned.start) as usize);
        Slice::resumed(moves, idx, owned, goal_parity, accept, table)
    }

    /// The slice of global entries `owned` as `table` holds them (a BFS resumed from a saved
    /// working table); otherwise as [`Self::new`].
    pub fn resumed(
        moves: &'a ZeroAwareMoves<'a>,
        idx: &'a ZeroAwareIndex,
        owned: Range<u64>,
        goal_parity: u8,
        accept: &'a A,
        table: T,
    ) -> Slice<'a, T, A> {
        let fact = idx.order_count();
        let chunks = set_chunks(idx)
            .into_iter()
            .filter(|sets| {
                let first = idx.regions_of_set(sets.start).start as u64 * fact;
                let end = idx.regions_of_set(sets.end - 1).end as u64 * fact;
                first < owned.end && end > owned.start
            })
            .collect();
        Slice {
            moves,
            idx,
            table,
            owned,
            goal_parity,
            accept,
            chunks,
        }
    }

    /// The units of parallel work: ranges of cell sets, each meeting the owned range.
    pub fn chunks(&self) -> &[Range<usize>] {
        &self.chunks
    }

    /// Whether global entry `n` is owned here.
    #[inline]
    pub fn owns(&self, n: u64) -> bool {
        self.owned.contains(&n)
    }

    /// Whether owned global entry `n`, a neighbour of an entry still unreached in a pull level
    /// at `depth`, is at `depth` (the answer to another slice's pull query).
    #[inline]
    pub fn neighbour_at(&self, n: u64, depth: u8) -> bool {
        self.table
            .neighbour_at((n - self.owned.start) as usize, depth)
    }

    /// Gives owned global entry `n` the value `value` if it is unreached and the filter allows
    /// it; returns whether this call set it.
    #[inline]
    pub fn claim(&self, n: u64, value: u8) -> bool {
        (self.accept)(n as usize, value) && self.table.claim((n - self.owned.start) as usize, value)
    }

    /// The owned entries (between levels).
    pub fn table(&self) -> &T {
        &self.table
    }

    /// The owned entries, in index order.
    pub fn into_table(self) -> T {
        self.table
    }

    /// Push: expands every owned entry at `depth` (see [`LevelTable::push_work`]) in the cell
    /// sets `sets`, claims its owned neighbours with `depth + 1` and passes the others to
    /// `remote`.
    pub fn push(&self, sets: Range<usize>, depth: u8, remote: &mut impl FnMut(u64)) -> Work {
        let mut claimed = 0u64;
        let mut expanded = 0u64;
        let mut pending = Vec::with_capacity(2 * PREFETCH_BATCH);
        let entries = self.for_each_block(sets, depth, |set, region, base, block| {
            let moves = self.moves.block(set, region);
            self.table.for_each_frontier(block, depth, |local| {
                expanded += 1;
                let i = self.owned.start + local as u64;
                self.moves.for_each_neighbour_in(&moves, i - base, |n| {
                    if self.owns(n) {
                        let local = (n - self.owned.start) as usize;
                        self.table.prefetch(local);
                        pending.push(n);
                    } else {
                        remote(n);
                    }
                });
                // Claim in batches: the prefetches of earlier states have had time to arrive
                // while later states were being expanded.
                if pending.len() >= PREFETCH_BATCH {
                    claimed += self.claim_all(&mut pending, depth + 1);
                }
            });
        });
        claimed += self.claim_all(&mut pending, depth + 1);
        Work {
            claimed,
            scanned: entries,
            expanded,
        }
    }

    /// Pull: every unreached owned entry of the right parity in the cell sets `sets` takes
    /// `depth + 1` if an owned neighbour is at `depth`; one that has none but has neighbours
    /// owned elsewhere is passed to `remote` with those neighbours (the caller claims it if
    /// one of them is at `depth`).
    pub fn pull(
        &self,
        sets: Range<usize>,
        depth: u8,
        remote: &mut impl FnMut(u64, &[u64]),
    ) -> Work {
        let mut claimed = 0u64;
        let mut others = Vec::with_capacity(64);
        let entries = self.for_each_block(sets, depth + 1, |set, region, base, block| {
            let moves = self.moves.block(set, region);
            self.table.for_each_unreached(block, |local| {
                let i = self.owned.start + local as u64;
                if !(self.accept)(i as usize, depth + 1) {
                    return;
                }
                others.clear();
                let found = self.moves.any_neighbour_in(&moves, i - base, |n| {
                    if self.owns(n) {
                        self.neighbour_at(n, depth)
                    } else {
                        others.push(n);
                        false
                    }
                });
                if found {
                    claimed += self.table.claim(local, depth + 1) as u64;
                } else if !others.is_empty() {
                    remote(i, &others);
                }
            });
        });
        Work {
            claimed,
            scanned: entries,
            expanded: 0,
        }
    }

    /// Calls `f(set, region, base, local block)` for every region block of the cell sets
    /// `sets` whose depth parity is that of `depth`, clipped to the owned range (`base` is the
    /// global index of the region's first entry; the block is in local indices). Returns how
    /// many owned entries the sets hold (skipped ones included).
    #[inline]
    fn for_each_block(
        &self,
        sets: Range<usize>,
        depth: u8,
        mut f: impl FnMut(usize, usize, u64, Range<usize>),
    ) -> u64 {
        let fact = self.idx.order_count();
        let mut entries = 0u64;
        for set in sets {
            let regions = self.idx.regions_of_set(set);
            let first = regions.start as u64 * fact;
            let end = regions.end as u64 * fact;
            let (lo, hi) = (first.max(self.owned.start), end.min(self.owned.end));
            if lo >= hi {
                continue;
            }
            entries += hi - lo;
            // Entries at an even depth lie in the cell sets of the goal's parity, odd depths in
            // the others (see `ZeroAwareMoves::set_parity`).
            let set_depth_parity = self.moves.set_parity(self.idx.set_mask(set)) ^ self.goal_parity;
            if set_depth_parity != depth & 1 {
                continue;
            }
            for region in regions {
                let base = region as u64 * fact;
                let (lo, hi) = (
                    base.max(self.owned.start),
                    (base + fact).min(self.owned.end),
                );
                if lo < hi {
                    let start = self.owned.start;
                    f(
                        set,
                        region,
                        base,
                        (lo - start) as usize..(hi - start) as usize,
                    );
                }
            }
        }
        entries
    }

    /// Claims every pending (owned, global) entry that the filter allows with `value`; returns
    /// how many were new.
    #[inline]
    fn claim_all(&self, pending: &mut Vec<u64>, value: u8) -> u64 {
        let mut claimed = 0;
        for &n in pending.iter() {
            claimed += self.claim(n, value) as u64;
        }
        pending.clear();
        claimed
    }
}

/// What the distributed build needs of a slice besides the level code: its range, and the
/// claims and answers of entries other ranks sent it.
#[cfg(feature = "mpi")]
impl<T: LevelTable, A: Fn(usize, u8) -> bool + Sync> Slice<'_, T, A> {
    /// The global index range this slice owns.
    pub fn owned(&self) -> Range<u64> {
        self.owned.clone()
    }

    /// Asks the processor to start loading owned global entry `n` (a hint only).
    #[inline]
    pub fn prefetch(&self, n: u64) {
        self.table.prefetch((n - self.owned.start) as usize);
    }

    /// Claims every owned entry of `received` (neighbours another slice pushed here, as
    /// offsets in this slice) with `value`, loading each a few entries ahead; returns how many
    /// were new.
    pub fn claim_received<L: Copy + Into<u64>>(&self, received: &[L], value: u8) -> u64 {
        let start = self.owned.start;
        let mut claimed = 0;
        for (k, &n) in received.iter().enumerate() {
            if let Some(&ahead) = received.get(k + PREFETCH_BATCH) {
                self.table.prefetch(ahead.into() as usize);
            }
            claimed += self.claim(start + n.into(), value) as u64;
        }
        claimed
    }
}

/// Ranges of cell sets holding about [`CHUNK_ENTRIES`] entries each: the units of parallel
/// work of both BFS variants (the byte one and the two-bit one).
pub(crate) fn set_chunks(idx: &ZeroAwareIndex) -> Vec<Range<usize>> {
    let fact = idx.order_count();
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut acc = 0u64;
    for set in 0..idx.set_count() {
        acc += idx.regions_of_set(set).len() as u64 * fact;
        if acc >= CHUNK_ENTRIES {
            chunks.push(start..set + 1);
            start = set + 1;
            acc = 0;
        }
    }
    if start < idx.set_count() {
        chunks.push(start..idx.set_count());
    }
    chunks
}
