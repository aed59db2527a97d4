//! Whole-file verification: every table's checksums, then (optionally) the rebuild-free
//! semantic check of its values, returned as a [`FileReport`] for the caller to print or act on.
//!
//! Checksums come first and a table whose checksums fail is not checked further (its values
//! cannot be trusted to mean anything). The semantic check is [`crate::semantic::verify_table`]
//! on the table's values: `u8` tables as stored, `u4` tables unpacked, and `bit1` tables
//! restored from their bits ([`crate::restore`]) and then encoded again and compared with the
//! stored bits, so a wrong bit is caught whether or not the restored values look sound.

use crate::error::VerifyError;
use crate::observer::{BuildObserver, NoProgress};
use crate::restore::values_of;
use crate::semantic::{checks, verify_table, Violation};
use pdbformat::format::{encode_entries, Encoding, FormatError, LoadOptions, PdbFile};
use pdbformat::{Pattern, TableKind};
use std::fmt;
use std::path::{Path, PathBuf};

/// How far to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyDepth {
    /// Checksums of the header and of every payload only (fast: one read of the file).
    Checksums,
    /// Checksums, then the semantic check of every table's values (a pass over each table's
    /// neighbours; bit1 tables are restored first).
    Semantic,
}

/// Options of [`verify_file`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// How far to check.
    pub depth: VerifyDepth,
    /// Worker threads of the semantic check; `None` for all cores.
    pub threads: Option<usize>,
}

impl VerifyOptions {
    /// Checksums only, all cores.
    pub fn checksums() -> VerifyOptions {
        VerifyOptions {
            depth: VerifyDepth::Checksums,
            threads: None,
        }
    }

    /// Checksums and the semantic check, all cores.
    pub fn semantic() -> VerifyOptions {
        VerifyOptions {
            depth: VerifyDepth::Semantic,
            threads: None,
        }
    }
}

/// Receives progress from a verification. Every method has an empty default; semantic
/// progress comes from worker threads.
pub trait VerifyObserver: Sync {
    /// The checksums of `table` (`bytes` stored bytes) are being checked.
    fn checksums_started(&self, _table: usize, _bytes: u64) {}
    /// `done` stored bytes of `table` checked so far.
    fn checksums_progress(&self, _table: usize, _done: u64) {}
    /// The values of `table` (`entries` entries of `pattern`) are being checked.
    fn semantics_started(&self, _table: usize, _pattern: &Pattern, _entries: u64) {}
    /// `done` entries of `table` checked so far.
    fn semantics_progress(&self, _table: usize, _done: u64) {}
    /// The current step of `table` is over (its bar, if any, can go).
    fn step_done(&self, _table: usize) {}
    /// Where the restoring BFS of bit1 tables reports its levels.
    fn restore_observer(&self) -> &dyn BuildObserver {
        &NoProgress
    }
}

impl VerifyObserver for NoProgress {}

/// Something wrong with one table.
#[derive(Debug)]
pub enum Problem {
    /// The stored bytes are damaged: a checksum fails, or the payload does not decode.
    Damaged(FormatError),
    /// The bits of a bit1 table cannot be restored to values (wrong length, goal bit set).
    Unrestorable(crate::error::RestoreError),
    /// A semantic check fails (see [`crate::semantic::checks`]; bit1 tables add
    /// [`checks::STORED_BITS`]).
    Check(Violation),
}

impl fmt::Display for Problem {
    /// `checksum mismatch in table 0 …`, or `check failed: <check> (first at index …, value …,
    /// … entries fail)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Damaged(e) => write!(f, "{e}"),
            Problem::Unrestorable(e) => write!(f, "cannot restore the bit1 values: {e}"),
            Problem::Check(v) => write!(
                f,
                "check failed: {} (first at index {}, value {}, {} entries fail)",
                v.check, v.index, v.value, v.count
            ),
        }
    }
}

/// What was checked of one table and what failed.
#[derive(Debug)]
pub struct TableReport {
    /// The table's number in the file.
    pub table: usize,
    /// Its pattern.
    pub pattern: Pattern,
    /// Its kind.
    pub kind: TableKind,
    /// Its entry encoding.
    pub encoding: Encoding,
    /// Its entry count.
    pub entries: u64,
    /// Whether the values were checked (false for checksums only, and after damage).
    pub semantic: bool,
    /// What failed, in the order found; empty when the table passed.
    pub problems: Vec<Problem>,
}

impl TableReport {
    /// Whether every check made passed.
    pub fn passed(&self) -> bool {
        self.problems.is_empty()
    }
}

/// What was checked of one file and what failed.
#[derive(Debug)]
pub struct FileReport {
    /// The file.
    pub path: PathBuf,
    /// How far it was checked.
    pub depth: VerifyDepth,
    /// One report per table, in file order.
    pub tables: Vec<TableReport>,
}

impl FileReport {
    /// Whether every table passed every check made.
    pub fn passed(&self) -> bool {
        self.tables.iter().all(TableReport::passed)
    }

    /// Every problem with its table, in table order.
    pub fn problems(&self) -> impl Iterator<Item = (&TableReport, &Problem)> {
        self.tables
            .iter()
            .flat_map(|t| t.problems.iter().map(move |p| (t, p)))
    }
}

