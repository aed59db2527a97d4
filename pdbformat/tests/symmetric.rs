//! `zstd-sym` payloads: exact tables (from the brute-force oracle) that a board symmetry maps
//! onto an earlier table or onto themselves are stored reduced and load back byte for byte,
//! in every encoding and through every reader; tables that are not what their symmetry
//! promises are stored whole; damaged preambles and kept streams are errors, never panics.

use pdbformat::format::{
    encode_entries, write_pdb, Compression, Encoding, FormatError, LoadOptions, PdbFile,
    TableSource, WriteOptions,
};
use pdbformat::rank::TableKind;
use pdbformat::testkit::AbstractDistances;
use pdbformat::{Board, Goal, Pattern};
use std::path::{Path, PathBuf};

/// Exact zero-aware values of each pattern of `spec` (patterns separated by `/`).
fn exact(goal: &Goal, spec: &str) -> Vec<(Pattern, Vec<u8>)> {
    spec.split('/')
        .map(|p| {
            let pattern = Pattern::parse(goal.board(), p).unwrap();
            let values = AbstractDistances::new(goal, &pattern).table(TableKind::ZeroAware);
            (pattern, values)
        })
        .collect()
}

fn write(path: &Path, goal: &Goal, tables: &[(Pattern, Vec<u8>)], enc: Encoding) -> Vec<Vec<u8>> {
    write_with(path, goal, tables, enc, Compression::ZstdSymmetric)
}

fn write_with(
    path: &Path,
    goal: &Goal,
    tables: &[(Pattern, Vec<u8>)],
    enc: Encoding,
    compression: Compression,
) -> Vec<Vec<u8>> {
    let encoded: Vec<Vec<u8>> = tables.iter().map(|(_, v)| encode_entries(v, enc)).collect();
    let sources: Vec<TableSource> = tables
        .iter()
        .zip(&encoded)
        .map(|((p, v), e)| TableSource {
            kind: TableKind::ZeroAware,
            pattern: p,
            encoding: enc,
            max_value: *v.iter().max().unwrap(),
            entries: e,
        })
        .collect();
    let opts = WriteOptions {
        compression,
        zstd_level: 3,
        ..WriteOptions::default()
    };
    write_pdb(path, goal, &sources, &opts).unwrap();
    encoded
}

/// A file written with `zstd-sym`, in its own temporary folder, and its encoded tables.
struct Written {
    dir: tempfile::TempDir,
    path: PathBuf,
    encoded: Vec<Vec<u8>>,
    file: PdbFile,
}

fn written(goal: &Goal, tables: &[(Pattern, Vec<u8>)], enc: Encoding) -> Written {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.pdb");
    let encoded = write(&path, goal, tables, enc);
    let file = PdbFile::open(&path).unwrap();
    Written {
        dir,
        path,
        encoded,
        file,
    }
}

fn compressions(f: &PdbFile) -> Vec<Compression> {
    f.header().tables.iter().map(|t| t.compression).collect()
}

/// Every reader gives back the written entries, and the digests check.
fn check_reads(path: &Path, encoded: &[Vec<u8>]) {
    let f = PdbFile::open(path).unwrap();
    f.verify().unwrap();
    for (t, want) in encoded.iter().enumerate() {
        let got = f
            .load(
                t,
                LoadOptions {
                    verify: true,
                    mmap: true,
                },
            )
            .unwrap();
        assert_eq!(&got.bytes[..], &want[..], "table {t}");
        // Entries are decoded in place: whatever the destination held is overwritten.
        let mut dst = vec![0xa5u8; want.len()];
        f.load_into(t, &mut dst, true, &mut |_| {}).unwrap();
        assert_eq!(&dst, want, "table {t} through load_into");
    }
}

