//! One piece of a build's resumable state: a file of a short text description (`key=value`
//! lines) and a payload, ending in a SHA-256 digest of both, written atomically (a temporary
//! file in the state's folder, flushed to disk, then renamed into place) and read back only
//! if its digest checks.
//!
//! The payload is hashed in 16 MiB blocks in parallel (the digest is that of the blocks'
//! digests), so that saving a working table of a few GiB costs a copy into the page cache,
//! not a second of hashing.

use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// The first bytes of every piece.
const MAGIC: &[u8; 16] = b"pdbgen-state-v1\n";

/// Bytes per block of the payload's digest.
const BLOCK: usize = 16 << 20;

/// Longest description a piece may have (a histogram and a few numbers).
const MAX_META: u32 = 64 << 10;

/// A piece written but not yet in place: its temporary file, to be flushed and renamed.
pub(crate) struct Unflushed {
    /// The open temporary file.
    pub file: File,
    /// Its name.
    pub tmp: PathBuf,
    /// The piece's name once in place.
    pub path: PathBuf,
}

impl Unflushed {
    /// Flushes the file to disk, renames it into place and flushes the folder, so that the
    /// piece is whole under its name even after a power cut.
    pub fn put_in_place(self) -> io::Result<()> {
        self.file.sync_all()?;
        drop(self.file);
        std::fs::rename(&self.tmp, &self.path)?;
        if let Some(dir) = self.path.parent() {
            File::open(dir)?.sync_all()?;
        }
        Ok(())
    }
}

/// The temporary name of the piece `path` while it is written.
pub(crate) fn temporary_name(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// Writes the piece `path` (its description `meta` and its `payload`) into a temporary file
/// beside it, not yet flushed nor renamed: see [`Unflushed::put_in_place`].
pub(crate) fn write_piece(path: &Path, meta: &str, payload: &[u8]) -> io::Result<Unflushed> {
    let tmp = temporary_name(path);
    let file = File::create(&tmp)?;
    let mut w = BufWriter::with_capacity(1 << 20, &file);
    let head = head_bytes(meta, payload.len() as u64);
    w.write_all(&head)?;
    for block in payload.chunks(BLOCK) {
        w.write_all(block)?;
    }
    w.write_all(&digest(&head, payload))?;
    w.flush()?;
    drop(w);
    Ok(Unflushed {
        file,
        tmp,
        path: path.to_path_buf(),
    })
}

/// The bytes before the payload: magic, the description's length and text, the payload's
/// length.
fn head_bytes(meta: &str, payload_len: u64) -> Vec<u8> {
    let mut head = Vec::with_capacity(MAGIC.len() + 12 + meta.len());
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    head.extend_from_slice(meta.as_bytes());
    head.extend_from_slice(&payload_len.to_le_bytes());
    head
}

/// The digest of a piece: of its head and of its payload's blocks' digests.
fn digest(head: &[u8], payload: &[u8]) -> [u8; 32] {
    let blocks: Vec<[u8; 32]> = payload
        .par_chunks(BLOCK)
        .map(|b| Sha256::digest(b).into())
        .collect();
    let mut h = Sha256::new();
    h.update(head);
    for b in &blocks {
        h.update(b);
    }
    h.finalize().into()
}

/// Why a piece was refused.
#[derive(Debug)]
pub(crate) enum Bad {
    /// It could not be read.
    Io(io::Error),
    /// It is not a whole piece of this version, or its digest does not check.
    Damaged(String),
}

impl std::fmt::Display for Bad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bad::Io(e) => write!(f, "cannot be read ({e})"),
            Bad::Damaged(why) => f.write_str(why),
        }
    }
}

impl From<io::Error> for Bad {
    fn from(e: io::Error) -> Self {
        Bad::Io(e)
    }
}

