//! Puzzle lists: one puzzle per line, `#` comments, and an optional known optimal length.
//!
//! A line holds the tiles row by row (as `pdbformat::parse` reads them). One extra number at
//! the end is read as the known optimal length, as in `bench/korf100.txt` (16 tiles, then the
//! length): the board decides, either the one given or, without one, the square board whose
//! cell count is the line's count or the count minus one.

use pdbformat::{Board, Puzzle, PuzzleError};

/// One puzzle of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// The text of the puzzle, as written (comment removed, trimmed).
    pub text: String,
    /// The puzzle, or why it could not be read.
    pub puzzle: Result<Puzzle, PuzzleError>,
    /// The optimal length given on the line, if any.
    pub expected: Option<u32>,
}

/// Reads every non-empty, non-comment line of `text`.
pub fn read_puzzles(text: &str, board: Option<Board>) -> Vec<PuzzleLine> {
    text.lines()
        .enumerate()
        .filter_map(|(i, raw)| {
            let body = raw.split('#').next().unwrap_or("").trim();
            (!body.is_empty()).then(|| parse_line(i + 1, body, board))
        })
        .collect()
}

fn parse_line(line: usize, body: &str, board: Option<Board>) -> PuzzleLine {
    let mk = |puzzle, expected| PuzzleLine {
        line,
        text: body.to_string(),
        puzzle,
        expected,
    };
    let tiles = match pdbformat::parse::parse_tiles(body) {
        Ok(t) => t,
        Err(e) => return mk(Err(e), None),
    };
    let n = tiles.len();
    let board = match board {
        Some(b) => Some(b),
        None => Board::square_with_cells(n).or_else(|| Board::square_with_cells(n - 1)),
    };
    let Some(board) = board else {
        return mk(Err(PuzzleError::NotSquare { count: n }), None);
    };
    if n == board.cells() + 1 {
        let expected = tiles[n - 1] as u32;
        mk(Puzzle::new(board, &tiles[..n - 1]), Some(expected))
    } else {
        mk(Puzzle::new(board, &tiles), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_lengths() {
        let text = "# Korf\n14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57\n\n1 2 3 4 5 6 7 8 0 # solved\n1 2 3\n";
        let v = read_puzzles(text, None);
        assert_eq!(v.len(), 3);
        assert_eq!(v[0].line, 2);
        assert_eq!(v[0].expected, Some(57));
        assert_eq!(v[0].puzzle.as_ref().unwrap().board().cells(), 16);
        assert_eq!(v[1].expected, None);
        assert_eq!(v[1].text, "1 2 3 4 5 6 7 8 0");
        assert!(matches!(
            v[2].puzzle,
            Err(PuzzleError::NotSquare { count: 3 })
        ));
        let b = Board::new(3, 4).unwrap();
        let v = read_puzzles("1 2 3 4 5 6 7 8 9 10 11 0 20\n", Some(b));
        assert_eq!(v[0].expected, Some(20));
        let v = read_puzzles("1 2 x\n", Some(b));
        assert!(matches!(v[0].puzzle, Err(PuzzleError::InvalidToken { .. })));
    }
}
