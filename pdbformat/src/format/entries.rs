//! Entry encodings (`u8`, `u4`, `bit1`) and tables held in memory (owned or memory-mapped).

use super::codes::Encoding;
use super::header::TableHeader;
use std::ops::Deref;

/// Packs values into the raw payload of `encoding`. For `u4` every value must be at most 15;
/// for `bit1` only bit 1 of each value is kept.
///
/// # Panics
/// For `u4` when a value exceeds 15.
pub fn encode_entries(values: &[u8], encoding: Encoding) -> Vec<u8> {
    match encoding {
        Encoding::U8 => values.to_vec(),
        Encoding::U4 => values
            .chunks(2)
            .map(|c| {
                assert!(
                    c.iter().all(|&v| v <= 15),
                    "u4 entries hold values up to 15"
                );
                c[0] | c.get(1).map_or(0, |&h| h << 4)
            })
            .collect(),
        Encoding::Bit1 => values
            .chunks(8)
            .map(|c| {
                c.iter()
                    .enumerate()
                    .fold(0u8, |b, (i, &v)| b | ((v >> 1) & 1) << i)
            })
            .collect(),
    }
}

/// The bytes of a table's entries: owned (read or decoded into memory of their own) or a
/// window of a memory-mapped file.
pub enum EntryBytes {
    /// Bytes in memory of their own: a read-only anonymous mapping, which a table's length
    /// claimed by a header does not commit before the entries fill it.
    Owned {
        /// The mapping (at least `len` bytes).
        map: memmap2::Mmap,
        /// Number of bytes.
        len: usize,
    },
    /// A range of a read-only file mapping.
    Mapped {
        /// The mapping of the whole file.
        map: memmap2::Mmap,
        /// First byte of the entries.
        start: usize,
        /// Number of bytes.
        len: usize,
    },
}

impl Deref for EntryBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            EntryBytes::Owned { map, len } => &map[..*len],
            EntryBytes::Mapped { map, start, len } => &map[*start..*start + *len],
        }
    }
}

impl std::fmt::Debug for EntryBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self {
            EntryBytes::Owned { .. } => "owned",
            EntryBytes::Mapped { .. } => "mapped",
        };
        write!(f, "EntryBytes({kind}, {} bytes)", self.len())
    }
}

/// One table in memory: its header and its encoded entries.
#[derive(Debug)]
pub struct Table {
    /// What the file's header says about it.
    pub header: TableHeader,
    /// The encoded entries.
    pub bytes: EntryBytes,
}

impl Table {
    /// The entries seen through their encoding, for lookups.
    #[inline]
    pub fn view(&self) -> super::view::EntryView<'_> {
        super::view::EntryView::new(&self.bytes, self.header.encoding)
    }

    /// The value of entry `i` for `u8` and `u4` tables.
    ///
    /// # Panics
    /// For `bit1` tables (their values need differential lookups) and out-of-range `i`.
    #[inline]
    pub fn value(&self, i: u64) -> u8 {
        self.view().value(i)
    }

    /// Bit 1 of entry `i` (any encoding).
    #[inline]
    pub fn bit1(&self, i: u64) -> u8 {
        self.view().bit1(i)
    }

    /// All values as bytes (`u8` and `u4` tables; `None` for `bit1`).
    pub fn values(&self) -> Option<Vec<u8>> {
        match self.header.encoding {
            Encoding::U8 => Some(self.bytes.to_vec()),
            Encoding::U4 => Some(
                (0..self.header.entry_count)
                    .map(|i| self.value(i))
                    .collect(),
            ),
            Encoding::Bit1 => None,
        }
    }

    /// The table as the writer takes it: same shape, same encoded entries (for rewriting a
    /// file with another compression).
    pub fn source(&self) -> super::writer::TableSource<'_> {
        super::writer::TableSource {
            kind: self.header.kind,
            pattern: &self.header.pattern,
            encoding: self.header.encoding,
            max_value: self.header.max_value,
            entries: &self.bytes,
        }
    }

    /// Whether the entries are memory-mapped rather than owned.
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, EntryBytes::Mapped { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing() {
        let v = [0u8, 1, 2, 3, 4, 5, 6, 7, 15];
        assert_eq!(
            encode_entries(&v, Encoding::U4),
            vec![0x10, 0x32, 0x54, 0x76, 0x0f]
        );
        // bit 1 of 0..=7 is 0 0 1 1 0 0 1 1 -> 0b1100_1100; of 15 is 1.
        assert_eq!(encode_entries(&v, Encoding::Bit1), vec![0b1100_1100, 1]);
    }
}
