//! The puzzles a command works on: one from the arguments, or the lines of a file (or of
//! standard input), every line held to one board.

use anyhow::{anyhow, bail, Context, Result};
use pdbformat::{Board, Puzzle};
use pdbsolver::input::{read_puzzles, PuzzleLine};
use std::io::Read;
use std::path::Path;

/// The puzzle written in `tiles` (one argument or several), on `board` when given.
pub fn from_args(tiles: &[String], board: Option<Board>) -> Result<Puzzle> {
    Puzzle::parse(&tiles.join(" "), board).map_err(|e| anyhow!("{e}"))
}

/// Reads a puzzle file (or standard input for `-`).
pub fn read_input(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    }
}

/// The board of a list: the one given, or the first readable line's; and the lines, each held
/// to that board.
pub fn list_board(text: &str, board: Option<Board>) -> Result<(Board, Vec<PuzzleLine>)> {
    let lines = read_puzzles(text, board);
    let board = match board {
        Some(b) => b,
        None => match lines.iter().find_map(|l| l.puzzle.as_ref().ok()) {
            Some(p) => p.board(),
            None => match lines.first() {
                Some(l) => bail!(
                    "line {}: {}",
                    l.line,
                    l.puzzle
                        .as_ref()
                        .err()
                        .map(|e| e.to_string())
                        .unwrap_or_default()
                ),
                None => bail!("no puzzles in the input"),
            },
        },
    };
    // Read again with the board fixed so that every line is held to it.
    Ok((board, read_puzzles(text, Some(board))))
}
