//! Manhattan distance plus linear conflicts (Hansson, Mayer & Yung).
//!
//! Tiles that stand in their goal row (or column) in the wrong order must partly leave that
//! line: in each line, at least `len − LIS` of its `len` such tiles (LIS: the longest subsequence
//! already in goal order) leave and come back, two moves each beyond their Manhattan distance.
//! Rows and columns count independently: a row conflict costs vertical moves, a column conflict
//! horizontal ones, which the Manhattan distance of the same tile cannot cover both ways.
//!
//! A horizontal move changes only the two columns the tile leaves and enters (its row keeps
//! the same order); a vertical move only the two rows. Those two lines are recomputed.

use super::manhattan::Manhattan;
use super::Heuristic;
use crate::state::MAX_CELLS;
use pdbformat::Goal;

/// Lines per direction: a board of at most 64 cells has at most 32 rows or columns.
const MAX_LINE: usize = 32;

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
}

/// Manhattan sum, conflict sum and the conflicts of every row (`0..32`) and column (`32..64`).
#[derive(Clone, Debug)]
pub struct LcState {
    md: u32,
    lc: u32,
    lines: [u8; 2 * MAX_LINE],
}

/// Restores an [`LcState`]: the previous sums and the previous values of the two lines.
#[derive(Clone, Copy, Debug)]
pub struct LcUndo {
    md: u32,
    lc: u32,
    a: u8,
    b: u8,
}

impl LinearConflict {
    /// The heuristic for `goal` (boards of at most 64 cells).
    pub fn new(goal: &Goal) -> LinearConflict {
        let board = goal.board();
        let cells = board.cells().min(MAX_CELLS);
        let mut lc = LinearConflict {
            manhattan: Manhattan::new(goal),
            width: board.width(),
            height: board.height(),
            row_of: [0; MAX_CELLS],
            col_of: [0; MAX_CELLS],
            goal_row: [0; MAX_CELLS],
            goal_col: [0; MAX_CELLS],
        };
        for c in 0..cells {
            lc.row_of[c] = board.row(c) as u8;
            lc.col_of[c] = board.col(c) as u8;
            lc.goal_row[c] = board.row(goal.cell_of(c)) as u8;
            lc.goal_col[c] = board.col(goal.cell_of(c)) as u8;
        }
        lc
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
    type State = LcState;
    type Undo = LcUndo;
    type Pending = ();

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> LcState {
        let mut s = LcState {
            md: self.manhattan.total(tiles),
            lc: 0,
            lines: [0; 2 * MAX_LINE],
        };
        for r in 0..self.height {
            s.lines[r] = self.row_conflicts(tiles, r);
            s.lc += s.lines[r] as u32;
        }
        for c in 0..self.width {
            s.lines[MAX_LINE + c] = self.col_conflicts(tiles, c);
            s.lc += s.lines[MAX_LINE + c] as u32;
        }
        s
    }

    #[inline(always)]
    fn value(&self, s: &LcState) -> u32 {
        s.md + 2 * s.lc
    }

    #[inline(always)]
    fn prepare(&self, _state: &Self::State, _tile: u8, _from: u8, _to: u8) {}

    #[inline(always)]
    fn apply(
        &self,
        s: &mut LcState,
        tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        _limit: u32,
        _pending: &(),
    ) -> (u32, LcUndo) {
        let (fr, fc) = (self.row_of[from as usize], self.col_of[from as usize]);
        let (tr, tc) = (self.row_of[to as usize], self.col_of[to as usize]);
        let (ia, ib, va, vb) = if fr == tr {
            let (a, b) = (MAX_LINE + fc as usize, MAX_LINE + tc as usize);
            (
                a,
                b,
                self.col_conflicts(tiles, fc as usize),
                self.col_conflicts(tiles, tc as usize),
            )
        } else {
            let (a, b) = (fr as usize, tr as usize);
            (
                a,
                b,
                self.row_conflicts(tiles, fr as usize),
                self.row_conflicts(tiles, tr as usize),
            )
        };
        let undo = LcUndo {
            md: s.md,
            lc: s.lc,
            a: s.lines[ia],
            b: s.lines[ib],
        };
        s.md = s.md + self.manhattan.distance(tile, to) - self.manhattan.distance(tile, from);
        s.lc = s.lc + va as u32 + vb as u32 - undo.a as u32 - undo.b as u32;
        s.lines[ia] = va;
        s.lines[ib] = vb;
        (self.value(s), undo)
    }

    #[inline(always)]
    fn undo(&self, s: &mut LcState, _tile: u8, from: u8, to: u8, undo: LcUndo) {
        let (fr, fc) = (self.row_of[from as usize], self.col_of[from as usize]);
        let (tr, tc) = (self.row_of[to as usize], self.col_of[to as usize]);
        let (ia, ib) = if fr == tr {
            (MAX_LINE + fc as usize, MAX_LINE + tc as usize)
        } else {
            (fr as usize, tr as usize)
        };
        s.lines[ib] = undo.b;
        s.lines[ia] = undo.a;
        s.md = undo.md;
        s.lc = undo.lc;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::testutil::check_incremental;
    use crate::state::State;
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
        let s = State::from_tiles(p.tiles()).unwrap();
        let h = LinearConflict::new(&g);
        assert_eq!(h.value(&h.init(&s.tiles)), 2 + 2);
    }

    #[test]
    fn incremental_equals_fresh() {
        for (w, h) in [(3, 3), (4, 4), (2, 5), (5, 3), (4, 3)] {
            let b = Board::new(w, h).unwrap();
            for g in [Goal::blank_first(b), Goal::blank_last(b)] {
                check_incremental(&LinearConflict::new(&g), &g, 3000, 5);
            }
        }
    }
}
