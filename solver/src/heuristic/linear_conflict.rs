//! Manhattan distance plus linear conflicts (Hansson, Mayer & Yung).
//!
//! Tiles that stand in their goal row (or column) in the wrong order must partly leave that
//! line: in each line, at least `len − LIS` of its `len` such tiles (LIS: the longest subsequence
//! already in goal order) leave and come back, two moves each beyond their Manhattan distance.
//! Rows and columns count independently: a row conflict costs vertical moves, a column conflict
//! horizontal ones, which the Manhattan distance of the same tile cannot cover both ways.
//!
//! A horizontal move changes only the two columns the tile leaves and enters (its row keeps
//! the same order); a vertical move only the two rows. On boards whose lines have at most
//! [`TABLE_MAX_LEN`] cells each line is also kept as a key (a base-`len+1` number of the goal
//! positions of its own tiles, 0 elsewhere) updated by a few multiply-adds per move, and the
//! two changed lines' conflicts are read from a precomputed table; longer lines are rescanned.

use super::tile_sum::Manhattan;
use super::Heuristic;
use crate::position::MAX_CELLS;
use pdbformat::Goal;

/// Lines per direction: a board of at most 64 cells has at most 32 rows or columns.
const MAX_LINE: usize = 32;

/// The longest line whose conflicts are tabulated (`7^6` = 117,649 one-byte entries).
pub const TABLE_MAX_LEN: usize = 6;

/// The linear-conflict heuristic for one goal.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    width: usize,
    height: usize,
    row_of: [u8; MAX_CELLS],
    col_of: [u8; MAX_CELLS],
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
    /// Conflicts of a row by its key (empty when rows are longer than [`TABLE_MAX_LEN`]).
    row_table: Vec<u8>,
    /// Conflicts of a column by its key (empty when columns are too long).
    col_table: Vec<u8>,
    /// `(width + 1)^c`: the weight of column `c` in a row key.
    row_pow: [u32; MAX_LINE],
    /// `(height + 1)^r`: the weight of row `r` in a column key.
    col_pow: [u32; MAX_LINE],
}

/// Manhattan sum, conflict sum, and the conflicts and keys of every row (`0..32`) and column
/// (`32..64`).
#[derive(Clone, Debug)]
pub struct LcParts {
    md: u32,
    lc: u32,
    lines: [u8; 2 * MAX_LINE],
    keys: [u32; 2 * MAX_LINE],
}

/// Restores an [`LcParts`]: the previous sums, the previous conflicts of the two lines that
/// changed and the previous keys of the three lines the move touched.
#[derive(Clone, Copy, Debug)]
pub struct LcUndo {
    md: u32,
    lc: u32,
    a: u8,
    b: u8,
    keys: [u32; 3],
}

/// The lines a move touches: `a` and `b` (whose conflicts can change: the lines across the
/// move) and `along` (the line the tile moves in: same order, new key).
#[derive(Clone, Copy, Debug)]
struct Touched {
    a: usize,
    b: usize,
    along: usize,
}

/// The conflicts of every key of a line of `len` cells (digit `d > 0`: a tile of this line
/// whose goal position is `d - 1`).
fn conflict_table(len: usize) -> Vec<u8> {
    let base = len + 1;
    let count = base.pow(len as u32);
    let mut table = vec![0u8; count];
    let mut seq = [0u8; MAX_LINE];
    for (key, t) in table.iter_mut().enumerate() {
        let mut k = key;
        let mut n = 0;
        for _ in 0..len {
            let d = k % base;
            k /= base;
            if d > 0 {
                seq[n] = d as u8 - 1;
                n += 1;
            }
        }
        *t = (n - lis(&seq[..n])) as u8;
    }
    table
}

impl LinearConflict {
    /// The heuristic for `goal` (boards of at most 64 cells).
    pub fn new(goal: &Goal) -> LinearConflict {
        let board = goal.board();
        let cells = board.cells().min(MAX_CELLS);
        let (w, h) = (board.width(), board.height());
        let tables = w <= TABLE_MAX_LEN && h <= TABLE_MAX_LEN;
        let mut lc = LinearConflict {
            manhattan: Manhattan::new(goal),
            width: w,
            height: h,
            row_of: [0; MAX_CELLS],
            col_of: [0; MAX_CELLS],
            goal_row: [0; MAX_CELLS],
            goal_col: [0; MAX_CELLS],
            row_table: if tables {
                conflict_table(w)
            } else {
                Vec::new()
            },
            col_table: if tables {
                conflict_table(h)
            } else {
                Vec::new()
            },
            row_pow: [0; MAX_LINE],
            col_pow: [0; MAX_LINE],
        };
        if tables {
            for c in 0..w {
                lc.row_pow[c] = ((w + 1) as u32).pow(c as u32);
            }
            for r in 0..h {
                lc.col_pow[r] = ((h + 1) as u32).pow(r as u32);
            }
        }
        for c in 0..cells {
            lc.row_of[c] = board.row(c) as u8;
            lc.col_of[c] = board.col(c) as u8;
            lc.goal_row[c] = board.row(goal.cell_of(c)) as u8;
            lc.goal_col[c] = board.col(goal.cell_of(c)) as u8;
        }
        lc
    }

