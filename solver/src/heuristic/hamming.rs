//! Misplaced tiles (Hamming distance): the number of tiles, blank excluded, off their goal cell.

use super::{Heuristic, StepChange};
use crate::position::MAX_CELLS;
use pdbformat::Goal;

/// The misplaced-tiles heuristic for one goal.
#[derive(Clone, Debug)]
pub struct Hamming {
    goal_cell: [u8; MAX_CELLS],
    cells: usize,
}

impl Hamming {
    /// The heuristic for `goal` (boards of at most 64 cells).
    pub fn new(goal: &Goal) -> Hamming {
        let mut goal_cell = [0u8; MAX_CELLS];
        let cells = goal.board().cells().min(MAX_CELLS);
        for (t, g) in goal_cell.iter_mut().enumerate().take(cells) {
            *g = goal.cell_of(t) as u8;
        }
        Hamming { goal_cell, cells }
    }
}

impl Heuristic for Hamming {
    type Parts = u32;
    type Undo = u32;
    type Pending = ();

    fn init(&self, tiles: &[u8; MAX_CELLS]) -> u32 {
        (0..self.cells)
            .filter(|&c| tiles[c] != 0 && self.goal_cell[tiles[c] as usize] as usize != c)
            .count() as u32
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
        let g = self.goal_cell[tile as usize];
        state + (g == from) as u32 - (g == to) as u32
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
        let g = self.goal_cell[tile as usize];
        *state = old + (g == from) as u32 - (g == to) as u32;
        (*state, old)
    }

    #[inline(always)]
    fn undo(&self, state: &mut u32, _tile: u8, _from: u8, _to: u8, undo: u32) {
        *state = undo;
    }

    /// A move changes whether one tile is on its goal cell, or nothing.
    fn step_change(&self) -> StepChange {
        StepChange::AtMostOne
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::testutil::check_incremental;
    use pdbformat::Board;

    #[test]
    fn incremental_equals_fresh() {
        for (w, h) in [(3, 3), (4, 4), (2, 5)] {
            let b = Board::new(w, h).unwrap();
            for g in [Goal::blank_first(b), Goal::blank_last(b)] {
                check_incremental(&Hamming::new(&g), &g, 2000, 7);
            }
        }
    }
}
