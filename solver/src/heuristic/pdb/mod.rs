//! Additive pattern databases: sums over disjoint patterns, the maximum over several partitions,
//! and the symmetric lookups (reflections and rotations fixing the goal's blank) in the same
//! tables.
//!
//! # Frames and views
//! A table is defined by a board, a goal and a pattern; tiles are only names for goal cells.
//! A table built for goal `G'` serves the user's goal `G` when a board symmetry `S` takes `G`'s
//! blank cell to `G'`'s: a user tile `t` on cell `x` is looked up as tile `G'.tile_at(S(G.cell_of(t)))`
//! on cell `S(x)`. The search itself always runs in the user's frame, so moves need no
//! translation; each table carries its own cell map.
//!
//! A *view* composes one more symmetry `ρ` that fixes `G`'s blank cell: the position with tile
//! `t` on `x` is looked up as if tile `G.tile_at(ρ(G.cell_of(t)))` stood on `ρ(x)`. That
//! position is as far from the goal as the real one, so its estimate is admissible too, and the
//! heuristic takes the maximum. The views are every board symmetry that fixes the goal's blank
//! cell ([`reflections_for`]): on a square board the transposition when the goal blank lies on
//! the main diagonal (for example `blank-first` and `blank-last`, the corners), the
//! anti-transposition on the anti-diagonal, all eight symmetries for a centre blank of an odd
//! square, and the flips of a rectangle whose blank lies on a middle line.
//!
//! A view can repeat another component: under `ρ` a table of pattern `p` gives the exact value
//! of the user tiles `ρ(p)`, so a (group, view) whose viewed tile sets (and table kinds) equal
//! an earlier component's computes the same sum and is left out. A partition that is its own
//! mirror image (the preset `6666s`) thus costs one component, not two, and a catalogue that
//! holds a partition and its transpose costs no more with reflection than without.
//!
//! # Groups
//! Tables are taken in order (files in the order given, tables in file order) and grouped: a
//! table joins the current group when the user tiles it covers are disjoint from the group's,
//! otherwise it starts a new group. A file whose tables overlap (a compound, such as the 5×5
//! default `24-6666x7-za-bit1`) gives one group per exact cover of its tiles instead
//! ([`pdbformat::cover`]), so that its partitions share their tables. A group's estimate is the
//! sum of its tables (admissible because each table counts only its own tiles' moves); the
//! heuristic is the maximum over groups and views. Every (group, view) pair is a *component*.
//!
//! # Incremental update
//! Within a component each tile belongs to at most one table, so a move re-looks-up at most one
//! table per component: the moved tile's. A move of any other tile leaves the other tables'
//! values unchanged — zero-unaware values do not depend on the blank, and for zero-aware ones
//! the blank stays in the same free region. Components that hold the same user tiles with a
//! table of the same kind (a catalogue's or compound's groups with patterns in common, a
//! partition's transpose under the reflection) share one *entry*: its cells, its value and its
//! lookup are kept once, and a move changes each entry that holds the moved tile once, then
//! every component's sum by its entry's change.
//!
//! # Differential lookups
//! Every (table, view) pair carries its exact value along the search path, so `bit1` tables
//! (bit 1 of each value) serve as well as byte tables: a move of the pattern's tile changes the
//! value by exactly ±1 and the stored bit of the child says which
//! ([`LoadedTable::child_value`]). Only [`Heuristic::init`] needs more: a walk down to the goal
//! per table and view ([`LoadedTable::exact_value`]). The choice is per table, so one
//! heuristic may mix encodings.
//!
//! [`LoadedTable::child_value`]: crate::db::LoadedTable::child_value
//! [`LoadedTable::exact_value`]: crate::db::LoadedTable::exact_value

mod batch;
mod build;
mod entry;
mod parts;
mod shuffle;
mod views;

pub use parts::{PdbParts, PdbPending, PdbUndo};
pub use views::{reflection_for, reflections_for};

use super::{Heuristic, StepChange};
use crate::position::{MAX_CELLS, NO_CELL};
use entry::{Component, Entry, TileLinks};
use parts::entry_ix;
use pdbformat::{Symmetry, TableKind};

/// The most components (groups × views) one heuristic combines.
pub const MAX_COMPONENTS: usize = 16;

/// The most distinct (table, view) entries one heuristic combines.
pub const MAX_ENTRIES: usize = 64;

/// Components whose lookups [`Heuristic::prepare`] computes and prefetches ahead (the others'
/// are computed in [`Heuristic::evaluate`] once these leave the child within the bound).
const PREFETCHED: usize = 4;