    /// Whether conflicts are read from tables.
    #[inline(always)]
    fn tabulated(&self) -> bool {
        !self.row_table.is_empty()
    }

    /// The digit of `tile` in row `r`'s key: its goal column + 1 if row `r` is its goal row.
    #[inline(always)]
    fn row_digit(&self, tile: u8, r: u8) -> u32 {
        if tile != 0 && self.goal_row[tile as usize] == r {
            self.goal_col[tile as usize] as u32 + 1
        } else {
            0
        }
    }

    /// The digit of `tile` in column `c`'s key: its goal row + 1 if `c` is its goal column.
    #[inline(always)]
    fn col_digit(&self, tile: u8, c: u8) -> u32 {
        if tile != 0 && self.goal_col[tile as usize] == c {
            self.goal_row[tile as usize] as u32 + 1
        } else {
            0
        }
    }

    /// Tiles of row `r` that must leave it: those in their goal row, minus the longest run in
    /// goal order.
    #[inline]
    fn row_conflicts(&self, tiles: &[u8; MAX_CELLS], r: usize) -> u8 {
        let mut seq = [0u8; MAX_LINE];
        let mut n = 0;
        let base = r * self.width;
        for &t in &tiles[base..base + self.width] {
            if t != 0 && self.goal_row[t as usize] as usize == r {
                seq[n] = self.goal_col[t as usize];
                n += 1;
            }
        }
        (n - lis(&seq[..n])) as u8
    }

    /// Like [`Self::row_conflicts`] for column `c`.
    #[inline]
    fn col_conflicts(&self, tiles: &[u8; MAX_CELLS], c: usize) -> u8 {
        let mut seq = [0u8; MAX_LINE];
        let mut n = 0;
        for r in 0..self.height {
            let t = tiles[r * self.width + c];
            if t != 0 && self.goal_col[t as usize] as usize == c {
                seq[n] = self.goal_row[t as usize];
                n += 1;
            }
        }
        (n - lis(&seq[..n])) as u8
    }

    /// The lines a move of a tile from `from` to `to` touches.
    #[inline(always)]
    fn touched(&self, from: u8, to: u8) -> Touched {
        let (fr, fc) = (self.row_of[from as usize], self.col_of[from as usize]);
        let (tr, tc) = (self.row_of[to as usize], self.col_of[to as usize]);
        if fr == tr {
            Touched {
                a: MAX_LINE + fc as usize,
                b: MAX_LINE + tc as usize,
                along: fr as usize,
            }
        } else {
            Touched {
                a: fr as usize,
                b: tr as usize,
                along: MAX_LINE + fc as usize,
            }
        }
    }
}

/// Length of the longest strictly increasing subsequence (values are distinct goal positions).
#[inline]
fn lis(seq: &[u8]) -> usize {
    if seq.len() < 2 {
        return seq.len();
    }
    let mut tails = [0u8; MAX_LINE];
    let mut len = 0;
    for &x in seq {
        let mut i = 0;
        while i < len && tails[i] < x {
            i += 1;
        }
        tails[i] = x;
        if i == len {
            len += 1;
        }
    }
    len
}

impl Heuristic for LinearConflict {
    type Parts = LcParts;
    type Undo = LcUndo;
    type Pending = ();

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> LcParts {
        let mut s = LcParts {
            md: self.manhattan.total(tiles),
            lc: 0,
            lines: [0; 2 * MAX_LINE],
            keys: [0; 2 * MAX_LINE],
        };
        for r in 0..self.height {
            s.lines[r] = self.row_conflicts(tiles, r);
            s.lc += s.lines[r] as u32;
        }
        for c in 0..self.width {
            s.lines[MAX_LINE + c] = self.col_conflicts(tiles, c);
            s.lc += s.lines[MAX_LINE + c] as u32;
        }
        if self.tabulated() {
            for r in 0..self.height {
                for c in 0..self.width {
                    let t = tiles[r * self.width + c];
                    s.keys[r] += self.row_digit(t, r as u8) * self.row_pow[c];
                    s.keys[MAX_LINE + c] += self.col_digit(t, c as u8) * self.col_pow[r];
                }
            }
        }
        s
    }

