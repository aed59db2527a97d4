//! Index ranking: bijections between abstract pattern states and dense ranges of integers.
//!
//! Two schemes exist, one for each table kind:
//! - [`PermutationIndex`] (zero-unaware tables): the pattern tiles' cells as a k-permutation of
//!   the board's N cells, ranked into `0..N!/(N-k)!`.
//! - [`ZeroAwareIndex`] (zero-aware tables): the occupied cell set, the free-cell region that
//!   holds the blank, and the order of the tiles inside the set, ranked into `0..R·k!` where R
//!   is the total number of (cell set, region) pairs.
//!
//! [`FastIndex`] computes the same numbering for lookups in a search's inner loop (fewer
//! dependent memory accesses); the reference indexes above define it and rank or unrank both
//! ways.
//!
//! [`ClassIndex`] numbers the goal-row class boards of multi-tile-metric tables.
//!
//! Cells of pattern tiles are always given in the pattern's tile order (ascending tile numbers).

mod binomial;
mod class_index;
mod class_labels;
mod combination;
mod fast;
mod permutation;
mod popcount;
mod regions;
mod zero_aware;

pub use binomial::{binomial, Binomials};
pub use class_index::ClassIndex;
pub use class_labels::{CellClasses, ClassLabels};
pub use combination::{rank_combination, unrank_combination};
pub use fast::{FastIndex, FastZeroAware};
pub use permutation::{permutation_count, rank_permutation, unrank_permutation, PermutationIndex};
pub use popcount::{
    hardware_popcount_available, popcount, popcount_hardware, popcount_path, popcount_with,
    select_popcount, PopcountPath,
};
pub use regions::{flood, BoardBits};
pub use zero_aware::ZeroAwareIndex;

use crate::board::Board;
use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// How a table treats the blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// One value per tile configuration: the minimum over all blank positions.
    ZeroUnaware,
    /// One value per tile configuration and free-cell region holding the blank: exact.
    ZeroAware,
}

impl TableKind {
    /// The name used on command lines and in reports.
    pub fn name(self) -> &'static str {
        match self {
            TableKind::ZeroUnaware => "zero-unaware",
            TableKind::ZeroAware => "zero-aware",
        }
    }

    /// Parses `zero-aware` or `zero-unaware`.
    pub fn parse(s: &str) -> Option<TableKind> {
        match s {
            "zero-aware" | "za" => Some(TableKind::ZeroAware),
            "zero-unaware" | "zu" => Some(TableKind::ZeroUnaware),
            _ => None,
        }
    }

    /// The index scheme tables of this kind use.
    pub fn scheme(self) -> IndexScheme {
        match self {
            TableKind::ZeroUnaware => IndexScheme::PermutationRank,
            TableKind::ZeroAware => IndexScheme::CellSetRegionOrder,
        }
    }
}

impl fmt::Display for TableKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How abstract states are numbered; stored in the file so that readers can reject a scheme
/// they do not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexScheme {
    /// [`PermutationIndex`].
    PermutationRank,
    /// [`ZeroAwareIndex`].
    CellSetRegionOrder,
}

impl IndexScheme {
    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            IndexScheme::PermutationRank => "permutation-rank",
            IndexScheme::CellSetRegionOrder => "cellset-region-order",
        }
    }
}

/// Why an index cannot be made for a board and pattern size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// More than 64 cells or a pattern that leaves no free cell.
    #[error("cannot index {k} tiles on a {board} board: {why}")]
    Unsupported {
        /// The board, in words.
        board: String,
        /// Pattern size.
        k: usize,
        /// Why not.
        why: String,
    },
}

impl IndexError {
    /// `Unsupported` for `k` tiles on `board`, because of `why`.
    fn unsupported(board: Board, k: usize, why: &str) -> IndexError {
        IndexError::Unsupported {
            board: board.to_string(),
            k,
            why: why.to_string(),
        }
    }
}

/// Checks what every index needs: a board of at most 64 cells and `1 ≤ k < cells`.
fn check_pattern_size(board: Board, k: usize) -> Result<(), IndexError> {
    if !board.fits_pdb() {
        return Err(IndexError::unsupported(
            board,
            k,
            "boards of at most 64 cells are supported",
        ));
    }
    if k == 0 || k >= board.cells() {
        return Err(IndexError::unsupported(
            board,
            k,
            "a pattern needs 1 to cells-1 tiles",
        ));
    }
    Ok(())
}

/// The length of an index of `k` tiles on `board` (`None` when it overflowed), checked to be
/// at most [`permutation::MAX_ENTRIES`].
fn checked_len(board: Board, k: usize, len: Option<u64>) -> Result<u64, IndexError> {
    len.filter(|&l| l <= permutation::MAX_ENTRIES)
        .ok_or_else(|| IndexError::unsupported(board, k, "the table would exceed 2^40 entries"))
}

/// Either index scheme, chosen by table kind.
#[derive(Clone, Debug)]
pub enum TableIndex {
    /// For zero-unaware tables.
    Permutation(PermutationIndex),
    /// For zero-aware tables.
    ZeroAware(ZeroAwareIndex),
}

impl TableIndex {
    /// The index for `k` pattern tiles on `board` for tables of `kind`.
    pub fn new(board: Board, k: usize, kind: TableKind) -> Result<TableIndex, IndexError> {
        Ok(match kind {
            TableKind::ZeroUnaware => TableIndex::Permutation(PermutationIndex::new(board, k)?),
            TableKind::ZeroAware => TableIndex::ZeroAware(ZeroAwareIndex::new(board, k)?),
        })
    }

    /// Number of entries (the size of the index range).
    pub fn len(&self) -> u64 {
        match self {
            TableIndex::Permutation(p) => p.len(),
            TableIndex::ZeroAware(z) => z.len(),
        }
    }

    /// Whether the range is empty (never, for a valid index).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the state with the pattern tiles on `cells` (tile order) and the blank on
    /// `blank` (ignored by zero-unaware indexes; must be free for zero-aware ones).
    pub fn index(&self, cells: &[u8], blank: usize) -> u64 {
        match self {
            TableIndex::Permutation(p) => p.index(cells),
            TableIndex::ZeroAware(z) => z.index(cells, blank),
        }
    }

    /// The state of `index`: fills `cells` (tile order) and returns a blank cell representative
    /// of the state (for zero-unaware indexes: the lowest free cell).
    pub fn unrank(&self, index: u64, cells: &mut [u8]) -> usize {
        match self {
            TableIndex::Permutation(p) => {
                p.unrank(index, cells);
                let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
                (!occ).trailing_zeros() as usize
            }
            TableIndex::ZeroAware(z) => z.unrank(index, cells),
        }
    }
}

/// The number of entries of a table of `kind` for `k` tiles on `board`, computed without
/// tabulating the index (zero-aware counts flood-fill every cell set once, a second for
/// C(36, 6) sets: each count is kept for the process, since planners and the advisor ask for
/// the same sizes again and again).
pub fn entry_count(board: Board, k: usize, kind: TableKind) -> Result<u64, IndexError> {
    match kind {
        TableKind::ZeroUnaware => Ok(PermutationIndex::new(board, k)?.len()),
        TableKind::ZeroAware => {
            type Counts = HashMap<(usize, usize, usize), u64>;
            static COUNTS: OnceLock<Mutex<Counts>> = OnceLock::new();
            let key = (board.width(), board.height(), k);
            let counts = COUNTS.get_or_init(Mutex::default);
            if let Some(&n) = counts.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
                return Ok(n);
            }
            let n = ZeroAwareIndex::count_entries(board, k)?;
            counts
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(key, n);
            Ok(n)
        }
    }
}
