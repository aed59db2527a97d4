//! Rewriting a database file with another compression or entry encoding ([`recode`]): the
//! same tables and values, written through a temporary file renamed into place. `bit1` tables
//! recoded to another encoding get their exact values back by the BFS their bits guide, which
//! takes as long as a build. A file of class tables (the multi-tile metric's) is rewritten as
//! one, in its metric: `u8` or `u4` entries, payloads raw, zstd or gzip (`bit1` entries and
//! `zstd-sym` payloads need zero-aware pattern tables, and are refused).

use crate::error::RestoreError;
use crate::observer::BuildObserver;
use crate::restore::values_of;
use crate::UNREACHED;
use pdbformat::format::{
    encode_entries, write_class_pdb, write_pdb, ClassTableSource, Compression, Digest, Encoding,
    FormatError, Header, LoadOptions, PdbFile, TableSource, WriteOptions,
};
use pdbformat::{Metric, TableKind};
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
    /// An encoding or compression asked for a class table that only zero-aware pattern tables
    /// can have.
    #[error(
        "table {table} is a class table: {what} need zero-aware pattern tables; \
         use u8 or u4 entries, and none, zstd or gzip"
    )]
    NotForClassTables {
        /// The table.
        table: usize,
        /// What was asked for (`bit1 entries`, `zstd-sym payloads`).
        what: &'static str,
    },
    /// The file holds tables that no writer writes together.
    #[error("the file holds {what}, which no writer writes: it cannot be rewritten")]
    Unwritable {
        /// What it holds (`class tables beside pattern tables`, `pattern tables of the mtm
        /// metric`).
        what: &'static str,
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
    let (goal, metric) = (file.header().goal.clone(), file.header().metric);
    let tables = file
        .load_all(LoadOptions {
            verify: true,
            mmap: true,
        })
        .map_err(read)?;
    let classes = tables.iter().filter(|t| t.header.classes.is_some()).count();
    let class_file = classes > 0;
    if class_file && classes < tables.len() {
        return Err(RecodeError::Unwritable {
            what: "class tables beside pattern tables",
        });
    }
    if !class_file && metric != Metric::Stm {
        return Err(RecodeError::Unwritable {
            what: "pattern tables of the mtm metric",
        });
    }
    let compression = opts
        .compression
        .or_else(|| tables.first().map(|t| t.header.compression))
        .unwrap_or(Compression::None);
    if class_file && compression == Compression::ZstdSymmetric {
        return Err(RecodeError::NotForClassTables {
            table: 0,
            what: "zstd-sym payloads",
        });
    }
    let mut converted: Vec<Option<(Encoding, Vec<u8>)>> = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        let to = opts.encoding.unwrap_or(t.header.encoding);
        if to == t.header.encoding {
            converted.push(None);
            continue;
        }
        if to == Encoding::Bit1 && t.header.classes.is_some() {
            return Err(RecodeError::NotForClassTables {
                table: i,
                what: "bit1 entries",
            });
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
    // Each table's encoding and encoded entries, converted or as read.
    let entries: Vec<(Encoding, &[u8])> = tables
        .iter()
        .zip(&converted)
        .map(|(t, c)| match c {
            Some((encoding, entries)) => (*encoding, &entries[..]),
            None => (t.header.encoding, &t.bytes[..]),
        })
        .collect();
    if let Some(expected) = &opts.expected {
        let differs = (0..entries.len().max(expected.len()))
            .find(|&i| entries.get(i).map(|(_, e)| Digest::of(e)) != expected.get(i).copied());
        if let Some(table) = differs {
            return Err(RecodeError::Digest { table });
        }
    }
    let write = WriteOptions {
        compression,
        ..opts.write
    };
    let written = if class_file {
        let sources: Vec<ClassTableSource<'_>> = (tables.iter().zip(&entries))
            .map(|(t, &(encoding, entries))| ClassTableSource {
                labels: t
                    .header
                    .classes
                    .expect("a class file's tables are class tables"),
                encoding,
                max_value: t.header.max_value,
                entries,
            })
            .collect();
        write_class_pdb(dst, &goal, metric, &sources, &write)
    } else {
        let sources: Vec<TableSource<'_>> = (tables.iter().zip(&entries))
            .map(|(t, &(encoding, entries))| TableSource {
                encoding,
                entries,
                ..t.source()
            })
            .collect();
        write_pdb(dst, &goal, &sources, &write)
    };
    written.map_err(|source| RecodeError::Write {
        path: dst.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build_class_file, build_file, BuildRequest, ClassBuildRequest, NoProgress};
    use pdbformat::rank::ClassLabels;
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

    /// Builds class tables of `labels` in the multi-tile metric for `goal` (`u8`,
    /// uncompressed) at `classes.pdb` in `dir`.
    fn class_file(dir: &Path, goal: Goal, labels: Vec<ClassLabels>) -> PathBuf {
        let path = dir.join("classes.pdb");
        let request = ClassBuildRequest {
            goal,
            metric: Metric::Mtm,
            labels,
            threads: Some(1),
            encoding: Some(Encoding::U8),
            write: WriteOptions::default(),
        };
        build_class_file(&request, &path, &NoProgress).unwrap();
        path
    }

    #[test]
    fn class_tables_recode_as_class_tables_in_their_metric() {
        let dir = tempfile::tempdir().unwrap();
        let goal = Goal::blank_first(Board::new(3, 2).unwrap());
        let labels = vec![ClassLabels::Rows, ClassLabels::Columns];
        let raw = class_file(dir.path(), goal, labels.clone());
        let raw_header = PdbFile::open(&raw).unwrap().header().clone();
        assert!(raw_header.tables.iter().all(|t| t.max_value <= 15));
        // u4 entries in gzip, then back to u8 in zstd: the same entries, labellings, metric.
        let small = dir.path().join("small.pdb");
        let to_u4 = RecodeOptions {
            encoding: Some(Encoding::U4),
            compression: Some(Compression::Gzip),
            ..RecodeOptions::default()
        };
        let h = recode(&raw, &small, &to_u4, &NoProgress).unwrap();
        assert_eq!(h.metric, Metric::Mtm);
        let found: Vec<_> = h.tables.iter().map(|t| t.classes).collect();
        assert_eq!(found, labels.iter().copied().map(Some).collect::<Vec<_>>());
        assert!(h.tables.iter().all(|t| t.encoding == Encoding::U4));
        assert!(h.tables.iter().all(|t| t.compression == Compression::Gzip));
        let back = dir.path().join("back.pdb");
        let to_u8 = RecodeOptions {
            encoding: Some(Encoding::U8),
            compression: Some(Compression::Zstd),
            expected: Some(digests(&raw)),
            ..RecodeOptions::default()
        };
        recode(&small, &back, &to_u8, &NoProgress).unwrap();
        let f = PdbFile::open(&back).unwrap();
        f.verify().unwrap();
        let h = f.header();
        assert_eq!(h.metric, Metric::Mtm);
        assert!(h.tables.iter().all(|t| t.compression == Compression::Zstd));
        for (t, r) in h.tables.iter().zip(&raw_header.tables) {
            assert_eq!(
                (
                    t.classes,
                    t.encoding,
                    t.max_value,
                    t.entry_count,
                    t.raw_digest
                ),
                (
                    r.classes,
                    r.encoding,
                    r.max_value,
                    r.entry_count,
                    r.raw_digest
                )
            );
        }
        // Kept encoding and compression: zstd, as the input's.
        let copy = dir.path().join("copy.pdb");
        recode(&back, &copy, &RecodeOptions::default(), &NoProgress).unwrap();
        assert_eq!(digests(&copy), digests(&raw));
        let h = PdbFile::open(&copy).unwrap().header().clone();
        assert_eq!(
            (h.metric, h.tables[1].compression),
            (Metric::Mtm, Compression::Zstd)
        );
    }

    #[test]
    fn class_tables_refuse_what_only_pattern_tables_take() {
        let dir = tempfile::tempdir().unwrap();
        let goal = Goal::blank_first(Board::new(3, 3).unwrap());
        let raw = class_file(dir.path(), goal, vec![ClassLabels::Rows]);
        let out = dir.path().join("out.pdb");
        let ask = |encoding, compression| RecodeOptions {
            encoding,
            compression,
            ..RecodeOptions::default()
        };
        let refused = recode(&raw, &out, &ask(Some(Encoding::Bit1), None), &NoProgress);
        let e = refused.unwrap_err();
        assert!(matches!(
            e,
            RecodeError::NotForClassTables {
                table: 0,
                what: "bit1 entries"
            }
        ));
        assert!(e.to_string().contains("use u8 or u4 entries"), "{e}");
        let zsym = Some(Compression::ZstdSymmetric);
        let refused = recode(&raw, &out, &ask(None, zsym), &NoProgress);
        assert!(matches!(
            refused,
            Err(RecodeError::NotForClassTables {
                what: "zstd-sym payloads",
                ..
            })
        ));
        // The 3x3 goal-row table in the multi-tile metric reaches 17: too large for u4.
        let refused = recode(&raw, &out, &ask(Some(Encoding::U4), None), &NoProgress);
        assert!(matches!(
            refused,
            Err(RecodeError::TooLargeForU4 { table: 0, max: 17 })
        ));
        assert!(!out.exists());
    }
}