/// An additive pattern-database heuristic prepared for one goal.
#[derive(Clone, Debug)]
pub struct PdbHeuristic {
    /// Every distinct (table, view): components that share one share its entry.
    entries: Vec<Entry>,
    comps: Vec<Component>,
    /// For each user tile, the entries its move changes.
    links: Vec<TileLinks>,
    groups: usize,
    reflections: Vec<Symmetry>,
    cells: usize,
    /// How many entries are `bit1` tables (the bytes of a memo, see [`Heuristic::memo_len`]).
    differential: usize,
}

impl PdbHeuristic {
    /// Number of additive groups (the heuristic is the maximum over groups and views).
    pub fn groups(&self) -> usize {
        self.groups
    }

    /// The symmetries in use as extra views: those of [`reflections_for`] that gave at least
    /// one component not equal to an earlier one (empty without reflection).
    pub fn reflections(&self) -> &[Symmetry] {
        &self.reflections
    }

    /// Number of components (groups × views, less the views that repeat a component).
    pub fn components(&self) -> usize {
        self.comps.len()
    }

    /// Each component's current sum, the plain view's groups first, then each symmetry's.
    pub fn component_values(&self, state: &PdbParts) -> Vec<u32> {
        state.sums[..self.comps.len()].to_vec()
    }

    /// The cell of each tile of the position `tiles` (`tiles[cell]`).
    fn cell_of(&self, tiles: &[u8; MAX_CELLS]) -> [u8; MAX_CELLS] {
        let mut cell_of = [0u8; MAX_CELLS];
        for (c, &t) in tiles.iter().enumerate().take(self.cells) {
            cell_of[t as usize] = c as u8;
        }
        cell_of
    }
}

/// The moved tile's place in one component's table, the steps that `prepare`, `evaluate` and
/// `apply` share.
impl PdbHeuristic {
    /// The index in entry `e`'s table after its tile in `slot` moves from `from` to `to`
    /// (user cells), computed on a copy: `s` is not changed.
    #[inline(always)]
    fn child_index(&self, s: &PdbParts, e: usize, slot: usize, from: u8, to: u8) -> u64 {
        let entry = &self.entries[e];
        let k = entry.slot_tile.len();
        let (nf, nt) = (entry.cellmap[from as usize], entry.cellmap[to as usize]);
        // The whole fixed-size array: a copy of `k` bytes would be a call to `memmove`.
        let mut cells = s.cells[e];
        cells[slot & (MAX_CELLS - 1)] = nt;
        let occ = s.occ[entry_ix(e)] ^ (1u64 << (nf & 63)) ^ (1u64 << (nt & 63));
        entry.table.index(&cells[..k], occ, nf)
    }

    /// Makes `s` (parts of this heuristic: one slot per entry) the parts of the position
    /// `tiles`, each entry's value given by `value_of` (the entry, its tiles' cells in slot
    /// order, their occupied set and the blank's cell, all in the table's frame): the one
    /// construction [`Heuristic::init`] and [`Heuristic::restore`] share.
    fn fill_parts(
        &self,
        s: &mut PdbParts,
        tiles: &[u8; MAX_CELLS],
        mut value_of: impl FnMut(&Entry, &[u8], u64, u8) -> u8,
    ) {
        let cell_of = self.cell_of(tiles);
        let blank = cell_of[0];
        s.sums = [0; MAX_COMPONENTS];
        for (e, entry) in self.entries.iter().enumerate().take(MAX_ENTRIES) {
            let occ = entry.place(&cell_of, &mut s.cells[e]);
            s.occ[e] = occ;
            let k = entry.slot_tile.len();
            s.values[e] = value_of(entry, &s.cells[e][..k], occ, entry.cellmap[blank as usize]);
        }
        for (ci, comp) in self.comps.iter().enumerate() {
            s.sums[ci] = comp
                .entries
                .iter()
                .map(|&e| s.values[e as usize] as u32)
                .sum();
        }
        s.h = s.sums[..self.comps.len()]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
    }

    /// Component `ci`'s sum for the child in which `tile` moved, each entry's change (new
    /// value less old, wrapping) in `change` by position in its `TileLinks`, 0 at
    /// [`UNCHANGED`].
    #[inline(always)]
    fn child_sum(
        &self,
        s: &PdbParts,
        links: &TileLinks,
        ci: usize,
        change: &[u32; MAX_COMPONENTS + 1],
    ) -> u32 {
        let pos = links.of_comp[ci & (MAX_COMPONENTS - 1)] as usize;
        s.sums[ci & (MAX_COMPONENTS - 1)].wrapping_add(change[pos.min(MAX_COMPONENTS)])
    }

