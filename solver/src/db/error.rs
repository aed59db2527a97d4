//! Why a database cannot be used: [`DbError`], one variant per cause, the reader's error as
//! the source.

use pdbformat::format::FormatError;
use pdbformat::Board;
use std::path::PathBuf;
use thiserror::Error;

/// Why a database cannot be used.
#[derive(Debug, Error)]
pub enum DbError {
    /// The file could not be read, or its header or checksums are wrong.
    #[error("cannot use database {path}: {source}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What the reader found.
        #[source]
        source: FormatError,
    },
    /// A `bit1` table whose bits do not describe distances: no walk from a position reaches
    /// the goal (only possible when its digest was not checked).
    #[error("cannot use database {path}: table {table} is corrupt: {why}; check the file with `pdbgen verify` (loading without --no-verify checks its digest)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Table number.
        table: usize,
        /// What the walk found.
        why: String,
    },
    /// The database is for another board.
    #[error("database {path} is for a {db_board} board, but the puzzle is on a {board} board")]
    WrongBoard {
        /// The file.
        path: PathBuf,
        /// The database's board.
        db_board: Board,
        /// The puzzle's board.
        board: Board,
    },
    /// No symmetry of the board takes the database's goal blank to the puzzle goal's blank.
    #[error("database {path} was built for goal {db_goal} (blank at row {}, column {}); no symmetry of the board takes that cell to the blank's cell of goal {goal} (row {}, column {})", .db_blank.0 + 1, .db_blank.1 + 1, .blank.0 + 1, .blank.1 + 1)]
    WrongGoal {
        /// The file.
        path: PathBuf,
        /// The database's goal, in words.
        db_goal: String,
        /// Its blank cell (row, column).
        db_blank: (usize, usize),
        /// The puzzle's goal, in words.
        goal: String,
        /// Its blank cell (row, column).
        blank: (usize, usize),
    },
    /// The database counts moves in another metric than the search.
    #[error("database {path} holds tables for the {db_metric} metric, but the search counts moves in {metric}{}", if *.db_metric == pdbformat::Metric::Mtm { " (MTM class tables serve MTM searches; build STM pattern tables with `pdbgen build --partition ...`)" } else { " (sums of pattern tables overestimate MTM distances; build MTM class tables with `pdbgen build --metric mtm`)" })]
    WrongMetric {
        /// The file.
        path: PathBuf,
        /// The metric the file's tables were built for.
        db_metric: pdbformat::Metric,
        /// The search's metric.
        metric: pdbformat::Metric,
    },
    /// The background digest check ended without a verdict (its thread died): nothing about
    /// the entries was confirmed.
    #[error("cannot use database {path}: its digest check stopped before it finished; run again, or check the file with `pdbgen verify`")]
    Unverified {
        /// The file.
        path: PathBuf,
    },
    /// Too many tables and views to combine.
    #[error("too many pattern tables combined: at most {max} {what} are supported, {found} were asked for")]
    TooMany {
        /// What is counted: components (table groups × views) or entries (distinct tables
        /// under each view).
        what: &'static str,
        /// The limit.
        max: usize,
        /// What was asked for.
        found: usize,
    },
}
