//! `solve` and `solve_many`: the puzzles read, the heuristic made (the databases given, or the
//! one the command line would find or build, or the classic heuristics), and the searches run
//! through `pdbsolver::solve` on threads of their own while the interpreter answers Ctrl-C.
//!
//! `solve_many` runs each puzzle as `solver bench` does (the same request, the same
//! heuristic, one search per puzzle, the digest check beside the searches and waited for once
//! at the end), on `threads` workers taking puzzles in turn; the results come back in input
//! order.

use crate::database::{open_for, paths_of, Database};
use crate::errors::{db_error, solve_error};
use crate::inputs::{board_of, goal_of, puzzle_of, request_of, PuzzleArg};
use crate::progress::{bar, Line};
use crate::solution::Solution;
use crate::waiting;
use pdbformat::{Goal, Puzzle};
use pdbsolver::{locate, HeuristicChoice, HeuristicName, Request, Search, SolveError};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::path::PathBuf;
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
/// `weighted` or `strategic`; `timeout` (seconds) and `max_nodes` stop the search with
/// `SearchStopped`. Other settings go by keyword as the command line's flags: `heuristic`,
/// `reflect`, `prune`, `weight`, `threads`, `depth_limit`, `hybrid_nodes`, `max_memory`.
#[pyfunction]
#[pyo3(signature = (puzzle, db=None, goal="blank-first", board=None, algorithm="ida", timeout=None, max_nodes=None, **settings))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    puzzle: PuzzleArg,
    db: Option<&Bound<'_, PyAny>>,
    goal: &str,
    board: Option<&str>,
    algorithm: &str,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Solution> {
    let request = request_of(algorithm, timeout, max_nodes, settings)?;
    let puzzle = puzzle_of(&puzzle, board_of(board)?)?;
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
/// (0: one per core) with the GIL released, and returns their solutions in input order.
/// The database is loaded once. With `progress`, a bar on standard error. Ctrl-C stops every
/// search within a second and raises `KeyboardInterrupt`. When a puzzle cannot be solved
/// (a limit stopped it), `errors="raise"` (the default) raises its exception after every
/// other puzzle is done; `errors="return"` puts the exception in its place in the list.
/// Bad puzzles raise `ValueError` before any search starts.
#[pyfunction]
#[pyo3(signature = (puzzles, db=None, goal="blank-first", board=None, algorithm="ida", timeout=None, max_nodes=None, threads=0, progress=false, errors="raise", **settings))]
#[allow(clippy::too_many_arguments)]
pub fn solve_many<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    db: Option<&Bound<'py, PyAny>>,
    goal: &str,
    board: Option<&str>,
    algorithm: &str,
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

/// A heuristic ready for one goal, and what it is in words.
struct Ready {
    heuristic: HeuristicChoice,
    description: String,
}

/// The heuristic `request` names for `goal`, with the databases of `db` (see [`solve`]).
fn heuristic_for(
    py: Python<'_>,
    db: Option<&Bound<'_, PyAny>>,
    request: &Request,
    goal: &Goal,
    stop: &AtomicBool,
) -> PyResult<Ready> {
    let classic = |h: HeuristicChoice, what: &str| Ready {
        heuristic: h,
        description: what.to_string(),
    };
    if !request.algorithm_name().uses_heuristic() {
        return Ok(classic(HeuristicChoice::Manhattan, "none"));
    }
    let name = request.heuristic;
    let dbs: Vec<Arc<pdbsolver::Database>> = match db {
        Some(db) if !db.is_none() => {
            if let Some(n) = name.filter(|&n| n != HeuristicName::Pdb) {
                return Err(PyValueError::new_err(format!(
                    "db needs heuristic pdb (or auto), not {n}"
                )));
            }
            databases_of(py, db, goal)?
        }
        _ => match name.and_then(HeuristicName::classic) {
            Some((choice, words)) => return Ok(classic(choice, words)),
            None => match default_database(py, goal, stop)? {
                Some(db) => vec![db],
                None if name == Some(HeuristicName::Pdb) => {
                    return Err(PyValueError::new_err(format!(
                        "no pattern database fits the {} board and goal {goal}; give one with db=",
                        goal.board()
                    )))
                }
                None => {
                    return Ok(classic(
                        HeuristicChoice::LinearConflict,
                        "manhattan + linear conflict (no database)",
                    ))
                }
            },
        },
    };
    let heuristic = HeuristicChoice::Pdb {
        databases: dbs,
        reflect: request.reflect(),
    };
    let description = heuristic.describe(goal).map_err(|e| db_error(&e))?;
    Ok(Ready {
        heuristic,
        description,
    })
}

/// The databases a `db=` value stands for, loaded for `goal`.
fn databases_of(
    py: Python<'_>,
    db: &Bound<'_, PyAny>,
    goal: &Goal,
) -> PyResult<Vec<Arc<pdbsolver::Database>>> {
    if let Ok(d) = db.cast::<Database>() {
        return Ok(vec![d.get().inner.clone()]);
    }
    if let Ok(path) = db.extract::<PathBuf>() {
        let paths = paths_of(&path)?;
        let goal = goal.clone();
        return py
            .detach(move || {
                (paths.iter())
                    .map(|p| open_for(p, &goal).map(Arc::new))
                    .collect::<Result<Vec<_>, _>>()
            })
            .map_err(|e| db_error(&e));
    }
    if db.is_instance_of::<PyList>() || db.is_instance_of::<pyo3::types::PyTuple>() {
        let mut out = Vec::new();
        for item in db.try_iter()? {
            out.extend(databases_of(py, &item?, goal)?);
        }
        return Ok(out);
    }
    Err(PyTypeError::new_err(format!(
        "db takes a path, a standard database name, a Database or a list of them, not {}",
        db.get_type().name()?
    )))
}

/// The default databases loaded so far in this process, by file: `solve` without `db` loads
/// the command line's default once.
static DEFAULTS: Mutex<Vec<(PathBuf, Arc<pdbsolver::Database>)>> = Mutex::new(Vec::new());

/// The database the command line would use for `goal` (found, or for 4x4 built on first use
/// into `$PDB_DIR` or the user cache, with a note on standard error), loaded once per
/// process; `None` when no database fits and none can be built.
fn default_database(
    py: Python<'_>,
    goal: &Goal,
    stop: &AtomicBool,
) -> PyResult<Option<Arc<pdbsolver::Database>>> {
    let board = goal.board();
    let found = py.detach(|| locate::find_default(goal));
    let path = match found.path {
        Some(p) => p,
        None => {
            let buildable = locate::default_db(board).is_some()
                && pdbformat::Symmetry::taking(board, 0, goal.blank_cell()).is_some();
            let Some(dir) = locate::build_dir().filter(|_| buildable) else {
                return Ok(None);
            };
            let name = locate::default_file_name(board).unwrap_or_default();
            let path = dir.join(name);
            let say = |py: Python<'_>, text: &str| {
                let _ = py
                    .import("sys")
                    .and_then(|s| s.getattr("stderr"))
                    .and_then(|e| e.call_method1("write", (format!("{text}\n"),)));
            };
            say(
                py,
                &format!(
                    "no pattern database found for {board}; building the default one once into {} ...",
                    path.display()
                ),
            );
            // No bar (the build takes seconds); the observer is how Ctrl-C stops it.
            let progress = crate::progress::BuildProgress::new(0, stop);
            let built = waiting::run(
                py,
                stop,
                || locate::build_default(board, &path, &progress, &mut |_| {}),
                |_| {},
            )?;
            built.map_err(|e| crate::errors::database_error(&e))?;
            say(
                py,
                &format!("built {}; later runs reuse it", path.display()),
            );
            path
        }
    };
    let mut cache = DEFAULTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, db)) = cache.iter().find(|(p, db)| *p == path && db.fits(goal)) {
        return Ok(Some(db.clone()));
    }
    let goal2 = goal.clone();
    let p2 = path.clone();
    let db = Arc::new(
        py.detach(move || open_for(&p2, &goal2))
            .map_err(|e| db_error(&e))?,
    );
    cache.push((path, db.clone()));
    Ok(Some(db))
}
