//! One table ready for lookups: [`LoadedTable`], its pattern, index and entries, and the
//! lookups the heuristics make (the index of a state, the stored entry, the value of a child
//! of a `bit1` table, a prefetch).

use super::shared_index::SharedIndex;
use super::walk::{Bits, Walk};
use super::DbError;
use pdbformat::format::{Encoding, EntryView, TableHeader};
use pdbformat::rank::{FastIndex, TableIndex, TableKind};
use pdbformat::Pattern;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One table ready for lookups: its pattern, kind, index and entries.
pub struct LoadedTable {
    /// The pattern (in the database goal's tile numbers).
    pub pattern: Pattern,
    /// Zero-aware or zero-unaware.
    pub kind: TableKind,
    /// The index that maps states to entries, shared by every table of its shape.
    pub(super) shared: Arc<SharedIndex>,
    /// The same numbering, prepared for fast lookups (a handle on `shared`'s tables, kept
    /// here so that a lookup follows one pointer fewer).
    pub(super) fast: FastIndex,
    /// What the file's header says about the table.
    pub header: TableHeader,
    /// The encoded entries, in anonymous memory.
    pub(super) entries: memmap2::Mmap,
    /// Their encoding (a copy of the header's, kept beside the entries for lookups).
    pub(super) encoding: Encoding,
    /// For `bit1` tables: the walk to the goal (boxed: it is large and not needed by lookups).
    pub(super) walk: Option<Box<Walk>>,
    /// The file and the table's number in it, for messages.
    pub(super) path: PathBuf,
    pub(super) number: usize,
}

impl LoadedTable {
    /// The entry of the state with the pattern tiles on `cells` (tile order, occupying the
    /// cells of `occ`) and the blank on `blank`.
    #[inline(always)]
    pub fn index(&self, cells: &[u8], occ: u64, blank: u8) -> u64 {
        self.fast.index(cells, occ, blank)
    }

    /// The index that maps states to entries (one copy per board, pattern size and kind in
    /// the process, shared by every table of that shape).
    pub fn table_index(&self) -> &TableIndex {
        &self.shared.index
    }

    /// The zero-aware index prepared for fast lookups, for callers that rank many states of
    /// this table in a row (`None` for zero-unaware tables).
    pub fn zero_aware_index(&self) -> Option<&pdbformat::rank::FastZeroAware> {
        match &self.fast {
            FastIndex::ZeroAware(z) => Some(z),
            FastIndex::Permutation(_) => None,
        }
    }

    /// The entries seen through their encoding (`pdbformat` decodes every encoding).
    #[inline(always)]
    pub(super) fn view(&self) -> EntryView<'_> {
        EntryView::new(self.entries(), self.encoding)
    }

    /// Whether the entries hold only bit 1 of each value (`bit1`): values then come from
    /// [`LoadedTable::exact_value`] and [`LoadedTable::child_value`], not from
    /// [`LoadedTable::value`].
    pub fn is_differential(&self) -> bool {
        self.view().is_differential()
    }

    /// The stored entry `i`: the value for `u8` and `u4` tables, bit 1 of the value for `bit1`
    /// tables ([`EntryView::stored`]).
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn value(&self, i: u64) -> u8 {
        self.view().stored(i)
    }

    /// The value of entry `i`, a state one move of a pattern tile away from a state of value
    /// `parent` ([`EntryView::child_value`]): the stored value for `u8` and `u4` tables, the
    /// one of `parent ± 1` that the stored bit names for `bit1` tables.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn child_value(&self, i: u64, parent: u8) -> u8 {
        self.view().child_value(i, parent)
    }

    /// Asks the processor to bring entry `i` into the cache (a hint; no effect elsewhere).
    #[inline(always)]
    pub fn prefetch(&self, i: u64) {
        if let Some(p) = self.view().address_of(i) {
            pdbformat::memory::prefetch_read(p);
        }
    }

    /// The encoded entries as stored (the header's `raw_len` bytes, read-only): one value per
    /// byte for `u8` tables, packed as docs/FORMAT.md says for `u4` and `bit1`. For callers
    /// that read the whole table (bindings that hand it out without a copy).
    pub fn entries(&self) -> &[u8] {
        &self.entries[..self.header.raw_len as usize]
    }

    /// Bytes of entries held in memory.
    pub fn memory_bytes(&self) -> usize {
        self.entries().len()
    }

    /// The stored entry of the state with the pattern tiles on `cells` and the blank on
    /// `blank` (see [`LoadedTable::value`]).
    #[inline(always)]
    pub fn lookup(&self, cells: &[u8], occ: u64, blank: u8) -> u8 {
        self.value(self.index(cells, occ, blank))
    }

    /// The file the table comes from and its number there.
    pub fn origin(&self) -> (&Path, usize) {
        (&self.path, self.number)
    }
}

impl std::fmt::Debug for LoadedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LoadedTable({} {}, {} entries)",
            self.kind,
            self.pattern,
            self.table_index().len()
        )
    }
}

impl LoadedTable {
    /// The exact value of the state with the pattern tiles on `cells` (tile order, occupying
    /// `occ`) and the blank on `blank`, in the table's frame.
    ///
    /// For `u8` and `u4` tables this is a lookup. For `bit1` tables it is a walk to the goal:
    /// the value modulo 4 is known from the stored bit and the parity (every pattern move
    /// changes both the value and the tiles' Manhattan distance by 1, so they have the same
    /// parity); from a state of value `v > 0` one pattern move leads to a state of value
    /// `v - 1`, the neighbour whose stored bit is bit 1 of `v - 1`; the walk ends at the goal
    /// after exactly `v` moves. It costs a few lookups per move, whose lines each step requests
    /// together before reading the first (one memory latency per step, not one per
    /// neighbour tried), and allocates nothing.
    ///
    /// Errors when the bits lead nowhere (no neighbour one lower, or no goal within the
    /// table's largest value): the table is corrupt.
    pub fn exact_value(&self, cells: &[u8], occ: u64, blank: u8) -> Result<u8, DbError> {
        let Some(w) = &self.walk else {
            return Ok(self.lookup(cells, occ, blank));
        };
        (w.value(self, self.header.max_value, cells, occ, blank)).map_err(|why| DbError::Corrupt {
            path: self.path.clone(),
            table: self.number,
            why,
        })
    }
}

impl Bits for LoadedTable {
    fn index(&self, cells: &[u8], occ: u64, blank: u8) -> u64 {
        LoadedTable::index(self, cells, occ, blank)
    }

    fn bit1(&self, i: u64) -> u8 {
        self.view().bit1(i)
    }

    fn prefetch(&self, i: u64) {
        LoadedTable::prefetch(self, i)
    }
}
