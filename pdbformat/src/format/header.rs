//! The header: an explicit little-endian layout, encoded and decoded field by field.
//!
//! Decoding trusts nothing: every length is checked against the bytes present, every code
//! against the known ones, and every count against what the board and pattern imply.

use super::codes::{Compression, Encoding};
use super::digest::Digest;
use super::error::FormatError;
use crate::board::Board;
use crate::goal::Goal;
use crate::metric::Metric;
use crate::pattern::Pattern;
use crate::rank::{CellClasses, ClassIndex, ClassLabels, IndexScheme, TableKind};

/// The eight bytes every PDB file starts with (`\x89PDB\r\n\x1a\n`: non-ASCII first byte and
/// line-ending bytes catch text-mode transfers, as in PNG).
pub const MAGIC: [u8; 8] = [0x89, b'P', b'D', b'B', b'\r', b'\n', 0x1a, b'\n'];
/// The newest format version this crate reads and writes. It reads every version from 1 up;
/// it writes version 1 for files that version 1 can express (single-tile metric, pattern
/// tables only), so that such files stay byte-for-byte what they always were, and version 2
/// for the others (the metric, goal-row and goal-column class tables).
pub const FORMAT_VERSION: u16 = 2;
/// The largest header a reader accepts (1 MiB), so that a hostile length cannot make it
/// allocate more.
pub const MAX_HEADER_LEN: u32 = 1 << 20;
/// The most tables one file may hold.
pub const MAX_TABLES: usize = 64;
/// Payloads start at multiples of this many bytes (for memory mapping).
pub const PAYLOAD_ALIGN: u64 = 64;

pub(crate) const PREAMBLE_LEN: usize = 16;
pub(crate) const DESCRIPTOR_FIXED_LEN: usize = 104;
pub(crate) const CHECKSUM_LEN: usize = 32;

/// Everything the header says about a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The goal (and through it the board) of every table in the file.
    pub goal: Goal,
    /// The move metric the tables count in (version 1 files: the single-tile metric).
    pub metric: Metric,
    /// The tables, in file order.
    pub tables: Vec<TableHeader>,
}

/// What the header says about one table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableHeader {
    /// Zero-aware or zero-unaware; class tables, which keep the blank exactly, are zero-aware.
    pub kind: TableKind,
    /// For a class table (version 2): the labelling naming each tile's class (its goal row,
    /// its goal column, or a class per goal cell); its pattern is then every tile and its
    /// index a [`ClassIndex`]. `None` for a pattern table.
    pub classes: Option<ClassLabels>,
    /// How entries are packed.
    pub encoding: Encoding,
    /// How the payload is stored.
    pub compression: Compression,
    /// The pattern's tiles.
    pub pattern: Pattern,
    /// The largest value in the table.
    pub max_value: u8,
    /// Number of entries (fixed by board, pattern size and kind).
    pub entry_count: u64,
    /// Bytes of the encoded entries (fixed by the entry count and encoding).
    pub raw_len: u64,
    /// Where the stored payload starts in the file.
    pub payload_offset: u64,
    /// Bytes of the stored (possibly compressed) payload.
    pub stored_len: u64,
    /// SHA-256 of the stored payload bytes.
    pub stored_digest: Digest,
    /// SHA-256 of the raw (encoded, uncompressed) entries.
    pub raw_digest: Digest,
}

impl TableHeader {
    /// Checks that `found`, the digest of this table's raw entries (table number `table`),
    /// is the one the header records; the only error is
    /// `ChecksumMismatch { what: "entries" }`.
    pub fn check_raw_digest(&self, table: usize, found: Digest) -> Result<(), FormatError> {
        if found == self.raw_digest {
            Ok(())
        } else {
            Err(FormatError::ChecksumMismatch {
                table,
                what: "entries",
                expected: self.raw_digest,
                found,
            })
        }
    }

    /// Checks `entries`, table number `table`'s raw entries, against the header's digest
    /// (reads them all once); the only error is `ChecksumMismatch { what: "entries" }`.
    pub fn check_entries(&self, table: usize, entries: &[u8]) -> Result<(), FormatError> {
        self.check_raw_digest(table, Digest::of(entries))
    }
}