#[test]
fn mapped_and_self_symmetric_tables_round_trip_in_every_encoding() {
    // 3x3, blank first: the transpose maps {1,2} onto {3,6} and {4,5,7,8} onto itself.
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let tables = exact(&goal, "1,2/3,6/4,5,7,8");
    for enc in [Encoding::U8, Encoding::U4, Encoding::Bit1] {
        let w = written(&goal, &tables, enc);
        let f = &w.file;
        // bit1 tables without a symmetry are still stored against the Manhattan predictor.
        let first = match enc {
            Encoding::Bit1 => Compression::ZstdSymmetric,
            _ => Compression::Zstd,
        };
        assert_eq!(
            compressions(f),
            [
                first,
                Compression::ZstdSymmetric,
                Compression::ZstdSymmetric
            ],
            "{enc}"
        );
        // The mapped table stores its preamble only; the self-symmetric one about half.
        assert_eq!(f.header().tables[1].stored_len, 8);
        check_reads(&w.path, &w.encoded);
    }
}

#[test]
fn a_mirrored_half_board_pattern_keeps_about_half_its_entries() {
    // 4x3, blank first: the bottom row mirrors onto itself left to right (like the 15-puzzle's
    // 8-15), and the free cells' region holding the blank maps onto itself.
    let goal = Goal::blank_first(Board::new(4, 3).unwrap());
    let tables = exact(&goal, "8-11/1,4");
    let w = written(&goal, &tables, Encoding::U8);
    assert_eq!(
        compressions(&w.file),
        [Compression::ZstdSymmetric, Compression::Zstd]
    );
    check_reads(&w.path, &w.encoded);
    // The kept stream is about half the table's zstd frame.
    let whole = w.dir.path().join("z.pdb");
    write_with(&whole, &goal, &tables[..1], Encoding::U8, Compression::Zstd);
    let (sym, plain) = (
        w.file.header().tables[0].stored_len as f64,
        PdbFile::open(&whole).unwrap().header().tables[0].stored_len as f64,
    );
    assert!(sym < 0.6 * plain, "{sym} against {plain}");
}

#[test]
fn tables_that_are_not_their_symmetric_image_are_stored_whole() {
    // The patterns promise the transpose, but one entry is changed: the writer finds out and
    // stores both tables as zstd; the entries come back unchanged.
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let mut tables = exact(&goal, "1,2/3,6/4,5,7,8");
    tables[1].1[17] ^= 2;
    tables[2].1[40] ^= 2;
    let w = written(&goal, &tables, Encoding::U8);
    assert_eq!(compressions(&w.file), [Compression::Zstd; 3]);
    check_reads(&w.path, &w.encoded);
}

/// The file's bytes with the stored digest of table `t` recomputed, so that only the decoder
/// can object to a payload change.
fn rewrite_payload(path: &Path, t: usize, edit: &dyn Fn(&mut Vec<u8>)) -> Vec<u8> {
    let f = PdbFile::open(path).unwrap();
    let h = f.header().clone();
    let bytes = std::fs::read(path).unwrap();
    let th = &h.tables[t];
    let (start, end) = (
        th.payload_offset as usize,
        (th.payload_offset + th.stored_len) as usize,
    );
    let mut payload = bytes[start..end].to_vec();
    edit(&mut payload);
    assert_eq!(payload.len(), end - start, "edits keep the length");
    let mut out = bytes.clone();
    out[start..end].copy_from_slice(&payload);
    let mut header = h.clone();
    header.tables[t].stored_digest = pdbformat::format::Digest::of(&payload);
    let encoded = header.encode();
    out[..encoded.len()].copy_from_slice(&encoded);
    out
}

