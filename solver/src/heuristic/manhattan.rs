//! Manhattan distance: the sum over tiles of the rows plus columns to their goal cells.

use super::{Heuristic, StepChange};
use crate::position::MAX_CELLS;
use pdbformat::Goal;

/// The Manhattan-distance heuristic for one goal: a precomputed distance per (tile, cell).
#[derive(Clone, Debug)]
pub struct Manhattan {
    dist: Box<[[u8; MAX_CELLS]; MAX_CELLS]>,
    cells: usize,
}

impl Manhattan {
    /// The heuristic for `goal` (boards of at most 64 cells).
    pub fn new(goal: &Goal) -> Manhattan {
        let board = goal.board();
        let cells = board.cells().min(MAX_CELLS);
        let mut dist = Box::new([[0u8; MAX_CELLS]; MAX_CELLS]);
        for (t, row) in dist.iter_mut().enumerate().take(cells).skip(1) {
            for (c, d) in row.iter_mut().enumerate().take(cells) {
                *d = board.manhattan(goal.cell_of(t), c) as u8;
            }
        }
        Manhattan { dist, cells }
    }

    /// The distance of `tile` on `cell` to its goal cell (0 for the blank).
    #[inline(always)]
    pub fn distance(&self, tile: u8, cell: u8) -> u32 {
        self.dist[tile as usize][cell as usize] as u32
    }

    /// The sum of all tiles' distances in `tiles`.
    pub fn total(&self, tiles: &[u8; MAX_CELLS]) -> u32 {
        (0..self.cells)
            .map(|c| self.distance(tiles[c], c as u8))
            .sum()
    }
}

impl Heuristic for Manhattan {
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
        state + self.distance(tile, to) - self.distance(tile, from)
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
        *state = old + self.distance(tile, to) - self.distance(tile, from);
        (*state, old)
    }

    #[inline(always)]
    fn undo(&self, state: &mut u32, _tile: u8, _from: u8, _to: u8, undo: u32) {
        *state = undo;
    }

    /// A move takes one tile one cell nearer to or farther from its goal cell.
    fn step_change(&self) -> StepChange {
        StepChange::ExactlyOne
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::testutil::check_incremental;
    use pdbformat::{Board, Puzzle};

    #[test]
    fn known_value_and_incremental() {
        let b = Board::new(4, 4).unwrap();
        let g = Goal::blank_first(b);
        // Korf instance 1 has Manhattan distance 41.
        let p = Puzzle::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        let s = crate::position::Position::from_tiles(p.tiles()).unwrap();
        assert_eq!(Manhattan::new(&g).init(&s.tiles), 41);
        for (w, h) in [(3, 3), (4, 4), (2, 5), (5, 3)] {
            let b = Board::new(w, h).unwrap();
            for g in [Goal::blank_first(b), Goal::blank_last(b)] {
                check_incremental(&Manhattan::new(&g), &g, 2000, 11);
            }
        }
    }
}
