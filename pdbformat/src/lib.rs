#![doc = include_str!("../README.md")]

pub mod board;
pub mod cover;
pub mod error;
pub mod format;
pub mod goal;
pub mod memory;
pub mod metric;
pub mod notation;
pub mod parse;
pub mod pattern;
mod presets;
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
pub use metric::Metric;
pub use pattern::{Partition, Pattern};
pub use puzzle::Puzzle;
pub use rank::{TableIndex, TableKind};
pub use symmetry::Symmetry;
