//! `solve` and `solve_many`: the puzzles read, the heuristic made (the databases given, or the
//! one the command line would find or build, or the classic heuristics), and the searches run
//! through `pdbsolver::solve` on threads of their own while the interpreter answers Ctrl-C.
//!
//! `solve_many` runs each puzzle as `solver bench` does (the same request, the same
//! heuristic, one search per puzzle, the digest check beside the searches and waited for once
//! at the end), on `threads` workers taking puzzles in turn; the results come back in input
//! order.

use crate::resolving::{choices_of, resolve};
use crate::errors::{db_error, solve_error};
use crate::inputs::{board_of, goal_of, puzzle_of, request_of, PuzzleArg};
use crate::progress::{bar, Line};
use crate::solution::Solution;
use crate::waiting;
use pdbformat::{Goal, Puzzle};
use pdbsolver::{AlgorithmName, Request, Resolved, Search, SolveError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Solves one puzzle optimally (with the default `ida`) and returns its `Solution`.
///
/// `puzzle` is a string (`"8 6 7 2 5 4 3 0 1"`, `0` or `_` for the blank) or a sequence of
/// ints, row by row; the board is square unless `board` (`"3x4"`: columns x rows) says
/// otherwise. `goal` is `"blank-first"` (0 1 2 …), `"blank-last"` or the goal's tiles. `db` is
/// a path, a standard name (`"15-78-za-bit1"`), a `Database` or a list of them; without it, the
/// database the command line would use (found in `$PDB_DIR`, `artifacts/` or the user cache;
/// the 4x4 default 6-6-3 is built there on first use), else Manhattan distance with linear
/// conflicts. `algorithm` is `ida`, `astar`, `bfs`, `hybrid`, `parallel-ida`, `dfs`,
/// `weighted`, `strategic` or `anytime` (default: `anytime` on boards of more than 25 cells
/// or when `within` is given, else `parallel-ida` on every core, `ida` with `threads=1`;
/// its small first iterations run on one thread); `timeout` (seconds) and `max_nodes` stop the
/// search with `SearchStopped` (`anytime` returns its best solution at the time limit, with
/// `stopped` set, and improves for 5 seconds without `timeout` and `within`); `within=W`
/// stops `anytime` at a solution proven at most `W` times the optimum. Other settings go by keyword as the command line's flags:
/// `metric` (`"stm"`, the default, or `"mtm"`: the multi-tile metric, with its default class
/// tables where the board has them, found or built as the 6-6-3 is, else the walking
/// distance), `heuristic`, `reflect`, `prune`, `weight`, `within`, `threads`, `depth_limit`,
/// `hybrid_nodes`, `max_memory`.
#[pyfunction]
#[pyo3(signature = (puzzle, db=None, goal="blank-first", board=None, algorithm=None, timeout=None, max_nodes=None, **settings))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    puzzle: PuzzleArg,
    db: Option<&Bound<'_, PyAny>>,
    goal: &str,
    board: Option<&str>,
    algorithm: Option<&str>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Solution> {
    let request = request_of(algorithm, timeout, max_nodes, settings)?;
    let puzzle = puzzle_of(&puzzle, board_of(board)?)?;
    // The board's default algorithm: anytime beyond 25 cells.
    let request = request.on_board(puzzle.board().cells());
    let goal = goal_of(puzzle.board(), goal)?;
    if let Err(e) = puzzle.check_solvable(&goal) {
        return Err(solve_error(py, &e.into(), Some(&puzzle), &goal));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let ready = heuristic_for(py, db, &request, &goal, &stop)?;
    let search = Search {
        interrupt: Some(stop.clone()),
        ..request
            .resolve()
            .map_err(|e| crate::errors::request_error(&e))?
    };
    let result = waiting::run(
        py,
        &stop,
        || pdbsolver::solve(&search, &ready.heuristic, &puzzle, &goal),
        |_| {},
    )?;
    match result {
        Ok(s) => Ok(Solution::new(&puzzle, &ready.description, &s)),
        Err(e) => Err(solve_error(py, &e, Some(&puzzle), &goal)),
    }
}

/// Solves many puzzles, each as `solve` would (the same arguments), on `threads` workers
/// (0: one per core) with the GIL released, and returns their solutions in input order. The
/// default algorithm is the board's (`anytime` beyond 25 cells or with `within`), with `ida`
/// in place of `parallel-ida`.
/// The database is loaded once. With `progress`, a bar on standard error. Ctrl-C stops every
/// search within a second and raises `KeyboardInterrupt`. When a puzzle cannot be solved
/// (a limit stopped it), `errors="raise"` (the default) raises its exception after every
/// other puzzle is done; `errors="return"` puts the exception in its place in the list.
/// Bad puzzles raise `ValueError` before any search starts.
#[pyfunction]
#[pyo3(signature = (puzzles, db=None, goal="blank-first", board=None, algorithm=None, timeout=None, max_nodes=None, threads=0, progress=false, errors="raise", **settings))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    db: Option<&Bound<'py, PyAny>>,
    goal: &str,
    board: Option<&str>,
    algorithm: Option<&str>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    threads: usize,
    progress: bool,
    errors: &str,
    settings: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let raise = match errors {
        "raise" => true,
        "return" => false,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown errors {other:?}: use raise or return"
            )))
        }
    };
    if puzzles.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "puzzles is a sequence of puzzles; for one puzzle use solve",
        ));
    }
    let request = request_of(algorithm, timeout, max_nodes, settings)?;
    let mut board = board_of(board)?;
    let mut list: Vec<Puzzle> = Vec::new();
    for (i, item) in puzzles.try_iter()?.enumerate() {
        let arg: PuzzleArg = item?.extract()?;
        let p = puzzle_of(&arg, board)
            .map_err(|e| PyValueError::new_err(format!("puzzle {i}: {}", e.value(py))))?;
        board = Some(p.board());
        list.push(p);
    }
    let Some(board) = board else {
        return Ok(PyList::empty(py));
    };
    // The board's default algorithm: anytime beyond 25 cells (or with `within`), else ida:
    // the puzzles, not one search, share the threads.
    let mut request = request.on_board(board.cells());
    if request.algorithm.is_none() && request.algorithm_name() != AlgorithmName::Anytime {
        request.algorithm = Some(AlgorithmName::Ida);
    }
    let goal = goal_of(board, goal)?;
    for (i, p) in list.iter().enumerate() {
        if let Err(e) = p.check_solvable(&goal) {
            let err = solve_error(py, &e.into(), Some(p), &goal);
            return Err(PyValueError::new_err(format!(
                "puzzle {i}: {}",
                err.value(py)
            )));
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let ready = heuristic_for(py, db, &request, &goal, &stop)?;
    let search = Search {
        interrupt: Some(stop.clone()),
        // Checked once, after the last search.
        wait_verified: false,
        ..request
            .resolve()
            .map_err(|e| crate::errors::request_error(&e))?
    };
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(list.len());
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<pdbsolver::Solution, SolveError>>>> =
        list.iter().map(|_| Mutex::new(None)).collect();
    let mut line = Line::default();
    let total = list.len() as u64;
    let verified = waiting::run(
        py,
        &stop,
        || {
            std::thread::scope(|s| {
                for _ in 0..workers {
                    s.spawn(|| loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(p) = list.get(i) else { break };
                        let r = pdbsolver::solve(&search, &ready.heuristic, p, &goal);
                        if let Ok(mut slot) = results[i].lock() {
                            *slot = Some(r);
                        }
                        done.fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
            ready.heuristic.wait_verified()
        },
        |py| {
            if progress {
                let n = done.load(Ordering::Relaxed) as u64;
                line.draw(py, &format!("solved {n}/{total} {}", bar(n, total)));
            }
        },
    );
    line.finish(py);
    verified?.map_err(|e| db_error(&e))?;
    let out = PyList::empty(py);
    let mut first_error: Option<PyErr> = None;
    for (i, (slot, p)) in results.into_iter().zip(&list).enumerate() {
        let result = slot
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .unwrap_or_else(|| Err(SolveError::Failed(format!("puzzle {i} was not searched"))));
        match result {
            Ok(s) => out.append(Solution::new(p, &ready.description, &s))?,
            Err(e) => {
                let err = solve_error(py, &e, Some(p), &goal);
                if raise {
                    first_error.get_or_insert(err);
                } else {
                    out.append(err.value(py))?;
                }
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// The heuristic `request` names for `goal`, with the databases of `db` (see [`solve`]).
fn heuristic_for(
    py: Python<'_>,
    db: Option<&Bound<'_, PyAny>>,
    request: &Request,
    goal: &Goal,
    stop: &AtomicBool,
) -> PyResult<Resolved> {
    let choices = match db {
        Some(db) if !db.is_none() => choices_of(db)?,
        _ => Vec::new(),
    };
    resolve(py, request, &choices, goal, stop)
}
