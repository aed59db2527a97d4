//! What a build reports while it runs, and what it reports at the end of each table.

use crate::stats::ValueStats;
use pdbformat::{Pattern, Symmetry, TableKind};
use std::time::Instant;

/// Receives progress from a build. Every method has an empty default; calls come from worker
/// threads, per chunk of work, never per state. Its calls mark the points a build passes
/// through (between levels, inside a level, while the file is written), which is also where
/// tests stop builds to check that they resume.
pub trait BuildObserver: Sync {
    /// A table starts: its number in the partition, pattern, kind and entry count.
    fn table_started(&self, _table: usize, _pattern: &Pattern, _kind: TableKind, _entries: u64) {}
    /// Table `table` (pattern `pattern`, `entries` entries) is derived from the finished table
    /// `source` through the board symmetry `symmetry` instead of being searched; its
    /// [`Self::table_done`] follows.
    fn table_derived(
        &self,
        _table: usize,
        _pattern: &Pattern,
        _source: usize,
        _symmetry: Symmetry,
        _entries: u64,
    ) {
    }
    /// A BFS level starts: it scans for entries of value `depth`.
    fn level_started(&self, _table: usize, _depth: u8) {}
    /// Part of the current level is done: `scanned` entries of the table so far in this level.
    fn chunk_done(&self, _table: usize, _scanned: u64) {}
    /// Level `depth` is finished: `reached` entries now hold a value.
    fn level_done(&self, _table: usize, _depth: u8, _reached: u64) {}
    /// Level `depth` of table `table` (not its last, which reaches nothing) is over and the
    /// build has saved what it saves after it (its resumable state's working table, when it
    /// saves one there): a build stopped from here on resumes after this level at the latest.
    /// Follows [`Self::level_done`].
    fn after_level(&self, _table: usize, _depth: u8) {}
    /// A table is finished.
    fn table_done(&self, _table: usize, _summary: &TableSummary) {}
    /// The file is being written: `written` bytes of its tables so far (on rank 0 of a
    /// distributed build; on the other ranks, the bytes of their slices sent to rank 0).
    /// Called per block written or sent, never per entry.
    fn output_written(&self, _written: u64) {}
}

/// An observer that ignores everything.
pub struct NoProgress;

impl BuildObserver for NoProgress {}

/// Figures of a finished table.
#[derive(Clone, Debug)]
pub struct TableSummary {
    /// The pattern.
    pub pattern: Pattern,
    /// The kind.
    pub kind: TableKind,
    /// Number of entries.
    pub entries: u64,
    /// Entries never reached (parity-unreachable states of patterns that fill the board).
    pub unreached: u64,
    /// Largest value.
    pub max_value: u8,
    /// Mean value over reached entries.
    pub mean_value: f64,
    /// Count of entries per value (`histogram[v]`, up to the maximum).
    pub histogram: Vec<u64>,
    /// Seconds spent building.
    pub seconds: f64,
}

impl TableSummary {
    /// The figures of a finished table of `pattern` and `kind` whose values `stats` counts
    /// (its entries: every value counted, unreached ones included), built since `start`.
    pub(crate) fn new(
        pattern: &Pattern,
        kind: TableKind,
        stats: ValueStats,
        start: Instant,
    ) -> TableSummary {
        TableSummary {
            pattern: pattern.clone(),
            kind,
            entries: stats.histogram.iter().sum::<u64>() + stats.unreached,
            unreached: stats.unreached,
            max_value: stats.max_value(),
            mean_value: stats.mean(),
            histogram: stats.histogram,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}
