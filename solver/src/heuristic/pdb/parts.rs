//! The state the search keeps per position ([`PdbParts`]) and per move ([`PdbPending`],
//! [`PdbUndo`]).

use super::{MAX_COMPONENTS, MAX_ENTRIES, PREFETCHED};
use crate::position::MAX_CELLS;

/// The parts of the estimate of one position: each entry's tile cells, occupied set and value, each component's sum.
#[derive(Debug)]
pub struct PdbParts {
    pub(super) cells: Vec<[u8; MAX_CELLS]>,
    pub(super) occ: [u64; MAX_ENTRIES],
    pub(super) values: [u8; MAX_ENTRIES],
    pub(super) sums: [u32; MAX_COMPONENTS],
    pub(super) h: u32,
}

impl Clone for PdbParts {
    fn clone(&self) -> Self {
        PdbParts {
            cells: self.cells.clone(),
            occ: self.occ,
            values: self.values,
            sums: self.sums,
            h: self.h,
        }
    }

    /// Copies into the vectors already there: no allocation between parts of one heuristic.
    fn clone_from(&mut self, source: &Self) {
        self.cells.clone_from(&source.cells);
        self.occ = source.occ;
        self.values = source.values;
        self.sums = source.sums;
        self.h = source.h;
    }
}

/// Entry `e`'s index in the fixed arrays of [`PdbParts`]: `e` itself, which construction keeps
/// below [`MAX_ENTRIES`]; the mask lets the compiler drop the bounds check on the search's
/// path.
#[inline(always)]
pub(super) fn entry_ix(e: usize) -> usize {
    e & (MAX_ENTRIES - 1)
}

/// What one child's update needs, prepared before the node's children are applied: the
/// index of each entry the first components look up (computed and prefetched by
/// [`Heuristic::prepare`]) and, once [`Heuristic::evaluate`] has looked them up, the new
/// value of every entry the move changes (by position in the tile's `TileLinks`) and the
/// child's estimate.
///
/// [`Heuristic::prepare`]: crate::heuristic::Heuristic::prepare
/// [`Heuristic::evaluate`]: crate::heuristic::Heuristic::evaluate
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbPending {
    pub(super) index: [u64; PREFETCHED],
    pub(super) values: [u8; MAX_COMPONENTS],
    pub(super) h: u32,
    pub(super) evaluated: bool,
}

/// Restores a [`PdbParts`]: the previous value of each entry the move changed (by position
/// in the tile's `TileLinks`), every component's previous sum (a copy: cheaper than undoing
/// each change) and the previous estimate.
#[derive(Clone, Copy, Debug)]
pub struct PdbUndo {
    pub(super) old: [u8; MAX_COMPONENTS],
    pub(super) sums: [u32; MAX_COMPONENTS],
    pub(super) h: u32,
}
