//! What to build ([`BuildRequest`]), and what a request or a finished table may not ask of the
//! output encoding: the checks that the single-process, two-bit and distributed builds share.

use crate::error::BuildError;
use crate::observer::TableSummary;
use pdbformat::format::{Encoding, WriteOptions};
use pdbformat::{Goal, Partition, TableKind};

/// Everything that defines a partition file to build.
#[derive(Clone, Debug)]
pub struct BuildRequest {
    /// Goal (and board).
    pub goal: Goal,
    /// The patterns, one table each.
    pub partition: Partition,
    /// Zero-aware or zero-unaware.
    pub kind: TableKind,
    /// Worker threads; `None` for all cores.
    pub threads: Option<usize>,
    /// Entry encoding in the file.
    pub encoding: Encoding,
    /// Compression and levels.
    pub write: WriteOptions,
}

impl BuildRequest {
    /// Whether the build runs the two-bit BFS (zero-aware `bit1` tables), which never holds a
    /// byte per entry.
    pub(crate) fn two_bit(&self) -> bool {
        self.encoding == Encoding::Bit1 && self.kind == TableKind::ZeroAware
    }

    /// Refuses `bit1` entries for zero-unaware tables, whose values can change by more than 1
    /// per move.
    pub(crate) fn check_encoding(&self) -> Result<(), BuildError> {
        if self.encoding == Encoding::Bit1 && self.kind != TableKind::ZeroAware {
            return Err(BuildError::Bit1NeedsZeroAware);
        }
        Ok(())
    }
}

/// Refuses a finished table (its `summary`) that entries of `encoding` cannot hold:
/// parity-unreachable entries outside `u8`, values beyond 15 in `u4`, distances beyond a byte.
pub(crate) fn check_fits(encoding: Encoding, summary: &TableSummary) -> Result<(), BuildError> {
    let pattern = summary.pattern.to_string();
    if summary.unreached > 0 && encoding != Encoding::U8 {
        return Err(BuildError::UnreachedNeedsU8 { pattern });
    }
    if encoding == Encoding::U4 && summary.max_value > 15 {
        return Err(BuildError::TooLargeForU4 {
            pattern,
            max: summary.max_value,
        });
    }
    if summary.histogram.len() > u8::MAX as usize {
        return Err(BuildError::TooDeep { pattern });
    }
    Ok(())
}
