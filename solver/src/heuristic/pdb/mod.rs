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

mod batch;
mod shuffle;

use super::{Heuristic, StepChange};
use crate::db::{Database, DbError, LoadedTable};
use crate::position::{MAX_CELLS, NO_CELL};
use pdbformat::{Board, Goal, Symmetry, TableKind};
use std::sync::Arc;

/// The most components (groups × views) one heuristic combines.
pub const MAX_COMPONENTS: usize = 16;

/// The most distinct (table, view) entries one heuristic combines.
pub const MAX_ENTRIES: usize = 64;

/// In [`TileLinks::of_comp`]: the component holds no entry of the tile (the position of a
/// change that is always 0).
const UNCHANGED: u8 = MAX_COMPONENTS as u8;

/// Components whose lookups [`Heuristic::prepare`] computes and prefetches ahead (the others'
/// are computed in [`Heuristic::evaluate`] once these leave the child within the bound).
const PREFETCHED: usize = 4;

/// One table under one view, shared by every component that holds it: its cell map and the
/// user tile in each pattern slot.
#[derive(Clone, Debug)]
struct Entry {
    table: Arc<LoadedTable>,
    /// User cell → cell in the table's frame.
    cellmap: [u8; MAX_CELLS],
    /// The user tile whose cell goes into each slot (pattern tile order).
    slot_tile: Vec<u8>,
}

impl Entry {
    /// The user tiles this entry covers and its table's kind: entries that agree on both give
    /// the same value (every table is exact for its tile set).
    fn covers(&self) -> (u64, TableKind) {
        let mask = self.slot_tile.iter().fold(0u64, |m, &t| m | 1u64 << t);
        (mask, self.table.kind)
    }