/// Reads the description of the piece `path`, and its payload into `into`, which must be its
/// size (`None`: the payload is only checked, through a scratch buffer); refuses a piece
/// whose digest does not check.
pub(crate) fn read_piece(path: &Path, into: Option<&mut [u8]>) -> Result<String, Bad> {
    let damaged = |why: &str| Bad::Damaged(why.to_string());
    let file = File::open(path)?;
    let size = file.metadata()?.len();
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut magic = [0u8; 16];
    let mut len4 = [0u8; 4];
    r.read_exact(&mut magic)
        .and_then(|_| r.read_exact(&mut len4))
        .map_err(|_| damaged("is truncated"))?;
    if &magic != MAGIC {
        return Err(damaged("is not a pdbgen state piece of this version"));
    }
    let meta_len = u32::from_le_bytes(len4);
    if meta_len > MAX_META {
        return Err(damaged("has a description too long to be one"));
    }
    let mut meta = vec![0u8; meta_len as usize];
    let mut len8 = [0u8; 8];
    r.read_exact(&mut meta)
        .and_then(|_| r.read_exact(&mut len8))
        .map_err(|_| damaged("is truncated"))?;
    let payload_len = u64::from_le_bytes(len8);
    let head_len = 16 + 4 + meta_len as u64 + 8;
    if size.checked_sub(head_len + 32) != Some(payload_len) {
        return Err(damaged("has the wrong length (truncated or extended)"));
    }
    let meta =
        String::from_utf8(meta).map_err(|_| damaged("has a description that is not text"))?;
    let head = head_bytes(&meta, payload_len);
    let mut h = Sha256::new();
    h.update(&head);
    let mut scratch = Vec::new();
    match into {
        Some(buf) if buf.len() as u64 == payload_len => {
            r.read_exact(buf).map_err(|_| damaged("is truncated"))?;
            let blocks: Vec<[u8; 32]> = buf
                .par_chunks(BLOCK)
                .map(|b| Sha256::digest(b).into())
                .collect();
            blocks.iter().for_each(|b| h.update(b));
        }
        Some(_) => return Err(damaged("has a payload of the wrong size")),
        None => {
            scratch.resize(BLOCK.min(payload_len as usize), 0);
            let mut left = payload_len;
            while left > 0 {
                let n = left.min(BLOCK as u64) as usize;
                r.read_exact(&mut scratch[..n])
                    .map_err(|_| damaged("is truncated"))?;
                h.update(Sha256::digest(&scratch[..n]));
                left -= n as u64;
            }
        }
    }
    let mut stored = [0u8; 32];
    r.read_exact(&mut stored)
        .map_err(|_| damaged("is truncated"))?;
    if stored != <[u8; 32]>::from(h.finalize()) {
        return Err(damaged("does not match its checksum (damaged)"));
    }
    Ok(meta)
}

/// The value of `key` in a description of `key=value` lines.
pub(crate) fn field<'a>(meta: &'a str, key: &str) -> Option<&'a str> {
    meta.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

/// The number under `key` in a description.
pub(crate) fn number<T: std::str::FromStr>(meta: &str, key: &str) -> Option<T> {
    field(meta, key).and_then(|v| v.parse().ok())
}

/// The comma-separated numbers under `key` in a description.
pub(crate) fn numbers(meta: &str, key: &str) -> Option<Vec<u64>> {
    let v = field(meta, key)?;
    if v.is_empty() {
        return Some(Vec::new());
    }
    v.split(',').map(|x| x.parse().ok()).collect()
}

/// `values` as comma-separated numbers.
pub(crate) fn list(values: &[u64]) -> String {
    let all: Vec<String> = values.iter().map(u64::to_string).collect();
    all.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_reads_back_and_refuses_every_flipped_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("piece");
        let payload: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
        write_piece(&path, "a=1\nb=2,3", &payload)
            .unwrap()
            .put_in_place()
            .unwrap();
        assert!(!temporary_name(&path).exists());
        let mut back = vec![0u8; 1000];
        let meta = read_piece(&path, Some(&mut back[..])).unwrap();
        assert_eq!(back, payload);
        assert_eq!(number::<u32>(&meta, "a"), Some(1));
        assert_eq!(numbers(&meta, "b"), Some(vec![2, 3]));
        let good = std::fs::read(&path).unwrap();
        for i in (0..good.len()).step_by(37) {
            let mut bad = good.clone();
            bad[i] ^= 0x10;
            std::fs::write(&path, &bad).unwrap();
            assert!(read_piece(&path, None).is_err(), "byte {i}");
        }
        std::fs::write(&path, &good[..good.len() - 1]).unwrap();
        assert!(read_piece(&path, None).is_err());
    }
}
