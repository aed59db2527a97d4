//! Class tables loaded for searching ([`ClassTable`]): the class tables of multi-tile-metric
//! databases (goal rows, goal columns or another labelling), with their index and entries.

use pdbformat::format::{Encoding, EntryView, TableHeader};
use pdbformat::rank::{ClassIndex, ClassLabels};

/// One class table ready for lookups: every tile known by its class, the blank exactly;
/// entries in the order of [`ClassIndex`].
pub struct ClassTable {
    /// Goal rows, goal columns or a class per goal cell.
    pub labels: ClassLabels,
    /// The numbering of class boards.
    pub index: ClassIndex,
    /// What the file's header says about the table.
    pub header: TableHeader,
    pub(super) entries: memmap2::Mmap,
    pub(super) encoding: Encoding,
}

impl ClassTable {
    /// The value of entry `i` (`u8` or `u4` entries).
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn value(&self, i: u64) -> u8 {
        EntryView::new(self.entries(), self.encoding).stored(i)
    }

    /// Asks the processor to bring entry `i` into the cache (a hint).
    #[inline(always)]
    pub fn prefetch(&self, i: u64) {
        if let Some(p) = EntryView::new(self.entries(), self.encoding).address_of(i) {
            pdbformat::memory::prefetch_read(p);
        }
    }

    /// The encoded entries (the header's `raw_len` bytes).
    pub fn entries(&self) -> &[u8] {
        &self.entries[..self.header.raw_len as usize]
    }
}

impl std::fmt::Debug for ClassTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ClassTable({}, {} entries)",
            self.labels,
            self.index.len()
        )
    }
}
