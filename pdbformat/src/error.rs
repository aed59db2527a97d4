//! Errors for boards, goals, puzzles and patterns (the file format has its own, in `format`).

use thiserror::Error;

/// The start of an [`PuzzleError::InvalidBoard`] message: `invalid board WxH: `, or nothing
/// for text that could not be read as a board (0x0), whose reason says so.
fn invalid_board(width: usize, height: usize) -> String {
    if width == 0 && height == 0 {
        String::new()
    } else {
        format!("invalid board {width}x{height}: ")
    }
}

/// Something wrong with a board, goal or puzzle as given by a user.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PuzzleError {
    /// The board dimensions are not supported.
    #[error("{}{why}", invalid_board(*width, *height))]
    InvalidBoard {
        /// Columns asked for (0, with 0 rows, when the text could not be read as a board).
        width: usize,
        /// Rows asked for.
        height: usize,
        /// Why it was refused.
        why: String,
    },
    /// The text held no tiles at all.
    #[error("no tiles given")]
    Empty,
    /// A token that is neither a number nor `_`.
    #[error(
        "cannot read {token:?} (item {position}) as a tile: use numbers, with 0 or _ for the blank"
    )]
    InvalidToken {
        /// The offending text.
        token: String,
        /// 1-based position among the items.
        position: usize,
    },
    /// The number of tiles does not match the board.
    #[error("expected {expected} tiles for a {board} board, found {found}")]
    WrongCount {
        /// Tiles the board needs (cells, blank included).
        expected: usize,
        /// Tiles given.
        found: usize,
        /// The board, in words.
        board: String,
    },
    /// No board was given and the count is not a square.
    #[error("{count} tiles do not make a square board: give the board (for example --board 3x4)")]
    NotSquare {
        /// Tiles given.
        count: usize,
    },
    /// Lines of a grid have different lengths.
    #[error("line {line} of the grid has {found} tiles, the first line has {expected}")]
    RaggedGrid {
        /// 1-based line number.
        line: usize,
        /// Tiles on the first line.
        expected: usize,
        /// Tiles on this line.
        found: usize,
    },
    /// Rows written with `/` that do not make a grid, or do not fit the board given.
    #[error("{why}")]
    Rows {
        /// 1-based number of the row at fault.
        row: usize,
        /// What is wrong, in words.
        why: String,
    },
    /// A tile appears twice.
    #[error("tile {tile} appears more than once")]
    Duplicate {
        /// The repeated tile (0 is the blank).
        tile: usize,
    },
    /// A tile number is too large for the board.
    #[error("tile {tile} is out of range: tiles on this board are 0 (blank) to {max}")]
    OutOfRange {
        /// The offending number.
        tile: usize,
        /// The largest valid tile.
        max: usize,
    },
    /// The position cannot reach the goal.
    #[error("this position is unsolvable: it cannot reach the goal {goal} (the permutation parity and the blank's distance disagree)")]
    Unsolvable {
        /// The goal, in words.
        goal: String,
    },
    /// A goal specification could not be understood.
    #[error("invalid goal {spec:?}: {why}")]
    InvalidGoal {
        /// What was given.
        spec: String,
        /// Why it was refused.
        why: String,
    },
}

/// Something wrong with a pattern or partition.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// The specification could not be read.
    #[error("cannot read pattern {spec:?}: {why}")]
    Syntax {
        /// What was given.
        spec: String,
        /// What is wrong.
        why: String,
    },
    /// A pattern with no tiles.
    #[error("a pattern must hold at least one tile")]
    Empty,
    /// A tile outside `1..cells`.
    #[error("tile {tile} is out of range: pattern tiles on this board are 1 to {max}")]
    TileOutOfRange {
        /// The tile.
        tile: usize,
        /// The largest tile.
        max: usize,
    },
    /// The blank (0) may not be part of a pattern.
    #[error("the blank (0) cannot be a pattern tile")]
    BlankInPattern,
    /// A tile appears in two patterns (or twice in one).
    #[error("tile {tile} appears in more than one pattern")]
    Overlap {
        /// The tile.
        tile: usize,
    },
    /// A compound lists one pattern twice.
    #[error("pattern {pattern} appears twice")]
    Repeated {
        /// The pattern.
        pattern: String,
    },
    /// A compound whose patterns make no exact cover of the tiles: no additive group.
    #[error("no disjoint choice of the patterns covers every tile")]
    NoCover,
    /// An additive partition must cover every tile.
    #[error("the partition does not cover tiles {missing:?}: an additive partition holds every tile exactly once")]
    Missing {
        /// The uncovered tiles.
        missing: Vec<usize>,
    },
    /// A preset name that does not exist for this board.
    #[error("unknown partition preset {name:?} for a {board} board (known: {known})")]
    UnknownPreset {
        /// The name.
        name: String,
        /// The board, in words.
        board: String,
        /// The presets that exist for it.
        known: String,
    },
    /// Pattern databases need boards of at most 64 cells.
    #[error("pattern databases support boards of at most 64 cells, not {cells}")]
    BoardTooLarge {
        /// The board's cells.
        cells: usize,
    },
    /// A preset that needs the goal's blank in a corner.
    #[error("preset {name:?} is defined for goals with the blank in a corner; give the partition as tile lists instead")]
    PresetNeedsCornerBlank {
        /// The preset.
        name: String,
    },
}

/// An error and its causes in one line for people, each cause said once: the messages of
/// `error` and of its chain of sources joined by `": "`, leaving out a cause whose message the
/// line already holds (an error that shows its source in its own message and also returns it
/// as its source would otherwise be read twice).
///
/// ```
/// use pdbformat::error::describe;
/// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
/// let e = pdbformat::format::FormatError::Io { context: "cannot read x.pdb".into(), source: io };
/// assert_eq!(describe(&e), "cannot read x.pdb: no such file");
/// ```
pub fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        let said = c.to_string();
        if !said.is_empty() && !line.contains(&said) {
            line.push_str(": ");
            line.push_str(&said);
        }
        cause = c.source();
    }
    line
}
