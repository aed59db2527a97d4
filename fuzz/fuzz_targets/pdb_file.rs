//! Fuzz target: the PDB file reader, header and payload, every encoding and compression:
//! `pdbformat`'s reader (header, digests, each table loaded with and without checking), then,
//! for a file it accepts, the solver's database loader (from a file, mapped and in memory,
//! with digests checked and not) and a lookup in every table.
//!
//! The first byte of the input chooses the mode: with its low bit set the header checksum,
//! and with its second bit the payload digests, are recomputed before reading, so that the
//! fuzzer reaches the checks behind them; bit 3 checks the digests while loading, bits 4 to 6 ask for the solver's loader and choose
//! its options.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbformat::format::{Digest, LoadOptions, PdbFile};
use pdbsolver::{Database, OpenOptions, Residence};
use std::io::Write;
use std::path::PathBuf;

/// Recomputes the header's checksum in place (the header length is in bytes 12 to 15).
fn fix_header(bytes: &mut [u8]) -> Option<usize> {
    let len = u32::from_le_bytes(bytes.get(12..16)?.try_into().ok()?) as usize;
    if len < 64 || len > bytes.len() {
        return None;
    }
    let d = Digest::of(&bytes[..len - 32]);
    bytes[len - 32..len].copy_from_slice(&d.0);
    Some(len)
}

/// Recomputes every table's stored digest (over the stored bytes) and, for uncompressed
/// tables, its raw digest, then the header checksum again.
fn fix_payloads(bytes: &mut [u8]) {
    let Ok(file) = PdbFile::from_bytes(bytes.to_vec()) else {
        return;
    };
    // The table records follow the goal, in the order the header lists them; each record's
    // digests sit after its 8 code bytes and 4 counts.
    let cells = file.header().board().cells();
    let mut at = 16 + 8 + cells;
    at = at.div_ceil(8) * 8;
    for t in &file.header().tables {
        let start = t.payload_offset as usize;
        let end = start + t.stored_len as usize;
        let stored = Digest::of(&bytes[start..end]);
        let digests = at + 8 + 32;
        bytes[digests..digests + 32].copy_from_slice(&stored.0);
        if t.compression == pdbformat::format::Compression::None {
            bytes[digests + 32..digests + 64].copy_from_slice(&stored.0);
        }
        at = (digests + 64 + t.pattern.len()).div_ceil(8) * 8;
    }
    fix_header(bytes);
}

/// A file for this process in memory-backed storage where there is one.
fn scratch() -> PathBuf {
    let dir = PathBuf::from("/dev/shm");
    let dir = if dir.is_dir() {
        dir
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("pdb-fuzz-{}.pdb", std::process::id()))
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 {
        fix_header(&mut bytes);
    }
    if mode & 2 == 2 {
        fix_payloads(&mut bytes);
    }
    let Ok(file) = PdbFile::from_bytes(bytes.clone()) else {
        return;
    };
    let verified = file.verify().is_ok();
    // Each table loaded, its digest checked or not (mode bit 3).
    let verify = mode & 0x08 != 0;
    let mut loaded = true;
    for i in 0..file.header().tables.len() {
        match file.load(
            i,
            LoadOptions {
                verify,
                mmap: false,
            },
        ) {
            Ok(t) => {
                let last = t.header.entry_count - 1;
                let _ = (t.bit1(0), t.bit1(last));
            }
            Err(_) => loaded = false,
        }
    }
    // The solver's loader, for inputs that ask for it (mode bit 4) and files that load: it
    // reads files by path, so the file is written first; bits 5 and 6 choose how it loads.
    if mode & 0x10 == 0 || (!loaded && !verified) {
        return;
    }
    let path = scratch();
    if std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(&bytes))
        .is_err()
    {
        return;
    }
    let opts = OpenOptions {
        verify: mode & 0x20 != 0,
        residence: if mode & 0x40 != 0 {
            Residence::Mapped
        } else {
            Residence::HugePages
        },
        ..OpenOptions::default()
    };
    if let Ok(db) = Database::open(&path, opts) {
        for t in db.tables() {
            let _ = t.value(0);
        }
    }
    let _ = std::fs::remove_file(&path);
});
