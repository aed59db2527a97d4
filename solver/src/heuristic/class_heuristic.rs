//! The class heuristic of the multi-tile metric: the maximum over a database's class
//! tables, each looked up on the position and, where the board allows, on its transpose.
//!
//! A class board knows every tile by its class (the row or column of its goal cell, or a
//! class given per goal cell) and the blank exactly; its distance in the class space never
//! exceeds the position's (any move of the position is one of the class board), so each
//! lookup is admissible in MTM, where sums of disjoint pattern tables are not, and so is the
//! maximum. When the board is square and the blank's goal cell is on the main diagonal,
//! transposing maps the goal onto itself, so each table is looked up twice: on the position,
//! and on its transpose (each tile taking the class of its transposed goal cell), which for
//! the goal-row table is the goal-column lookup. Otherwise each table is looked up once, and
//! a goal-row file holds a goal-column table beside it.
//!
//! The parts are the class masks of every lookup (those of a transposed lookup already
//! transposed) and their values: a single-tile step flips two bits of one mask of each, and a
//! rank and a lookup per table give the new values. On boards of at most 16 cells the ranks
//! come from small tables (`class_heuristic/rank.rs`); [`Heuristic::prepare`] prefetches the child's
//! entries, and [`Heuristic::apply`] reads first the lookup whose value was the largest (the
//! likeliest to exceed the limit) and stops as soon as one value exceeds it. An early stop
//! leaves every mask stepped, so the next step along the same line can follow it. (Prefetching
//! the next step's entries as well, or only the first lookup's, measured slower: the
//! prefetches that outnumber the processor's outstanding misses stall it.)

mod rank;

use super::{Heuristic, StepChange, MAX_CELLS};
use crate::db::{Database, DbError};
use pdbformat::rank::{ClassIndex, ClassLabels};
use pdbformat::{Board, Goal, Metric};
use rank::{SmallRank, SMALL_CELLS};
use std::sync::Arc;

/// The most classes a class table may have here.
pub const MAX_CLASSES: usize = 8;

/// The most lookups per position: three tables, each on the position and its transpose.
pub const MAX_LOOKUPS: usize = 6;

/// The most cells a board may have here: class masks are 32-bit (no class table of a
/// larger board fits the format's 2^40 entries with more than two classes).
pub const MAX_CLASS_CELLS: usize = 32;

/// The cells of one class, a bit per cell.
type Mask = u32;

/// The class heuristic for one goal, from an MTM database of class tables.
#[derive(Clone, Debug)]
pub struct ClassHeuristic {
    db: Arc<Database>,
    /// How many lookups a position takes.
    lookups: usize,
    /// The table of each lookup, by number in the database.
    tables: [usize; MAX_LOOKUPS],
    /// Each tile's class in each lookup.
    class: [[u8; MAX_CELLS]; MAX_LOOKUPS],
    /// Each cell's bit in each lookup's masks (transposed for a transposed lookup).
    bit: [[Mask; MAX_CELLS]; MAX_LOOKUPS],
    /// Each cell in each lookup's board.
    cell: [[u8; MAX_CELLS]; MAX_LOOKUPS],
    cells: usize,
    classes: [usize; MAX_LOOKUPS],
    /// The table-driven ranks of every lookup, on boards small enough.
    fast: Option<[SmallRank; MAX_LOOKUPS]>,
}

/// The state of a position: per lookup, the blank's cell, the class masks and the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassParts {
    blank: [u8; MAX_LOOKUPS],
    masks: [[Mask; MAX_CLASSES]; MAX_LOOKUPS],
    values: [u8; MAX_LOOKUPS],
}

/// The indexes of a child's lookups, computed by `prepare`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClassPending {
    index: [u64; MAX_LOOKUPS],
}

