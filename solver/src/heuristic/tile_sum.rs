//! The heuristics that sum one cost per tile, read from a table of (tile, cell): misplaced
//! tiles ([`Hamming`]: 1 for a tile off its goal cell) and Manhattan distance ([`Manhattan`]:
//! the rows plus columns to its goal cell). A move changes one tile's cost, so the update is
//! one subtraction and one addition.

use super::{Heuristic, StepChange};
use crate::position::MAX_CELLS;
use pdbformat::{Board, Goal};
use std::marker::PhantomData;

/// What a tile costs on a cell: the rule of one [`TileSum`].
pub trait TileCost {
    /// The cost of a tile whose goal cell is `goal` on `cell` of `board`.
    fn cost(board: Board, goal: usize, cell: usize) -> u8;
    /// What one move can do to the sum.
    const STEP: StepChange;
}

/// Misplaced tiles: 1 off the goal cell, 0 on it.
#[derive(Clone, Copy, Debug)]
pub struct Misplaced;

impl TileCost for Misplaced {
    fn cost(_board: Board, goal: usize, cell: usize) -> u8 {
        (goal != cell) as u8
    }
    /// A move changes whether one tile is on its goal cell, or nothing.
    const STEP: StepChange = StepChange::AtMostOne;
}

/// Manhattan distance: the rows plus columns to the goal cell.
#[derive(Clone, Copy, Debug)]
pub struct Distance;

impl TileCost for Distance {
    fn cost(board: Board, goal: usize, cell: usize) -> u8 {
        board.manhattan(goal, cell) as u8
    }
    /// A move takes one tile one cell nearer to or farther from its goal cell.
    const STEP: StepChange = StepChange::ExactlyOne;
}

/// A heuristic that sums each tile's cost, by the rule `C`, over the board: a precomputed
/// cost per (tile, cell), the blank costing nothing.
#[derive(Clone, Debug)]
pub struct TileSum<C> {
    cost: Box<[[u8; MAX_CELLS]; MAX_CELLS]>,
    cells: usize,
    rule: PhantomData<C>,
}

/// The misplaced-tiles heuristic (Hamming distance): tiles, blank excluded, off their goal cell.
pub type Hamming = TileSum<Misplaced>;

/// The Manhattan-distance heuristic: the sum over tiles of the rows plus columns to their goal
/// cells.
pub type Manhattan = TileSum<Distance>;

impl<C: TileCost> TileSum<C> {
    /// The heuristic for `goal` (boards of at most 64 cells).
    pub fn new(goal: &Goal) -> TileSum<C> {
        let board = goal.board();
        let cells = board.cells().min(MAX_CELLS);
        let mut cost = Box::new([[0u8; MAX_CELLS]; MAX_CELLS]);
        for (t, row) in cost.iter_mut().enumerate().take(cells).skip(1) {
            for (c, d) in row.iter_mut().enumerate().take(cells) {
                *d = C::cost(board, goal.cell_of(t), c);
            }
        }
        TileSum {
            cost,
            cells,
            rule: PhantomData,
        }
    }

    /// The cost of `tile` on `cell` (0 for the blank): for Manhattan, its distance to its goal
    /// cell.
    #[inline(always)]
    pub fn distance(&self, tile: u8, cell: u8) -> u32 {
        self.cost[tile as usize][cell as usize] as u32
    }

    /// The sum of all tiles' costs in `tiles`.
    pub fn total(&self, tiles: &[u8; MAX_CELLS]) -> u32 {
        (0..self.cells)
            .map(|c| self.distance(tiles[c], c as u8))
            .sum()
    }

    /// The sum after `tile` moved from `from` to `to`, from the sum `before`.
    #[inline(always)]
    fn moved(&self, before: u32, tile: u8, from: u8, to: u8) -> u32 {
        before + self.distance(tile, to) - self.distance(tile, from)
    }
}

impl<C: TileCost> Heuristic for TileSum<C> {
    type Parts = u32;
    type Undo = u32;
    type Pending = ();

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> u32 {
        self.total(tiles)
    }

    #[inline(always)]
    fn value(&self, state: &u32) -> u32 {
        *state
    }

    #[inline(always)]
    fn prepare(&self, _state: &Self::Parts, _tile: u8, _from: u8, _to: u8) {}

    #[inline(always)]
    fn evaluate(
        &self,
        state: &u32,
        _tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        _limit: u32,
        _pending: &mut (),
    ) -> u32 {
        self.moved(*state, tile, from, to)
    }

    #[inline(always)]
    fn apply(
        &self,
        state: &mut u32,
        _tiles: &[u8; MAX_CELLS],
        tile: u8,
        from: u8,
        to: u8,
        _limit: u32,
        _pending: &(),
    ) -> (u32, u32) {
        let old = *state;
        *state = self.moved(old, tile, from, to);
        (*state, old)
    }

    #[inline(always)]
    fn undo(&self, state: &mut u32, _tile: u8, _from: u8, _to: u8, undo: u32) {
        *state = undo;
    }

    fn step_change(&self) -> StepChange {
        C::STEP
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::testutil::check_incremental;
    use pdbformat::Puzzle;

    #[test]
    fn known_values_and_incremental_updates() {
        let g = Goal::blank_first(Board::new(4, 4).unwrap());
        // Korf instance 1 has Manhattan distance 41, and every tile off its goal cell.
        let p = Puzzle::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        let s = crate::position::Position::from_tiles(p.tiles()).unwrap();
        assert_eq!(Manhattan::new(&g).init(&s.tiles), 41);
        assert_eq!(Hamming::new(&g).init(&s.tiles), 15);
        for (w, h) in [(3, 3), (4, 4), (2, 5), (5, 3)] {
            let b = Board::new(w, h).unwrap();
            for g in [Goal::blank_first(b), Goal::blank_last(b)] {
                check_incremental(&Manhattan::new(&g), &g, 2000, 11);
                check_incremental(&Hamming::new(&g), &g, 2000, 7);
            }
        }
    }
}
