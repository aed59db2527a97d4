//! The class heuristic of the multi-tile metric: the goal-row class table looked up on the
//! position and on its transpose (or the goal-column table), the maximum of both.
//!
//! A class board knows every tile by the row (or column) of its goal cell and the blank
//! exactly; its distance in the class space never exceeds the position's (any move of the
//! position is one of the class board), so each lookup is admissible in MTM, where sums of
//! disjoint pattern tables are not. The goal-column class board of a position, transposed, is
//! a goal-row class board of the transposed board; when the board is square and the blank's
//! goal cell is on the main diagonal the goal class boards coincide too, so the row table
//! serves both lookups; otherwise the file holds a goal-column table.
//!
//! The parts are the class masks of both lookups (those of the second already transposed when
//! the row table serves it) and the two values: a single-tile step flips two bits of one mask
//! of each, and two ranks and two lookups give the new values. On boards of at most 16 cells
//! the ranks come from small tables (`classes/rank.rs`); [`Heuristic::prepare`] prefetches
//! the child's two entries and those of the next step along the same line (the search's
//! next child there), and [`Heuristic::apply`] skips the second lookup when the first alone
//! exceeds the limit.

mod rank;

use super::{Heuristic, StepChange, MAX_CELLS};
use crate::db::{Database, DbError};
use pdbformat::rank::{ClassAxis, ClassIndex};
use pdbformat::{Board, Goal, Metric};
use rank::{SmallRank, SMALL_CELLS};
use std::sync::Arc;

/// The most classes (rows or columns) a class table may have here.
pub const MAX_CLASSES: usize = 8;

/// The class heuristic for one goal, from an MTM database of class tables.
#[derive(Clone, Debug)]
pub struct ClassHeuristic {
    db: Arc<Database>,
    /// The table of the first lookup (goal rows), and of the second (the same table, or the
    /// goal-column one), by number in the database.
    tables: [usize; 2],
    /// Each tile's class in the two lookups.
    class: [[u8; MAX_CELLS]; 2],
    /// Each cell's bit in the two lookups' masks (the second transposed when the row table
    /// serves it).
    bit: [[u64; MAX_CELLS]; 2],
    /// Each cell in the two lookups' boards.
    cell: [[u8; MAX_CELLS]; 2],
    cells: usize,
    classes: [usize; 2],
    /// The table-driven ranks of both lookups, on boards small enough.
    fast: Option<[SmallRank; 2]>,
    /// `ahead[from * SMALL_CELLS + to]`: the cell beyond `from` on the line from `to`
    /// through `from` ([`NONE`] past the edge, or on larger boards).
    ahead: [u8; SMALL_CELLS * SMALL_CELLS],
}

/// No cell.
const NONE: u8 = u8::MAX;

/// The state of a position: per lookup, the blank's cell, the class masks and the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassParts {
    blank: [u8; 2],
    masks: [[u64; MAX_CLASSES]; 2],
    values: [u8; 2],
}

/// The two indexes of a child, computed by `prepare`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClassPending {
    index: [u64; 2],
}

