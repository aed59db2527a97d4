//! The numeric codes of entry encodings and payload compressions.

use std::fmt;

/// How entries are packed into the raw payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// One byte per entry holding the value (code 0).
    U8,
    /// Four bits per entry, two per byte, low nibble first; values up to 15 (code 1).
    U4,
    /// Bit 1 of the value (`(h >> 1) & 1`), eight entries per byte, lowest bit first; zero-aware
    /// tables only, read with differential lookups (code 2).
    Bit1,
}

impl Encoding {
    /// The code stored in the file.
    pub fn code(self) -> u8 {
        match self {
            Encoding::U8 => 0,
            Encoding::U4 => 1,
            Encoding::Bit1 => 2,
        }
    }

    /// The encoding of `code`, if this reader knows it.
    pub fn from_code(code: u8) -> Option<Encoding> {
        match code {
            0 => Some(Encoding::U8),
            1 => Some(Encoding::U4),
            2 => Some(Encoding::Bit1),
            _ => None,
        }
    }

    /// Bytes needed for `entries` entries.
    pub fn encoded_len(self, entries: u64) -> u64 {
        match self {
            Encoding::U8 => entries,
            Encoding::U4 => entries.div_ceil(2),
            Encoding::Bit1 => entries.div_ceil(8),
        }
    }

    /// The name used on command lines.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::U8 => "u8",
            Encoding::U4 => "u4",
            Encoding::Bit1 => "bit1",
        }
    }

    /// Parses `u8`, `u4` or `bit1`.
    pub fn parse(s: &str) -> Option<Encoding> {
        [Encoding::U8, Encoding::U4, Encoding::Bit1]
            .into_iter()
            .find(|e| e.name() == s)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a payload is stored on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Raw bytes, memory-mappable (code 0).
    None,
    /// One zstd frame (code 1).
    Zstd,
    /// One gzip member (code 2).
    Gzip,
    /// Zero-aware tables that a board symmetry maps onto an earlier table or onto themselves:
    /// a preamble naming the source, the symmetry and a predictor, then one zstd frame of the
    /// entries that do not follow from it (code 3). Asked of a writer, tables that no symmetry
    /// maps and whose entries are not `bit1` (which the predictor serves) are written as `Zstd`.
    ZstdSymmetric,
}

impl Compression {
    /// The code stored in the file.
    pub fn code(self) -> u8 {
        match self {
            Compression::None => 0,
            Compression::Zstd => 1,
            Compression::Gzip => 2,
            Compression::ZstdSymmetric => 3,
        }
    }

    /// The compression of `code`, if this reader knows it.
    pub fn from_code(code: u8) -> Option<Compression> {
        match code {
            0 => Some(Compression::None),
            1 => Some(Compression::Zstd),
            2 => Some(Compression::Gzip),
            3 => Some(Compression::ZstdSymmetric),
            _ => None,
        }
    }

    /// The compression a file name says for files holding tables of this one: `zstd-sym`
    /// tables sit in `.zstd.pdb` files beside `zstd` ones (a writer asked for `zstd-sym` stores
    /// the tables no symmetry reduces as `zstd`).
    pub fn in_file_names(self) -> Compression {
        match self {
            Compression::ZstdSymmetric => Compression::Zstd,
            c => c,
        }
    }

    /// The name used on command lines.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::ZstdSymmetric => "zstd-sym",
        }
    }

    /// Parses `none`, `zstd`, `gzip` or `zstd-sym`.
    pub fn parse(s: &str) -> Option<Compression> {
        [
            Compression::None,
            Compression::Zstd,
            Compression::Gzip,
            Compression::ZstdSymmetric,
        ]
        .into_iter()
        .find(|c| c.name() == s)
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
