//! Robustness of PDB file format v1 through the public API only: round trips for every
//! compression and encoding, detection of every single-byte flip, truncations and trailing
//! data, random garbage and mutations, and hostile headers that carry a valid header checksum.
//!
//! Byte offsets below are those of `docs/FORMAT.md`; the tests that edit headers double as a
//! check of that layout.

use pdbformat::format::{
    encode_entries, write_pdb, Compression, Digest, Encoding, FormatError, Header, LoadOptions,
    PdbFile, TableSource, WriteOptions, FORMAT_VERSION, MAGIC, PAYLOAD_ALIGN,
};
use pdbformat::rank::{entry_count, TableKind};
use pdbformat::testkit::XorShift;
use pdbformat::{Board, Goal, Pattern};
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------------
// The largest single allocation of the current thread, to show that hostile headers never make
// the reader allocate what they claim.

struct TrackingAlloc;

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for TrackingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        // SAFETY: same contract as ours.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: TrackingAlloc = TrackingAlloc;

/// Runs `f` and returns its result with the largest single allocation it made on this thread.
fn largest_allocation<R>(f: impl FnOnce() -> R) -> (R, usize) {
    LARGEST.with(|l| l.set(0));
    let r = f();
    (r, LARGEST.with(|l| l.get()))
}

/// More than any reader needs for these small files (its copy buffers are 1 MiB).
const ALLOCATION_LIMIT: usize = 16 << 20;

// ---------------------------------------------------------------------------------------------
// Layout of format v1 (docs/FORMAT.md).

const VERSION_AT: usize = 8;
const FLAGS_AT: usize = 10;
const HEADER_LEN_AT: usize = 12;
const WIDTH_AT: usize = 16;
const HEIGHT_AT: usize = 17;
const TABLE_COUNT_AT: usize = 18;
const RESERVED_AT: usize = 20;
const GOAL_AT: usize = 24;
const CHECKSUM_LEN: usize = 32;

// Table descriptor fields, relative to the descriptor's first byte.
const KIND: usize = 0;
const SCHEME: usize = 1;
const ENCODING: usize = 2;
const COMPRESSION: usize = 3;
const PATTERN_LEN: usize = 4;
const MAX_VALUE: usize = 5;
const TABLE_RESERVED: usize = 6;
const ENTRY_COUNT: usize = 8;
const RAW_LEN: usize = 16;
const PAYLOAD_OFFSET: usize = 24;
const STORED_LEN: usize = 32;
const STORED_DIGEST: usize = 40;
const RAW_DIGEST: usize = 72;
const TILES: usize = 104;

fn align8(n: usize) -> usize {
    n.div_ceil(8) * 8
}

fn align64(n: u64) -> u64 {
    n.div_ceil(PAYLOAD_ALIGN) * PAYLOAD_ALIGN
}

fn header_len(b: &[u8]) -> usize {
    u32::from_le_bytes(b[HEADER_LEN_AT..HEADER_LEN_AT + 4].try_into().unwrap()) as usize
}

/// The offset of table `table`'s descriptor in a well-formed header.
fn descriptor(b: &[u8], table: usize) -> usize {
    let cells = b[WIDTH_AT] as usize * b[HEIGHT_AT] as usize;
    let mut d = align8(GOAL_AT + cells);
    for _ in 0..table {
        d += TILES + align8(b[d + PATTERN_LEN] as usize);
    }
    d
}

fn get_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

fn put_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

fn put_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Recomputes the header checksum: SHA-256 of the header's bytes before its last 32.
fn reseal(b: &mut [u8]) {
    let hl = header_len(b);
    let sum = Digest::of(&b[..hl - CHECKSUM_LEN]);
    b[hl - CHECKSUM_LEN..hl].copy_from_slice(&sum.0);
}