    /// The change of entry `e`'s value to `new` (wrapping), as [`PdbHeuristic::child_sum`]
    /// adds it.
    #[inline(always)]
    fn change(s: &PdbParts, e: usize, new: u8) -> u32 {
        (new as u32).wrapping_sub(s.values[entry_ix(e)] as u32)
    }

    /// Moves the tile in `slot` of entry `e` from `from` to `to` (user cells) in the entry's
    /// cells and occupied set.
    #[inline(always)]
    fn slide(&self, s: &mut PdbParts, e: usize, slot: usize, from: u8, to: u8) {
        let entry = &self.entries[e];
        let (nf, nt) = (entry.cellmap[from as usize], entry.cellmap[to as usize]);
        s.cells[e][slot & (MAX_CELLS - 1)] = nt;
        s.occ[entry_ix(e)] ^= (1u64 << (nf & 63)) ^ (1u64 << (nt & 63));
    }
}

impl Heuristic for PdbHeuristic {
    type Parts = PdbParts;
    type Undo = PdbUndo;
    type Pending = PdbPending;

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> PdbParts {
        let mut s = PdbParts {
            cells: vec![[0u8; MAX_CELLS]; self.entries.len()],
            occ: [0; MAX_ENTRIES],
            values: [0; MAX_ENTRIES],
            sums: [0; MAX_COMPONENTS],
            h: 0,
        };
        // A corrupt bit1 table (see `check_position`) counts 0, which keeps the estimate
        // admissible at the start.
        self.fill_parts(&mut s, tiles, |entry, cells, occ, blank| {
            entry.table.exact_value(cells, occ, blank).unwrap_or(0)
        });
        s
    }

    #[inline(always)]
    fn value(&self, s: &PdbParts) -> u32 {
        s.h
    }

    #[inline(always)]
    fn prepare(&self, s: &PdbParts, tile: u8, from: u8, to: u8) -> PdbPending {
        let mut p = PdbPending::default();
        let links = &self.links[tile as usize];
        for pos in 0..links.lead as usize {
            let (e, slot) = (links.entry[pos] as usize, links.slot[pos] as usize);
            let i = self.child_index(s, e, slot, from, to);
            self.entries[e].table.prefetch(i);
            p.index[pos] = i;
        }
        p
    }