impl ClassHeuristic {
    /// The heuristic for `goal` from `db`'s class tables. Refuses a database for another
    /// metric than MTM ([`DbError::WrongMetric`]), one without class tables, with too many
    /// classes or lookups, and a goal of another board or whose blank is on another cell than
    /// the database goal's (the tables depend on nothing else, so any such goal is served).
    pub fn new(db: &Arc<Database>, goal: &Goal) -> Result<ClassHeuristic, DbError> {
        db.check_metric(Metric::Mtm)?;
        let board = goal.board();
        let wrong_goal = || {
            let g = db.goal();
            let at = |b: Board, c: usize| (b.row(c), b.col(c));
            DbError::WrongGoal {
                path: db.path().to_path_buf(),
                db_goal: g.to_string(),
                db_blank: at(g.board(), g.blank_cell()),
                goal: goal.to_string(),
                blank: at(board, goal.blank_cell()),
            }
        };
        if db.board() != board {
            return Err(DbError::WrongBoard {
                path: db.path().to_path_buf(),
                db_board: db.board(),
                board,
            });
        }
        if db.goal().blank_cell() != goal.blank_cell() {
            return Err(wrong_goal());
        }
        let unusable = |why: String| DbError::Format {
            path: db.path().to_path_buf(),
            source: pdbformat::format::FormatError::InvalidField {
                field: "class tables".into(),
                why,
            },
        };
        let b = goal.blank_cell();
        let transposed = board.is_square() && board.row(b) == board.col(b);
        let tables = db.class_tables();
        let has_rows = tables.iter().any(|t| t.labels == ClassLabels::Rows);
        // (table, transposed) per lookup; a goal-column table is the goal-row table's
        // transposed lookup where that applies.
        let flip = |c: usize| board.cell(board.col(c), board.row(c));
        let mut plan = Vec::new();
        for (t, table) in tables.iter().enumerate() {
            if transposed && table.labels == ClassLabels::Columns && has_rows {
                continue;
            }
            plan.push((t, false));
            // A labelling that transposing only renames looks up the same value twice.
            let class = |c: usize| table.labels.class_of(board, c);
            if transposed && !renames(n_cells(board, b), class, |c| class(flip(c))) {
                plan.push((t, true));
            }
        }
        if plan.is_empty() {
            return Err(unusable("no class table".into()));
        }
        if plan.len() > MAX_LOOKUPS {
            return Err(unusable(format!(
                "{} lookups per position; at most {MAX_LOOKUPS} are supported",
                plan.len()
            )));
        }
        let n = board.cells();
        if n > MAX_CLASS_CELLS {
            return Err(unusable(format!(
                "class tables of boards of at most {MAX_CLASS_CELLS} cells are supported"
            )));
        }
        let mut h = ClassHeuristic {
            db: db.clone(),
            lookups: plan.len(),
            tables: [0; MAX_LOOKUPS],
            class: [[0; MAX_CELLS]; MAX_LOOKUPS],
            bit: [[0; MAX_CELLS]; MAX_LOOKUPS],
            cell: [[0; MAX_CELLS]; MAX_LOOKUPS],
            cells: n,
            classes: [0; MAX_LOOKUPS],
            fast: None,
        };
        for (k, &(t, tr)) in plan.iter().enumerate() {
            let index = &tables[t].index;
            let classes = index.classes();
            if classes > MAX_CLASSES {
                return Err(unusable(format!(
                    "{classes} classes; at most {MAX_CLASSES} are supported"
                )));
            }
            h.tables[k] = t;
            h.classes[k] = classes;
            let map = |c: usize| if tr { flip(c) } else { c };
            for tile in 1..n {
                h.class[k][tile] = index.labels().class_of(board, map(goal.cell_of(tile))) as u8;
            }
            for c in 0..n {
                h.cell[k][c] = map(c) as u8;
                h.bit[k][c] = 1 << map(c);
            }
        }
        if n <= SMALL_CELLS {
            let ranks: Option<Vec<SmallRank>> = (0..MAX_LOOKUPS)
                .map(|k| SmallRank::new(h.table(k.min(h.lookups - 1))))
                .collect();
            h.fast = ranks.map(|r| r.try_into().expect("MAX_LOOKUPS ranks"));
        }
        Ok(h)
    }

    /// How many lookups a position takes: each table once, and once more transposed where
    /// the board allows it and transposing does more than rename the table's classes.
    pub fn lookups(&self) -> usize {
        self.lookups
    }

    /// The index of lookup `k` for the blank on `blank` (in that lookup's board) and `masks`.
    #[inline(always)]
    fn index(&self, k: usize, blank: u8, masks: &[Mask; MAX_CLASSES]) -> u64 {
        match &self.fast {
            Some(f) => f[k].rank(blank, masks),
            None => {
                let wide = masks.map(u64::from);
                self.table(k).rank(blank as usize, &wide[..self.classes[k]])
            }
        }
    }

    /// The lookup with the largest value.
    #[inline(always)]
    fn first(&self, values: &[u8; MAX_LOOKUPS]) -> usize {
        let mut first = 0;
        for k in 1..self.lookups {
            if values[k] > values[first] {
                first = k;
            }
        }
        first
    }

    #[inline(always)]
    fn table(&self, k: usize) -> &ClassIndex {
        &self.db.class_tables()[self.tables[k]].index
    }

    #[inline(always)]
    fn lookup(&self, k: usize, i: u64) -> u8 {
        self.db.class_tables()[self.tables[k]].value(i)
    }