impl Header {
    /// The version this header is written in: 1 when version 1 can express it (single-tile
    /// metric, pattern tables only), 2 otherwise.
    pub fn version(&self) -> u16 {
        if self.metric == Metric::Stm && self.tables.iter().all(|t| t.classes.is_none()) {
            1
        } else {
            2
        }
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.goal.board()
    }

    /// Length of the encoded header for tables with these pattern sizes.
    pub(crate) fn encoded_len(cells: usize, pattern_sizes: impl Iterator<Item = usize>) -> usize {
        let mut len = align8(PREAMBLE_LEN + 8 + cells);
        for k in pattern_sizes {
            len += DESCRIPTOR_FIXED_LEN + align8(k);
        }
        len + CHECKSUM_LEN
    }

    /// The length of the whole file this header describes.
    pub fn file_len(&self) -> u64 {
        self.tables
            .last()
            .map(|t| t.payload_offset + t.stored_len)
            .unwrap_or(0)
    }

    /// Encodes the header, checksum included.
    pub fn encode(&self) -> Vec<u8> {
        let board = self.board();
        let len = Header::encoded_len(board.cells(), self.tables.iter().map(|t| t.pattern.len()));
        let mut b = Vec::with_capacity(len);
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&self.version().to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&(len as u32).to_le_bytes());
        b.push(board.width() as u8);
        b.push(board.height() as u8);
        b.extend_from_slice(&(self.tables.len() as u16).to_le_bytes());
        b.push(metric_code(self.metric));
        b.extend_from_slice(&[0u8; 3]);
        b.extend(self.goal.tiles().iter().map(|&t| t as u8));
        pad8(&mut b);
        for t in &self.tables {
            let (kind, scheme) = table_codes(t);
            b.push(kind);
            b.push(scheme);
            b.push(t.encoding.code());
            b.push(t.compression.code());
            b.push(t.pattern.len() as u8);
            b.push(t.max_value);
            b.extend_from_slice(&0u16.to_le_bytes());
            for v in [t.entry_count, t.raw_len, t.payload_offset, t.stored_len] {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.extend_from_slice(&t.stored_digest.0);
            b.extend_from_slice(&t.raw_digest.0);
            match t.classes {
                Some(ClassLabels::Cells(l)) => b.extend_from_slice(&l.by_tile(&self.goal)),
                _ => b.extend_from_slice(t.pattern.tiles()),
            }
            pad8(&mut b);
        }
        let sum = Digest::of(&b);
        b.extend_from_slice(&sum.0);
        debug_assert_eq!(b.len(), len);
        b
    }

