//! Which goals a database serves: the symmetry that carries a goal's frame into the frame of
//! the goal its tables were built for (same board, blank cells related by a symmetry).

use super::DbError;
use pdbformat::{Goal, Symmetry};
use std::path::Path;

/// The symmetry that carries `goal`'s frame into the frame of a database built for `db_goal`
/// (the file at `path`, for messages): it takes the goal's blank cell to the database goal's
/// blank cell. Errors when the board differs or no symmetry fits.
pub(super) fn between(path: &Path, db_goal: &Goal, goal: &Goal) -> Result<Symmetry, DbError> {
    let board = goal.board();
    if board != db_goal.board() {
        return Err(DbError::WrongBoard {
            path: path.to_path_buf(),
            db_board: db_goal.board(),
            board,
        });
    }
    Symmetry::taking(board, goal.blank_cell(), db_goal.blank_cell()).ok_or_else(|| {
        let rc = |c: usize| (board.row(c), board.col(c));
        DbError::WrongGoal {
            path: path.to_path_buf(),
            db_goal: db_goal.to_string(),
            db_blank: rc(db_goal.blank_cell()),
            goal: goal.to_string(),
            blank: rc(goal.blank_cell()),
        }
    })
}
