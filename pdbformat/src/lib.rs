//! The shared vocabulary of the PDB toolchain: boards, goals, puzzles, patterns, index ranking,
//! the versioned, checksummed PDB file format and the [`standard`] set of databases, with the
//! small helpers every crate needs ([`units`] for numbers in messages, [`system`] for what
//! `/proc` says about memory and load, [`memory`] for huge-page tables and prefetches) and, behind the `testkit` feature, the tests' shared
//! helpers.
//!
//! This crate does no printing and no threading: it computes and returns values and errors
//! (formatting to a `String` and reading `/proc` are as far as it goes); callers decide how to
//! report and how to parallelise. It builds no tables either: that is `pdbgen`'s job.

pub mod board;
pub mod error;
pub mod format;
pub mod goal;
pub mod memory;
pub mod parse;
pub mod pattern;
pub mod puzzle;
pub mod rank;
pub mod standard;
pub mod symmetry;
pub mod system;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod units;

pub use board::{Board, Direction};
pub use error::{PatternError, PuzzleError};
pub use goal::Goal;
pub use pattern::{Partition, Pattern};
pub use puzzle::Puzzle;
pub use rank::{TableIndex, TableKind};
pub use symmetry::Symmetry;
