//! The package's exceptions and the one conversion of each library error into a Python
//! exception, with the message the command line prints (`pdbformat::error::describe`).
//!
//! Bad puzzles, goals, boards, partitions and settings are `ValueError`; files that cannot be
//! used as databases (unreadable, damaged, for another board or goal) are `DatabaseError`; a
//! search ended by a limit is `SearchStopped`, which carries what it proved.

use pdbformat::error::describe;
use pdbformat::{Goal, Puzzle, PuzzleError};
use pdbsolver::{DbError, RequestError, ResolveError, SolveError};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    pdbtiles,
    DatabaseError,
    pyo3::exceptions::PyException,
    "A file that cannot be used as a pattern database: unreadable, damaged (a checksum or a \
     table's values), or built for another board or goal."
);

pyo3::create_exception!(
    pdbtiles,
    SearchStopped,
    pyo3::exceptions::PyRuntimeError,
    "A search ended by a limit (`max_nodes`, `timeout`, memory) before it found a solution. \
     Attributes: `reason` (\"node limit\", \"time limit\", \"memory limit\"), `lower_bound` \
     (no solution is shorter), `initial_h` (the start's estimate), `nodes`, `seconds`."
);

/// A `ValueError` with `e`'s whole chain of causes.
pub fn value_error(e: &(dyn std::error::Error + 'static)) -> PyErr {
    PyValueError::new_err(describe(e))
}

/// A `DatabaseError` with `e`'s whole chain of causes.
pub fn database_error(e: &(dyn std::error::Error + 'static)) -> PyErr {
    DatabaseError::new_err(describe(e))
}

/// A database that cannot be used: `DatabaseError`.
pub fn db_error(e: &DbError) -> PyErr {
    database_error(e)
}

/// A request the solver refuses (an unknown algorithm, a setting the algorithm does not take,
/// a value out of range): `ValueError`.
pub fn request_error(e: &RequestError) -> PyErr {
    value_error(e)
}

/// A puzzle, goal or board the library refuses: `ValueError`, in Python's words (the board
/// named as the keyword argument, where the library's message names the command line's flag).
pub fn puzzle_error(e: &PuzzleError) -> PyErr {
    PyValueError::new_err(puzzle_message(e))
}

/// The message of `e` as a Python caller reads it.
fn puzzle_message(e: &PuzzleError) -> String {
    match e {
        PuzzleError::NotSquare { count } => format!(
            "{count} tiles do not make a square board: give the board (for example board=\"3x4\")"
        ),
        e => describe(e),
    }
}

/// Why `puzzle` was not solved for `goal`, as the exception the caller sees: an unsolvable
/// puzzle names the other common goal it can reach, as the command line does.
pub fn solve_error(py: Python<'_>, e: &SolveError, puzzle: Option<&Puzzle>, goal: &Goal) -> PyErr {
    match e {
        SolveError::Puzzle(pe) => {
            let mut msg = puzzle_message(pe);
            if let (PuzzleError::Unsolvable { .. }, Some(p)) = (pe, puzzle) {
                if let Some(other) = p.solvable_other_goal(goal) {
                    msg.push_str(&format!(" (it is solvable for goal={:?})", other.to_string()));
                }
            }
            PyValueError::new_err(msg)
        }
        SolveError::Database(d) => db_error(d),
        SolveError::BoardTooLarge { .. } | SolveError::Refused(_) => value_error(e),
        SolveError::Stopped { stop, stats } => {
            stopped(py, describe(e), stop.describe(), stats.lower_bound, stats)
        }
        SolveError::NotFound { limit, stats } => {
            stopped(py, describe(e), "depth limit", *limit + 1, stats)
        }
        SolveError::Failed(_) => PyRuntimeError::new_err(describe(e)),
    }
}

/// A `SearchStopped` with its attributes.
fn stopped(
    py: Python<'_>,
    msg: String,
    reason: &str,
    lower_bound: u32,
    stats: &pdbsolver::Stats,
) -> PyErr {
    let err = SearchStopped::new_err(msg);
    let value = err.value(py);
    // Setting attributes on a fresh exception instance cannot fail short of memory; the
    // message says everything even then.
    let _ = value.setattr("reason", reason);
    let _ = value.setattr("lower_bound", lower_bound);
    let _ = value.setattr("initial_h", stats.initial_h);
    let _ = value.setattr("nodes", stats.nodes);
    let _ = value.setattr("seconds", stats.seconds);
    err
}

/// A file-system failure outside the libraries (creating a folder): `OSError`.
pub fn os_error(context: String, e: &std::io::Error) -> PyErr {
    PyOSError::new_err(format!("{context}: {e}"))
}

/// A resolver's error as the exception Python callers see, in Python's terms.
pub fn resolve_error(e: &ResolveError) -> PyErr {
    match e {
        ResolveError::DatabasesNeedPdb(n) => PyValueError::new_err(format!(
            "db needs heuristic=\"pdb\" (or \"auto\"), not {n:?}",
            n = n.name()
        )),
        ResolveError::NoneFits { .. } => {
            PyValueError::new_err(format!("{e}; give one with db="))
        }
        // A class file is built by `pdbgen build`, which the error's own message names.
        ResolveError::NotFound { db, .. } if db.is_class_file() => database_error(e),
        ResolveError::NotFound { db, searched, .. } => database_error_text(format!(
            "database {} is not in {searched}; build it with pdbtiles.build(\"{}x{}\", \"{}\", \"{}\", kind=\"{}\", encoding=\"{}\")",
            db.name,
            db.width,
            db.height,
            db.partition,
            db.file_name(),
            db.kind.name(),
            db.encoding.name()
        )),
        ResolveError::BoardTooLarge { .. } | ResolveError::EmptyList => {
            PyValueError::new_err(e.to_string())
        }
        ResolveError::Database(d) => db_error(d),
        _ => database_error(e),
    }
}

/// A `DatabaseError` with this message.
fn database_error_text(message: String) -> PyErr {
    DatabaseError::new_err(message)
}
