//! Builds additive pattern databases for sliding-tile puzzles by parallel reverse BFS, and
//! checks finished tables without rebuilding them.
//!
//! Everything public is here, at the crate root; the modules behind it are private.
//!
//! - **Building.** [`plan`] tells what a [`BuildRequest`] needs (entries, peak memory, rough
//!   processor time) before anything is built; [`build_file`] builds a whole partition into one
//!   PDB file, [`build_table`] one table in memory ([`Entries`], [`UNREACHED`] where the
//!   search never went), [`build_standard`] a database of [`pdbformat::standard`]. Progress
//!   goes to a [`BuildObserver`] ([`NoProgress`] ignores it), each finished table's figures
//!   to a [`TableSummary`].
//! - **Checking.** [`verify_file`] (or [`verify_tables`] on an opened file) checks the
//!   checksums and, on request, the values of every table of a file without rebuilding it,
//!   and returns a [`FileReport`]; [`verify_table`] is the semantic check of one table's values
//!   ([`Violation`]s named by [`checks`]); [`values_of`] gives a loaded table's exact values,
//!   restoring `bit1` tables by a guided BFS; [`ValueStats`] counts them.
//! - **Across machines** (cargo feature `mpi`): `plan_distributed`, `check_rank_memory` and
//!   `build_file_distributed` run the same BFS over the ranks of an MPI job, each rank owning
//!   one slice of every table (see `docs/DISTRIBUTED.md`).
//!
//! Errors are typed, one enum per operation ([`BuildError`], [`RestoreError`], [`CheckError`],
//! [`VerifyError`]); the `pdbgen` command alone turns them into messages. The library prints
//! nothing except through the observers it is given.
//!
//! # Example
//!
//! Two 4-tile tables of the 8-puzzle, planned, built into a file and verified:
//!
//! ```
//! use pdbformat::format::{Encoding, WriteOptions};
//! use pdbformat::{Board, Goal, Partition, TableKind};
//! use pdbgen::{build_file, plan, verify_file, BuildRequest, NoProgress, VerifyOptions};
//!
//! let goal = Goal::blank_first(Board::new(3, 3)?);
//! let request = BuildRequest {
//!     partition: Partition::parse(&goal, "1-4/5-8")?,
//!     goal,
//!     kind: TableKind::ZeroAware,
//!     threads: Some(2),
//!     encoding: Encoding::U8,
//!     write: WriteOptions::default(),
//! };
//! // 9 · 8 · 7 · 6 tile placements per table, told apart by the blank's free region.
//! let needs = plan(&request)?;
//! assert_eq!(needs.entries.len(), 2);
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("8-44.pdb");
//! let tables = build_file(&request, &path, &NoProgress)?;
//! assert_eq!(tables[0].pattern.to_string(), "1-4");
//! assert_eq!(tables[0].entries, needs.entries[0]);
//!
//! let report = verify_file(&path, VerifyOptions::semantic(), &NoProgress)?;
//! assert!(report.passed());
//! assert!(report.tables.iter().all(|t| t.semantic));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod byte_table;
#[cfg(feature = "mpi")]
mod distributed;
mod error;
mod file_check;
mod levels;
mod moves;
mod observer;
mod plan;
mod pool;
mod reduce;
mod request;
mod restore;
mod semantic;
mod slice;
mod standard_build;
mod stats;
mod symmetric;
mod twobit;

pub use build::{build_file, build_table};
pub use byte_table::{Entries, UNREACHED};
#[cfg(feature = "mpi")]
pub use distributed::{
    build_file_distributed, check_rank_memory, plan_distributed, DistributedOptions,
    DistributedPlan, DistributedTable,
};
pub use error::{BuildError, CheckError, RestoreError, VerifyError};
pub use file_check::{
    verify_file, verify_tables, FileReport, Problem, TableReport, VerifyDepth, VerifyObserver,
    VerifyOptions,
};
pub use observer::{BuildObserver, NoProgress, TableSummary};
pub use plan::{plan, BuildPlan};
pub use request::BuildRequest;
pub use restore::{values_of, Values};
pub use semantic::{checks, verify_table, Violation};
pub use standard_build::build_standard;
pub use stats::ValueStats;
