//! Reading PDB files: cheap opening (header only), explicit verification, loading tables.

use super::codes::Compression;
use super::digest::Digest;
use super::entries::{EntryBytes, Table};
use super::error::FormatError;
use super::header::{align_up, Header, TableHeader, PAYLOAD_ALIGN, PREAMBLE_LEN};
use super::symmetric;
use crate::rank::TableKind;
use sha2::{Digest as _, Sha256};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

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

enum Backing {
    File { file: File, path: PathBuf },
    Memory(Arc<Vec<u8>>),
}

/// An opened PDB file whose header has been read and checked.
pub struct PdbFile {
    header: Header,
    backing: Backing,
    len: u64,
    /// The entries of the last table that a `zstd-sym` table was mapped from (tables of one
    /// file are usually loaded in order, and several may map one source).
    last_source: Mutex<Option<(usize, Arc<Table>)>>,
}

const CHUNK: usize = 1 << 20;

/// A symmetry-reduced table's payload, read and checked up to the decoding of its entries.
struct SymmetricPayload {
    link: symmetric::Link,
    /// Which tile of the source each tile of the table is the image of.
    tau: Vec<usize>,
    /// The table's tiles' goal cells.
    goals: Vec<usize>,
    from: Origin,
}

/// What a symmetry-reduced table's entries are decoded from.
enum Origin {
    /// The entries it keeps (linked to itself).
    Kept(Vec<u8>),
    /// The entries of the earlier table it is the image of.
    Source(Arc<Table>),
}

impl PdbFile {
    /// Opens `path` and checks its header: magic, version, header checksum, every field, and
    /// that the file's length is exactly what the header describes. Payloads are not read.
    pub fn open(path: impl AsRef<Path>) -> Result<PdbFile, FormatError> {
        let path = path.as_ref();
        let ctx = || format!("cannot read {}", path.display());
        let mut file = File::open(path).map_err(|e| FormatError::io(ctx(), e))?;
        let len = file
            .metadata()
            .map_err(|e| FormatError::io(ctx(), e))?
            .len();
        let mut preamble = [0u8; PREAMBLE_LEN];
        let got = read_up_to(&mut file, &mut preamble).map_err(|e| FormatError::io(ctx(), e))?;
        let header_len = Header::decode_preamble(&preamble[..got])? as u64;
        if len < header_len {
            return Err(FormatError::Truncated {
                what: "header".into(),
                expected: header_len,
                found: len,
            });
        }
        let mut bytes = vec![0u8; header_len as usize];
        file.seek(SeekFrom::Start(0))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(|e| FormatError::io(ctx(), e))?;
        let header = Header::decode(&bytes)?;
        check_length(&header, len)?;
        Ok(PdbFile {
            header,
            backing: Backing::File {
                file,
                path: path.to_path_buf(),
            },
            len,
            last_source: Mutex::new(None),
        })
    }

    /// Like [`PdbFile::open`] for a file held in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<PdbFile, FormatError> {
        let header_len = Header::decode_preamble(&bytes[..bytes.len().min(PREAMBLE_LEN)])? as u64;
        let len = bytes.len() as u64;
        if len < header_len {
            return Err(FormatError::Truncated {
                what: "header".into(),
                expected: header_len,
                found: len,
            });
        }
        let header = Header::decode(&bytes[..header_len as usize])?;
        check_length(&header, len)?;
        Ok(PdbFile {
            header,
            backing: Backing::Memory(Arc::new(bytes)),
            len,
            last_source: Mutex::new(None),
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path, when opened from one.
    pub fn path(&self) -> Option<&Path> {
        match &self.backing {
            Backing::File { path, .. } => Some(path),
            Backing::Memory(_) => None,
        }
    }

    /// The file's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file is empty (never, once opened).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Checks every table's stored and raw digests and that padding between payloads is zero.
    pub fn verify(&self) -> Result<(), FormatError> {
        (0..self.header.tables.len()).try_for_each(|t| self.verify_table(t, &mut |_| {}))
    }

    /// Verifies one table; `progress` receives the number of stored bytes processed so far.
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
            Compression::None => {
                io::copy(&mut stored, &mut io::sink()).map_err(|e| self.io_err(e))?;
                None
            }
            _ => {
                let mut raw = Sha256::new();
                let n = self.decompress_into(table, &mut stored, &mut |chunk| {
                    raw.update(chunk);
                    Ok(())
                })?;
                debug_assert_eq!(n, t.raw_len);
                // Bytes the decoder did not need still count for the stored digest.
                io::copy(&mut stored, &mut io::sink()).map_err(|e| self.io_err(e))?;
                Some(Digest::from_hasher(raw))
            }
        };
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
        let raw_digest = raw_digest.unwrap_or(stored_digest);
        if raw_digest != t.raw_digest {
            return Err(FormatError::ChecksumMismatch {
                table,
                what: "entries",
                expected: t.raw_digest,
                found: raw_digest,
            });
        }
        Ok(())
    }

