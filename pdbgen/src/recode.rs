//! Rewriting a database file with another compression or entry encoding ([`recode`]): the
//! same tables and values, written through a temporary file renamed into place. `bit1` tables
//! recoded to another encoding get their exact values back by the BFS their bits guide, which
//! takes as long as a build.

use crate::error::RestoreError;
use crate::observer::BuildObserver;
use crate::restore::values_of;
use crate::UNREACHED;
use pdbformat::format::{
    encode_entries, write_pdb, Compression, Digest, Encoding, FormatError, Header, LoadOptions,
    PdbFile, TableSource, WriteOptions,
};
use pdbformat::TableKind;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What [`recode`] writes.
#[derive(Clone, Debug, Default)]
pub struct RecodeOptions {
    /// The entry encoding of every table; `None` keeps each table's.
    pub encoding: Option<Encoding>,
    /// The compression of every payload; `None` keeps the input's (its first table's).
    pub compression: Option<Compression>,
    /// The writer's other settings (levels, workers); its `compression` is replaced by the
    /// one above.
    pub write: WriteOptions,
    /// The entry digests the output's tables must have, one per table in order, checked
    /// before anything is written; `None` checks nothing.
    pub expected: Option<Vec<Digest>>,
}

/// Why a file could not be recoded (nothing is left under the output's name).
#[derive(Debug, Error)]
pub enum RecodeError {
    /// The output names the input.
    #[error("the output must be another file than the input")]
    SameFile,
    /// The input does not open, or a table does not load or fails its digest.
    #[error("reading {}", path.display())]
    Read {
        /// The input.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: FormatError,
    },
    /// bit1 entries asked for a zero-unaware table.
    #[error("table {table} is {kind}: bit1 entries need zero-aware tables")]
    Bit1NeedsZeroAware {
        /// The table.
        table: usize,
        /// Its kind.
        kind: TableKind,
    },
    /// A value does not fit a `u4` entry.
    #[error("table {table} has values up to {max}, too large for u4 entries")]
    TooLargeForU4 {
        /// The table.
        table: usize,
        /// Its largest value.
        max: u8,
    },
    /// The table has parity-unreachable entries, which only `u8` entries can mark.
    #[error("table {table} holds parity-unreachable entries, which only u8 entries can mark")]
    UnreachedNeedsU8 {
        /// The table.
        table: usize,
    },
    /// A `bit1` table's values could not be restored.
    #[error("table {table}: its values cannot be restored from its bits")]
    Restore {
        /// The table.
        table: usize,
        /// Why.
        #[source]
        source: RestoreError,
    },
    /// The recoded entries are not the expected ones.
    #[error("the recoded entries of table {table} do not have the expected digest")]
    Digest {
        /// The first table that differs (or the first missing one).
        table: usize,
    },
    /// The output could not be written.
    #[error("writing {}", path.display())]
    Write {
        /// The output.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: FormatError,
    },
}