    /// Writes the cells of this entry's tiles, in its table's frame and slot order, into the
    /// first slots of `cells`, for the position whose tile `t` stands on `row[t]` (user
    /// frame); returns the set of those cells.
    #[inline(always)]
    fn place(&self, row: &[u8; MAX_CELLS], cells: &mut [u8; MAX_CELLS]) -> u64 {
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
struct Component {
    /// For each user tile, the entry (global number) that holds it, or `NO_CELL`.
    tile_entry: [u8; MAX_CELLS],
    /// The entries (global numbers) the component sums.
    entries: Vec<u8>,
}

/// The entries one user tile's move changes: each distinct (table, view) that holds the tile
/// once, however many components share it (a catalogue's or compound's groups share
/// tables), those of the first [`PREFETCHED`] components first.
#[derive(Clone, Debug)]
struct TileLinks {
    /// How many entries hold the tile.
    len: u8,
    /// How many of them the first `PREFETCHED` components use (the first `lead` entries).
    lead: u8,
    /// The entries (global numbers).
    entry: [u8; MAX_COMPONENTS],
    /// The tile's slot in each.
    slot: [u8; MAX_COMPONENTS],
    /// For each component, the position in `entry` of its entry for the tile, or
    /// [`UNCHANGED`].
    of_comp: [u8; MAX_COMPONENTS],
}

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

/// The parts of the estimate of one position: each entry's tile cells, occupied set and value, each component's sum.
#[derive(Debug)]
pub struct PdbParts {
    cells: Vec<[u8; MAX_CELLS]>,
    occ: [u64; MAX_ENTRIES],
    values: [u8; MAX_ENTRIES],
    sums: [u32; MAX_COMPONENTS],
    h: u32,
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
fn entry_ix(e: usize) -> usize {
    e & (MAX_ENTRIES - 1)
}

/// What one child's update needs, prepared before the node's children are applied: the
/// index of each entry the first components look up (computed and prefetched by
/// [`Heuristic::prepare`]) and, once [`Heuristic::evaluate`] has looked them up, the new
/// value of every entry the move changes (by position in the tile's `TileLinks`) and the
/// child's estimate.
#[derive(Clone, Copy, Debug, Default)]
pub struct PdbPending {
    index: [u64; PREFETCHED],
    values: [u8; MAX_COMPONENTS],
    h: u32,
    evaluated: bool,
}

/// Restores a [`PdbParts`]: the previous value of each entry the move changed (by position
/// in the tile's `TileLinks`), every component's previous sum (a copy: cheaper than undoing
/// each change) and the previous estimate.
#[derive(Clone, Copy, Debug)]
pub struct PdbUndo {
    old: [u8; MAX_COMPONENTS],
    sums: [u32; MAX_COMPONENTS],
    h: u32,
}

/// The board symmetries other than the identity that fix `goal`'s blank cell, each usable as
/// an extra view: the transposition for a blank on the main diagonal (or the
/// anti-transposition on the anti-diagonal) first, then the others in [`Symmetry::of_board`]
/// order. A corner blank has one (the diagonal through it), the centre of an odd square has
/// seven, a cell off every axis and diagonal none.
pub fn reflections_for(goal: &Goal) -> Vec<Symmetry> {
    let mut syms = Symmetry::fixing(goal.board(), goal.blank_cell());
    syms.retain(|&s| s != Symmetry::Identity);
    // Stable: the diagonal reflection first, as before there were more views.
    syms.sort_by_key(|s| !matches!(s, Symmetry::Transpose | Symmetry::AntiTranspose));
    syms
}

/// The first of [`reflections_for`], if any: the diagonal reflection for a blank on a
/// diagonal of a square board.
pub fn reflection_for(goal: &Goal) -> Option<Symmetry> {
    reflections_for(goal).first().copied()
}

impl PdbHeuristic {
    /// Prepares the tables of `dbs` for `goal`. With `reflect`, adds a view for each board
    /// symmetry that fixes the goal's blank cell (see [`reflections_for`]), less the views
    /// that only repeat a component.
    pub fn new(dbs: &[Arc<Database>], goal: &Goal, reflect: bool) -> Result<PdbHeuristic, DbError> {
        let board = goal.board();
        // Each table with its database's frame and the user tiles it covers.
        let mut tables: Vec<(Arc<LoadedTable>, &Database, Symmetry, u64)> = Vec::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        // The tiles of the last group, which the next disjoint table joins.
        let mut covered = 0u64;
        for db in dbs {
            let frame = db.frame_for(goal)?;
            let first = tables.len();
            for t in db.tables() {
                let inv = frame.inverse();
                let mask = t.pattern.tiles().iter().fold(0u64, |m, &u| {
                    let user_cell = inv.map(board, db.goal().cell_of(u as usize));
                    m | 1u64 << goal.tile_at(user_cell)
                });
                tables.push((t.clone(), db, frame, mask));
            }
            let masks: Vec<u64> = tables[first..].iter().map(|t| t.3).collect();
            if let Some(covers) = compound_groups(&masks) {
                // A compound: each exact cover of its tiles is a group of its own.
                groups.extend(
                    covers
                        .into_iter()
                        .map(|c| c.into_iter().map(|i| first + i).collect()),
                );
                covered = u64::MAX;
                continue;
            }
            // Disjoint tables: greedy grouping by disjoint user tiles, across files.
            for (i, &mask) in masks.iter().enumerate() {
                match groups.last_mut() {
                    Some(g) if covered & mask == 0 => {
                        g.push(first + i);
                        covered |= mask;
                    }
                    _ => {
                        groups.push(vec![first + i]);
                        covered = mask;
                    }
                }
            }
        }
        let reflections = if reflect {
            reflections_for(goal)
        } else {
            Vec::new()
        };
        let views: Vec<Option<Symmetry>> = std::iter::once(None)
            .chain(reflections.iter().copied().map(Some))
            .collect();
        let mut entries = Vec::new();
        let mut comps = Vec::new();
        // Each kept component's viewed tile sets with their table kinds, sorted: equal keys
        // compute equal sums (every table is exact for its tile set).
        let mut seen: Vec<Vec<(u64, TableKind)>> = Vec::new();
        let mut used_views: Vec<Symmetry> = Vec::new();
        for view in &views {
            for group in &groups {
                let made: Vec<Entry> = group
                    .iter()
                    .map(|&i| {
                        let (table, db, frame, _) = &tables[i];
                        make_entry(board, goal, db.goal(), table, *frame, *view)
                    })
                    .collect();
                let mut key: Vec<(u64, TableKind)> = made.iter().map(Entry::covers).collect();
                key.sort_unstable_by_key(|&(m, k)| (m, k == TableKind::ZeroAware));
                if seen.contains(&key) {
                    continue;
                }
                seen.push(key);
                if let Some(v) = view {
                    if !used_views.contains(v) {
                        used_views.push(*v);
                    }
                }
                let mut comp = Component {
                    tile_entry: [NO_CELL; MAX_CELLS],
                    entries: Vec::new(),
                };
                for entry in made {
                    // An entry that covers the same user tiles with a table of the same kind
                    // has the same value (every table is exact for its tile set): one entry,
                    // looked up once per move, serves every component that holds it.
                    let e = match entries
                        .iter()
                        .position(|f: &Entry| f.covers() == entry.covers())
                    {
                        Some(e) => e,
                        None => {
                            entries.push(entry);
                            entries.len() - 1
                        }
                    };
                    if e >= MAX_ENTRIES {
                        return Err(DbError::TooMany {
                            what: "distinct (table, view) pairs",
                            max: MAX_ENTRIES,
                            found: e + 1,
                        });
                    }
                    for &t in &entries[e].slot_tile {
                        debug_assert_eq!(comp.tile_entry[t as usize], NO_CELL);
                        comp.tile_entry[t as usize] = e as u8;
                    }
                    comp.entries.push(e as u8);
                }
                comps.push(comp);
            }
        }
        if comps.len() > MAX_COMPONENTS {
            return Err(DbError::TooMany {
                what: "components (table groups × views)",
                max: MAX_COMPONENTS,
                found: comps.len(),
            });
        }
        let links = (0..board.cells())
            .map(|t| tile_links(&comps, &entries, t))
            .collect();
        let differential = entries.iter().filter(|e| e.table.is_differential()).count();
        Ok(PdbHeuristic {
            entries,
            comps,
            links,
            groups: groups.len(),
            differential,
            reflections: used_views,
            cells: board.cells(),
        })
    }

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

    /// Checks that every table can give the exact value of the position `tiles` (as
    /// [`Heuristic::init`] needs): always true for `u8` and `u4` tables; for `bit1` tables
    /// the walk down to the goal must succeed, which fails only for a corrupt table (one
    /// loaded without its digest check). `init` itself counts such a table as 0.
    pub fn check_position(&self, tiles: &[u8; MAX_CELLS]) -> Result<(), DbError> {
        let cell_of = self.cell_of(tiles);
        for entry in self.entries.iter().filter(|e| e.table.is_differential()) {
            let mut cells = [0u8; MAX_CELLS];
            let occ = entry.place(&cell_of, &mut cells);
            let blank = entry.cellmap[cell_of[0] as usize];
            entry
                .table
                .exact_value(&cells[..entry.slot_tile.len()], occ, blank)?;
        }
        Ok(())
    }
}

/// The entry for `table` of a database with goal `db_goal` in `frame`, under `view`.
fn make_entry(
    board: Board,
    goal: &Goal,
    db_goal: &Goal,
    table: &Arc<LoadedTable>,
    frame: Symmetry,
    view: Option<Symmetry>,
) -> Entry {
    let n = board.cells();
    let mut cellmap = [0u8; MAX_CELLS];
    let mut inverse = [0u8; MAX_CELLS];
    for (x, m) in cellmap.iter_mut().enumerate().take(n) {
        let viewed = view.map_or(x, |v| v.map(board, x));
        *m = frame.map(board, viewed) as u8;
        inverse[*m as usize] = x as u8;
    }
    // Table tile u stands for the user tile whose goal cell maps to u's goal cell.
    let slot_tile = table
        .pattern
        .tiles()
        .iter()
        .map(|&u| goal.tile_at(inverse[db_goal.cell_of(u as usize)] as usize) as u8)
        .collect();
    Entry {
        table: table.clone(),
        cellmap,
        slot_tile,
    }
}

/// The entries that hold user tile `t`, in the order the components first use them.
fn tile_links(comps: &[Component], entries: &[Entry], t: usize) -> TileLinks {
    let mut links = TileLinks {
        len: 0,
        lead: 0,
        entry: [NO_CELL; MAX_COMPONENTS],
        slot: [NO_CELL; MAX_COMPONENTS],
        of_comp: [UNCHANGED; MAX_COMPONENTS],
    };
    for (ci, comp) in comps.iter().enumerate() {
        let e = comp.tile_entry[t];
        if e != NO_CELL {
            let n = links.len as usize;
            let pos = match links.entry[..n].iter().position(|&f| f == e) {
                Some(pos) => pos,
                None => {
                    links.entry[n] = e;
                    links.slot[n] = entries[e as usize]
                        .slot_tile
                        .iter()
                        .position(|&u| u as usize == t)
                        .expect("the entry holds the tile")
                        as u8;
                    links.len += 1;
                    n
                }
            };
            links.of_comp[ci] = pos as u8;
        }
        if ci + 1 == PREFETCHED.min(comps.len()) {
            links.lead = links.len;
        }
    }
    links
}

/// The groups of one database whose tables overlap (a compound, `masks` their user tiles):
/// each exact cover of the tiles they hold, or, if they make none (a hand-made file), each
/// table alone, which is admissible too. `None` for disjoint tables (a partition), which the
/// greedy grouping takes.
fn compound_groups(masks: &[u64]) -> Option<Vec<Vec<usize>>> {
    if pdbformat::cover::are_disjoint(masks) {
        return None;
    }
    let all = masks.iter().fold(0, |a, &m| a | m);
    let covers = pdbformat::cover::exact_covers(masks, all);
    Some(if covers.is_empty() {
        (0..masks.len()).map(|i| vec![i]).collect()
    } else {
        covers
    })
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