/// Like [`reseal`] when the header length field still points inside the file.
fn try_reseal(b: &mut [u8]) {
    if b.len() >= 16 {
        let hl = header_len(b);
        if (CHECKSUM_LEN..=b.len()).contains(&hl) {
            reseal(b);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Fixtures: a 3x3 board, blank-first goal, three tables.

const TABLES: [(TableKind, &[usize]); 3] = [
    (TableKind::ZeroUnaware, &[1, 2]),  // 72 entries
    (TableKind::ZeroAware, &[3, 4, 5]), // 744 entries
    (TableKind::ZeroAware, &[8]),       // 9 entries: partial last byte for u4 and bit1
];

/// Entry encodings of the three tables (bit1 only on zero-aware tables).
const ENCODING_SETS: [(&str, [Encoding; 3]); 4] = [
    ("u8", [Encoding::U8, Encoding::U8, Encoding::U8]),
    ("u4", [Encoding::U4, Encoding::U4, Encoding::U4]),
    ("mixed", [Encoding::U8, Encoding::Bit1, Encoding::U4]),
    ("bit1", [Encoding::U4, Encoding::Bit1, Encoding::Bit1]),
];

const COMPRESSIONS: [Compression; 3] = [Compression::None, Compression::Zstd, Compression::Gzip];

const LOAD_OPTIONS: [LoadOptions; 4] = [
    LoadOptions {
        verify: false,
        mmap: false,
    },
    LoadOptions {
        verify: false,
        mmap: true,
    },
    LoadOptions {
        verify: true,
        mmap: false,
    },
    LoadOptions {
        verify: true,
        mmap: true,
    },
];

struct Fixture {
    name: String,
    compression: Compression,
    bytes: Vec<u8>,
    header: Header,
    /// One value per entry, per table.
    values: Vec<Vec<u8>>,
    /// The raw (encoded) entries, per table.
    encoded: Vec<Vec<u8>>,
}

fn board() -> Board {
    Board::new(3, 3).unwrap()
}

/// Writes the fixture of `compression` and encoding set `set` into `dir`.
fn build(dir: &Path, compression: Compression, set: usize, opts: WriteOptions) -> Fixture {
    let board = board();
    let goal = Goal::blank_first(board);
    let (set_name, encodings) = ENCODING_SETS[set];
    let patterns: Vec<Pattern> = TABLES
        .iter()
        .map(|(_, t)| Pattern::new(board, t).unwrap())
        .collect();
    let mut values = Vec::new();
    let mut encoded = Vec::new();
    let mut rng = XorShift::new(0x2545_f491_4f6c_dd1du64 ^ set as u64);
    for (i, (kind, _)) in TABLES.iter().enumerate() {
        let n = entry_count(board, patterns[i].len(), *kind).unwrap();
        let cap = if encodings[i] == Encoding::U4 { 16 } else { 41 };
        let v: Vec<u8> = (0..n).map(|_| (rng.next() % cap) as u8).collect();
        encoded.push(encode_entries(&v, encodings[i]));
        values.push(v);
    }
    let sources: Vec<TableSource> = (0..TABLES.len())
        .map(|i| TableSource {
            kind: TABLES[i].0,
            pattern: &patterns[i],
            encoding: encodings[i],
            max_value: *values[i].iter().max().unwrap(),
            entries: &encoded[i],
        })
        .collect();
    let name = format!("{}-{set_name}", compression.name());
    let path = dir.join(format!("{name}.pdb"));
    let opts = WriteOptions {
        compression,
        ..opts
    };
    let header = write_pdb(&path, &goal, &sources, &opts).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    Fixture {
        name,
        compression,
        bytes,
        header,
        values,
        encoded,
    }
}

/// Every compression with every encoding set, built once.
fn fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        COMPRESSIONS
            .iter()
            .flat_map(|&c| (0..ENCODING_SETS.len()).map(move |s| (c, s)))
            .map(|(c, s)| build(dir.path(), c, s, WriteOptions::default()))
            .collect()
    })
}

fn fixture(compression: Compression, set: &str) -> &'static Fixture {
    fixtures()
        .iter()
        .find(|f| f.compression == compression && f.name.ends_with(&format!("-{set}")))
        .unwrap()
}

fn is_field(e: &FormatError, name: &str) -> bool {
    matches!(e, FormatError::InvalidField { field, .. } if field == name)
}

// ---------------------------------------------------------------------------------------------
// Round trips.