/// Rewrites the database file `src` as `dst` with the encoding and compression of `opts`,
/// checking every table's digest as it is read and, when `opts.expected` holds them, the
/// recoded entries' digests before writing. `obs` hears of the BFS that restores a `bit1`
/// table's values. Returns the written file's header.
pub fn recode(
    src: &Path,
    dst: &Path,
    opts: &RecodeOptions,
    obs: &dyn BuildObserver,
) -> Result<Header, RecodeError> {
    if dst
        .canonicalize()
        .is_ok_and(|d| src.canonicalize().is_ok_and(|s| s == d))
    {
        return Err(RecodeError::SameFile);
    }
    let read = |source| RecodeError::Read {
        path: src.to_path_buf(),
        source,
    };
    let file = PdbFile::open(src).map_err(read)?;
    let goal = file.header().goal.clone();
    let tables = file
        .load_all(LoadOptions {
            verify: true,
            mmap: true,
        })
        .map_err(read)?;
    let mut converted: Vec<Option<(Encoding, Vec<u8>)>> = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        let to = opts.encoding.unwrap_or(t.header.encoding);
        if to == t.header.encoding {
            converted.push(None);
            continue;
        }
        if to == Encoding::Bit1 && t.header.kind != TableKind::ZeroAware {
            return Err(RecodeError::Bit1NeedsZeroAware {
                table: i,
                kind: t.header.kind,
            });
        }
        if to == Encoding::U4 && t.header.max_value > 15 {
            return Err(RecodeError::TooLargeForU4 {
                table: i,
                max: t.header.max_value,
            });
        }
        let values = values_of(&goal, t, i, obs)
            .map_err(|source| RecodeError::Restore { table: i, source })?;
        if to != Encoding::U8 && values.contains(&UNREACHED) {
            return Err(RecodeError::UnreachedNeedsU8 { table: i });
        }
        converted.push(Some((to, encode_entries(&values, to))));
    }
    let sources: Vec<TableSource<'_>> = tables
        .iter()
        .zip(&converted)
        .map(|(t, c)| match c {
            Some((encoding, entries)) => TableSource {
                encoding: *encoding,
                entries,
                ..t.source()
            },
            None => t.source(),
        })
        .collect();
    if let Some(expected) = &opts.expected {
        let differs = (0..sources.len().max(expected.len()))
            .find(|&i| sources.get(i).map(|t| Digest::of(t.entries)) != expected.get(i).copied());
        if let Some(table) = differs {
            return Err(RecodeError::Digest { table });
        }
    }
    let write = WriteOptions {
        compression: opts
            .compression
            .or_else(|| tables.first().map(|t| t.header.compression))
            .unwrap_or(Compression::None),
        ..opts.write
    };
    write_pdb(dst, &goal, &sources, &write).map_err(|source| RecodeError::Write {
        path: dst.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build_file, BuildRequest, NoProgress};
    use pdbformat::{Board, Goal, Partition};

    /// The entries' digests of the file at `path`.
    fn digests(path: &Path) -> Vec<Digest> {
        let f = PdbFile::open(path).unwrap();
        f.header().tables.iter().map(|t| t.raw_digest).collect()
    }

    /// Builds the 4-4 partition of the 3x3 board with tables of `kind` (`u8`, uncompressed)
    /// at `raw.pdb` in `dir`.
    fn raw_3x3(dir: &Path, kind: TableKind) -> std::path::PathBuf {
        let goal = Goal::blank_first(Board::new(3, 3).unwrap());
        let raw = dir.join("raw.pdb");
        let request = BuildRequest {
            partition: Partition::parse(&goal, "1-4/5-8").unwrap(),
            goal,
            kind,
            threads: Some(1),
            encoding: Encoding::U8,
            write: WriteOptions::default(),
        };
        build_file(&request, &raw, &NoProgress).unwrap();
        raw
    }

    #[test]
    fn a_round_trip_through_bit1_and_zstd_gives_the_same_entries() {
        let dir = tempfile::tempdir().unwrap();
        let raw = raw_3x3(dir.path(), TableKind::ZeroAware);
        let small = dir.path().join("small.pdb");
        let to_bit1 = RecodeOptions {
            encoding: Some(Encoding::Bit1),
            compression: Some(Compression::Zstd),
            ..RecodeOptions::default()
        };
        let h = recode(&raw, &small, &to_bit1, &NoProgress).unwrap();
        assert!(h.tables.iter().all(|t| t.encoding == Encoding::Bit1));
        assert!(h.tables.iter().all(|t| t.compression == Compression::Zstd));
        // Back to u8, uncompressed, checked against the original entries.
        let back = dir.path().join("back.pdb");
        let to_u8 = RecodeOptions {
            encoding: Some(Encoding::U8),
            compression: Some(Compression::None),
            expected: Some(digests(&raw)),
            ..RecodeOptions::default()
        };
        recode(&small, &back, &to_u8, &NoProgress).unwrap();
        assert_eq!(digests(&back), digests(&raw));
        // Kept encoding and compression: the input's.
        let copy = dir.path().join("copy.pdb");
        recode(&small, &copy, &RecodeOptions::default(), &NoProgress).unwrap();
        assert_eq!(digests(&copy), digests(&small));
        assert_eq!(
            PdbFile::open(&copy).unwrap().header().tables[0].compression,
            Compression::Zstd
        );
    }

    #[test]
    fn refusals_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let raw = raw_3x3(dir.path(), TableKind::ZeroUnaware);
        let out = dir.path().join("out.pdb");
        let same = recode(&raw, &raw, &RecodeOptions::default(), &NoProgress);
        assert!(matches!(same, Err(RecodeError::SameFile)));
        let bit1 = RecodeOptions {
            encoding: Some(Encoding::Bit1),
            ..RecodeOptions::default()
        };
        let refused = recode(&raw, &out, &bit1, &NoProgress);
        assert!(matches!(
            refused,
            Err(RecodeError::Bit1NeedsZeroAware { table: 0, .. })
        ));
        let wrong = RecodeOptions {
            expected: Some(vec![Digest::default(); 2]),
            ..RecodeOptions::default()
        };
        let refused = recode(&raw, &out, &wrong, &NoProgress);
        assert!(matches!(refused, Err(RecodeError::Digest { table: 0 })));
        assert!(!out.exists());
    }
}