    #[inline(always)]
    fn value(&self, s: &LcParts) -> u32 {
        s.md + 2 * s.lc
    }

    #[inline(always)]
    fn prepare(&self, _state: &Self::Parts, _tile: u8, _from: u8, _to: u8) {}

    #[inline(always)]
    fn apply(
        &self,
        s: &mut LcParts,
        tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        _limit: u32,
        _pending: &(),
    ) -> (u32, LcUndo) {
        let t = self.touched(from, to);
        let undo = LcUndo {
            md: s.md,
            lc: s.lc,
            a: s.lines[t.a],
            b: s.lines[t.b],
            keys: [s.keys[t.a], s.keys[t.b], s.keys[t.along]],
        };
        let (fr, fc) = (self.row_of[from as usize], self.col_of[from as usize]);
        let (tr, tc) = (self.row_of[to as usize], self.col_of[to as usize]);
        let (va, vb) = if self.tabulated() {
            if fr == tr {
                // Along the row: the tile's digit moves from column fc to column tc.
                let d = self.row_digit(tile, fr);
                let k = &mut s.keys[t.along];
                *k = *k + d * self.row_pow[tc as usize] - d * self.row_pow[fc as usize];
                s.keys[t.a] -= self.col_digit(tile, fc) * self.col_pow[fr as usize];
                s.keys[t.b] += self.col_digit(tile, tc) * self.col_pow[tr as usize];
                (
                    self.col_table[s.keys[t.a] as usize],
                    self.col_table[s.keys[t.b] as usize],
                )
            } else {
                // Along the column: the tile's digit moves from row fr to row tr.
                let d = self.col_digit(tile, fc);
                let k = &mut s.keys[t.along];
                *k = *k + d * self.col_pow[tr as usize] - d * self.col_pow[fr as usize];
                s.keys[t.a] -= self.row_digit(tile, fr) * self.row_pow[fc as usize];
                s.keys[t.b] += self.row_digit(tile, tr) * self.row_pow[tc as usize];
                (
                    self.row_table[s.keys[t.a] as usize],
                    self.row_table[s.keys[t.b] as usize],
                )
            }
        } else if fr == tr {
            (
                self.col_conflicts(tiles, fc as usize),
                self.col_conflicts(tiles, tc as usize),
            )
        } else {
            (
                self.row_conflicts(tiles, fr as usize),
                self.row_conflicts(tiles, tr as usize),
            )
        };
        s.md = s.md + self.manhattan.distance(tile, to) - self.manhattan.distance(tile, from);
        s.lc = s.lc + va as u32 + vb as u32 - undo.a as u32 - undo.b as u32;
        s.lines[t.a] = va;
        s.lines[t.b] = vb;
        (self.value(s), undo)
    }

    #[inline(always)]
    fn undo(&self, s: &mut LcParts, _tile: u8, from: u8, to: u8, undo: LcUndo) {
        let t = self.touched(from, to);
        s.keys[t.along] = undo.keys[2];
        s.keys[t.b] = undo.keys[1];
        s.keys[t.a] = undo.keys[0];
        s.lines[t.b] = undo.b;
        s.lines[t.a] = undo.a;
        s.md = undo.md;
        s.lc = undo.lc;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::testutil::check_incremental;
    use crate::position::Position;
    use pdbformat::{Board, Puzzle};

    #[test]
    fn lis_lengths() {
        assert_eq!(lis(&[]), 0);
        assert_eq!(lis(&[3]), 1);
        assert_eq!(lis(&[3, 2, 1, 0]), 1);
        assert_eq!(lis(&[0, 1, 2, 3]), 4);
        assert_eq!(lis(&[2, 0, 3, 1]), 2);
        assert_eq!(lis(&[1, 3, 0, 2, 4]), 3);
    }

    #[test]
    fn swapped_pair_costs_two() {
        let b = Board::new(3, 3).unwrap();
        let g = Goal::blank_last(b);
        let p = Puzzle::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
        let s = Position::from_tiles(p.tiles()).unwrap();
        let h = LinearConflict::new(&g);
        assert_eq!(h.value(&h.init(&s.tiles)), 2 + 2);
    }

    #[test]
    fn incremental_equals_fresh() {
        // Tabulated lines, and lines longer than TABLE_MAX_LEN (rescanned).
        for (w, h) in [
            (3, 3),
            (4, 4),
            (2, 5),
            (5, 3),
            (4, 3),
            (6, 6),
            (8, 2),
            (3, 7),
            (8, 8),
        ] {
            let b = Board::new(w, h).unwrap();
            for g in [Goal::blank_first(b), Goal::blank_last(b)] {
                check_incremental(&LinearConflict::new(&g), &g, 3000, 5);
            }
        }
    }
}
