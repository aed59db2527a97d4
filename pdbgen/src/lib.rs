//! Builds additive pattern databases for sliding-tile puzzles by parallel reverse BFS, and
//! checks finished tables without rebuilding them.
//!
//! Entry points: [`build_file`] (a whole partition into one PDB file), [`build_table`] (one
//! table in memory) and [`semantic::verify_table`] (the rebuild-free correctness check).

pub mod bfs;
pub mod build;
pub mod hugepages;
pub mod moves;
pub mod observer;
pub mod progress;
pub mod reduce;
pub mod restore;
pub mod semantic;
pub mod stats;
pub mod twobit;
pub mod words;

pub use build::{available_memory, build_file, build_table, plan, BuildPlan, BuildRequest};
pub use observer::{BuildObserver, NoProgress, TableSummary};
pub use words::{Entries, UNREACHED};
