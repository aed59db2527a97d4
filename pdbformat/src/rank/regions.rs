//! Free-cell regions: flood fill over bit masks of a board of at most 64 cells.

use crate::board::Board;

/// Shift masks that let a flood fill move bits one cell in each direction without wrapping.
#[derive(Clone, Copy, Debug)]
pub struct BoardBits {
    width: u32,
    all: u64,
    not_first_col: u64,
    not_last_col: u64,
}

impl BoardBits {
    /// The masks for `board` (at most 64 cells).
    ///
    /// # Panics
    /// If the board has more than 64 cells.
    pub fn new(board: Board) -> BoardBits {
        assert!(board.fits_pdb(), "bit boards hold at most 64 cells");
        let n = board.cells();
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut first = 0u64;
        let mut last = 0u64;
        for r in 0..board.height() {
            first |= 1 << board.cell(r, 0);
            last |= 1 << board.cell(r, board.width() - 1);
        }
        BoardBits {
            width: board.width() as u32,
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
        }
    }

    /// Every cell of the board.
    #[inline]
    pub fn all(&self) -> u64 {
        self.all
    }

    /// The cells of `mask` together with their neighbours.
    #[inline]
    pub fn grow(&self, mask: u64) -> u64 {
        mask | self.neighbours(mask)
    }

    /// The cells next to a cell of `mask` (cells of `mask` among them only where two of its
    /// cells are neighbours).
    #[inline]
    pub fn neighbours(&self, mask: u64) -> u64 {
        ((mask << 1) & self.not_first_col)
            | ((mask >> 1) & self.not_last_col)
            | ((mask << self.width) & self.all)
            | (mask >> self.width)
    }
}

/// The cells of `free` connected to `seed` (a subset of `free`) through `free` cells.
#[inline]
pub fn flood(bits: &BoardBits, seed: u64, free: u64) -> u64 {
    let mut m = seed;
    loop {
        let g = bits.grow(m) & free;
        if g == m {
            return m;
        }
        m = g;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood_stops_at_walls_and_edges() {
        let bits = BoardBits::new(Board::new(4, 4).unwrap());
        // Wall in column 1: cells 1, 5, 9, 13.
        let wall = (1 << 1) | (1 << 5) | (1 << 9) | (1 << 13);
        let free = bits.all() & !wall;
        let left = flood(&bits, 1, free);
        assert_eq!(left, (1 << 0) | (1 << 4) | (1 << 8) | (1 << 12));
        let right = flood(&bits, 1 << 2, free);
        assert_eq!(right.count_ones(), 8);
        // No wrap from the end of one row to the start of the next.
        let b = Board::new(3, 2).unwrap();
        let bits = BoardBits::new(b);
        assert_eq!(flood(&bits, 1 << 2, (1 << 2) | (1 << 3)), 1 << 2);
        let b = Board::new(8, 8).unwrap();
        let bits = BoardBits::new(b);
        assert_eq!(flood(&bits, 1, u64::MAX), u64::MAX);
    }
}