fn check_round_trip(fx: &Fixture, f: &PdbFile, from_file: bool) {
    let ctx = &fx.name;
    let board = board();
    let h = f.header();
    assert_eq!(h, &fx.header, "{ctx}");
    assert_eq!(h.goal, Goal::blank_first(board), "{ctx}");
    assert_eq!(h.tables.len(), TABLES.len(), "{ctx}");
    assert_eq!(f.len(), fx.bytes.len() as u64, "{ctx}");
    assert_eq!(h.file_len(), fx.bytes.len() as u64, "{ctx}");
    let hl = header_len(&fx.bytes);
    assert_eq!(hl % 8, 0, "{ctx}");
    let mut expected_offset = align64(hl as u64);
    for (i, t) in h.tables.iter().enumerate() {
        let (kind, tiles) = TABLES[i];
        let encoding = ENCODING_SETS
            .iter()
            .find(|(n, _)| ctx.ends_with(&format!("-{n}")))
            .unwrap()
            .1[i];
        assert_eq!(t.kind, kind, "{ctx} table {i}");
        assert_eq!(t.encoding, encoding, "{ctx} table {i}");
        assert_eq!(t.compression, fx.compression, "{ctx} table {i}");
        let tiles: Vec<u8> = tiles.iter().map(|&t| t as u8).collect();
        assert_eq!(t.pattern.tiles(), &tiles[..], "{ctx} table {i}");
        assert_eq!(t.max_value, *fx.values[i].iter().max().unwrap());
        let n = entry_count(board, tiles.len(), kind).unwrap();
        assert_eq!(t.entry_count, n, "{ctx} table {i}");
        assert_eq!(fx.values[i].len() as u64, n, "{ctx} table {i}");
        assert_eq!(t.raw_len, encoding.encoded_len(n), "{ctx} table {i}");
        assert_eq!(t.raw_len, fx.encoded[i].len() as u64, "{ctx} table {i}");
        // Placement: 64-byte aligned, in order, zero padding, nothing after the last payload.
        assert_eq!(t.payload_offset, expected_offset, "{ctx} table {i}");
        let start = t.payload_offset as usize;
        let stored = &fx.bytes[start..start + t.stored_len as usize];
        expected_offset = align64(t.payload_offset + t.stored_len);
        // Digests: stored bytes and raw entries; equal when stored raw.
        assert_eq!(t.stored_digest, Digest::of(stored), "{ctx} table {i}");
        assert_eq!(t.raw_digest, Digest::of(&fx.encoded[i]), "{ctx} table {i}");
        match fx.compression {
            Compression::None => {
                assert_eq!(stored, &fx.encoded[i][..], "{ctx} table {i}");
                assert_eq!(t.stored_digest, t.raw_digest, "{ctx} table {i}");
            }
            Compression::Zstd => assert_eq!(stored[..4], [0x28, 0xb5, 0x2f, 0xfd]),
            Compression::Gzip => assert_eq!(stored[..3], [0x1f, 0x8b, 0x08]),
            Compression::ZstdSymmetric => unreachable!("tests/symmetric.rs covers zstd-sym"),
        }
        // The descriptor bytes themselves.
        let d = descriptor(&fx.bytes, i);
        let b = &fx.bytes;
        assert_eq!(b[d + KIND], (kind == TableKind::ZeroAware) as u8);
        assert_eq!(b[d + SCHEME], (kind == TableKind::ZeroAware) as u8);
        assert_eq!(b[d + ENCODING], encoding.code());
        assert_eq!(b[d + COMPRESSION], fx.compression.code());
        assert_eq!(b[d + PATTERN_LEN] as usize, tiles.len());
        assert_eq!(b[d + MAX_VALUE], t.max_value);
        assert_eq!(b[d + TABLE_RESERVED..d + ENTRY_COUNT], [0, 0]);
        assert_eq!(get_u64(b, d + ENTRY_COUNT), t.entry_count);
        assert_eq!(get_u64(b, d + RAW_LEN), t.raw_len);
        assert_eq!(get_u64(b, d + PAYLOAD_OFFSET), t.payload_offset);
        assert_eq!(get_u64(b, d + STORED_LEN), t.stored_len);
        assert_eq!(b[d + STORED_DIGEST..d + RAW_DIGEST], t.stored_digest.0);
        assert_eq!(b[d + RAW_DIGEST..d + TILES], t.raw_digest.0);
        assert_eq!(b[d + TILES..d + TILES + tiles.len()], tiles[..]);
    }
    // Padding between the header and the payloads, and between payloads, is zero.
    let mut covered = vec![false; fx.bytes.len()];
    covered[..hl].iter_mut().for_each(|c| *c = true);
    for t in &h.tables {
        let r = t.payload_offset as usize..(t.payload_offset + t.stored_len) as usize;
        covered[r].iter_mut().for_each(|c| *c = true);
    }
    for (i, c) in covered.iter().enumerate() {
        assert!(*c || fx.bytes[i] == 0, "{ctx}: non-zero padding at {i}");
    }
    // The header checksum.
    assert_eq!(
        fx.bytes[hl - CHECKSUM_LEN..hl],
        Digest::of(&fx.bytes[..hl - CHECKSUM_LEN]).0,
        "{ctx}"
    );

    f.verify().unwrap_or_else(|e| panic!("{ctx}: {e}"));
    for i in 0..h.tables.len() {
        let mut last = 0;
        f.verify_table(i, &mut |n| last = n).unwrap();
        assert_eq!(last, h.tables[i].stored_len, "{ctx}: progress of table {i}");
        let loaded: Vec<_> = LOAD_OPTIONS
            .iter()
            .map(|&o| f.load(i, o).unwrap_or_else(|e| panic!("{ctx} {o:?}: {e}")))
            .collect();
        for (t, o) in loaded.iter().zip(LOAD_OPTIONS) {
            assert_eq!(&t.bytes[..], &fx.encoded[i][..], "{ctx} table {i} {o:?}");
            assert_eq!(&t.header, &h.tables[i]);
            let mapped = from_file && o.mmap && fx.compression == Compression::None;
            assert_eq!(t.is_mapped(), mapped, "{ctx} table {i} {o:?}");
            match t.header.encoding {
                Encoding::Bit1 => assert_eq!(t.values(), None),
                _ => assert_eq!(t.values().as_ref(), Some(&fx.values[i])),
            }
            for (j, &v) in fx.values[i].iter().enumerate() {
                assert_eq!(t.bit1(j as u64), (v >> 1) & 1, "{ctx} table {i} entry {j}");
                if t.header.encoding != Encoding::Bit1 {
                    assert_eq!(t.value(j as u64), v, "{ctx} table {i} entry {j}");
                }
            }
        }
    }
}

#[test]
fn round_trip_every_compression_and_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let variants = [
        WriteOptions::default(),
        WriteOptions {
            zstd_level: 3,
            zstd_long: false,
            gzip_level: 1,
            ..WriteOptions::default()
        },
    ];
    for (v, opts) in variants.into_iter().enumerate() {
        for &c in &COMPRESSIONS {
            for set in 0..ENCODING_SETS.len() {
                let sub = dir.path().join(v.to_string());
                std::fs::create_dir_all(&sub).unwrap();
                let fx = build(&sub, c, set, opts);
                let path = sub.join(format!("{}.pdb", fx.name));
                let f = PdbFile::open(&path).unwrap();
                assert_eq!(f.path(), Some(path.as_path()));
                assert!(!f.is_empty());
                check_round_trip(&fx, &f, true);
                let m = PdbFile::from_bytes(fx.bytes.clone()).unwrap();
                assert_eq!(m.path(), None);
                check_round_trip(&fx, &m, false);
                // Nothing but the finished file is left in the folder.
                assert_eq!(
                    std::fs::read_dir(&sub).unwrap().count(),
                    1,
                    "temporary files left behind"
                );
                std::fs::remove_file(&path).unwrap();
            }
        }
    }
}

