//! Pattern-database files loaded for searching: tables with their index, checked against the
//! board and goal they will serve.
//!
//! A [`Database`] is one PDB file: one goal and one or more tables (usually a whole partition).
//! Each table's entries are held once, in anonymous memory that asks the kernel for huge pages
//! (`madvise(MADV_HUGEPAGE)` on Linux): lookups are random accesses over tens of megabytes to
//! gigabytes, and 2 MiB pages spare most of their TLB misses. Raw payloads are read straight
//! into place, compressed ones decoded straight into place (zstd uses the table itself as its
//! window), and their digest is checked on the way, or, with
//! [`OpenOptions::verify_in_background`], by a second thread over the loaded entries while the
//! search already runs: [`Database::wait_verified`] gives its verdict, and [`crate::solve`]
//! waits for it before it returns any result, so a corrupted table is reported as such and never
//! gives an answer presented as good. With [`OpenOptions::expect_goal`] the header is checked
//! against the puzzle's board and goal before any entry is read.
//!
//! `u8` and `u4` entries hold values. `bit1` entries hold bit 1 of each value of a zero-aware
//! table and are read with *differential lookups*: a pattern move changes such a value by
//! exactly ±1, so the child's value is the one of `v - 1`, `v + 1` whose bit 1 is the stored bit
//! ([`LoadedTable::child_value`]). The value of a first position comes from a walk down to the
//! goal ([`LoadedTable::exact_value`]).
//!
//! One concept per file: `error.rs` ([`DbError`]), `table.rs` ([`LoadedTable`] and its
//! lookups), `walk.rs` (the `bit1` walk to the goal), `load.rs` (opening: huge-page memory or
//! a mapping, [`OpenOptions`], [`Residence`]), `digest_check.rs` (the background digest check),
//! `frame.rs` (which goals a database serves), `shared_index.rs` (one copy of each table shape's
//! index per process).

mod class_tables;
mod digest_check;
mod error;
mod frame;
mod load;
mod shared_index;
mod table;
mod walk;

pub use class_tables::ClassTable;
pub use error::DbError;
pub use load::{OpenOptions, Residence};
pub use table::LoadedTable;

use digest_check::BackgroundCheck;
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal, Metric, Symmetry};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One PDB file loaded for searching.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    goal: Goal,
    /// The metric the tables count moves in, as the file says.
    metric: Metric,
    tables: Vec<Arc<LoadedTable>>,
    /// The class tables of a multi-tile-metric file (then `tables` is empty).
    classes: Vec<ClassTable>,
    bytes: u64,
    load_seconds: f64,
    /// The digest check running beside the search, when it was asked for.
    background: Option<BackgroundCheck>,
}

impl Database {
    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The goal the tables were built for.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.goal.board()
    }

    /// The pattern tables, in file order (none in a file of class tables).
    pub fn tables(&self) -> &[Arc<LoadedTable>] {
        &self.tables
    }

    /// The move metric the file's tables count in (`stm` for version 1 files).
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The class tables, in file order (none in a file of pattern tables).
    pub fn class_tables(&self) -> &[ClassTable] {
        &self.classes
    }

    /// Refuses a database whose tables count moves in another metric than `metric`, the
    /// search's: an STM table overestimates MTM distances, and an MTM table belongs to the
    /// class heuristic.
    pub fn check_metric(&self, metric: Metric) -> Result<(), DbError> {
        if self.metric == metric {
            Ok(())
        } else {
            Err(DbError::WrongMetric {
                path: self.path.clone(),
                db_metric: self.metric,
                metric,
            })
        }
    }

    /// The file's size in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.bytes
    }

    /// Seconds spent opening, loading and verifying.
    pub fn load_seconds(&self) -> f64 {
        self.load_seconds
    }

    /// The patterns, `/`-separated, in the database goal's tile numbers (`1-7/8-15`); for a
    /// class database its labellings, ` + `-separated.
    pub fn describe_patterns(&self) -> String {
        if !self.classes.is_empty() {
            let v: Vec<String> = (self.classes.iter())
                .map(|c| format!("{} classes", c.labels))
                .collect();
            return v.join(" + ");
        }
        let v: Vec<String> = self.tables.iter().map(|t| t.pattern.to_string()).collect();
        v.join("/")
    }

    /// The tables' encodings, `/`-separated, each run of equal ones named once (`bit1`,
    /// `u8/bit1`).
    pub fn describe_encodings(&self) -> String {
        let mut names: Vec<&str> = (self.tables.iter().map(|t| &t.header))
            .chain(self.classes.iter().map(|c| &c.header))
            .map(|h| h.encoding.name())
            .collect();
        names.dedup();
        names.join("/")
    }

    /// Whether every table is zero-aware.
    pub fn is_zero_aware(&self) -> bool {
        self.tables.iter().all(|t| t.kind == TableKind::ZeroAware)
    }

    /// Whether the tables cover every tile of the board.
    pub fn is_complete(&self) -> bool {
        let n = self.board().cells();
        let mut seen = vec![false; n];
        for t in &self.tables {
            for &x in t.pattern.tiles() {
                seen[x as usize] = true;
            }
        }
        seen[1..].iter().all(|&s| s)
    }

    /// The symmetry that carries `goal`'s frame into this database's frame: it takes the
    /// goal's blank cell to the database goal's blank cell. Errors when the board differs or
    /// no symmetry fits.
    pub fn frame_for(&self, goal: &Goal) -> Result<Symmetry, DbError> {
        frame::between(&self.path, &self.goal, goal)
    }

    /// Whether this database can serve `goal` (same board, blank cells related by a symmetry).
    pub fn fits(&self, goal: &Goal) -> bool {
        self.frame_for(goal).is_ok()
    }
}
