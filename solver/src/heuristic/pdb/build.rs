//! Construction: a [`PdbHeuristic`] from databases and a goal (the tables' frames and user
//! tiles, their groups, the views, the entries components share, each tile's links), and the
//! check that a position's exact values can be found.

use super::entry::{Component, Entry, TileLinks, UNCHANGED};
use super::{reflections_for, PdbHeuristic, MAX_COMPONENTS, MAX_ENTRIES, PREFETCHED};
use crate::db::{Database, DbError, LoadedTable};
use crate::position::{MAX_CELLS, NO_CELL};
use pdbformat::{Board, Goal, Symmetry, TableKind};
use std::sync::Arc;

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
            // Sums of pattern tables count single-tile moves; MTM class tables are the class
            // heuristic's.
            db.check_metric(pdbformat::Metric::Stm)?;
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

    /// Checks that every table can give the exact value of the position `tiles` (as
    /// [`Heuristic::init`] needs): always true for `u8` and `u4` tables; for `bit1` tables
    /// the walk down to the goal must succeed, which fails only for a corrupt table (one
    /// loaded without its digest check). `init` itself counts such a table as 0.
    ///
    /// [`Heuristic::init`]: crate::heuristic::Heuristic::init
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