    /// Steps lookup `k` of `parts` in place: `tile` moves from `from` to `to`.
    #[inline(always)]
    fn step(&self, parts: &mut ClassParts, k: usize, tile: u8, from: u8, to: u8) {
        let c = self.class[k][tile as usize] as usize;
        parts.masks[k][c] ^= self.bit[k][from as usize] | self.bit[k][to as usize];
        parts.blank[k] = self.cell[k][from as usize];
    }
}

/// The cells of `board` but the blank's goal cell `b`.
fn n_cells(board: Board, b: usize) -> Vec<usize> {
    (0..board.cells()).filter(|&c| c != b).collect()
}

/// Whether the labellings `a` and `b` of `cells` differ only by the names of their classes.
fn renames(cells: Vec<usize>, a: impl Fn(usize) -> usize, b: impl Fn(usize) -> usize) -> bool {
    let (mut ab, mut ba) = (vec![usize::MAX; 256], vec![usize::MAX; 256]);
    cells.into_iter().all(|c| {
        let (x, y) = (a(c), b(c));
        let ok = (ab[x] == usize::MAX || ab[x] == y) && (ba[y] == usize::MAX || ba[y] == x);
        ab[x] = y;
        ba[y] = x;
        ok
    })
}

impl Heuristic for ClassHeuristic {
    type Parts = ClassParts;
    type Undo = [u8; MAX_LOOKUPS];
    type Pending = ClassPending;

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> ClassParts {
        let mut p = ClassParts {
            blank: [0; MAX_LOOKUPS],
            masks: [[0; MAX_CLASSES]; MAX_LOOKUPS],
            values: [0; MAX_LOOKUPS],
        };
        for (c, &t) in tiles.iter().enumerate().take(self.cells) {
            for k in 0..self.lookups {
                if t == 0 {
                    p.blank[k] = self.cell[k][c];
                } else {
                    p.masks[k][self.class[k][t as usize] as usize] |= self.bit[k][c];
                }
            }
        }
        for k in 0..self.lookups {
            p.values[k] = self.lookup(k, self.index(k, p.blank[k], &p.masks[k]));
        }
        p
    }

    #[inline(always)]
    fn value(&self, parts: &ClassParts) -> u32 {
        parts.values.iter().copied().max().unwrap_or(0) as u32
    }

    #[inline(always)]
    fn prepare(&self, parts: &ClassParts, tile: u8, from: u8, to: u8) -> ClassPending {
        let mut index = [0u64; MAX_LOOKUPS];
        for (k, i) in index.iter_mut().enumerate().take(self.lookups) {
            let c = self.class[k][tile as usize] as usize;
            let mut masks = parts.masks[k];
            masks[c] ^= self.bit[k][from as usize] | self.bit[k][to as usize];
            *i = self.index(k, self.cell[k][from as usize], &masks);
            self.db.class_tables()[self.tables[k]].prefetch(*i);
        }
        ClassPending { index }
    }

    #[inline(always)]
    fn apply(
        &self,
        parts: &mut ClassParts,
        _tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        limit: u32,
        pending: &ClassPending,
    ) -> (u32, [u8; MAX_LOOKUPS]) {
        let undo = parts.values;
        for k in 0..self.lookups {
            self.step(parts, k, tile, from, to);
        }
        let mut best = 0;
        // The parent's largest lookup first: the one most likely to exceed the limit.
        let first = self.first(&undo);
        for j in 0..self.lookups {
            let k = if first + j >= self.lookups {
                first + j - self.lookups
            } else {
                first + j
            };
            let v = self.lookup(k, pending.index[k]);
            parts.values[k] = v;
            best = best.max(v);
            if v as u32 > limit {
                // Above the limit already: the later values are left stale (the search
                // prunes this child; `undo` restores them all).
                break;
            }
        }
        (best as u32, undo)
    }

    #[inline(always)]
    fn undo(&self, parts: &mut ClassParts, tile: u8, from: u8, to: u8, undo: [u8; MAX_LOOKUPS]) {
        for k in 0..self.lookups {
            let c = self.class[k][tile as usize] as usize;
            parts.masks[k][c] ^= self.bit[k][from as usize] | self.bit[k][to as usize];
            parts.blank[k] = self.cell[k][to as usize];
        }
        parts.values = undo;
    }

    /// Each lookup is an exact distance in a space where every move is a move: it changes by
    /// at most 1 per move, and so does their maximum.
    fn step_change(&self) -> StepChange {
        StepChange::AtMostOne
    }

    /// An early stop leaves some values stale but every mask stepped: the next move reads
    /// masks only and looks every value up afresh.
    fn steps_after_early_stop(&self) -> bool {
        true
    }
}