    /// Loads every table of the file, in order (see [`LoadOptions`]).
    pub fn load_all(&self, opts: LoadOptions) -> Result<Vec<Table>, FormatError> {
        (0..self.header.tables.len())
            .map(|i| self.load(i, opts))
            .collect()
    }

    /// Loads table `table` into memory (see [`LoadOptions`]).
    pub fn load(&self, table: usize, opts: LoadOptions) -> Result<Table, FormatError> {
        self.load_with(table, opts, &mut |_| {})
    }

    /// Like [`PdbFile::load`]; `progress` receives the number of raw bytes loaded so far.
    pub fn load_with(
        &self,
        table: usize,
        opts: LoadOptions,
        progress: &mut dyn FnMut(u64),
    ) -> Result<Table, FormatError> {
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
                progress(t.raw_len);
                EntryBytes::Mapped {
                    map,
                    start: t.payload_offset as usize,
                    len: t.raw_len as usize,
                }
            }
            (_, Compression::ZstdSymmetric, _) => {
                // Decoded straight into the table's buffer, not copied from another.
                let mut stored = self.section(t.payload_offset, t.stored_len)?;
                let v = self.symmetric_entries(table, &mut stored)?;
                progress(t.raw_len);
                EntryBytes::Owned(v)
            }
            _ => {
                let mut v: Vec<u8> = Vec::new();
                let mut fill = |chunk: &[u8]| {
                    if v.capacity() - v.len() < chunk.len() {
                        let left = (t.raw_len as usize).saturating_sub(v.len());
                        v.reserve_exact(left.min(256 << 20).max(chunk.len()));
                    }
                    v.extend_from_slice(chunk);
                    progress(v.len() as u64);
                    Ok(())
                };
                let mut stored = self.section(t.payload_offset, t.stored_len)?;
                if t.compression == Compression::None {
                    copy_exact(&mut stored, t.raw_len, &mut fill).map_err(|e| self.io_err(e))?;
                } else {
                    self.decompress_into(table, &mut stored, &mut fill)?;
                }
                EntryBytes::Owned(v)
            }
        };
        if opts.verify {
            t.check_entries(table, &bytes)?;
        }
        Ok(Table {
            header: t.clone(),
            bytes,
        })
    }

    /// The header of table `table`, or an error naming the tables the file holds.
    fn table(&self, table: usize) -> Result<&TableHeader, FormatError> {
        self.header.tables.get(table).ok_or_else(|| {
            FormatError::invalid(
                "table number",
                format!(
                    "{table}; the file holds {} tables",
                    self.header.tables.len()
                ),
            )
        })
    }

    /// Streams the decoded payload of `table` into `sink` in chunks; the length must be exactly
    /// the raw length (never more is read). Returns the number of bytes produced.
    fn decompress_into(
        &self,
        table: usize,
        stored: &mut dyn Read,
        sink: &mut dyn FnMut(&[u8]) -> io::Result<()>,
    ) -> Result<u64, FormatError> {
        let t = &self.header.tables[table];
        let comp = t.compression.name();
        let bad = |e: io::Error| FormatError::Decompress {
            table,
            compression: comp,
            why: e.to_string(),
        };
        let mut decoder: Box<dyn Read + '_> = match t.compression {
            Compression::ZstdSymmetric => {
                let entries = self.symmetric_entries(table, stored)?;
                for chunk in entries.chunks(CHUNK) {
                    sink(chunk).map_err(bad)?;
                }
                return Ok(entries.len() as u64);
            }
            Compression::Zstd => Box::new(
                zstd::stream::read::Decoder::new(stored)
                    .map_err(bad)?
                    .single_frame(),
            ),
            Compression::Gzip => Box::new(flate2::read::GzDecoder::new(stored)),
            Compression::None => Box::new(stored),
        };
        let n = copy_exact(&mut decoder, t.raw_len, sink).map_err(bad)?;
        // One more byte would mean the payload decodes to more than its declared length.
        let mut extra = [0u8; 1];
        if read_up_to(&mut decoder, &mut extra).map_err(bad)? != 0 {
            return Err(FormatError::Decompress {
                table,
                compression: comp,
                why: format!("it decodes to more than the declared {} bytes", t.raw_len),
            });
        }
        Ok(n)
    }

    /// Reads a symmetry-reduced table's payload (see [`super::symmetric`]) up to what its
    /// entries are decoded from: its preamble, then its kept entries from `stored` or the
    /// entries of its source table. Everything that can be checked before the entries are
    /// allocated is checked here.
    fn read_symmetric(
        &self,
        table: usize,
        stored: &mut dyn Read,
    ) -> Result<SymmetricPayload, FormatError> {
        let t = &self.header.tables[table];
        let bad = |why: String| self.decompress_err(table, why);
        let mut preamble = [0u8; symmetric::PREAMBLE_LEN];
        if read_up_to(stored, &mut preamble).map_err(|e| self.io_err(e))? < preamble.len() {
            return Err(bad("the payload ends inside its preamble".into()));
        }
        let link = symmetric::Link::parse(&preamble, table).map_err(bad)?;
        let source = &self.header.tables[link.source];
        if (source.kind, source.encoding) != (TableKind::ZeroAware, t.encoding) {
            return Err(bad(format!(
                "source table {} is not a zero-aware table of {} entries",
                link.source, t.encoding
            )));
        }
        let tau = symmetric::tile_map(
            &self.header.goal,
            link.symmetry,
            &source.pattern,
            &t.pattern,
        )
        .ok_or_else(|| {
            bad(format!(
                "{} does not map the goal of table {} onto this table's",
                link.symmetry.name(),
                link.source
            ))
        })?;
        let goals = t.pattern.goal_cells(&self.header.goal);
        let from = if link.source == table {
            let mut kept = Vec::new();
            zstd::stream::read::Decoder::new(stored)
                .map_err(|e| bad(e.to_string()))?
                .single_frame()
                .take(t.raw_len + 1)
                .read_to_end(&mut kept)
                .map_err(|e| bad(e.to_string()))?;
            symmetric::check_kept_len(kept.len(), t.raw_len).map_err(bad)?;
            Origin::Kept(kept)
        } else {
            let mut extra = [0u8; 1];
            if read_up_to(stored, &mut extra).map_err(|e| self.io_err(e))? != 0 {
                return Err(bad(
                    "a table mapped from another holds nothing after its preamble".into(),
                ));
            }
            Origin::Source(self.source_entries(link.source)?)
        };
        Ok(SymmetricPayload {
            link,
            tau,
            goals,
            from,
        })
    }

    /// Decodes the entries of table `table` from what [`PdbFile::read_symmetric`] read into
    /// `out`, which is `raw_len` bytes long (whatever it held).
    fn decode_symmetric(
        &self,
        table: usize,
        payload: &SymmetricPayload,
        out: &mut [u8],
    ) -> Result<(), FormatError> {
        let from = match &payload.from {
            Origin::Kept(kept) => (&kept[..], None),
            Origin::Source(source) => (&[][..], Some(&source.bytes[..])),
        };
        symmetric::decode(
            self.header.board(),
            payload.link,
            (&payload.tau, &payload.goals),
            self.header.tables[table].encoding,
            from,
            out,
        )
        .map_err(|why| self.decompress_err(table, why))
    }

    /// The entries of a symmetry-reduced table, read from `stored` and decoded into a buffer
    /// of their own.
    fn symmetric_entries(
        &self,
        table: usize,
        stored: &mut dyn Read,
    ) -> Result<Vec<u8>, FormatError> {
        let payload = self.read_symmetric(table, stored)?;
        let mut entries = vec![0u8; self.header.tables[table].raw_len as usize];
        self.decode_symmetric(table, &payload, &mut entries)?;
        Ok(entries)
    }

    /// A payload of table `table` that does not decode, and why.
    fn decompress_err(&self, table: usize, why: String) -> FormatError {
        FormatError::Decompress {
            table,
            compression: self.header.tables[table].compression.name(),
            why,
        }
    }

    /// The entries of table `source`, loaded once for the tables mapped from it.
    fn source_entries(&self, source: usize) -> Result<Arc<Table>, FormatError> {
        let cached = |last: &Option<(usize, Arc<Table>)>| {
            last.as_ref()
                .filter(|(t, _)| *t == source)
                .map(|(_, entries)| entries.clone())
        };
        let lock = || self.last_source.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entries) = cached(&lock()) {
            return Ok(entries);
        }
        // Unlocked while loading: a (damaged) source may itself be mapped from another table.
        let entries = Arc::new(self.load(source, LoadOptions::default())?);
        *lock() = Some((source, entries.clone()));
        Ok(entries)
    }

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

    fn section(&self, offset: u64, len: u64) -> Result<Box<dyn Read + Send + '_>, FormatError> {
        match &self.backing {
            Backing::File { file, .. } => Ok(Box::new(io::BufReader::with_capacity(
                CHUNK,
                ReadAt {
                    file,
                    pos: offset,
                    end: offset.saturating_add(len),
                },
            ))),
            Backing::Memory(b) => {
                let end = (offset + len).min(b.len() as u64) as usize;
                Ok(Box::new(&b[(offset as usize).min(end)..end]))
            }
        }
    }

    fn io_err(&self, e: io::Error) -> FormatError {
        let what = self
            .path()
            .map_or_else(|| "in-memory file".to_string(), |p| p.display().to_string());
        FormatError::io(format!("cannot read {what}"), e)
    }
}

