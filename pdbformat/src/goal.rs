//! Goals: where every tile must end up (`blank-first`, `blank-last` or any permutation).

use crate::board::Board;
use crate::error::PuzzleError;
use std::fmt;

/// A goal placement of the tiles `0..cells` (0 is the blank) on a board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Goal {
    board: Board,
    tile_at: Vec<u16>,
    cell_of: Vec<u16>,
}

impl Goal {
    /// `0 1 2 … N-1`: the blank in the top-left corner (the convention of Korf's instances).
    pub fn blank_first(board: Board) -> Goal {
        let tiles: Vec<u16> = (0..board.cells() as u16).collect();
        Goal::from_tiles(board, &tiles).expect("identity is a permutation")
    }

    /// `1 2 … N-1 0`: the blank in the bottom-right corner (the usual convention for people).
    pub fn blank_last(board: Board) -> Goal {
        let n = board.cells() as u16;
        let tiles: Vec<u16> = (1..n).chain(std::iter::once(0)).collect();
        Goal::from_tiles(board, &tiles).expect("rotation is a permutation")
    }

    /// A goal from the tile at each cell, row by row; must be a permutation of `0..cells`.
    pub fn from_tiles(board: Board, tiles: &[u16]) -> Result<Goal, PuzzleError> {
        let cell_of = crate::board::check_permutation(board, tiles)?;
        Ok(Goal {
            board,
            tile_at: tiles.to_vec(),
            cell_of,
        })
    }

    /// Parses `blank-first`, `blank-last` or an explicit tile list (as puzzles are written).
    pub fn parse(board: Board, spec: &str) -> Result<Goal, PuzzleError> {
        match spec.trim().to_ascii_lowercase().as_str() {
            "blank-first" | "first" | "0-first" => Ok(Goal::blank_first(board)),
            "blank-last" | "last" | "0-last" => Ok(Goal::blank_last(board)),
            _ => {
                let tiles =
                    crate::parse::parse_tiles(spec).map_err(|e| PuzzleError::InvalidGoal {
                        spec: spec.into(),
                        why: format!("{e}; expected blank-first, blank-last or a tile list"),
                    })?;
                if tiles.len() != board.cells() {
                    return Err(PuzzleError::InvalidGoal {
                        spec: spec.into(),
                        why: format!(
                            "a {board} board needs {} tiles, found {}",
                            board.cells(),
                            tiles.len()
                        ),
                    });
                }
                Goal::from_tiles(board, &tiles)
            }
        }
    }

    /// The board this goal is for.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The tile whose goal cell is `cell` (0 for the blank's cell).
    pub fn tile_at(&self, cell: usize) -> usize {
        self.tile_at[cell] as usize
    }

    /// The goal cell of `tile` (0 is the blank).
    pub fn cell_of(&self, tile: usize) -> usize {
        self.cell_of[tile] as usize
    }

    /// The blank's goal cell.
    pub fn blank_cell(&self) -> usize {
        self.cell_of(0)
    }

    /// The tiles at each cell, row by row.
    pub fn tiles(&self) -> &[u16] {
        &self.tile_at
    }

    /// The goal's common name (`blank-first`, `blank-last`) or `None` for other permutations.
    pub fn name(&self) -> Option<&'static str> {
        if *self == Goal::blank_first(self.board) {
            Some("blank-first")
        } else if *self == Goal::blank_last(self.board) {
            Some("blank-last")
        } else {
            None
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => {
                let s: Vec<String> = self.tile_at.iter().map(|t| t.to_string()).collect();
                write!(f, "\"{}\"", s.join(" "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_goals() {
        let b = Board::new(3, 3).unwrap();
        let f = Goal::blank_first(b);
        assert_eq!(f.blank_cell(), 0);
        assert_eq!(f.cell_of(5), 5);
        let l = Goal::blank_last(b);
        assert_eq!(l.blank_cell(), 8);
        assert_eq!(l.cell_of(1), 0);
        assert_eq!(l.to_string(), "blank-last");
        assert_eq!(Goal::parse(b, "1 2 3 4 5 6 7 8 0").unwrap(), l);
        let odd = Goal::parse(b, "1,2,3,4,0,5,6,7,8").unwrap();
        assert_eq!(odd.blank_cell(), 4);
        assert_eq!(odd.name(), None);
        assert!(Goal::parse(b, "1 2 3").is_err());
        assert!(Goal::parse(b, "1 1 2 3 4 5 6 7 0").is_err());
    }
}
