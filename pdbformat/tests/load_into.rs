//! `PdbFile::load_into`: entries streamed into a caller's buffer from raw, zstd (in place, the
//! buffer as window) and gzip payloads; the same bytes as `load`; digests checked on the way;
//! payloads that decode to the wrong length (for `verify` and `load` too) and buffers of the
//! wrong length are errors; threads loading from one open file at once.

use pdbformat::format::{
    encode_entries, write_pdb, Compression, Digest, Encoding, FormatError, LoadOptions, PdbFile,
    TableSource, WriteOptions,
};
use pdbformat::rank::{entry_count, TableKind};
use pdbformat::testkit::XorShift;
use pdbformat::{Board, Goal, Pattern};
use std::io::Write;
use std::path::Path;

/// Pseudo-random values below `cap` with long repeats, so that compressors find matches.
fn values(n: u64, cap: u64, seed: u64) -> Vec<u8> {
    let mut rng = XorShift::new(seed | 1);
    let mut v = Vec::with_capacity(n as usize);
    while (v.len() as u64) < n {
        let s = rng.next();
        let run = 1 + (s >> 40) % 5;
        for _ in 0..run {
            v.push((s % cap) as u8);
        }
    }
    v.truncate(n as usize);
    v
}

/// A 4x4 file with a zero-aware 5-tile u8 table (a few MB) and a zero-unaware 3-tile table.
fn write(path: &Path, opts: &WriteOptions, encoding: Encoding) -> Vec<Vec<u8>> {
    let board = Board::new(4, 4).unwrap();
    let goal = Goal::blank_first(board);
    let pats = [
        (
            TableKind::ZeroAware,
            Pattern::new(board, &[1, 2, 3, 4, 5]).unwrap(),
        ),
        (
            TableKind::ZeroUnaware,
            Pattern::new(board, &[6, 7, 8]).unwrap(),
        ),
    ];
    let encoded: Vec<Vec<u8>> = pats
        .iter()
        .enumerate()
        .map(|(i, (kind, p))| {
            let n = entry_count(board, p.len(), *kind).unwrap();
            let enc = if *kind == TableKind::ZeroAware {
                encoding
            } else {
                Encoding::U8
            };
            encode_entries(&values(n, 40, 7 + i as u64), enc)
        })
        .collect();
    let sources: Vec<TableSource> = pats
        .iter()
        .zip(&encoded)
        .map(|((kind, p), e)| TableSource {
            kind: *kind,
            pattern: p,
            encoding: if *kind == TableKind::ZeroAware {
                encoding
            } else {
                Encoding::U8
            },
            max_value: 39,
            entries: e,
        })
        .collect();
    write_pdb(path, &goal, &sources, opts).unwrap();
    encoded
}

#[test]
fn every_compression_loads_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let forms = [
        WriteOptions::default(),
        WriteOptions {
            compression: Compression::Zstd,
            zstd_level: 3,
            ..WriteOptions::default()
        },
        WriteOptions {
            compression: Compression::Zstd,
            zstd_level: 3,
            zstd_long: false,
            ..WriteOptions::default()
        },
        WriteOptions {
            compression: Compression::Gzip,
            gzip_level: 1,
            ..WriteOptions::default()
        },
    ];
    for (i, opts) in forms.iter().enumerate() {
        for encoding in [Encoding::U8, Encoding::Bit1] {
            let path = dir.path().join(format!("{i}-{encoding}.pdb"));
            let encoded = write(&path, opts, encoding);
            let f = PdbFile::open(&path).unwrap();
            let m = PdbFile::from_bytes(std::fs::read(&path).unwrap()).unwrap();
            // Verification decodes the entries through a scratch chunk, a few chunks' worth.
            f.verify().unwrap();
            for (t, want) in encoded.iter().enumerate() {
                for file in [&f, &m] {
                    let mut dst = vec![0xAAu8; want.len()];
                    let mut last = 0;
                    file.load_into(t, &mut dst, true, &mut |n| {
                        assert!(n >= last);
                        last = n;
                    })
                    .unwrap();
                    assert_eq!(last, want.len() as u64, "progress ends at the length");
                    assert!(dst == *want, "{i} {encoding} table {t}");
                    let loaded = file.load(t, LoadOptions::default()).unwrap();
                    assert!(loaded.bytes[..] == dst[..]);
                }
            }
        }
    }
}

#[test]
fn threads_loading_tables_of_one_open_file_at_once_get_each_their_own_bytes() {
    let dir = tempfile::tempdir().unwrap();
    for (i, opts) in [
        WriteOptions::default(),
        WriteOptions {
            compression: Compression::Gzip,
            gzip_level: 1,
            ..WriteOptions::default()
        },
    ]
    .iter()
    .enumerate()
    {
        let path = dir.path().join(format!("{i}.pdb"));
        let encoded = write(&path, opts, Encoding::U8);
        let f = PdbFile::open(&path).unwrap();
        // Eight threads, each loading both tables twenty times in its own order: every read
        // goes through the one open file at once with the others.
        std::thread::scope(|scope| {
            for thread in 0..8usize {
                let (f, encoded) = (&f, &encoded);
                scope.spawn(move || {
                    for round in 0..20 {
                        let t = (thread + round) % encoded.len();
                        let mut dst = vec![0u8; encoded[t].len()];
                        f.load_into(t, &mut dst, true, &mut |_| {}).unwrap();
                        assert!(dst == encoded[t], "{i}: table {t}, thread {thread}");
                    }
                });
            }
        });
    }
}