/// Opens and checks the file at `path` (see the module documentation). `Err` only when it
/// cannot be checked at all (it does not open as a PDB file); damage is in the report.
pub fn verify_file(
    path: &Path,
    opts: VerifyOptions,
    obs: &dyn VerifyObserver,
) -> Result<FileReport, VerifyError> {
    let file = PdbFile::open(path).map_err(VerifyError::Open)?;
    let tables = crate::pool::in_pool(opts.threads, || verify_tables(&file, opts.depth, obs))?;
    Ok(FileReport {
        path: path.to_path_buf(),
        depth: opts.depth,
        tables,
    })
}

/// Checks every table of an opened file to `depth`, in the current thread pool (what
/// [`verify_file`] does after opening the file): one report per table, in file order. `Err`
/// only when a table's values cannot be checked at all.
pub fn verify_tables(
    file: &PdbFile,
    depth: VerifyDepth,
    obs: &dyn VerifyObserver,
) -> Result<Vec<TableReport>, VerifyError> {
    let h = file.header();
    let mut out = Vec::with_capacity(h.tables.len());
    for (i, t) in h.tables.iter().enumerate() {
        let mut report = TableReport {
            table: i,
            pattern: t.pattern.clone(),
            kind: t.kind,
            encoding: t.encoding,
            entries: t.entry_count,
            semantic: false,
            problems: Vec::new(),
        };
        obs.checksums_started(i, t.stored_len);
        let sums = file.verify_table(i, &mut |n| obs.checksums_progress(i, n));
        obs.step_done(i);
        if let Err(e) = sums {
            report.problems.push(Problem::Damaged(e));
        } else if depth == VerifyDepth::Semantic {
            report.semantic = true;
            check_values(file, i, obs, &mut report.problems)?;
        }
        out.push(report);
    }
    Ok(out)
}

/// The semantic check of table `i`, whose checksums passed.
fn check_values(
    file: &PdbFile,
    i: usize,
    obs: &dyn VerifyObserver,
    problems: &mut Vec<Problem>,
) -> Result<(), VerifyError> {
    let h = file.header();
    let t = &h.tables[i];
    // The checksums were just verified; loading decompresses and checks the decoded length.
    let table = match file.load(i, LoadOptions::default()) {
        Ok(table) => table,
        Err(e) => {
            problems.push(Problem::Damaged(e));
            return Ok(());
        }
    };
    let values = match values_of(&h.goal, &table, i, obs.restore_observer()) {
        Ok(v) => v,
        Err(e) => {
            problems.push(Problem::Unrestorable(e));
            return Ok(());
        }
    };
    obs.semantics_started(i, &t.pattern, t.entry_count);
    let violations = match t.classes {
        Some(labels) => {
            crate::class_check::check_class_table(&h.goal, labels, h.metric, &values, &|n| {
                obs.semantics_progress(i, n)
            })
            .map_err(|source| VerifyError::Check {
                table: i,
                source: crate::error::CheckError::Index {
                    pattern: format!("{labels} classes"),
                    source,
                },
            })?
        }
        None => verify_table(&h.goal, t.kind, &t.pattern, &values, &|n| {
            obs.semantics_progress(i, n)
        })
        .map_err(|source| VerifyError::Check { table: i, source })?,
    };
    obs.step_done(i);
    let sound = violations.is_empty();
    problems.extend(violations.into_iter().map(Problem::Check));
    // A wrong bit can restore to values that pass every check (the walk takes another
    // branch); encoding them again shows it.
    if t.encoding == Encoding::Bit1 && sound {
        let again = encode_entries(&values, Encoding::Bit1);
        if let Some(v) = bit_mismatch(&again, &table.bytes, &values) {
            problems.push(Problem::Check(v));
        }
    }
    Ok(())
}

/// The first differing entry of two bit1 payloads and how many entries differ.
fn bit_mismatch(expected: &[u8], stored: &[u8], values: &[u8]) -> Option<Violation> {
    let mut first = None;
    let mut count = 0u64;
    for (byte, (&a, &b)) in expected.iter().zip(stored).enumerate() {
        let diff = a ^ b;
        if diff != 0 {
            count += u64::from(diff.count_ones());
            first.get_or_insert(byte as u64 * 8 + u64::from(diff.trailing_zeros()));
        }
    }
    let index = first?;
    Some(Violation {
        check: checks::STORED_BITS,
        index,
        value: values.get(index as usize).copied().unwrap_or(0),
        count,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_mismatches_are_counted_from_the_first() {
        assert!(bit_mismatch(&[0b1010, 0xff], &[0b1010, 0xff], &[0; 16]).is_none());
        let mut values = [0u8; 16];
        values[9] = 3;
        let v = bit_mismatch(&[0b1010, 0b0000_0110], &[0b1010, 0b0000_0100], &values).unwrap();
        assert_eq!(
            (v.check, v.index, v.value, v.count),
            (checks::STORED_BITS, 9, 3, 1)
        );
        let v = bit_mismatch(&[0, 0], &[0b1000_0001, 1], &values).unwrap();
        assert_eq!((v.index, v.count), (0, 3));
    }
}