/// A section of a file read by position (`pread`), never through the file's shared offset:
/// threads can read sections of one [`PdbFile`] at once (a cloned handle would share, and
/// race on, one offset).
struct ReadAt<'a> {
    file: &'a File,
    pos: u64,
    end: u64,
}

impl Read for ReadAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = usize::try_from(self.end - self.pos).map_or(buf.len(), |n| n.min(buf.len()));
        if want == 0 {
            return Ok(0);
        }
        #[cfg(unix)]
        let got = std::os::unix::fs::FileExt::read_at(self.file, &mut buf[..want], self.pos)?;
        #[cfg(windows)]
        let got = std::os::windows::fs::FileExt::seek_read(self.file, &mut buf[..want], self.pos)?;
        self.pos += got as u64;
        Ok(got)
    }
}

fn check_length(header: &Header, len: u64) -> Result<(), FormatError> {
    for (i, t) in header.tables.iter().enumerate() {
        let end = t.payload_offset + t.stored_len;
        if len < end {
            return Err(FormatError::Truncated {
                what: format!("payload of table {i}"),
                expected: end,
                found: len,
            });
        }
        if t.compression == Compression::None && t.stored_digest != t.raw_digest {
            return Err(FormatError::invalid(
                format!("table {i} digests"),
                "a raw payload's stored and entry digests must be equal",
            ));
        }
    }
    let end = header.file_len();
    if len > end {
        return Err(FormatError::TrailingData {
            expected: end,
            extra: len - end,
        });
    }
    Ok(())
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_up_to(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Passes exactly `len` bytes from `r` to `sink` in chunks; fewer is an `UnexpectedEof` error.
fn copy_exact(
    r: &mut dyn Read,
    len: u64,
    sink: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<u64> {
    let mut buf = vec![0u8; CHUNK];
    let mut done = 0u64;
    while done < len {
        let want = (len - done).min(CHUNK as u64) as usize;
        let got = read_up_to(r, &mut buf[..want])?;
        if got == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("ended after {done} of {len} bytes"),
            ));
        }
        sink(&buf[..got])?;
        done += got as u64;
    }
    Ok(done)
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

impl PdbFile {
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
        let bad = |why: String| FormatError::Decompress {
            table,
            compression: t.compression.name(),
            why,
        };
        let mut done = 0usize;
        // Called after each fill of dst[done..end].
        let mut advance = |done: &mut usize, end: usize, dst: &[u8]| {
            if let Some(h) = hasher.as_mut() {
                h.update(&dst[*done..end]);
            }
            *done = end;
            progress(end as u64);
        };
        match t.compression {
            Compression::ZstdSymmetric => {
                let payload = self.read_symmetric(table, &mut stored)?;
                self.decode_symmetric(table, &payload, dst)?;
                for start in (0..dst.len()).step_by(CHUNK) {
                    advance(&mut done, (start + CHUNK).min(dst.len()), dst);
                }
            }
            Compression::None => {
                while done < dst.len() {
                    let end = (done + CHUNK).min(dst.len());
                    let got =
                        read_up_to(&mut stored, &mut dst[done..end]).map_err(|e| self.io_err(e))?;
                    if got == 0 {
                        return Err(FormatError::Truncated {
                            what: format!("payload of table {table}"),
                            expected: t.payload_offset + t.stored_len,
                            found: t.payload_offset + done as u64,
                        });
                    }
                    let end = done + got;
                    advance(&mut done, end, dst);
                }
            }
            Compression::Gzip => {
                let mut decoder = flate2::read::GzDecoder::new(&mut stored);
                while done < dst.len() {
                    let end = (done + CHUNK).min(dst.len());
                    let got = read_up_to(&mut decoder, &mut dst[done..end])
                        .map_err(|e| bad(e.to_string()))?;
                    if got == 0 {
                        return Err(bad(format!(
                            "it decodes to {done} bytes, fewer than the declared {}",
                            t.raw_len
                        )));
                    }
                    let end = done + got;
                    advance(&mut done, end, dst);
                }
                let mut extra = [0u8; 1];
                if read_up_to(&mut decoder, &mut extra).map_err(|e| bad(e.to_string()))? != 0 {
                    return Err(bad(format!(
                        "it decodes to more than the declared {} bytes",
                        t.raw_len
                    )));
                }
            }
            Compression::Zstd => {
                use zstd::zstd_safe::{get_error_name, DCtx, DParameter, InBuffer, OutBuffer};
                let zerr = |code: usize| bad(get_error_name(code).to_string());
                let mut dctx =
                    DCtx::try_create().ok_or_else(|| bad("cannot create a zstd decoder".into()))?;
                // The whole destination is the output buffer of every call: zstd then decodes
                // in place and uses it as the window instead of allocating one.
                dctx.set_parameter(DParameter::StableOutBuffer(true))
                    .map_err(zerr)?;
                dctx.set_parameter(DParameter::WindowLogMax(27))
                    .map_err(zerr)?;
                let mut input = vec![0u8; CHUNK];
                let mut finished = false;
                while !finished {
                    let n = read_up_to(&mut stored, &mut input).map_err(|e| self.io_err(e))?;
                    if n == 0 {
                        return Err(bad(format!(
                            "the frame ends early, after {done} of {} bytes",
                            t.raw_len
                        )));
                    }
                    let mut inb = InBuffer::around(&input[..n]);
                    while inb.pos() < n && !finished {
                        let before = (inb.pos(), done);
                        let mut out = OutBuffer::around_pos(&mut *dst, done);
                        let hint = dctx.decompress_stream(&mut out, &mut inb).map_err(zerr)?;
                        let end = out.pos();
                        advance(&mut done, end, dst);
                        finished = hint == 0;
                        if !finished && (inb.pos(), done) == before {
                            return Err(bad(format!(
                                "it decodes to more than the declared {} bytes",
                                t.raw_len
                            )));
                        }
                    }
                }
                if done != dst.len() {
                    return Err(bad(format!(
                        "it decodes to {done} bytes, fewer than the declared {}",
                        t.raw_len
                    )));
                }
            }
        }
        match hasher {
            Some(h) => t.check_raw_digest(table, Digest::from_hasher(h)),
            None => Ok(()),
        }
    }
}