    /// Looks up every entry the move changes and keeps the values in `pending`, so that
    /// `apply` only writes them: first those of the first `PREFETCHED` components, whose
    /// indexes `prepare` computed (their cache lines on their way), then, unless those
    /// components already show the child above `limit` (it will be pruned: the rest are not
    /// looked up), the indexes of all the others, each line prefetched before any is read, so
    /// that a catalogue's many lookups wait for memory once rather than one after another.
    // Plain position loops over several arrays at once: the iterator adaptors clippy
    // suggests (zip, skip, take) cost more instructions per lookup here.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn evaluate(
        &self,
        s: &PdbParts,
        _tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        limit: u32,
        pending: &mut PdbPending,
    ) -> u32 {
        let n = self.comps.len().min(MAX_COMPONENTS);
        let first = n.min(PREFETCHED);
        let links = &self.links[tile as usize];
        let lead = (links.lead as usize).min(MAX_COMPONENTS);
        let len = (links.len as usize).min(MAX_COMPONENTS);
        let mut change = [0u32; MAX_COMPONENTS + 1];
        for pos in 0..lead {
            let e = links.entry[pos] as usize;
            let table = &self.entries[e].table;
            let v = table.child_value(pending.index[pos], s.values[entry_ix(e)]);
            pending.values[pos] = v;
            change[pos] = Self::change(s, e, v);
        }
        let mut h = 0;
        for ci in 0..first {
            h = h.max(self.child_sum(s, links, ci, &change));
            if h > limit {
                // Not complete: `evaluated` stays false, and the search never applies it.
                return h;
            }
        }
        if n > first {
            let mut index = [0u64; MAX_COMPONENTS];
            for pos in lead..len {
                let (e, slot) = (links.entry[pos] as usize, links.slot[pos] as usize);
                let i = self.child_index(s, e, slot, from, to);
                self.entries[e].table.prefetch(i);
                index[pos] = i;
            }
            for pos in lead..len {
                let e = links.entry[pos] as usize;
                let table = &self.entries[e].table;
                let v = table.child_value(index[pos], s.values[entry_ix(e)]);
                pending.values[pos] = v;
                change[pos] = Self::change(s, e, v);
            }
            for ci in first..n {
                h = h.max(self.child_sum(s, links, ci, &change));
            }
        }
        pending.h = h;
        pending.evaluated = true;
        h
    }

    /// With a `pending` completed by [`Heuristic::evaluate`] the update only writes the
    /// looked-up values; else it looks every changed entry up itself. `limit` is not used:
    /// every component is updated.
    // Plain position loops over several arrays at once: the iterator adaptors clippy
    // suggests (zip, skip, take) cost more instructions per lookup here.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn apply(
        &self,
        s: &mut PdbParts,
        _tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        _limit: u32,
        pending: &PdbPending,
    ) -> (u32, PdbUndo) {
        let links = &self.links[tile as usize];
        let lead = (links.lead as usize).min(MAX_COMPONENTS);
        let len = (links.len as usize).min(MAX_COMPONENTS);
        let mut values = pending.values;
        if !pending.evaluated {
            for pos in 0..len {
                let (e, slot) = (links.entry[pos] as usize, links.slot[pos] as usize);
                let i = match pos < lead {
                    true => pending.index[pos],
                    false => self.child_index(s, e, slot, from, to),
                };
                values[pos] = self.entries[e].table.child_value(i, s.values[entry_ix(e)]);
            }
        }
        let mut change = [0u32; MAX_COMPONENTS + 1];
        let mut undo = PdbUndo {
            old: [0; MAX_COMPONENTS],
            sums: s.sums,
            h: s.h,
        };
        for pos in 0..len {
            let (e, slot) = (links.entry[pos] as usize, links.slot[pos] as usize);
            change[pos] = Self::change(s, e, values[pos]);
            self.slide(s, e, slot, from, to);
            undo.old[pos] = s.values[entry_ix(e)];
            s.values[entry_ix(e)] = values[pos];
        }
        let mut h = 0;
        for ci in 0..self.comps.len().min(MAX_COMPONENTS) {
            let sum = self.child_sum(s, links, ci, &change);
            s.sums[ci] = sum;
            h = h.max(sum);
        }
        s.h = h;
        (h, undo)
    }

    #[inline(always)]
    fn undo(&self, s: &mut PdbParts, tile: u8, from: u8, to: u8, undo: PdbUndo) {
        let links = &self.links[tile as usize];
        for pos in 0..(links.len as usize).min(MAX_COMPONENTS) {
            let (e, slot) = (links.entry[pos] as usize, links.slot[pos] as usize);
            self.slide(s, e, slot, to, from);
            s.values[entry_ix(e)] = undo.old[pos];
        }
        s.sums = undo.sums;
        s.h = undo.h;
    }

    /// One byte per `bit1` entry (table and view): its exact value, which `init` finds by a
    /// walk to the goal and `restore` then takes from the memo. Byte and nibble tables are
    /// looked up again (one read each), so a heuristic without `bit1` tables keeps nothing.
    fn memo_len(&self) -> usize {
        self.differential
    }

    fn write_memo(&self, s: &PdbParts, out: &mut [u8]) {
        let kept = self
            .entries
            .iter()
            .zip(&s.values)
            .filter(|(entry, _)| entry.table.is_differential());
        for (slot, (_, &v)) in out.iter_mut().zip(kept) {
            *slot = v;
        }
    }

    fn restore(&self, parts: &mut PdbParts, tiles: &[u8; MAX_CELLS], memo: &[u8]) {
        let mut kept = memo.iter();
        self.fill_parts(parts, tiles, |entry, cells, occ, blank| {
            match entry.table.is_differential() {
                // Short only if the memo is not one of this heuristic's: the admissible 0.
                true => kept.next().copied().unwrap_or(0),
                false => entry.table.lookup(cells, occ, blank),
            }
        });
    }

    /// Zero-aware values change by exactly ±1 on a move of their own tiles and not at all on
    /// other moves (zero-unaware ones can jump: no promise). A sum over disjoint tables then
    /// changes by at most 1 per move, by exactly 1 when one group covers every tile, and a
    /// maximum over groups and views by at most 1.
    fn step_change(&self) -> StepChange {
        if !self
            .entries
            .iter()
            .all(|e| e.table.kind == TableKind::ZeroAware)
        {
            return StepChange::Any;
        }
        let covers_all = self.comps.len() == 1
            && (1..self.cells).all(|t| self.comps[0].tile_entry[t] != NO_CELL);
        if covers_all {
            StepChange::ExactlyOne
        } else {
            StepChange::AtMostOne
        }
    }
}