#[test]
fn damaged_preambles_and_kept_streams_are_errors_not_panics() {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let w = written(&goal, &exact(&goal, "1,2/3,6/4,5,7,8"), Encoding::Bit1);
    type Edit = Box<dyn Fn(&mut Vec<u8>)>;
    let cases: Vec<(usize, &str, Edit)> = vec![
        (1, "does not come before", Box::new(|p| p[0] = 2)),
        (1, "unknown symmetry", Box::new(|p| p[1] = 9)),
        (1, "reserved", Box::new(|p| p[5] = 1)),
        // Rotate-180 does not map {1,2} onto {3,6}.
        (1, "does not map", Box::new(|p| p[1] = 2)),
        // A table cannot be its own source under a rotation by 90 degrees.
        (2, "undoes itself", Box::new(|p| p[1] = 5)),
        // Source table 0 is {1,2}: two tiles, not four (and nothing would be kept to predict).
        (2, "keeps no entries to predict", Box::new(|p| p[0] = 0)),
        (2, "does not map", Box::new(|p| (p[0], p[2]) = (0, 0))),
        (2, "unknown predictor", Box::new(|p| p[2] = 2)),
        (2, "", Box::new(|p| p[12] ^= 0x55)),
        (2, "", Box::new(|p| *p.last_mut().unwrap() ^= 0xff)),
    ];
    for (t, why, edit) in cases {
        let bytes = rewrite_payload(&w.path, t, &*edit);
        let f = PdbFile::from_bytes(bytes).unwrap();
        let err = match f.load(t, LoadOptions::default()) {
            Err(e) => e,
            // A kept bit flipped inside the frame decodes; the entries' digest catches it.
            Ok(_) => match f.load(
                t,
                LoadOptions {
                    verify: true,
                    mmap: false,
                },
            ) {
                Err(e) => e,
                Ok(_) => panic!("a checked load of a damaged table succeeds"),
            },
        };
        assert!(
            matches!(
                err,
                FormatError::Decompress { .. } | FormatError::ChecksumMismatch { .. }
            ),
            "{err}"
        );
        assert!(err.to_string().contains(why), "{why:?} in {err}");
        assert!(f.verify().is_err());
    }
}

#[test]
fn every_single_byte_flip_of_a_reduced_file_is_detected() {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let w = written(&goal, &exact(&goal, "1,2/3,6/4,5,7,8"), Encoding::U4);
    let bytes = std::fs::read(&w.path).unwrap();
    for off in 0..bytes.len() {
        for x in [0x01u8, 0xff] {
            let mut b = bytes.clone();
            b[off] ^= x;
            let Ok(f) = PdbFile::from_bytes(b) else {
                continue;
            };
            assert!(f.verify().is_err(), "flip {x:#x} at {off} not detected");
            for (t, want) in w.encoded.iter().enumerate() {
                let verified = LoadOptions {
                    verify: true,
                    mmap: false,
                };
                // Whatever a load without checks gives, a checked one gives the entries or fails.
                let _ = f.load(t, LoadOptions::default());
                if let Ok(got) = f.load(t, verified) {
                    assert_eq!(&got.bytes[..], &want[..], "flip at {off}");
                }
            }
        }
    }
}

#[test]
fn bit1_tables_without_a_symmetry_round_trip_through_the_predictor() {
    // Four tiles: 24 orders per block, so whole bytes of kept bits are copied at once.
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let w = written(&goal, &exact(&goal, "1-4/5,6"), Encoding::Bit1);
    assert_eq!(compressions(&w.file), [Compression::ZstdSymmetric; 2]);
    check_reads(&w.path, &w.encoded);
}

#[test]
fn a_mapped_bit1_table_of_whole_bytes_round_trips() {
    // 4x4, blank first: the transpose maps the top-right 2x2 block onto the bottom-left one.
    // Four tiles: blocks of 24 orders, filled a byte at a time.
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let w = written(&goal, &exact(&goal, "2,3,6,7/8,9,12,13"), Encoding::Bit1);
    assert_eq!(compressions(&w.file), [Compression::ZstdSymmetric; 2]);
    assert_eq!(w.file.header().tables[1].stored_len, 8);
    check_reads(&w.path, &w.encoded);
}

#[test]
fn tables_ending_in_a_partial_byte_decode_into_any_destination() {
    // 3x3, blank first: the transpose maps tile 1's table onto tile 3's, nine entries each, so
    // the last byte holds padding (seven bits in bit1, a nibble in u4) that decoding in place
    // must clear: tile 1's as its own source under the identity (bit1), tile 3's as its image.
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let tables = exact(&goal, "1/3");
    for enc in [Encoding::U4, Encoding::Bit1] {
        let w = written(&goal, &tables, enc);
        assert_eq!(w.file.header().tables[1].entry_count, 9);
        assert_eq!(compressions(&w.file)[1], Compression::ZstdSymmetric);
        check_reads(&w.path, &w.encoded);
    }
}