impl ClassHeuristic {
    /// The heuristic for `goal` from `db`'s class tables. Refuses a database for another
    /// metric than MTM ([`DbError::WrongMetric`]), one without class tables or with too many
    /// classes, and a goal of another board or whose blank is on another cell than the
    /// database goal's (the tables depend on nothing else, so any such goal is served).
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
        let find = |axis| db.class_tables().iter().position(|t| t.axis == axis);
        let unusable = |why: String| DbError::Format {
            path: db.path().to_path_buf(),
            source: pdbformat::format::FormatError::InvalidField {
                field: "class tables".into(),
                why,
            },
        };
        let rows = find(ClassAxis::Rows).ok_or_else(|| unusable("no goal-row table".into()))?;
        let b = goal.blank_cell();
        let transposed = board.is_square() && board.row(b) == board.col(b);
        let second = match find(ClassAxis::Columns) {
            Some(c) if !transposed => c,
            _ if transposed => rows,
            _ => return Err(unusable("no goal-column table for this board".into())),
        };
        let n = board.cells();
        let mut h = ClassHeuristic {
            db: db.clone(),
            tables: [rows, second],
            class: [[0; MAX_CELLS]; 2],
            bit: [[0; MAX_CELLS]; 2],
            cell: [[0; MAX_CELLS]; 2],
            cells: n,
            classes: [0; 2],
            fast: None,
            ahead: [NONE; SMALL_CELLS * SMALL_CELLS],
        };
        for (k, &t) in h.tables.iter().enumerate() {
            let classes = db.class_tables()[t].index.classes();
            if classes > MAX_CLASSES {
                return Err(unusable(format!(
                    "{classes} classes; at most {MAX_CLASSES} are supported"
                )));
            }
            h.classes[k] = classes;
        }
        for tile in 1..n {
            let g = goal.cell_of(tile);
            h.class[0][tile] = board.row(g) as u8;
            h.class[1][tile] = board.col(g) as u8;
        }
        for c in 0..n {
            let t = if transposed {
                board.cell(board.col(c), board.row(c))
            } else {
                c
            };
            h.cell[0][c] = c as u8;
            h.cell[1][c] = t as u8;
            h.bit[0][c] = 1 << c;
            h.bit[1][c] = 1 << t;
        }
        if n <= SMALL_CELLS {
            let ranks = SmallRank::new(h.table(0)).zip(SmallRank::new(h.table(1)));
            h.fast = ranks.map(|(a, b)| [a, b]);
            for from in 0..n {
                for to in 0..n {
                    let (fr, fc) = (board.row(from) as isize, board.col(from) as isize);
                    let (tr, tc) = (board.row(to) as isize, board.col(to) as isize);
                    if (fr - tr).abs() + (fc - tc).abs() != 1 {
                        continue;
                    }
                    let (r, c) = (2 * fr - tr, 2 * fc - tc);
                    if (0..board.height() as isize).contains(&r)
                        && (0..board.width() as isize).contains(&c)
                    {
                        h.ahead[from * SMALL_CELLS + to] = board.cell(r as usize, c as usize) as u8;
                    }
                }
            }
        }
        Ok(h)
    }

    /// The index of lookup `k` for the blank on `blank` (in that lookup's board) and `masks`.
    #[inline(always)]
    fn index(&self, k: usize, blank: u8, masks: &[u64; MAX_CLASSES]) -> u64 {
        match &self.fast {
            Some(f) => f[k].rank(blank, masks),
            None => self
                .table(k)
                .rank(blank as usize, &masks[..self.classes[k]]),
        }
    }

    /// Prefetches the entries of the step after `p`'s (the blank now on `from`, having come
    /// from `to`) that continues along the same line, if any: the tile beyond `from` moves
    /// onto `from`.
    #[inline(always)]
    fn prefetch_ahead(&self, p: &ClassParts, from: u8, to: u8) {
        if self.fast.is_none() {
            return;
        }
        let next = self.ahead[from as usize * SMALL_CELLS + to as usize];
        if next == NONE {
            return;
        }
        for k in 0..2 {
            let (nb, fb) = (self.bit[k][next as usize], self.bit[k][from as usize]);
            let mut masks = p.masks[k];
            for m in masks[..self.classes[k]].iter_mut() {
                if *m & nb != 0 {
                    *m ^= nb | fb;
                }
            }
            let i = self.index(k, self.cell[k][next as usize], &masks);
            self.db.class_tables()[self.tables[k]].prefetch(i);
        }
    }

    #[inline(always)]
    fn table(&self, k: usize) -> &ClassIndex {
        &self.db.class_tables()[self.tables[k]].index
    }

    #[inline(always)]
    fn lookup(&self, k: usize, i: u64) -> u8 {
        self.db.class_tables()[self.tables[k]].value(i)
    }

    /// The child's masks and blanks after `tile` moves from `from` to `to`.
    #[inline(always)]
    fn stepped(&self, parts: &ClassParts, tile: u8, from: u8, to: u8) -> ClassParts {
        let mut p = *parts;
        for k in 0..2 {
            let c = self.class[k][tile as usize] as usize;
            p.masks[k][c] ^= self.bit[k][from as usize] | self.bit[k][to as usize];
            p.blank[k] = self.cell[k][from as usize];
        }
        p
    }
}

impl Heuristic for ClassHeuristic {
    type Parts = ClassParts;
    type Undo = [u8; 2];
    type Pending = ClassPending;

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> ClassParts {
        let mut p = ClassParts {
            blank: [0; 2],
            masks: [[0; MAX_CLASSES]; 2],
            values: [0; 2],
        };
        for (c, &t) in tiles.iter().enumerate().take(self.cells) {
            for k in 0..2 {
                if t == 0 {
                    p.blank[k] = self.cell[k][c];
                } else {
                    p.masks[k][self.class[k][t as usize] as usize] |= self.bit[k][c];
                }
            }
        }
        for k in 0..2 {
            p.values[k] = self.lookup(k, self.index(k, p.blank[k], &p.masks[k]));
        }
        p
    }

    #[inline(always)]
    fn value(&self, parts: &ClassParts) -> u32 {
        parts.values[0].max(parts.values[1]) as u32
    }

    #[inline(always)]
    fn prepare(&self, parts: &ClassParts, tile: u8, from: u8, to: u8) -> ClassPending {
        let p = self.stepped(parts, tile, from, to);
        let mut index = [0u64; 2];
        for (k, i) in index.iter_mut().enumerate() {
            *i = self.index(k, p.blank[k], &p.masks[k]);
            self.db.class_tables()[self.tables[k]].prefetch(*i);
        }
        self.prefetch_ahead(&p, from, to);
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
    ) -> (u32, [u8; 2]) {
        let undo = parts.values;
        *parts = self.stepped(parts, tile, from, to);
        parts.values[0] = self.lookup(0, pending.index[0]);
        if parts.values[0] as u32 > limit {
            // Above the limit already: the second value is left stale (the search prunes
            // this child; `undo` restores both).
            return (parts.values[0] as u32, undo);
        }
        parts.values[1] = self.lookup(1, pending.index[1]);
        (self.value(parts), undo)
    }

    #[inline(always)]
    fn undo(&self, parts: &mut ClassParts, tile: u8, from: u8, to: u8, undo: [u8; 2]) {
        for k in 0..2 {
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
}
