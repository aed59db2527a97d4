//! The generator library's errors, one enum per operation: building ([`BuildError`]),
//! restoring bit1 tables ([`RestoreError`]), the semantic check of values ([`CheckError`]) and
//! whole-file verification ([`VerifyError`]).
//!
//! Messages name the thing and say what is wrong; the lower-level cause (a format or index
//! error) is the [`source`](std::error::Error::source), not repeated in the message, so print
//! the chain (`pdbformat::error::describe`, which says each cause once) to see it all.

use pdbformat::format::FormatError;
use pdbformat::rank::IndexError;
use pdbformat::Pattern;
use std::path::PathBuf;
use thiserror::Error;

/// Why a table or a file could not be built.
#[derive(Debug, Error)]
pub enum BuildError {
    /// A standard database's definition does not resolve.
    #[error(transparent)]
    Standard(#[from] pdbformat::standard::StandardError),
    /// The board and pattern have no index (too many entries, board too large).
    #[error("pattern {pattern}")]
    Index {
        /// The pattern, as written in partitions.
        pattern: String,
        /// Why it has no index.
        #[source]
        source: IndexError,
    },
    /// A class file asked for without any labelling.
    #[error("a class file needs at least one labelling")]
    NoClasses,
    /// bit1 entries asked for zero-unaware tables.
    #[error("bit1 entries need zero-aware tables (zero-unaware values can change by more than 1 per move)")]
    Bit1NeedsZeroAware,
    /// A pattern that fills the board leaves parity-unreachable entries, which only `u8`
    /// entries can mark.
    #[error("pattern {pattern} fills the board and leaves parity-unreachable entries, which only u8 entries can mark")]
    UnreachedNeedsU8 {
        /// The pattern.
        pattern: String,
    },
    /// A value does not fit a `u4` entry.
    #[error("pattern {pattern} has values up to {max}, too large for u4 entries")]
    TooLargeForU4 {
        /// The pattern.
        pattern: String,
        /// Its largest value.
        max: u8,
    },
    /// A distance does not fit the summary's byte (beyond 254 moves).
    #[error("pattern {pattern} has distances beyond 254, which do not fit a byte")]
    TooDeep {
        /// The pattern.
        pattern: String,
    },
    /// The file could not be written (nothing is left under its name).
    #[error("writing {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: FormatError,
    },
    /// The resumable state beside the output could not be read or written.
    #[error("the build's resumable state {}", path.display())]
    State {
        /// The piece or folder.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: std::io::Error,
    },
    /// The distributed build was asked for zero-unaware tables: their minimum over the
    /// blank's regions needs the whole zero-aware table in one process.
    #[error("the distributed build makes zero-aware tables only (a zero-unaware table is a minimum over whole zero-aware tables); build zero-aware and reduce on one machine")]
    DistributedNeedsZeroAware,
    /// A process of a distributed build has less memory available than its share needs
    /// (checked on every process before the BFS starts).
    #[error("rank {rank} on {host} needs about {} of memory but has only {} available", pdbformat::units::bytes(*.needed), pdbformat::units::bytes(*.available))]
    RankMemory {
        /// The rank short of memory (the lowest such rank).
        rank: usize,
        /// Its host name.
        host: String,
        /// Bytes its share of the build needs.
        needed: u64,
        /// Bytes it has available.
        available: u64,
    },
    /// The MPI library does not offer the thread support the distributed build needs.
    #[error(
        "the MPI library does not allow MPI calls from a worker thread (MPI_THREAD_SERIALIZED)"
    )]
    MpiThreads,
    /// The worker threads could not be started.
    #[error("cannot start the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// Why the values of a bit1 table could not be restored (the payload is not a bit1 table of
/// this pattern). Restored values are checked separately: a wrong bit that still restores
/// shows up in the semantic check.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RestoreError {
    /// The board and pattern have no zero-aware index.
    #[error("pattern {pattern}")]
    Index {
        /// The pattern.
        pattern: String,
        /// Why it has no index.
        #[source]
        source: IndexError,
    },
    /// The payload has the wrong length for the table.
    #[error("a bit1 table of {entries} entries takes {expected} bytes, found {found}")]
    Length {
        /// Entries of the table.
        entries: u64,
        /// Bytes they take.
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The goal entry's bit is set, so no value can be 0.
    #[error("the goal entry's stored bit is 1, but its value is 0")]
    GoalBit,
}

/// Why a table's values could not be checked at all (a failed check is not an error: it is a
/// [`crate::semantic::Violation`]).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CheckError {
    /// The board and pattern have no index.
    #[error("pattern {pattern}")]
    Index {
        /// The pattern.
        pattern: String,
        /// Why it has no index.
        #[source]
        source: IndexError,
    },
    /// The values are not one per entry of the table.
    #[error("table has {found} entries, expected {expected}")]
    Length {
        /// Values given.
        found: u64,
        /// Entries of the table.
        expected: u64,
    },
}

/// Why a file could not be verified at all. Damage found while verifying (a checksum that
/// fails, values that fail a check) is not an error: it is reported in the
/// [`crate::FileReport`].
#[derive(Debug, Error)]
pub enum VerifyError {
    /// The file does not open: unreadable, not a PDB file, a damaged header, truncated.
    #[error(transparent)]
    Open(FormatError),
    /// A table's values could not be checked (see [`CheckError`]).
    #[error("table {table}")]
    Check {
        /// The table.
        table: usize,
        /// Why.
        #[source]
        source: CheckError,
    },
    /// The worker threads could not be started.
    #[error("cannot start the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// The errors of the operations that index a pattern's table: each has an `Index` variant
/// that names the pattern whose board has no index.
impl BuildError {
    /// The `Write` error of `path`, for `map_err`.
    pub(crate) fn writing(path: &std::path::Path) -> impl FnOnce(FormatError) -> BuildError + '_ {
        move |source| BuildError::Write {
            path: path.to_path_buf(),
            source,
        }
    }

    /// Whether the same request fails the same way every time (what it asks of the encoding,
    /// the board or the ranks), unlike a failure of the disk or of the system: a build keeps no
    /// resumable state for such a failure, and under MPI every rank meets it alike.
    pub fn same_every_time(&self) -> bool {
        matches!(
            self,
            BuildError::Standard(_)
                | BuildError::Index { .. }
                | BuildError::Bit1NeedsZeroAware
                | BuildError::NoClasses
                | BuildError::UnreachedNeedsU8 { .. }
                | BuildError::TooLargeForU4 { .. }
                | BuildError::TooDeep { .. }
                | BuildError::DistributedNeedsZeroAware
        )
    }
}

pub(crate) trait FromIndexError: Sized {
    /// The `Index` variant for `pattern`, caused by `source`.
    fn index(pattern: &Pattern, source: IndexError) -> Self;

    /// Wraps an index error with the pattern it is about (for `map_err`).
    fn index_error(pattern: &Pattern) -> impl Fn(IndexError) -> Self + '_ {
        move |source| Self::index(pattern, source)
    }
}

impl FromIndexError for BuildError {
    fn index(pattern: &Pattern, source: IndexError) -> BuildError {
        BuildError::Index {
            pattern: pattern.to_string(),
            source,
        }
    }
}

impl FromIndexError for RestoreError {
    fn index(pattern: &Pattern, source: IndexError) -> RestoreError {
        RestoreError::Index {
            pattern: pattern.to_string(),
            source,
        }
    }
}

impl FromIndexError for CheckError {
    fn index(pattern: &Pattern, source: IndexError) -> CheckError {
        CheckError::Index {
            pattern: pattern.to_string(),
            source,
        }
    }
}
