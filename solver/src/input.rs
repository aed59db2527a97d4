//! Puzzle lists: one puzzle per line, `#` comments, and an optional known optimal length.
//!
//! A line holds the tiles row by row (as `pdbformat::parse` reads them; rows separated by `/`
//! give the board themselves). Without `/`, one extra number at the end is read as the known
//! optimal length, as in `bench/korf100.txt` (16 tiles, then the length): the board decides,
//! either the one given or, without one, the square board whose cell count is the line's count
//! or the count minus one.
//!
//! Lines of `bench/korf50-24.txt` carry an instance number first and a published node count
//! last (`id`, the tiles, the optimal length, Korf & Felner's IDA* nodes): a line with three
//! numbers more than the board's cells is read that way.

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
    /// The instance number given first on the line (`korf50-24.txt`), if any.
    pub id: Option<u64>,
    /// The published node count given last on the line (`korf50-24.txt`), if any.
    pub published_nodes: Option<u64>,
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
    if let Some(l) = parse_numbered(line, body, board) {
        return l;
    }
    let mk = |puzzle, expected| PuzzleLine {
        line,
        text: body.to_string(),
        puzzle,
        expected,
        id: None,
        published_nodes: None,
    };
    // Rows separated by `/` spell the board themselves; the line is the position alone.
    if body.contains('/') {
        return mk(Puzzle::parse(body, board), None);
    }
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

/// A line `id tiles… length nodes` (all plain numbers, three more than the board's cells).
fn parse_numbered(line: usize, body: &str, board: Option<Board>) -> Option<PuzzleLine> {
    let numbers: Vec<u64> = body
        .split_whitespace()
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    let n = numbers.len();
    let board = match board {
        Some(b) => b,
        None => Board::square_with_cells(n.checked_sub(3)?)?,
    };
    if n != board.cells() + 3 {
        return None;
    }
    let tiles = numbers[1..n - 2]
        .iter()
        .map(|&t| u16::try_from(t).ok())
        .collect::<Option<Vec<u16>>>()?;
    let text: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    Some(PuzzleLine {
        line,
        text: text.join(" "),
        puzzle: Puzzle::new(board, &tiles),
        expected: u32::try_from(numbers[n - 2]).ok(),
        id: Some(numbers[0]),
        published_nodes: Some(numbers[n - 1]),
    })
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

    #[test]
    fn numbered_lines_with_published_nodes() {
        let text = "# id tiles length nodes\n1 14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13 95 2031102635\n";
        let v = read_puzzles(text, None);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].id, Some(1));
        assert_eq!(v[0].expected, Some(95));
        assert_eq!(v[0].published_nodes, Some(2_031_102_635));
        let p = v[0].puzzle.as_ref().unwrap();
        assert_eq!(p.board().cells(), 25);
        assert_eq!(p.tiles()[0], 14);
        assert!(v[0].text.starts_with("14 5 9"));
        // Korf's 100 lines keep their meaning: 16 tiles and a length.
        let v = read_puzzles("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57\n", None);
        assert_eq!(
            (v[0].id, v[0].published_nodes, v[0].expected),
            (None, None, Some(57))
        );
    }

    #[test]
    fn rows_separated_by_slashes_give_the_board() {
        let v = read_puzzles("8 2 0/4 6 1/3 7 5\n1 2 3 4/5 6 7 0 # 4x2\n1 2/3\n", None);
        assert_eq!(v[0].puzzle.as_ref().unwrap().board().to_string(), "3x3");
        assert_eq!(v[1].puzzle.as_ref().unwrap().board().to_string(), "4x2");
        assert!(matches!(v[2].puzzle, Err(PuzzleError::Rows { row: 2, .. })));
        let b = Board::new(3, 3).unwrap();
        assert!(read_puzzles("1 2 3 4/5 6 7 0", Some(b))[0].puzzle.is_err());
    }
}
