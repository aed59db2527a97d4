//! Reading puzzles as people write them: commas, spaces or a grid of lines, `0` or `_` for the blank.

use crate::board::Board;
use crate::error::PuzzleError;

/// Reads the tiles of a puzzle or goal, ignoring the layout: separators are commas, semicolons,
/// whitespace and newlines; `_` (or `.`) stands for the blank.
pub fn parse_tiles(text: &str) -> Result<Vec<u16>, PuzzleError> {
    let mut tiles = Vec::new();
    for (i, tok) in tokens(text).enumerate() {
        tiles.push(parse_token(tok, i + 1)?);
    }
    if tiles.is_empty() {
        return Err(PuzzleError::Empty);
    }
    Ok(tiles)
}

/// Reads the tiles and infers the board when none is given: several lines of equal length form
/// a `width × height` grid; otherwise the count must be a square.
pub fn parse_with_board(
    text: &str,
    board: Option<Board>,
) -> Result<(Board, Vec<u16>), PuzzleError> {
    let tiles = parse_tiles(text)?;
    let board = match board {
        Some(b) => b,
        None => infer_board(text, tiles.len())?,
    };
    if tiles.len() != board.cells() {
        return Err(PuzzleError::WrongCount {
            expected: board.cells(),
            found: tiles.len(),
            board: board.to_string(),
        });
    }
    Ok((board, tiles))
}

fn infer_board(text: &str, count: usize) -> Result<Board, PuzzleError> {
    let lines: Vec<usize> = text
        .lines()
        .map(|l| tokens(l).count())
        .filter(|&n| n > 0)
        .collect();
    if lines.len() >= 2 {
        let width = lines[0];
        if let Some((i, &n)) = lines.iter().enumerate().find(|(_, &n)| n != width) {
            return Err(PuzzleError::RaggedGrid {
                line: i + 1,
                expected: width,
                found: n,
            });
        }
        return Board::new(width, lines.len());
    }
    Board::square_with_cells(count).ok_or(PuzzleError::NotSquare { count })
}

fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|t| !t.is_empty())
}

fn parse_token(tok: &str, position: usize) -> Result<u16, PuzzleError> {
    if tok == "_" || tok == "." {
        return Ok(0);
    }
    tok.parse::<u16>().map_err(|_| PuzzleError::InvalidToken {
        token: tok.to_string(),
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_and_blank_symbols() {
        assert_eq!(parse_tiles("1,2, 3 _\n4").unwrap(), vec![1, 2, 3, 0, 4]);
        assert_eq!(parse_tiles("1;2;0").unwrap(), vec![1, 2, 0]);
        assert!(matches!(parse_tiles("  "), Err(PuzzleError::Empty)));
        assert!(matches!(
            parse_tiles("1 x 3"),
            Err(PuzzleError::InvalidToken { position: 2, .. })
        ));
        assert!(matches!(
            parse_tiles("1 -2"),
            Err(PuzzleError::InvalidToken { .. })
        ));
    }

    #[test]
    fn grid_shape_gives_board() {
        let (b, t) = parse_with_board("1 2 3\n4 5 6\n7 8 0\n10 11 9\n", None).unwrap();
        assert_eq!((b.width(), b.height()), (3, 4));
        assert_eq!(t.len(), 12);
        let (b, _) = parse_with_board("1 2 3 4 5 6 7 8 0", None).unwrap();
        assert_eq!(b.width(), 3);
        assert!(matches!(
            parse_with_board("1 2\n3 4 5\n", None),
            Err(PuzzleError::RaggedGrid { line: 2, .. })
        ));
        assert!(matches!(
            parse_with_board("1 2 3 4 5 0", None),
            Err(PuzzleError::NotSquare { count: 6 })
        ));
        let b34 = Board::new(3, 4).unwrap();
        assert!(matches!(
            parse_with_board("1 2 3 4 5 0", Some(b34)),
            Err(PuzzleError::WrongCount {
                expected: 12,
                found: 6,
                ..
            })
        ));
    }
}