    /// Reads the header length from the 16-byte preamble after checking magic, version and flags.
    pub(crate) fn decode_preamble(p: &[u8]) -> Result<u32, FormatError> {
        if p.len() < MAGIC.len() || p[..8] != MAGIC {
            return Err(FormatError::BadMagic {
                found: p[..p.len().min(8)].to_vec(),
            });
        }
        if p.len() < PREAMBLE_LEN {
            return Err(FormatError::Truncated {
                what: "preamble".into(),
                expected: PREAMBLE_LEN as u64,
                found: p.len() as u64,
            });
        }
        let version = u16::from_le_bytes([p[8], p[9]]);
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(FormatError::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let flags = u16::from_le_bytes([p[10], p[11]]);
        if flags != 0 {
            return Err(FormatError::invalid(
                "flags",
                format!("{flags:#06x} set, but versions 1 and 2 define no flags"),
            ));
        }
        let len = u32::from_le_bytes([p[12], p[13], p[14], p[15]]);
        let min = (PREAMBLE_LEN + 8 + 4 + CHECKSUM_LEN) as u32;
        if !(min..=MAX_HEADER_LEN).contains(&len) || !len.is_multiple_of(8) {
            return Err(FormatError::invalid(
                "header length",
                format!("{len} is not a multiple of 8 between {min} and {MAX_HEADER_LEN}"),
            ));
        }
        Ok(len)
    }

    /// Decodes a whole header (`bytes.len()` is the header length from the preamble), checking
    /// the checksum first and then every field.
    pub(crate) fn decode(bytes: &[u8]) -> Result<Header, FormatError> {
        let body_end = bytes.len() - CHECKSUM_LEN;
        let stored = Digest(bytes[body_end..].try_into().expect("32 bytes"));
        let found = Digest::of(&bytes[..body_end]);
        if stored != found {
            return Err(FormatError::HeaderChecksum {
                expected: stored,
                found,
            });
        }
        let mut c = Cursor {
            bytes: &bytes[..body_end],
            pos: PREAMBLE_LEN,
        };
        let (w, h) = (c.u8()? as usize, c.u8()? as usize);
        let board = Board::new(w, h)
            .ok()
            .filter(|b| b.fits_pdb())
            .ok_or_else(|| {
                FormatError::invalid(
                    "board",
                    format!("{w}x{h}: sides of at least 2 and at most 64 cells"),
                )
            })?;
        let count = c.u16()? as usize;
        if count == 0 || count > MAX_TABLES {
            return Err(FormatError::invalid(
                "table count",
                format!("{count} is not within 1..={MAX_TABLES}"),
            ));
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        let metric = if version == 1 {
            c.zero(1, "reserved header bytes")?;
            Metric::Stm
        } else {
            match c.u8()? {
                0 => Metric::Stm,
                1 => Metric::Mtm,
                m => {
                    return Err(FormatError::invalid(
                        "metric",
                        format!("code {m}; known: 0 stm, 1 mtm"),
                    ))
                }
            }
        };
        c.zero(3, "reserved header bytes")?;
        let goal_bytes: Vec<u16> = c.take(board.cells())?.iter().map(|&t| t as u16).collect();
        let goal = Goal::from_tiles(board, &goal_bytes)
            .map_err(|e| FormatError::invalid("goal", e.to_string()))?;
        c.align8()?;
        let mut tables = Vec::with_capacity(count);
        let mut expected_offset = align_up(bytes.len() as u64, PAYLOAD_ALIGN);
        let mut counts = EntryCounts::default();
        for i in 0..count {
            let t = decode_table(&mut c, i, &goal, version, expected_offset, &mut counts)?;
            expected_offset = align_up(t.payload_offset + t.stored_len, PAYLOAD_ALIGN);
            tables.push(t);
        }
        if c.pos != body_end {
            return Err(FormatError::invalid(
                "header length",
                format!(
                    "the tables end at byte {}, the header says {}",
                    c.pos + CHECKSUM_LEN,
                    bytes.len()
                ),
            ));
        }
        Ok(Header {
            goal,
            metric,
            tables,
        })
    }
}

fn decode_table(
    c: &mut Cursor,
    i: usize,
    goal: &Goal,
    version: u16,
    expected_offset: u64,
    counts: &mut EntryCounts,
) -> Result<TableHeader, FormatError> {
    let board = goal.board();
    let field = |name: &str| format!("table {i} {name}");
    let code = c.u8()?;
    // A labelled class table (code 4) gives the class of every tile in place of the pattern's
    // tiles: its labelling is read with them, below.
    let labelled = code == 4 && version >= 2;
    let (kind, mut classes) = match (code, version) {
        (0, _) => (TableKind::ZeroUnaware, None),
        (1, _) => (TableKind::ZeroAware, None),
        (2, 2..) => (TableKind::ZeroAware, Some(ClassLabels::Rows)),
        (3, 2..) => (TableKind::ZeroAware, Some(ClassLabels::Columns)),
        (4, 2..) => (TableKind::ZeroAware, None),
        (k, _) => {
            return Err(FormatError::invalid(
                field("kind"),
                format!(
                    "code {k}; known in version {version}: 0 zero-unaware, 1 zero-aware{}",
                    if version >= 2 {
                        ", 2 goal-row classes, 3 goal-column classes, 4 labelled classes"
                    } else {
                        ""
                    }
                ),
            ))
        }
    };
    let scheme = c.u8()?;
    let want = match classes {
        _ if labelled => CLASS_SCHEME,
        Some(_) => CLASS_SCHEME,
        None => scheme_code(kind.scheme()),
    };
    if scheme != want {
        let (what, name) = match classes {
            _ if labelled => ("labelled class".to_string(), "class-board"),
            Some(a) => (format!("goal-{} class", a.name()), "class-board"),
            None => (kind.to_string(), kind.scheme().name()),
        };
        return Err(FormatError::invalid(
            field("index scheme"),
            format!("code {scheme}; {what} tables use code {want} ({name})"),
        ));
    }
    let enc_code = c.u8()?;
    let encoding = Encoding::from_code(enc_code).ok_or(FormatError::UnknownEncoding {
        table: i,
        code: enc_code,
    })?;
    let comp_code = c.u8()?;
    let compression = Compression::from_code(comp_code).ok_or(FormatError::UnknownCompression {
        table: i,
        code: comp_code,
    })?;
    let k = c.u8()? as usize;
    let max_value = c.u8()?;
    c.zero(2, "reserved table bytes")?;
    let (entry_count, raw_len, payload_offset, stored_len) =
        (c.u64()?, c.u64()?, c.u64()?, c.u64()?);
    let stored_digest = Digest(c.take(32)?.try_into().expect("32 bytes"));
    let raw_digest = Digest(c.take(32)?.try_into().expect("32 bytes"));
    if k == 0 || k >= board.cells() {
        return Err(FormatError::invalid(
            field("pattern size"),
            format!(
                "{k}; a {board} pattern holds 1 to {} tiles",
                board.cells() - 1
            ),
        ));
    }
    let tiles = c.take(k)?;
    if labelled {
        if k != board.cells() - 1 {
            return Err(FormatError::invalid(
                field("pattern size"),
                format!("{k}; a class table holds every tile, {}", board.cells() - 1),
            ));
        }
        let l = CellClasses::from_tiles(goal, tiles)
            .map_err(|why| FormatError::invalid(field("classes"), why))?;
        classes = Some(ClassLabels::Cells(l));
    }
    let every: Vec<u8>;
    let tiles = if labelled {
        every = (1..board.cells() as u8).collect();
        &every[..]
    } else {
        tiles
    };
    if tiles.windows(2).any(|w| w[0] >= w[1]) {
        return Err(FormatError::invalid(
            field("pattern"),
            "tiles must be strictly ascending",
        ));
    }
    let tiles: Vec<usize> = tiles.iter().map(|&t| t as usize).collect();
    let pattern = Pattern::new(board, &tiles)
        .map_err(|e| FormatError::invalid(field("pattern"), e.to_string()))?;
    c.align8()?;
    let expected_entries = match classes {
        Some(labels) => {
            if k != board.cells() - 1 {
                return Err(FormatError::invalid(
                    field("pattern size"),
                    format!("{k}; a class table holds every tile, {}", board.cells() - 1),
                ));
            }
            ClassIndex::for_goal(goal, labels)
                .map_err(|e| FormatError::invalid(field("pattern size"), e.to_string()))?
                .len()
        }
        None => counts
            .get(board, k, kind)
            .map_err(|why| FormatError::invalid(field("pattern size"), why))?,
    };
    if entry_count != expected_entries {
        return Err(FormatError::invalid(
            field("entry count"),
            format!(
                "{entry_count}, but a {kind} table of {k} tiles on {board} has {expected_entries}"
            ),
        ));
    }
    if raw_len != encoding.encoded_len(entry_count) {
        return Err(FormatError::invalid(
            field("raw length"),
            format!(
                "{raw_len}, but {entry_count} {encoding} entries take {}",
                encoding.encoded_len(entry_count)
            ),
        ));
    }
    if encoding == Encoding::Bit1 && (kind != TableKind::ZeroAware || classes.is_some()) {
        return Err(FormatError::invalid(
            field("encoding"),
            "bit1 entries need a zero-aware pattern table",
        ));
    }
    if compression == Compression::ZstdSymmetric
        && (kind != TableKind::ZeroAware || classes.is_some())
    {
        return Err(FormatError::invalid(
            field("compression"),
            "zstd-sym payloads need a zero-aware pattern table",
        ));
    }
    if encoding == Encoding::U4 && max_value > 15 {
        return Err(FormatError::invalid(
            field("max value"),
            format!("{max_value} does not fit u4 entries"),
        ));
    }
    if compression == Compression::None && stored_len != raw_len {
        return Err(FormatError::invalid(
            field("stored length"),
            format!("{stored_len}, but a raw payload is {raw_len} bytes"),
        ));
    }
    if payload_offset != expected_offset {
        return Err(FormatError::invalid(
            field("payload offset"),
            format!("{payload_offset}; payloads follow each other at {PAYLOAD_ALIGN}-byte boundaries, so it must be {expected_offset}"),
        ));
    }
    if payload_offset
        .checked_add(stored_len)
        .is_none_or(|end| end > 1 << 48)
    {
        return Err(FormatError::invalid(
            field("stored length"),
            format!("{stored_len} is beyond any plausible file"),
        ));
    }
    Ok(TableHeader {
        kind,
        classes,
        encoding,
        compression,
        pattern,
        max_value,
        entry_count,
        raw_len,
        payload_offset,
        stored_len,
        stored_digest,
        raw_digest,
    })
}

/// Entry counts per (pattern size, kind), computed once per header.
#[derive(Default)]
struct EntryCounts(Vec<(usize, TableKind, u64)>);

impl EntryCounts {
    fn get(&mut self, board: Board, k: usize, kind: TableKind) -> Result<u64, String> {
        if let Some(&(_, _, n)) = self.0.iter().find(|(kk, kd, _)| *kk == k && *kd == kind) {
            return Ok(n);
        }
        let n = crate::rank::entry_count(board, k, kind).map_err(|e| e.to_string())?;
        self.0.push((k, kind, n));
        Ok(n)
    }
}

/// The index scheme code of class tables ([`ClassIndex`]).
const CLASS_SCHEME: u8 = 2;

/// The kind and index scheme codes of a table.
fn table_codes(t: &TableHeader) -> (u8, u8) {
    match (t.classes, t.kind) {
        (Some(ClassLabels::Rows), _) => (2, CLASS_SCHEME),
        (Some(ClassLabels::Columns), _) => (3, CLASS_SCHEME),
        (Some(ClassLabels::Cells(_)), _) => (4, CLASS_SCHEME),
        (None, TableKind::ZeroUnaware) => (0, scheme_code(t.kind.scheme())),
        (None, TableKind::ZeroAware) => (1, scheme_code(t.kind.scheme())),
    }
}

/// The code of a metric in the header (version 2).
fn metric_code(m: Metric) -> u8 {
    match m {
        Metric::Stm => 0,
        Metric::Mtm => 1,
    }
}

fn scheme_code(s: IndexScheme) -> u8 {
    match s {
        IndexScheme::PermutationRank => 0,
        IndexScheme::CellSetRegionOrder => 1,
    }
}

pub(crate) fn align8(n: usize) -> usize {
    n.div_ceil(8) * 8
}

pub(crate) fn align_up(n: u64, a: u64) -> u64 {
    n.div_ceil(a) * a
}

fn pad8(b: &mut Vec<u8>) {
    b.resize(align8(b.len()), 0);
}

/// A bounds-checked little-endian reader over the header body.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| {
                FormatError::invalid(
                    "header length",
                    format!(
                        "the header ends at byte {} but its fields go on",
                        self.bytes.len() + CHECKSUM_LEN
                    ),
                )
            })?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8, FormatError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, FormatError> {
        Ok(u16::from_le_bytes(
            self.take(2)?.try_into().expect("2 bytes"),
        ))
    }

    fn u64(&mut self) -> Result<u64, FormatError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }

    fn zero(&mut self, n: usize, what: &str) -> Result<(), FormatError> {
        if self.take(n)?.iter().any(|&b| b != 0) {
            return Err(FormatError::invalid(what, "must be zero"));
        }
        Ok(())
    }

    fn align8(&mut self) -> Result<(), FormatError> {
        let pad = align8(self.pos) - self.pos;
        self.zero(pad, "header padding")
    }
}
