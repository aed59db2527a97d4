//! Rectangular boards: dimensions, cells, moves and neighbour relations.

use crate::error::PuzzleError;
use std::fmt;
use std::str::FromStr;

/// The largest number of cells a [`Board`] may have.
///
/// Pattern databases need far fewer (at most [`PDB_MAX_CELLS`]); the larger limit serves
/// non-optimal solvers that work on big boards.
pub const MAX_CELLS: usize = 4096;

/// The largest number of cells a board used with pattern databases may have: occupied-cell sets
/// are held in one `u64` bit mask.
pub const PDB_MAX_CELLS: usize = 64;

/// A `width × height` board whose cells are numbered row by row from 0 (top left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: u16,
    height: u16,
}

/// A direction in which the blank moves; the tile it swaps with moves the opposite way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// The blank moves one row up.
    Up,
    /// The blank moves one row down.
    Down,
    /// The blank moves one column left.
    Left,
    /// The blank moves one column right.
    Right,
}

impl Direction {
    /// All four directions in a fixed order.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// The direction that undoes this one.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The letter used in move notation: `U`, `D`, `L` or `R` (the blank's direction).
    pub fn letter(self) -> char {
        match self {
            Direction::Up => 'U',
            Direction::Down => 'D',
            Direction::Left => 'L',
            Direction::Right => 'R',
        }
    }

    /// Parses a move letter (either case).
    pub fn from_letter(c: char) -> Option<Direction> {
        match c.to_ascii_uppercase() {
            'U' => Some(Direction::Up),
            'D' => Some(Direction::Down),
            'L' => Some(Direction::Left),
            'R' => Some(Direction::Right),
            _ => None,
        }
    }
}

impl Board {
    /// Creates a board; both sides must be at least 2 and the board at most [`MAX_CELLS`] cells.
    pub fn new(width: usize, height: usize) -> Result<Board, PuzzleError> {
        if width < 2 || height < 2 {
            return Err(PuzzleError::InvalidBoard {
                width,
                height,
                why: "both sides must be at least 2".into(),
            });
        }
        if width.saturating_mul(height) > MAX_CELLS {
            return Err(PuzzleError::InvalidBoard {
                width,
                height,
                why: format!("at most {MAX_CELLS} cells are supported"),
            });
        }
        Ok(Board {
            width: width as u16,
            height: height as u16,
        })
    }

    /// The square board whose cell count is `cells`, if `cells` is a square of at least 4.
    pub fn square_with_cells(cells: usize) -> Option<Board> {
        let side = (cells as f64).sqrt().round() as usize;
        (side * side == cells && side >= 2)
            .then(|| Board::new(side, side).ok())
            .flatten()
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Number of cells (`width × height`), which is also the number of tiles plus the blank.
    pub fn cells(&self) -> usize {
        self.width() * self.height()
    }

    /// Whether the board is square.
    pub fn is_square(&self) -> bool {
        self.width == self.height
    }

    /// Whether the board is small enough for pattern databases (at most [`PDB_MAX_CELLS`] cells).
    pub fn fits_pdb(&self) -> bool {
        self.cells() <= PDB_MAX_CELLS
    }

    /// The row of `cell`.
    pub fn row(&self, cell: usize) -> usize {
        cell / self.width()
    }

    /// The column of `cell`.
    pub fn col(&self, cell: usize) -> usize {
        cell % self.width()
    }

    /// The cell at `row`, `col`.
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.width() + col
    }

    /// The cell the blank reaches from `cell` by moving in `dir`, if it stays on the board.
    pub fn neighbour(&self, cell: usize, dir: Direction) -> Option<usize> {
        let (r, c) = (self.row(cell), self.col(cell));
        match dir {
            Direction::Up => (r > 0).then(|| cell - self.width()),
            Direction::Down => (r + 1 < self.height()).then(|| cell + self.width()),
            Direction::Left => (c > 0).then(|| cell - 1),
            Direction::Right => (c + 1 < self.width()).then(|| cell + 1),
        }
    }

