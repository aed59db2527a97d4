//! Builds additive pattern databases for sliding-tile puzzles by parallel reverse BFS, and
//! checks finished tables without rebuilding them.
//!
//! Entry points: [`build_file`] (a whole partition into one PDB file), [`build_table`] (one
//! table in memory), [`BuildRequest::standard`] (the request for a standard database),
//! [`verify::verify_file`] (checksums and the rebuild-free semantic check of a whole file, as
//! a report) and [`semantic::verify_table`] (the semantic check of one table's values).
//!
//! Errors are typed ([`error`]), one enum per operation; the `pdbgen` binary alone turns them
//! into messages. The library prints nothing except through the observers it is given
//! ([`progress`] holds the terminal ones the binary uses).

pub mod bfs;
pub mod build;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod error;
pub mod moves;
pub mod observer;
pub mod reduce;
pub mod restore;
pub mod semantic;
pub mod slice;
pub mod standard;
pub mod stats;
pub mod symmetric;
pub mod twobit;
pub mod verify;
pub mod words;

pub use build::{build_file, build_table, plan, BuildPlan, BuildRequest};
pub use error::{BuildError, CheckError, RestoreError, VerifyError};
pub use observer::{BuildObserver, NoProgress, TableSummary};
pub use standard::build_standard;
pub use words::{Entries, UNREACHED};
