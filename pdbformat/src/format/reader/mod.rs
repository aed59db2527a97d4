//! Reading PDB files: [`PdbFile`], opened cheaply (the header read and checked, payloads
//! not), and what its parts share: sections of the file read by position and the checks that
//! need the header only. Verification ([`PdbFile::verify`]), the one payload decoder and
//! loading ([`PdbFile::load`], [`PdbFile::load_into`]) are in the submodules.

mod decode;
mod load;
mod reduced;
mod verify;

pub use load::LoadOptions;

use super::codes::Compression;
use super::entries::Table;
use super::error::FormatError;
use super::header::{Header, TableHeader, PREAMBLE_LEN};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where an opened file's bytes are.
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

/// The most bytes read, decoded or passed on at once.
const CHUNK: usize = 1 << 20;

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
        let mut bytes = vec![0u8; header_len(&preamble[..got], len)?];
        file.seek(SeekFrom::Start(0))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(|e| FormatError::io(ctx(), e))?;
        let backing = Backing::File {
            file,
            path: path.to_path_buf(),
        };
        PdbFile::new(&bytes, backing, len)
    }

    /// Like [`PdbFile::open`] for a file held in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<PdbFile, FormatError> {
        let len = bytes.len() as u64;
        let header_len = header_len(&bytes[..bytes.len().min(PREAMBLE_LEN)], len)?;
        let bytes = Arc::new(bytes);
        let start = Arc::clone(&bytes);
        PdbFile::new(&start[..header_len], Backing::Memory(bytes), len)
    }

    /// The file of `len` bytes in `backing` whose header is `header`, once decoded and checked
    /// against the file's length.
    fn new(header: &[u8], backing: Backing, len: u64) -> Result<PdbFile, FormatError> {
        let header = Header::decode(header)?;
        check_length(&header, len)?;
        Ok(PdbFile {
            header,
            backing,
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

    /// A payload of table `table` that does not decode, and why.
    fn decompress_err(&self, table: usize, why: String) -> FormatError {
        FormatError::Decompress {
            table,
            compression: self.header.tables[table].compression.name(),
            why,
        }
    }

    /// The `len` bytes of the file from `offset` (fewer where the file ends first), read by
    /// position: sections of one file can be read by several threads at once.
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

    /// A failed read of the file.
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

/// The length of the header that the file's first bytes `start` (up to its preamble) describe,
/// checked to fit in a file of `len` bytes.
fn header_len(start: &[u8], len: u64) -> Result<usize, FormatError> {
    let header_len = Header::decode_preamble(start)?;
    if len < u64::from(header_len) {
        return Err(FormatError::Truncated {
            what: "header".into(),
            expected: header_len.into(),
            found: len,
        });
    }
    Ok(header_len as usize)
}

/// Checks the header's tables against the file's length `len`: every payload inside it,
/// nothing after the last.
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
