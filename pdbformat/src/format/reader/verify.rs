//! Verification: every table's stored and entry digests, and the zero padding between payloads.

use super::PdbFile;
use crate::format::codes::Compression;
use crate::format::digest::Digest;
use crate::format::error::FormatError;
use crate::format::header::{align_up, Header, PAYLOAD_ALIGN};
use sha2::{Digest as _, Sha256};
use std::io::{self, Read};

impl PdbFile {
    /// Checks every table's stored and raw digests and that padding between payloads is zero.
    pub fn verify(&self) -> Result<(), FormatError> {
        (0..self.header.tables.len()).try_for_each(|t| self.verify_table(t, &mut |_| {}))
    }

    /// Verifies one table; `progress` receives the number of stored bytes processed so far.
    /// A compressed payload is decoded through a scratch buffer (its entries are hashed, not
    /// kept).
    pub fn verify_table(
        &self,
        table: usize,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), FormatError> {
        let t = self.table(table)?;
        self.check_padding(table)?;
        let mut stored =
            HashingReader::new(self.section(t.payload_offset, t.stored_len)?, progress);
        let raw_digest = match t.compression {
            Compression::None => None,
            _ => {
                let mut raw = Sha256::new();
                self.decode(table, &mut stored, None, &mut |chunk, _| raw.update(chunk))?;
                Some(Digest::from_hasher(raw))
            }
        };
        // Bytes the decoder did not need still count for the stored digest.
        io::copy(&mut stored, &mut io::sink()).map_err(|e| self.io_err(e))?;
        let (stored_digest, read) = stored.finish();
        if read != t.stored_len {
            return Err(FormatError::Truncated {
                what: format!("payload of table {table}"),
                expected: t.stored_len,
                found: read,
            });
        }
        if stored_digest != t.stored_digest {
            return Err(FormatError::ChecksumMismatch {
                table,
                what: "stored payload",
                expected: t.stored_digest,
                found: stored_digest,
            });
        }
        t.check_raw_digest(table, raw_digest.unwrap_or(stored_digest))
    }

    /// Checks that the bytes between table `table`'s payload and what precedes it (the header
    /// or the previous payload) are zero.
    fn check_padding(&self, table: usize) -> Result<(), FormatError> {
        let t = &self.header.tables[table];
        let start = match table {
            0 => Header::encoded_len(
                self.header.board().cells(),
                self.header.tables.iter().map(|t| t.pattern.len()),
            ) as u64,
            _ => {
                let p = &self.header.tables[table - 1];
                p.payload_offset + p.stored_len
            }
        };
        debug_assert_eq!(align_up(start, PAYLOAD_ALIGN), t.payload_offset);
        let mut pad = Vec::new();
        self.section(start, t.payload_offset - start)?
            .read_to_end(&mut pad)
            .map_err(|e| self.io_err(e))?;
        match pad.iter().position(|&b| b != 0) {
            Some(i) => Err(FormatError::NonZeroPadding {
                offset: start + i as u64,
            }),
            None => Ok(()),
        }
    }
}

/// A reader that hashes and counts the bytes passing through it.
struct HashingReader<'a, R> {
    inner: R,
    hasher: Sha256,
    count: u64,
    progress: &'a mut dyn FnMut(u64),
}

impl<'a, R: Read> HashingReader<'a, R> {
    fn new(inner: R, progress: &'a mut dyn FnMut(u64)) -> Self {
        HashingReader {
            inner,
            hasher: Sha256::new(),
            count: 0,
            progress,
        }
    }

    /// The digest of the bytes read and their number.
    fn finish(self) -> (Digest, u64) {
        (Digest::from_hasher(self.hasher), self.count)
    }
}

impl<R: Read> Read for HashingReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        self.count += n as u64;
        (self.progress)(self.count);
        Ok(n)
    }
}
