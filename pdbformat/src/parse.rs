//! Reading puzzles as people write them: commas, spaces, a grid of lines or rows separated by
//! `/` (`8 2 0/4 6 1/3 7 5`), `0` or `_` for the blank.

use crate::board::Board;
use crate::error::PuzzleError;

/// Reads the tiles of a puzzle or goal, ignoring the layout: separators are commas, semicolons,
/// whitespace, newlines and `/`; `_` (or `.`) stands for the blank. Rows separated by `/` must
/// all hold tiles, and the same number of them (see [`slash_rows`]).
pub fn parse_tiles(text: &str) -> Result<Vec<u16>, PuzzleError> {
    let mut tiles = Vec::new();
    for (i, tok) in tokens(text).enumerate() {
        tiles.push(parse_token(tok, i + 1)?);
    }
    if tiles.is_empty() {
        return Err(PuzzleError::Empty);
    }
    slash_rows(text)?;
    Ok(tiles)
}

/// The number of tiles on each row of a position written in rows separated by `/`
/// (`8 2 0/4 6 1/3 7 5`, spaces around `/` allowed), or `None` when the text has no `/`. Every
/// row must hold tiles, and all the same number: an error names the first row that does not.
pub fn slash_rows(text: &str) -> Result<Option<Vec<usize>>, PuzzleError> {
    if !text.contains('/') {
        return Ok(None);
    }
    let rows: Vec<usize> = text.split('/').map(|r| tokens(r).count()).collect();
    for (i, &n) in rows.iter().enumerate() {
        let row = i + 1;
        if n == 0 {
            return Err(PuzzleError::Rows {
                row,
                why: format!(
                    "row {row} is empty: write the rows separated by /, such as 8 2 0/4 6 1/3 7 5"
                ),
            });
        }
        if n != rows[0] {
            return Err(PuzzleError::Rows {
                row,
                why: format!(
                    "row {row} has {n} tiles, row 1 has {}: every row must have the same length",
                    rows[0]
                ),
            });
        }
    }
    Ok(Some(rows))
}

/// Checks that rows read by [`slash_rows`] fit `board`: as many rows as it has, each as long
/// as its rows.
fn check_rows(rows: &[usize], board: Board) -> Result<(), PuzzleError> {
    if rows[0] != board.width() {
        return Err(PuzzleError::Rows {
            row: 1,
            why: format!(
                "the rows have {} tiles each, a row of the {board} board has {}",
                rows[0],
                board.width()
            ),
        });
    }
    if rows.len() != board.height() {
        return Err(PuzzleError::Rows {
            row: rows.len().min(board.height()) + 1,
            why: format!(
                "{} rows given, the {board} board has {}",
                rows.len(),
                board.height()
            ),
        });
    }
    Ok(())
}

/// Reads the tiles and infers the board when none is given: rows separated by `/` give the
/// board (width the row length, height the rows), as do several lines of equal length;
/// otherwise the count must be a square. With a board given, rows separated by `/` must fit it.
pub fn parse_with_board(
    text: &str,
    board: Option<Board>,
) -> Result<(Board, Vec<u16>), PuzzleError> {
    let tiles = parse_tiles(text)?;
    let board = match (board, slash_rows(text)?) {
        (Some(b), Some(rows)) => {
            check_rows(&rows, b)?;
            b
        }
        (Some(b), None) => b,
        (None, Some(rows)) => Board::new(rows[0], rows.len())?,
        (None, None) => infer_board(text, tiles.len())?,
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
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '/')
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

    #[test]
    fn rows_separated_by_slashes() {
        for text in [
            "8 2 0/4 6 1/3 7 5",
            "8 2 0 / 4 6 1 / 3 7 5",
            " 8,2,0/ 4 6 1 /3 7 5\n",
        ] {
            let (b, t) = parse_with_board(text, None).unwrap();
            assert_eq!((b.width(), b.height()), (3, 3), "{text:?}");
            assert_eq!(t, vec![8, 2, 0, 4, 6, 1, 3, 7, 5]);
        }
        // The rows give a rectangle with no --board, and must fit one given.
        let (b, _) = parse_with_board("1 2 3 4/5 6 7 0", None).unwrap();
        assert_eq!((b.width(), b.height()), (4, 2));
        let b24 = Board::new(2, 4).unwrap();
        let b42 = Board::new(4, 2).unwrap();
        assert!(parse_with_board("1 2 3 4/5 6 7 0", Some(b42)).is_ok());
        let e = parse_with_board("1 2 3 4/5 6 7 0", Some(b24)).unwrap_err();
        assert!(matches!(e, PuzzleError::Rows { row: 1, .. }), "{e:?}");
        assert!(e.to_string().contains("2x4"), "{e}");
        let b33 = Board::new(3, 3).unwrap();
        let e = parse_with_board("1 2 3/4 5 6", Some(b33)).unwrap_err();
        assert!(e.to_string().contains("2 rows given"), "{e}");
    }

    #[test]
    fn hostile_rows_are_clear_errors() {
        let e = parse_with_board("1 2 3/4 5 6 7/8 0", None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "row 2 has 4 tiles, row 1 has 3: every row must have the same length"
        );
        for (text, row) in [
            ("1 2 3/4 5 6/7 8 0/", 4),
            ("/1 2 3", 1),
            ("1 2//3 0", 2),
            ("///", 1),
        ] {
            let e = parse_tiles(text).unwrap_or_else(|_| vec![]);
            let r = parse_with_board(text, None).unwrap_err();
            match r {
                PuzzleError::Rows { row: got, .. } => assert_eq!(got, row, "{text:?}"),
                PuzzleError::Empty => assert!(e.is_empty(), "{text:?}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
        // Rows of one tile make no board; a bad token is named before the rows are checked.
        assert!(matches!(
            parse_with_board("1/0", None),
            Err(PuzzleError::InvalidBoard { .. })
        ));
        assert!(matches!(
            parse_with_board("1 2/x 0", None),
            Err(PuzzleError::InvalidToken { position: 3, .. })
        ));
        let long = vec!["1 2"; 5000].join("/");
        assert!(parse_with_board(&long, None).is_err());
        // A goal written in rows reads as the same tiles.
        assert_eq!(
            parse_tiles("1 2 3/4 5 6/7 8 0").unwrap(),
            parse_tiles("1 2 3 4 5 6 7 8 0").unwrap()
        );
    }
}
