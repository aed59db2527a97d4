//! Loading tables: into memory of their own ([`PdbFile::load`]: a memory map of a raw payload,
//! or anonymous memory the payload is decoded into) or into a caller's buffer
//! ([`PdbFile::load_into`]); both decode through [`PdbFile::decode`].

use super::{Backing, PdbFile};
use crate::format::codes::Compression;
use crate::format::digest::Digest;
use crate::format::entries::{EntryBytes, Table};
use crate::format::error::FormatError;
use crate::memory::{anonymous, Pages};
use sha2::{Digest as _, Sha256};

/// How [`PdbFile::load`] brings a table into memory.
#[derive(Clone, Copy, Debug)]
pub struct LoadOptions {
    /// Check the entries' digest while loading.
    pub verify: bool,
    /// Memory-map raw payloads of files instead of reading them.
    pub mmap: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            verify: false,
            mmap: true,
        }
    }
}

impl PdbFile {
    /// Loads every table of the file, in order (see [`LoadOptions`]).
    pub fn load_all(&self, opts: LoadOptions) -> Result<Vec<Table>, FormatError> {
        (0..self.header.tables.len())
            .map(|i| self.load(i, opts))
            .collect()
    }

    /// Loads table `table` into memory (see [`LoadOptions`]): a raw payload of a file opened
    /// from a path is memory-mapped (with `mmap`), anything else is decoded by
    /// [`PdbFile::load_into`] into anonymous memory (in huge pages where the system offers
    /// them), which a lying header's length does not commit before the payload fills it.
    pub fn load(&self, table: usize, opts: LoadOptions) -> Result<Table, FormatError> {
        let t = self.table(table)?;
        let bytes = match (&self.backing, t.compression, opts.mmap) {
            (Backing::File { file, .. }, Compression::None, true) => {
                // SAFETY: the mapping is read-only; the usual caveat of memory maps applies (a
                // file truncated by another process while mapped). Its length is re-checked here.
                let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| self.io_err(e))?;
                let end = t.payload_offset + t.raw_len;
                if (map.len() as u64) < end {
                    return Err(FormatError::Truncated {
                        what: format!("payload of table {table}"),
                        expected: end,
                        found: map.len() as u64,
                    });
                }
                let bytes = EntryBytes::Mapped {
                    map,
                    start: t.payload_offset as usize,
                    len: t.raw_len as usize,
                };
                if opts.verify {
                    t.check_entries(table, &bytes)?;
                }
                bytes
            }
            _ => {
                let memory_err = |what: &str, e| {
                    FormatError::io(format!("cannot {what} the entries of table {table}"), e)
                };
                let len = usize::try_from(t.raw_len).map_err(|_| {
                    memory_err(
                        "allocate",
                        std::io::Error::other("too large for this machine"),
                    )
                })?;
                let mut map = anonymous(len, Pages::Huge).map_err(|e| memory_err("allocate", e))?;
                self.load_into(table, &mut map[..len], opts.verify, &mut |_| {})?;
                let map = map.make_read_only().map_err(|e| memory_err("protect", e))?;
                EntryBytes::Owned { map, len }
            }
        };
        Ok(Table {
            header: t.clone(),
            bytes,
        })
    }

    /// Loads table `table`'s entries into `dst`, which must be exactly `raw_len` bytes long:
    /// raw payloads are read into it and compressed ones decoded straight into it, so that the
    /// entries are held once, wherever the caller wants them (huge pages, a shared mapping).
    /// A zstd frame is decoded with `dst` as its window (no window buffer is allocated, whatever
    /// the frame's window size), a gzip member through a 32 KiB window.
    ///
    /// With `verify` the entries' SHA-256 is computed as they arrive and compared with the
    /// header's `raw_digest` (`ChecksumMismatch { what: "entries" }`). `progress` receives the
    /// number of bytes of `dst` filled so far. Errors: `InvalidField` for a table number out of
    /// range or a `dst` of the wrong length, `Io` and `Truncated` for reads, `Decompress` for a
    /// payload that does not decode to exactly `raw_len` bytes.
    pub fn load_into(
        &self,
        table: usize,
        dst: &mut [u8],
        verify: bool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), FormatError> {
        let t = self.table(table)?;
        if dst.len() as u64 != t.raw_len {
            return Err(FormatError::invalid(
                "destination length",
                format!(
                    "table {table} holds {} bytes of entries, the destination {}",
                    t.raw_len,
                    dst.len()
                ),
            ));
        }
        let mut hasher = verify.then(Sha256::new);
        let mut stored = self.section(t.payload_offset, t.stored_len)?;
        self.decode(table, &mut stored, Some(dst), &mut |chunk, done| {
            if let Some(h) = hasher.as_mut() {
                h.update(chunk);
            }
            progress(done);
        })?;
        match hasher {
            Some(h) => t.check_raw_digest(table, Digest::from_hasher(h)),
            None => Ok(()),
        }
    }
}
