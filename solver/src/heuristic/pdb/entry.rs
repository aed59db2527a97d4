//! The layout the estimate is kept in: one table under one view (an [`Entry`], shared by every
//! component that holds it), the components that sum entries, and for each tile the entries its
//! move changes ([`TileLinks`]).

use super::MAX_COMPONENTS;
use crate::db::LoadedTable;
use crate::position::MAX_CELLS;
use pdbformat::TableKind;
use std::sync::Arc;

/// In [`TileLinks::of_comp`]: the component holds no entry of the tile (the position of a
/// change that is always 0).
pub(super) const UNCHANGED: u8 = MAX_COMPONENTS as u8;

/// One table under one view, shared by every component that holds it: its cell map and the
/// user tile in each pattern slot.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) table: Arc<LoadedTable>,
    /// User cell → cell in the table's frame.
    pub(super) cellmap: [u8; MAX_CELLS],
    /// The user tile whose cell goes into each slot (pattern tile order).
    pub(super) slot_tile: Vec<u8>,
}

impl Entry {
    /// The user tiles this entry covers and its table's kind: entries that agree on both give
    /// the same value (every table is exact for its tile set).
    pub(super) fn covers(&self) -> (u64, TableKind) {
        let mask = self.slot_tile.iter().fold(0u64, |m, &t| m | 1u64 << t);
        (mask, self.table.kind)
    }

    /// Writes the cells of this entry's tiles, in its table's frame and slot order, into the
    /// first slots of `cells`, for the position whose tile `t` stands on `row[t]` (user
    /// frame); returns the set of those cells.
    #[inline(always)]
    pub(super) fn place(&self, row: &[u8; MAX_CELLS], cells: &mut [u8; MAX_CELLS]) -> u64 {
        let mut occ = 0u64;
        for (cell, &t) in cells.iter_mut().zip(&self.slot_tile) {
            let c = self.cellmap[row[t as usize & (MAX_CELLS - 1)] as usize & (MAX_CELLS - 1)];
            *cell = c;
            occ |= 1u64 << (c & 63);
        }
        occ
    }
}

/// A group of tables under one view, summed.
#[derive(Clone, Debug)]
pub(super) struct Component {
    /// For each user tile, the entry (global number) that holds it, or `NO_CELL`.
    pub(super) tile_entry: [u8; MAX_CELLS],
    /// The entries (global numbers) the component sums.
    pub(super) entries: Vec<u8>,
}

/// The entries one user tile's move changes: each distinct (table, view) that holds the tile
/// once, however many components share it (a catalogue's or compound's groups share
/// tables), those of the first [`PREFETCHED`] components first.
///
/// [`PREFETCHED`]: super::PREFETCHED
#[derive(Clone, Debug)]
pub(super) struct TileLinks {
    /// How many entries hold the tile.
    pub(super) len: u8,
    /// How many of them the first `PREFETCHED` components use (the first `lead` entries).
    pub(super) lead: u8,
    /// The entries (global numbers).
    pub(super) entry: [u8; MAX_COMPONENTS],
    /// The tile's slot in each.
    pub(super) slot: [u8; MAX_COMPONENTS],
    /// For each component, the position in `entry` of its entry for the tile, or
    /// [`UNCHANGED`].
    pub(super) of_comp: [u8; MAX_COMPONENTS],
}
