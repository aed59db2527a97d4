//! Python values read as the libraries' inputs: a puzzle (a string as people write puzzles, or
//! a sequence of ints), a board (`"4x4"`), a goal (`"blank-first"`, `"blank-last"` or tiles)
//! and search settings (keyword arguments read by `pdbsolver::Request::set`, as the command
//! line's flags and the server's JSON are).

use crate::errors::{puzzle_error, request_error};
use pdbformat::{Board, Goal, Puzzle, PuzzleError};
use pdbsolver::Request;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};

/// A puzzle as Python gives it.
#[derive(FromPyObject)]
pub enum PuzzleArg {
    /// Tiles row by row in one string, `0` or `_` for the blank (`"8 6 7 2 5 4 3 0 1"`).
    Text(String),
    /// Tiles row by row as ints (a list, a tuple, a NumPy row).
    Tiles(Vec<i64>),
}

/// The board named `spec` (`"4x4"`, `"3x5"`), if one is given.
pub fn board_of(spec: Option<&str>) -> PyResult<Option<Board>> {
    spec.map(|s| s.parse::<Board>().map_err(|e| puzzle_error(&e)))
        .transpose()
}

/// The puzzle `arg` on `board` (inferred from the tile count when `None`: a square board,
/// or the rows of a multi-line string).
pub fn puzzle_of(arg: &PuzzleArg, board: Option<Board>) -> PyResult<Puzzle> {
    match arg {
        PuzzleArg::Text(text) => Puzzle::parse(text, board).map_err(|e| puzzle_error(&e)),
        PuzzleArg::Tiles(tiles) => {
            let tiles: Vec<u16> = tiles
                .iter()
                .map(|&t| u16::try_from(t).map_err(|_| t))
                .collect::<Result<_, _>>()
                .map_err(|t| PyValueError::new_err(format!("tile {t} is not a tile number")))?;
            let board = match board {
                Some(b) => b,
                None => Board::square_with_cells(tiles.len())
                    .ok_or_else(|| puzzle_error(&PuzzleError::NotSquare { count: tiles.len() }))?,
            };
            Puzzle::new(board, &tiles).map_err(|e| puzzle_error(&e))
        }
    }
}

/// The goal `spec` on `board`.
pub fn goal_of(board: Board, spec: &str) -> PyResult<Goal> {
    Goal::parse(board, spec).map_err(|e| puzzle_error(&e))
}

/// The request of `algorithm` (`None`: the library's default, `parallel-ida` on every core
/// or `ida` with `threads=1`), the two limits and the other keyword arguments (`weight`,
/// `threads`, `heuristic`, `reflect`, `prune`, `max_memory`, …: the keys of
/// [`Request::set`], `_` for `-`), each checked as the command line checks its flag.
pub fn request_of(
    algorithm: Option<&str>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Request> {
    let mut r = Request::default();
    if let Some(a) = algorithm {
        r.set("algorithm", a).map_err(|e| request_error(&e))?;
    }
    if let Some(t) = timeout {
        r.set("timeout", &t.to_string())
            .map_err(|e| request_error(&e))?;
    }
    r.max_nodes = max_nodes;
    for (key, value) in settings.into_iter().flatten() {
        let key: String = key.extract()?;
        if value.is_none() {
            continue;
        }
        r.set(&key, &setting_text(&key, &value)?)
            .map_err(|e| request_error(&e))?;
    }
    // What the algorithm does not take is refused here, before anything is loaded.
    r.resolve().map_err(|e| request_error(&e))?;
    Ok(r)
}

/// A setting's value as text: booleans `on`/`off`, numbers as written, strings as they are.
fn setting_text(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        Ok(if value.extract::<bool>()? {
            "on"
        } else {
            "off"
        }
        .into())
    } else if value.is_instance_of::<PyInt>() || value.is_instance_of::<PyFloat>() {
        Ok(value.str()?.to_string())
    } else if value.is_instance_of::<PyString>() {
        value.extract()
    } else {
        Err(PyTypeError::new_err(format!(
            "setting {key} takes a number, a string or a bool, not {}",
            value.get_type().name()?
        )))
    }
}

/// A pattern's tiles as a list of ints (PyO3 would make bytes of a `&[u8]`).
pub fn tile_list(tiles: &[u8]) -> Vec<u32> {
    tiles.iter().map(|&t| t as u32).collect()
}
