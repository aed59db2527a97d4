//! The search position: tiles on cells in fixed-capacity arrays, and per-cell move tables.
//!
//! The solver works on boards of at most [`MAX_CELLS`] cells, so a position fits in one
//! 64-byte array (`tiles[cell]`, 0 for the blank) and every cell's neighbours are precomputed:
//! making or unmaking a move is two byte stores and needs no allocation.

use pdbformat::{Board, Direction, Goal};

/// The largest board the optimal solver accepts (the pattern-database limit of `pdbformat`).
pub const MAX_CELLS: usize = pdbformat::board::PDB_MAX_CELLS;

/// Marks "no cell" in `u8` cell arrays (never a valid cell, since cells are below 64).
pub const NO_CELL: u8 = u8::MAX;

/// A position: the tile on every cell (0 is the blank) and the blank's cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The tile on each cell; cells past the board's end hold 0 and are never read.
    pub tiles: [u8; MAX_CELLS],
    /// The blank's cell.
    pub blank: u8,
}

impl Position {
    /// The position of `tiles` (row by row, 0 for the blank); `None` when the board is larger than
    /// [`MAX_CELLS`] or the list holds no blank.
    pub fn from_tiles(tiles: &[u16]) -> Option<Position> {
        if tiles.len() > MAX_CELLS {
            return None;
        }
        let mut t = [0u8; MAX_CELLS];
        for (cell, &tile) in tiles.iter().enumerate() {
            t[cell] = u8::try_from(tile).ok()?;
        }
        let blank = tiles.iter().position(|&x| x == 0)? as u8;
        Some(Position { tiles: t, blank })
    }

    /// Moves the tile on `to` into the blank's cell: the blank goes to `to`. Returns the tile.
    #[inline(always)]
    pub fn slide(&mut self, to: u8) -> u8 {
        let tile = self.tiles[to as usize];
        self.tiles[self.blank as usize] = tile;
        self.tiles[to as usize] = 0;
        self.blank = to;
        tile
    }

    /// Whether the first `cells` cells equal `goal`'s tiles.
    pub fn is_goal(&self, goal: &Goal) -> bool {
        goal.tiles()
            .iter()
            .zip(self.tiles.iter())
            .all(|(&g, &t)| g == t as u16)
    }
}

/// For every cell, the cells the blank can move to, in the fixed order Up, Down, Left, Right.
#[derive(Clone, Debug)]
pub struct MoveTable {
    targets: [[u8; 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
}

impl MoveTable {
    /// The table of `board` (at most [`MAX_CELLS`] cells).
    ///
    /// # Panics
    /// If the board has more than [`MAX_CELLS`] cells.
    pub fn new(board: Board) -> MoveTable {
        assert!(board.cells() <= MAX_CELLS, "at most {MAX_CELLS} cells");
        let mut targets = [[NO_CELL; 4]; MAX_CELLS];
        let mut count = [0u8; MAX_CELLS];
        for cell in 0..board.cells() {
            for (_, n) in board.neighbours(cell) {
                targets[cell][count[cell] as usize] = n as u8;
                count[cell] += 1;
            }
        }
        MoveTable { targets, count }
    }

    /// The cells the blank on `cell` can move to.
    #[inline(always)]
    pub fn targets(&self, cell: u8) -> &[u8] {
        &self.targets[cell as usize][..self.count[cell as usize] as usize]
    }
}

/// The direction the blank moves to go from `from` to the neighbouring cell `to`.
///
/// # Panics
/// If the cells are not neighbours.
pub fn direction_between(board: Board, from: usize, to: usize) -> Direction {
    board
        .neighbours(from)
        .find(|&(_, n)| n == to)
        .map(|(d, _)| d)
        .expect("consecutive blank cells are neighbours")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_table_matches_board() {
        for (w, h) in [(3, 3), (4, 4), (2, 5), (8, 8)] {
            let b = Board::new(w, h).unwrap();
            let m = MoveTable::new(b);
            for c in 0..b.cells() {
                let want: Vec<u8> = b.neighbours(c).map(|(_, n)| n as u8).collect();
                assert_eq!(m.targets(c as u8), &want[..]);
                for &n in m.targets(c as u8) {
                    let d = direction_between(b, c, n as usize);
                    assert_eq!(b.neighbour(c, d), Some(n as usize));
                }
            }
        }
    }

    #[test]
    fn slide_and_back() {
        let b = Board::new(3, 3).unwrap();
        let g = Goal::blank_first(b);
        let mut s = Position::from_tiles(g.tiles()).unwrap();
        assert!(s.is_goal(&g));
        assert_eq!(s.slide(1), 1);
        assert_eq!(s.blank, 1);
        assert_eq!(s.tiles[0], 1);
        assert!(!s.is_goal(&g));
        assert_eq!(s.slide(0), 1);
        assert!(s.is_goal(&g));
        assert!(Position::from_tiles(&[1, 2, 3]).is_none());
    }
}