#[test]
fn wrong_destinations_and_tables_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pdb");
    let encoded = write(&path, &WriteOptions::default(), Encoding::U8);
    let f = PdbFile::open(&path).unwrap();
    let n = encoded[1].len();
    for len in [0, n - 1, n + 1] {
        let mut dst = vec![0u8; len];
        let e = f.load_into(1, &mut dst, false, &mut |_| {}).unwrap_err();
        assert!(
            matches!(&e, FormatError::InvalidField { field, .. } if field == "destination length"),
            "{e:?}"
        );
    }
    let e = f.load_into(2, &mut [], false, &mut |_| {}).unwrap_err();
    assert!(
        matches!(&e, FormatError::InvalidField { field, .. } if field == "table number"),
        "{e:?}"
    );
}

#[test]
fn a_flipped_payload_byte_fails_the_digest() {
    let dir = tempfile::tempdir().unwrap();
    for compression in [Compression::None, Compression::Gzip, Compression::Zstd] {
        let path = dir.path().join(format!("{compression}.pdb"));
        let opts = WriteOptions {
            compression,
            zstd_level: 3,
            gzip_level: 1,
            ..WriteOptions::default()
        };
        let encoded = write(&path, &opts, Encoding::U8);
        let f = PdbFile::open(&path).unwrap();
        let th = f.header().tables[1].clone();
        let mut bytes = std::fs::read(&path).unwrap();
        // Last byte of table 1's payload: for raw entries a wrong value; compressed, a wrong
        // trailer or block. Either way, an error and never a panic.
        bytes[(th.payload_offset + th.stored_len - 1) as usize] ^= 0x10;
        let m = PdbFile::from_bytes(bytes).unwrap();
        let mut dst = vec![0u8; encoded[1].len()];
        let e = m.load_into(1, &mut dst, true, &mut |_| {}).unwrap_err();
        assert!(
            matches!(
                e,
                FormatError::ChecksumMismatch { table: 1, .. }
                    | FormatError::Decompress { table: 1, .. }
            ),
            "{compression}: {e:?}"
        );
        if compression == Compression::None {
            // Without verification the raw bytes arrive as they are.
            m.load_into(1, &mut dst, false, &mut |_| {}).unwrap();
        }
    }
}

/// Replaces table `t`'s payload of `path` by `payload` (stored and raw digests made to match
/// `raw`), so that only decoding can find the fault.
fn with_payload(path: &Path, t: usize, payload: &[u8], raw: &[u8]) -> Vec<u8> {
    let f = PdbFile::open(path).unwrap();
    assert_eq!(f.header().tables.len(), t + 1, "the last table");
    let th = f.header().tables[t].clone();
    let mut b = std::fs::read(path).unwrap()[..th.payload_offset as usize].to_vec();
    b.extend_from_slice(payload);
    let mut h = f.header().clone();
    h.tables[t].stored_len = payload.len() as u64;
    h.tables[t].stored_digest = Digest::of(payload);
    h.tables[t].raw_digest = Digest::of(raw);
    let head = h.encode();
    b[..head.len()].copy_from_slice(&head);
    b
}

/// `raw` as one zstd frame or one gzip member.
fn compress(compression: Compression, raw: &[u8]) -> Vec<u8> {
    match compression {
        Compression::Zstd => zstd::encode_all(raw, 3).unwrap(),
        _ => {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            enc.write_all(raw).unwrap();
            enc.finish().unwrap()
        }
    }
}

#[test]
fn payloads_of_the_wrong_decoded_length_are_errors() {
    // Behind a header whose digests match the payload: open succeeds (payloads are not read),
    // and verify, load and load_into all fail in the decoder.
    let dir = tempfile::tempdir().unwrap();
    for compression in [Compression::Zstd, Compression::Gzip] {
        let path = dir.path().join(format!("{compression}.pdb"));
        let opts = WriteOptions {
            compression,
            ..WriteOptions::default()
        };
        let encoded = write(&path, &opts, Encoding::U8);
        let n = encoded[1].len();
        for len in [0, n - 1, n + 1, 2 * n] {
            let other = vec![7u8; len];
            let payload = compress(compression, &other);
            // A frame cut short, too.
            for cut in [payload.len(), payload.len() / 2] {
                let b = with_payload(&path, 1, &payload[..cut], &other);
                let f = PdbFile::from_bytes(b).unwrap();
                let mut dst = vec![0u8; n];
                let e = f.load_into(1, &mut dst, true, &mut |_| {}).unwrap_err();
                assert!(
                    matches!(e, FormatError::Decompress { table: 1, .. }),
                    "{compression} {len} cut {cut}: {e:?}"
                );
                let e = f.verify().unwrap_err();
                assert!(
                    matches!(e, FormatError::Decompress { table: 1, .. }),
                    "{compression} {len} cut {cut}: {e:?}"
                );
                let e = f.load(1, LoadOptions::default()).unwrap_err();
                assert!(
                    matches!(e, FormatError::Decompress { table: 1, .. }),
                    "{compression} {len} cut {cut}: {e:?}"
                );
            }
        }
    }
}
