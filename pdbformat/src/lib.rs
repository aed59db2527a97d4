//! The shared vocabulary of the PDB toolchain: boards, goals, puzzles, patterns, index ranking
//! and the versioned, checksummed PDB file format.
//!
//! This crate does no printing and no threading: it computes and returns values and errors;
//! callers decide how to report and how to parallelise.

pub mod board;
pub mod error;
pub mod format;
pub mod goal;
pub mod parse;
pub mod pattern;
pub mod puzzle;
pub mod rank;
pub mod symmetry;

pub use board::{Board, Direction};
pub use error::{PatternError, PuzzleError};
pub use goal::Goal;
pub use pattern::{Partition, Pattern};
pub use puzzle::Puzzle;
pub use rank::{TableIndex, TableKind};
pub use symmetry::Symmetry;