    /// The neighbouring cells of `cell` with the direction that leads to each.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = (Direction, usize)> + '_ {
        Direction::ALL
            .into_iter()
            .filter_map(move |d| self.neighbour(cell, d).map(|n| (d, n)))
    }

    /// Manhattan distance between two cells.
    pub fn manhattan(&self, a: usize, b: usize) -> usize {
        self.row(a).abs_diff(self.row(b)) + self.col(a).abs_diff(self.col(b))
    }

    /// For every cell, the bit mask of its neighbours (boards of at most 64 cells).
    ///
    /// # Panics
    /// If the board has more than [`PDB_MAX_CELLS`] cells.
    pub fn neighbour_masks(&self) -> Vec<u64> {
        assert!(self.fits_pdb(), "neighbour masks need at most 64 cells");
        (0..self.cells())
            .map(|c| self.neighbours(c).fold(0u64, |m, (_, n)| m | 1 << n))
            .collect()
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Board {
    type Err = PuzzleError;

    /// Parses `WxH` (for example `4x4` or `3x4`: 3 columns, 4 rows) or a single side `4`.
    fn from_str(s: &str) -> Result<Board, PuzzleError> {
        let s = s.trim();
        let bad = || PuzzleError::InvalidBoard {
            width: 0,
            height: 0,
            why: format!("cannot read board {s:?}: expected WxH such as 4x4 or 3x4"),
        };
        let (w, h) = match s.split_once(['x', 'X', '×']) {
            Some((w, h)) => (
                w.trim().parse().map_err(|_| bad())?,
                h.trim().parse().map_err(|_| bad())?,
            ),
            None => {
                let side: usize = s.parse().map_err(|_| bad())?;
                (side, side)
            }
        };
        Board::new(w, h)
    }
}

/// Checks that `tiles` is a permutation of `0..board.cells()` and returns each tile's cell.
pub(crate) fn check_permutation(board: Board, tiles: &[u16]) -> Result<Vec<u16>, PuzzleError> {
    let n = board.cells();
    if tiles.len() != n {
        return Err(PuzzleError::WrongCount {
            expected: n,
            found: tiles.len(),
            board: board.to_string(),
        });
    }
    let mut cell_of = vec![u16::MAX; n];
    for (cell, &t) in tiles.iter().enumerate() {
        let t = t as usize;
        if t >= n {
            return Err(PuzzleError::OutOfRange {
                tile: t,
                max: n - 1,
            });
        }
        if cell_of[t] != u16::MAX {
            return Err(PuzzleError::Duplicate { tile: t });
        }
        cell_of[t] = cell as u16;
    }
    Ok(cell_of)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_of_corners_and_centre() {
        let b = Board::new(3, 3).unwrap();
        let n: Vec<_> = b.neighbours(0).map(|(_, c)| c).collect();
        assert_eq!(n, vec![3, 1]);
        let n: Vec<_> = b.neighbours(4).map(|(_, c)| c).collect();
        assert_eq!(n, vec![1, 7, 3, 5]);
        let r = Board::new(4, 2).unwrap();
        assert_eq!(r.neighbour(3, Direction::Right), None);
        assert_eq!(r.neighbour(3, Direction::Down), Some(7));
    }

    #[test]
    fn parse_boards() {
        assert_eq!("4x4".parse::<Board>().unwrap(), Board::new(4, 4).unwrap());
        assert_eq!("3x4".parse::<Board>().unwrap().width(), 3);
        assert_eq!("5".parse::<Board>().unwrap().cells(), 25);
        assert!("1x4".parse::<Board>().is_err());
        assert!("axb".parse::<Board>().is_err());
        assert_eq!(Board::square_with_cells(16), Board::new(4, 4).ok());
        assert_eq!(Board::square_with_cells(15), None);
    }

    #[test]
    fn neighbour_masks_are_symmetric() {
        for (w, h) in [(2, 2), (3, 4), (4, 3), (8, 8)] {
            let b = Board::new(w, h).unwrap();
            let m = b.neighbour_masks();
            for a in 0..b.cells() {
                for c in 0..b.cells() {
                    assert_eq!(m[a] >> c & 1, m[c] >> a & 1);
                    assert_eq!(m[a] >> c & 1 == 1, b.manhattan(a, c) == 1);
                }
            }
        }
    }
}
