//! Errors of reading and writing PDB files; each names what was expected and what was found.

use super::digest::Digest;
use thiserror::Error;

/// Why a PDB file could not be read, verified or written.
#[derive(Debug, Error)]
pub enum FormatError {
    /// An operating-system error, with what was being done.
    #[error("{context}: {source}")]
    Io {
        /// What was being done (and on which path).
        context: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with the PDB magic bytes.
    #[error("not a PDB file: the first bytes are {found:02x?}, a PDB file starts with 89 50 44 42 0d 0a 1a 0a")]
    BadMagic {
        /// The first (up to 8) bytes found.
        found: Vec<u8>,
    },
    /// The format version is not one this reader supports.
    #[error("unsupported format version {found}: this reader supports versions 1 to {supported}")]
    UnsupportedVersion {
        /// Version in the file.
        found: u16,
        /// The newest version this reader supports (it reads every version from 1 up).
        supported: u16,
    },
    /// The file ends before a part it declares.
    #[error("truncated {what}: expected {expected} bytes, found {found}")]
    Truncated {
        /// Which part.
        what: String,
        /// Bytes expected.
        expected: u64,
        /// Bytes present.
        found: u64,
    },
    /// Bytes after the last payload.
    #[error("{extra} unexpected bytes after the last payload (the file should be {expected} bytes long)")]
    TrailingData {
        /// The length the header implies.
        expected: u64,
        /// Bytes beyond it.
        extra: u64,
    },
    /// The header checksum does not match the header.
    #[error("header checksum mismatch: stored {expected}, computed {found}")]
    HeaderChecksum {
        /// Stored in the file.
        expected: Digest,
        /// Computed from the header bytes.
        found: Digest,
    },
    /// A table's stored or raw bytes do not match their digest.
    #[error("checksum mismatch in table {table} ({what}): expected {expected}, found {found}")]
    ChecksumMismatch {
        /// Table number (from 0).
        table: usize,
        /// `stored payload` or `entries`.
        what: &'static str,
        /// Digest in the header.
        expected: Digest,
        /// Digest computed.
        found: Digest,
    },
    /// A header field holds a value that is not allowed.
    #[error("invalid {field}: {why}")]
    InvalidField {
        /// Which field.
        field: String,
        /// Why its value is refused.
        why: String,
    },
    /// An entry encoding this reader does not know.
    #[error("table {table} uses entry encoding code {code}, unknown to this reader (known: 0 u8, 1 u4, 2 bit1)")]
    UnknownEncoding {
        /// Table number.
        table: usize,
        /// The code found.
        code: u8,
    },
    /// A compression this reader does not know.
    #[error("table {table} uses compression code {code}, unknown to this reader (known: 0 none, 1 zstd, 2 gzip, 3 zstd-sym)")]
    UnknownCompression {
        /// Table number.
        table: usize,
        /// The code found.
        code: u8,
    },
    /// The compressed payload could not be decoded.
    #[error("table {table}: cannot decompress the {compression} payload: {why}")]
    Decompress {
        /// Table number.
        table: usize,
        /// The compression.
        compression: &'static str,
        /// The decoder's message.
        why: String,
    },
    /// Padding bytes between payloads must be zero.
    #[error("non-zero padding byte at offset {offset}")]
    NonZeroPadding {
        /// File offset of the first non-zero padding byte.
        offset: u64,
    },
    /// The tables given to the writer do not fit their declared shape.
    #[error("cannot write table {table}: {why}")]
    BadTable {
        /// Table number.
        table: usize,
        /// What is wrong.
        why: String,
    },
}

impl FormatError {
    pub(crate) fn io(context: impl Into<String>, source: std::io::Error) -> FormatError {
        FormatError::Io {
            context: context.into(),
            source,
        }
    }

    pub(crate) fn invalid(field: impl Into<String>, why: impl Into<String>) -> FormatError {
        FormatError::InvalidField {
            field: field.into(),
            why: why.into(),
        }
    }
}