#[test]
fn table_numbers_out_of_range_are_errors() {
    let f = PdbFile::from_bytes(fixture(Compression::None, "u8").bytes.clone()).unwrap();
    for t in [3, 4, usize::MAX] {
        let e = f.verify_table(t, &mut |_| {}).unwrap_err();
        assert!(is_field(&e, "table number"), "{e:?}");
        let e = f.load(t, LoadOptions::default()).unwrap_err();
        assert!(is_field(&e, "table number"), "{e:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Single-byte flips.

/// Checks that the flip at `off` of `fx` was caught, when `flipped` was opened, by the right
/// check with the right error. Loading the flipped table with verification must fail for raw
/// payloads; with `load_all`, every table is also loaded every way (never a panic, and intact
/// tables load intact).
fn check_flip(
    fx: &Fixture,
    flipped: &[u8],
    off: usize,
    opened: Result<PdbFile, FormatError>,
    load_all: bool,
) {
    let ctx = format!("{} flip at {off} ({:#04x})", fx.name, flipped[off]);
    let hl = header_len(&fx.bytes);
    if off < hl {
        // The header: magic, version, flags and length are checked before the checksum, which
        // covers everything else.
        let e = match opened {
            Ok(_) => panic!("{ctx}: a header flip went undetected at open"),
            Err(e) => e,
        };
        let ok = match off {
            0..8 => matches!(&e, FormatError::BadMagic { found } if found[..] == flipped[..8]),
            // A flip to another known version is caught by the checksum.
            8..10 => match u16::from_le_bytes([flipped[8], flipped[9]]) {
                1..=FORMAT_VERSION => matches!(e, FormatError::HeaderChecksum { .. }),
                v => {
                    matches!(e, FormatError::UnsupportedVersion { found, supported: FORMAT_VERSION }
                    if found == v)
                }
            },
            10..12 => is_field(&e, "flags"),
            12..16 => {
                is_field(&e, "header length")
                    || matches!(&e, FormatError::Truncated { what, .. } if what == "header")
                    || matches!(e, FormatError::HeaderChecksum { .. })
            }
            _ => matches!(e, FormatError::HeaderChecksum { .. }),
        };
        assert!(ok, "{ctx}: unexpected error {e:?}");
        return;
    }
    // Padding and payloads are only read by verify (and load).
    let f = opened.unwrap_or_else(|e| panic!("{ctx}: open looks at payloads: {e}"));
    let e = f.verify().expect_err(&ctx);
    let table =
        fx.header.tables.iter().position(|t| {
            (t.payload_offset..t.payload_offset + t.stored_len).contains(&(off as u64))
        });
    match table {
        None => assert!(
            matches!(e, FormatError::NonZeroPadding { offset } if offset == off as u64),
            "{ctx}: {e:?}"
        ),
        Some(t) if fx.compression == Compression::None => assert!(
            matches!(e, FormatError::ChecksumMismatch { table, what: "stored payload", .. } if table == t),
            "{ctx}: {e:?}"
        ),
        Some(t) => assert!(
            matches!(e, FormatError::Decompress { table, .. } | FormatError::ChecksumMismatch { table, .. } if table == t),
            "{ctx}: {e:?}"
        ),
    }
    for i in 0..fx.header.tables.len() {
        for o in LOAD_OPTIONS {
            let must_fail = table == Some(i) && o.verify && fx.compression == Compression::None;
            if !load_all && !must_fail {
                continue;
            }
            let r = f.load(i, o);
            if must_fail {
                assert!(
                    matches!(r, Err(FormatError::ChecksumMismatch { table, what: "entries", .. }) if table == i),
                    "{ctx}: load {o:?}: {r:?}"
                );
            } else if table != Some(i) {
                let t = r.unwrap_or_else(|e| panic!("{ctx}: load {i} {o:?}: {e}"));
                assert_eq!(&t.bytes[..], &fx.encoded[i][..], "{ctx}");
            }
        }
    }
}

/// Flips every byte of every fixture of `compression` (XOR 0x01 and XOR 0xff) in memory.
fn flip_every_byte(compression: Compression) {
    for fx in fixtures().iter().filter(|f| f.compression == compression) {
        for off in 0..fx.bytes.len() {
            for x in [0x01u8, 0xff] {
                let mut b = fx.bytes.clone();
                b[off] ^= x;
                let opened = PdbFile::from_bytes(b.clone());
                check_flip(fx, &b, off, opened, false);
            }
        }
    }
}

#[test]
fn every_single_byte_flip_is_detected_raw() {
    flip_every_byte(Compression::None);
}

#[test]
fn every_single_byte_flip_is_detected_zstd() {
    flip_every_byte(Compression::Zstd);
}

#[test]
fn every_single_byte_flip_is_detected_gzip() {
    flip_every_byte(Compression::Gzip);
}

#[test]
fn every_single_byte_flip_is_detected_in_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flipped.pdb");
    for fx in [
        fixture(Compression::None, "mixed"),
        fixture(Compression::Zstd, "bit1"),
    ] {
        for off in 0..fx.bytes.len() {
            let mut b = fx.bytes.clone();
            b[off] ^= 0xff;
            std::fs::write(&path, &b).unwrap();
            check_flip(fx, &b, off, PdbFile::open(&path), true);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Truncations and trailing data.

fn check_truncated(fx: &Fixture, n: usize, e: &FormatError) {
    let ctx = format!("{} cut to {n} bytes", fx.name);
    let hl = header_len(&fx.bytes);
    let ok = if n < 8 {
        matches!(e, FormatError::BadMagic { found } if found[..] == fx.bytes[..n])
    } else if n < 16 {
        matches!(e, FormatError::Truncated { what, expected: 16, found }
            if what == "preamble" && *found == n as u64)
    } else if n < hl {
        matches!(e, FormatError::Truncated { what, expected, found }
            if what == "header" && *expected == hl as u64 && *found == n as u64)
    } else {
        let (t, end) = fx
            .header
            .tables
            .iter()
            .enumerate()
            .map(|(i, t)| (i, t.payload_offset + t.stored_len))
            .find(|&(_, end)| end > n as u64)
            .unwrap();
        matches!(e, FormatError::Truncated { what, expected, found }
            if *what == format!("payload of table {t}") && *expected == end && *found == n as u64)
    };
    assert!(ok, "{ctx}: {e:?}");
}

#[test]
fn every_truncation_fails_at_open() {
    // Every length of four fixtures (all encodings and compressions among them); for the others
    // every length that cuts the header and the lengths around each payload's boundaries (an
    // open that gets past the header costs a little, so not every length of every fixture).
    let exhaustive = ["none-u8", "zstd-u4", "gzip-mixed", "none-bit1"];
    for fx in fixtures() {
        let hl = header_len(&fx.bytes);
        let mut lengths: Vec<usize> = (0..=hl).collect();
        if exhaustive.contains(&fx.name.as_str()) {
            lengths.extend(hl..fx.bytes.len());
        }
        for t in &fx.header.tables {
            for edge in [t.payload_offset, t.payload_offset + t.stored_len] {
                lengths.extend([edge as usize - 1, edge as usize, edge as usize + 1]);
            }
        }
        lengths.retain(|&n| n < fx.bytes.len());
        for n in lengths {
            let (r, big) = largest_allocation(|| PdbFile::from_bytes(fx.bytes[..n].to_vec()));
            let e = r
                .err()
                .unwrap_or_else(|| panic!("{} cut to {n} opened", fx.name));
            check_truncated(fx, n, &e);
            assert!(big <= ALLOCATION_LIMIT);
        }
    }
    // The same through files.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.pdb");
    let fx = fixture(Compression::Gzip, "mixed");
    for n in 0..fx.bytes.len() {
        std::fs::write(&path, &fx.bytes[..n]).unwrap();
        let e = PdbFile::open(&path).err().unwrap();
        check_truncated(fx, n, &e);
    }
}

#[test]
fn trailing_bytes_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.pdb");
    for fx in fixtures() {
        let len = fx.bytes.len() as u64;
        for extra in [1usize, 7, 63, 64, 65, 1000] {
            for fill in [0u8, 0xa5] {
                let mut b = fx.bytes.clone();
                b.resize(b.len() + extra, fill);
                let e = PdbFile::from_bytes(b.clone()).err().unwrap();
                assert!(
                    matches!(e, FormatError::TrailingData { expected, extra: x } if expected == len && x == extra as u64),
                    "{}: {e:?}",
                    fx.name
                );
                if extra == 1 {
                    std::fs::write(&path, &b).unwrap();
                    let e = PdbFile::open(&path).err().unwrap();
                    assert!(matches!(e, FormatError::TrailingData { extra: 1, .. }));
                }
            }
        }
    }
}

#[test]
fn missing_file_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let e = PdbFile::open(dir.path().join("absent.pdb")).err().unwrap();
    assert!(matches!(e, FormatError::Io { .. }), "{e:?}");
}

// ---------------------------------------------------------------------------------------------
// Hostile headers with a valid header checksum.

/// Edits a copy of `base`, reseals its header and opens it; the open must fail without a large
/// allocation. Returns the error.
fn hostile(base: &[u8], edit: impl FnOnce(&mut Vec<u8>)) -> FormatError {
    let mut b = base.to_vec();
    edit(&mut b);
    reseal(&mut b);
    open_hostile(b)
}

/// Like [`hostile`] without resealing.
fn open_hostile(b: Vec<u8>) -> FormatError {
    let (r, big) = largest_allocation(|| PdbFile::from_bytes(b));
    assert!(big <= ALLOCATION_LIMIT, "allocated {big} bytes");
    match r {
        Ok(_) => panic!("a hostile header was accepted"),
        Err(e) => e,
    }
}

#[test]
fn hostile_preambles() {
    let base = &fixture(Compression::None, "mixed").bytes;
    // Magic: checked first, whatever follows.
    for at in 0..8 {
        let mut b = base.clone();
        b[at] = b'X';
        let found = b[..8].to_vec();
        let e = open_hostile(b);
        assert!(
            matches!(&e, FormatError::BadMagic { found: f } if *f == found),
            "{e:?}"
        );
    }
    let e = open_hostile(b"GIF89a\0\0 not a pdb file at all".to_vec());
    assert!(matches!(e, FormatError::BadMagic { .. }), "{e:?}");
    let e = open_hostile(Vec::new());
    assert!(
        matches!(&e, FormatError::BadMagic { found } if found.is_empty()),
        "{e:?}"
    );
    // Versions other than 1 and 2, resealed or not: refused before anything else is read.
    assert_eq!(FORMAT_VERSION, 2);
    for v in [0u16, 3, 0x0100, u16::MAX] {
        for resealed in [false, true] {
            let mut b = base.clone();
            put_u16(&mut b, VERSION_AT, v);
            if resealed {
                reseal(&mut b);
            }
            // A future version may change everything after the version field.
            if !resealed {
                b[FLAGS_AT] = 0xff;
                put_u32(&mut b, HEADER_LEN_AT, 3);
            }
            let e = open_hostile(b);
            assert!(
                matches!(e, FormatError::UnsupportedVersion { found, supported: 2 } if found == v),
                "{e:?}"
            );
        }
    }
    // Flags: version 1 defines none.
    for flags in [1u16, 0x8000, 0xffff] {
        let e = hostile(base, |b| put_u16(b, FLAGS_AT, flags));
        assert!(is_field(&e, "flags"), "{e:?}");
    }
    // Header lengths out of range or not a multiple of 8.
    for hl in [0u32, 8, 56, 60, 61, 177, 1 << 20 | 8, u32::MAX] {
        let mut b = base.clone();
        put_u32(&mut b, HEADER_LEN_AT, hl);
        let e = open_hostile(b);
        assert!(is_field(&e, "header length"), "{hl}: {e:?}");
    }
    // A header length in range but beyond the file.
    let mut b = base.clone();
    put_u32(&mut b, HEADER_LEN_AT, 1 << 20);
    let e = open_hostile(b);
    assert!(
        matches!(&e, FormatError::Truncated { what, expected, .. } if what == "header" && *expected == 1 << 20),
        "{e:?}"
    );
    // A preamble cut short.
    let e = open_hostile(base[..12].to_vec());
    assert!(
        matches!(&e, FormatError::Truncated { what, expected: 16, found: 12 } if what == "preamble"),
        "{e:?}"
    );
    // A wrong checksum, not resealed.
    let mut b = base.clone();
    let hl = header_len(&b);
    b[hl - 1] ^= 0x80;
    let body = Digest::of(&b[..hl - CHECKSUM_LEN]);
    let e = open_hostile(b);
    assert!(
        matches!(e, FormatError::HeaderChecksum { found, .. } if found == body),
        "{e:?}"
    );
}

#[test]
fn hostile_header_fields() {
    let base = &fixture(Compression::None, "mixed").bytes;
    let d0 = descriptor(base, 0);
    let d1 = descriptor(base, 1);
    let check = |name: &str, e: FormatError, field: &str| {
        assert!(is_field(&e, field), "{name}: expected {field:?}, got {e:?}");
    };
    check(
        "board too narrow",
        hostile(base, |b| b[WIDTH_AT] = 1),
        "board",
    );
    check(
        "board too large",
        hostile(base, |b| (b[WIDTH_AT], b[HEIGHT_AT]) = (9, 8)),
        "board",
    );
    for count in [0u16, 65, u16::MAX] {
        check(
            "table count",
            hostile(base, |b| put_u16(b, TABLE_COUNT_AT, count)),
            "table count",
        );
    }
    // Fewer or more tables than the header holds.
    for count in [1u16, 2, 4, 64] {
        check(
            "table count vs header length",
            hostile(base, |b| put_u16(b, TABLE_COUNT_AT, count)),
            "header length",
        );
    }
    for at in RESERVED_AT..GOAL_AT {
        check(
            "reserved header bytes",
            hostile(base, |b| b[at] = 1),
            "reserved header bytes",
        );
    }
    check(
        "goal with a repeated tile",
        hostile(base, |b| b[GOAL_AT + 1] = 0),
        "goal",
    );
    check(
        "goal with an out-of-range tile",
        hostile(base, |b| b[GOAL_AT + 8] = 9),
        "goal",
    );
    for at in GOAL_AT + 9..d0 {
        check(
            "padding after the goal",
            hostile(base, |b| b[at] = 1),
            "header padding",
        );
    }
    for at in d0 + TILES + 2..d1 {
        check(
            "padding after the tiles",
            hostile(base, |b| b[at] = 1),
            "header padding",
        );
    }
    // Extra room in the header: the tables end before the checksum does.
    let mut b = base.clone();
    let hl = header_len(&b);
    assert!(
        align64(hl as u64) >= hl as u64 + 8,
        "room for 8 more header bytes"
    );
    b.splice(hl - CHECKSUM_LEN..hl - CHECKSUM_LEN, [0u8; 8]);
    b.drain(hl + 8..hl + 16);
    put_u32(&mut b, HEADER_LEN_AT, hl as u32 + 8);
    reseal(&mut b);
    check("header length", open_hostile(b), "header length");
}

#[test]
fn hostile_table_descriptors() {
    let raw = &fixture(Compression::None, "mixed").bytes;
    let zstd = &fixture(Compression::Zstd, "mixed").bytes;
    let check = |name: &str, e: FormatError, field: &str| {
        assert!(is_field(&e, field), "{name}: expected {field:?}, got {e:?}");
    };
    for base in [raw, zstd] {
        for t in 0..3 {
            let d = descriptor(base, t);
            let field = |f: &str| format!("table {t} {f}");
            // Unknown codes.
            for code in [3u8, 9, 0xff] {
                let e = hostile(base, |b| b[d + ENCODING] = code);
                assert!(
                    matches!(e, FormatError::UnknownEncoding { table, code: c } if table == t && c == code),
                    "{e:?}"
                );
            }
            if fixture(Compression::None, "mixed").header.tables[t].kind == TableKind::ZeroUnaware {
                let e = hostile(base, |b| b[d + COMPRESSION] = 3);
                check("zstd-sym", e, &field("compression"));
            }
            for code in [4u8, 7, 0xff] {
                let e = hostile(base, |b| b[d + COMPRESSION] = code);
                assert!(
                    matches!(e, FormatError::UnknownCompression { table, code: c } if table == t && c == code),
                    "{e:?}"
                );
            }
            for code in [2u8, 0xff] {
                check(
                    "kind",
                    hostile(base, |b| b[d + KIND] = code),
                    &field("kind"),
                );
            }
            // Kind and index scheme must agree.
            let other = 1 - base[d + SCHEME];
            check(
                "scheme",
                hostile(base, |b| b[d + SCHEME] = other),
                &field("index scheme"),
            );
            check(
                "scheme",
                hostile(base, |b| b[d + SCHEME] = 2),
                &field("index scheme"),
            );
            for at in d + TABLE_RESERVED..d + ENTRY_COUNT {
                check(
                    "reserved",
                    hostile(base, |b| b[at] = 0x80),
                    "reserved table bytes",
                );
            }
            // Entry counts are fixed by board, pattern size and kind.
            let n = get_u64(base, d + ENTRY_COUNT);
            for count in [0, 1, n - 1, n + 1, 1 << 40, u64::MAX] {
                check(
                    "entry count",
                    hostile(base, |b| put_u64(b, d + ENTRY_COUNT, count)),
                    &field("entry count"),
                );
            }
            let raw_len = get_u64(base, d + RAW_LEN);
            for len in [0, raw_len - 1, raw_len + 1, u64::MAX] {
                check(
                    "raw length",
                    hostile(base, |b| put_u64(b, d + RAW_LEN, len)),
                    &field("raw length"),
                );
            }
            let offset = get_u64(base, d + PAYLOAD_OFFSET);
            for off in [
                0,
                offset - 64,
                offset - 1,
                offset + 1,
                offset + 64,
                u64::MAX,
            ] {
                check(
                    "payload offset",
                    hostile(base, |b| put_u64(b, d + PAYLOAD_OFFSET, off)),
                    &field("payload offset"),
                );
            }
            // Pattern size and tiles.
            for k in [0u8, 9, 0xff] {
                check(
                    "pattern size",
                    hostile(base, |b| b[d + PATTERN_LEN] = k),
                    &field("pattern size"),
                );
            }
            let k = base[d + PATTERN_LEN] as usize;
            let tiles = d + TILES;
            for bad in [0u8, 9, 0xff] {
                check(
                    "tile",
                    hostile(base, |b| b[tiles + k - 1] = bad),
                    &field("pattern"),
                );
            }
            if k > 1 {
                check(
                    "tiles not ascending",
                    hostile(base, |b| b.swap(tiles, tiles + 1)),
                    &field("pattern"),
                );
                check(
                    "repeated tile",
                    hostile(base, |b| b[tiles + 1] = b[tiles]),
                    &field("pattern"),
                );
            }
            // A pattern of a different size needs a different entry count.
            check(
                "one tile more",
                hostile(base, |b| {
                    b[d + PATTERN_LEN] += 1;
                    if b[tiles + k - 1] == 8 {
                        b[tiles + k - 1] = 7;
                    }
                    b[tiles + k] = 8;
                }),
                &field("entry count"),
            );
        }
    }
    // Stored lengths: a raw payload's is its raw length.
    let d = descriptor(raw, 0);
    for len in [0, 1, 71, 73, 1 << 47, u64::MAX] {
        check(
            "raw stored length",
            hostile(raw, |b| put_u64(b, d + STORED_LEN, len)),
            "table 0 stored length",
        );
    }
    // Compressed payloads: beyond any plausible file, or beyond this one.
    let d2 = descriptor(zstd, 2);
    let off2 = get_u64(zstd, d2 + PAYLOAD_OFFSET);
    for len in [u64::MAX, 1 << 48, (1 << 48) - off2 + 1] {
        check(
            "huge stored length",
            hostile(zstd, |b| put_u64(b, d2 + STORED_LEN, len)),
            "table 2 stored length",
        );
    }
    for len in [(1 << 48) - off2, 1 << 47, 1 << 32, 4096] {
        let e = hostile(zstd, |b| put_u64(b, d2 + STORED_LEN, len));
        assert!(
            matches!(&e, FormatError::Truncated { what, expected, found }
                if what == "payload of table 2" && *expected == off2 + len && *found == zstd.len() as u64),
            "{e:?}"
        );
    }
    // A huge first stored length moves where the second payload must start.
    let d0 = descriptor(zstd, 0);
    check(
        "stored length moves the next payload",
        hostile(zstd, |b| put_u64(b, d0 + STORED_LEN, 1 << 40)),
        "table 1 payload offset",
    );
    // Encoding rules: bit1 needs a zero-aware table; u4 values fit 4 bits.
    let d = descriptor(raw, 0);
    let n = get_u64(raw, d + ENTRY_COUNT);
    check(
        "bit1 on a zero-unaware table",
        hostile(raw, |b| {
            b[d + ENCODING] = Encoding::Bit1.code();
            put_u64(b, d + RAW_LEN, n.div_ceil(8));
        }),
        "table 0 encoding",
    );
    let d2 = descriptor(raw, 2);
    assert_eq!(raw[d2 + ENCODING], Encoding::U4.code());
    check(
        "u4 max value",
        hostile(raw, |b| b[d2 + MAX_VALUE] = 16),
        "table 2 max value",
    );
    // A raw payload's two digests are equal.
    check(
        "raw digests",
        hostile(raw, |b| b[d + RAW_DIGEST] ^= 1),
        "table 0 digests",
    );
}

#[test]
fn hostile_digests_are_caught_by_verify() {
    // Loading table `t` of `f` with verification (`mmap` or not) fails on its entries' digest.
    let entries_mismatch = |f: &PdbFile, t: usize, mmap: bool| {
        let e = f.load(t, LoadOptions { verify: true, mmap }).unwrap_err();
        assert!(
            matches!(e, FormatError::ChecksumMismatch { table, what: "entries", .. } if table == t)
        );
    };
    for c in COMPRESSIONS {
        let fx = fixture(c, "mixed");
        for t in 0..3 {
            let d = descriptor(&fx.bytes, t);
            let mut b = fx.bytes.clone();
            b[d + STORED_DIGEST] ^= 1;
            if c == Compression::None {
                b[d + RAW_DIGEST] ^= 1;
            }
            let f = sealed_but_mismatched(b, t, "stored payload");
            if c == Compression::None {
                entries_mismatch(&f, t, true);
                continue;
            }
            let mut b = fx.bytes.clone();
            b[d + RAW_DIGEST] ^= 1;
            let f = sealed_but_mismatched(b, t, "entries");
            entries_mismatch(&f, t, false);
            // Without verification the entries load as stored.
            let ok = f.load(t, LOAD_OPTIONS[0]).unwrap();
            assert_eq!(&ok.bytes[..], &fx.encoded[t][..]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random garbage and random mutations never panic.

/// Opens `b`; when it opens, verifies it and loads every table every way. Returns whether open
/// or verify reported an error.
fn exercise(b: Vec<u8>) -> bool {
    let f = match PdbFile::from_bytes(b) {
        Ok(f) => f,
        Err(_) => return true,
    };
    let verified = f.verify();
    for t in 0..f.header().tables.len() {
        for o in LOAD_OPTIONS {
            let _ = f.load(t, o);
        }
    }
    verified.is_err()
}

/// Interesting values for 64-bit descriptor fields.
fn interesting_u64(original: u64, pick: u8) -> u64 {
    match pick % 10 {
        0 => 0,
        1 => 1,
        2 => original.wrapping_sub(1),
        3 => original.wrapping_add(1),
        4 => original.wrapping_add(64),
        5 => 1 << 40,
        6 => 1 << 47,
        7 => 1 << 48,
        8 => u64::MAX,
        _ => original.wrapping_mul(2),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn garbage_never_panics(b in prop::collection::vec(any::<u8>(), 0..700)) {
        prop_assert!(exercise(b));
    }

    #[test]
    fn garbage_after_a_valid_preamble_never_panics(
        header_units in 8u32..80,
        body in prop::collection::vec(any::<u8>(), 0..900),
        resealed in any::<bool>(),
    ) {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        b.extend_from_slice(&(header_units * 8).to_le_bytes());
        b.extend_from_slice(&body);
        if resealed {
            try_reseal(&mut b);
        }
        exercise(b);
    }

    #[test]
    fn random_mutations_are_detected_and_never_panic(
        which in 0usize..12,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        in_header in any::<bool>(),
    ) {
        let fx = &fixtures()[which % fixtures().len()];
        let hl = header_len(&fx.bytes);
        let mut b = fx.bytes.clone();
        for (i, v) in &edits {
            let at = i.index(if in_header { hl } else { b.len() });
            b[at] = *v;
        }
        let changed = b != fx.bytes;
        let detected = exercise(b);
        prop_assert!(detected || !changed);
    }

    #[test]
    fn resealed_mutations_never_panic(
        which in 0usize..12,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        fields in prop::collection::vec((0usize..3, 0usize..4, any::<u8>()), 0..4),
    ) {
        let fx = &fixtures()[which % fixtures().len()];
        let hl = header_len(&fx.bytes);
        let mut b = fx.bytes.clone();
        for (t, f, pick) in &fields {
            let at = descriptor(&b, *t) + [ENTRY_COUNT, RAW_LEN, PAYLOAD_OFFSET, STORED_LEN][*f];
            let v = interesting_u64(get_u64(&b, at), *pick);
            put_u64(&mut b, at, v);
        }
        for (i, v) in &edits {
            let at = i.index(hl - CHECKSUM_LEN);
            b[at] = *v;
        }
        try_reseal(&mut b);
        let (_, big) = largest_allocation(|| exercise(b));
        prop_assert!(big <= ALLOCATION_LIMIT);
    }
}

#[test]
fn random_mutations_of_files_never_panic() {
    // The file-backed paths (reads through the file, memory maps) on corrupted files.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mutated.pdb");
    let mut rng = XorShift::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next();
    for fx in fixtures() {
        for _ in 0..40 {
            let mut b = fx.bytes.clone();
            let hl = header_len(&b);
            let edits = 1 + next() % 4;
            for _ in 0..edits {
                let at = (next() % b.len() as u64) as usize;
                b[at] = next() as u8;
            }
            let resealed = next() % 2 == 0;
            if resealed && header_len(&b) == hl {
                reseal(&mut b);
            }
            std::fs::write(&path, &b).unwrap();
            if let Ok(f) = PdbFile::open(&path) {
                let verified = f.verify();
                for t in 0..f.header().tables.len() {
                    for o in LOAD_OPTIONS {
                        let _ = f.load(t, o);
                    }
                }
                if !resealed && b != fx.bytes {
                    assert!(verified.is_err(), "{}: undetected mutation", fx.name);
                }
            }
        }
    }
}

/// Reseals `bytes` (a file with a flipped digest) and checks that verifying it names table
/// `t`'s `what` digest; returns the file.
fn sealed_but_mismatched(mut bytes: Vec<u8>, t: usize, what: &str) -> PdbFile {
    reseal(&mut bytes);
    let f = PdbFile::from_bytes(bytes).unwrap();
    let e = f.verify().unwrap_err();
    assert!(
        matches!(e, FormatError::ChecksumMismatch { table, what: w, .. } if table == t && w == what),
        "{e:?}"
    );
    f
}
