//! One request's search: the heuristic chosen among the server's databases, the options
//! clamped to the server's caps, and the outcome as the JSON of `solver solve --json` or as an
//! error with its status. Runs on a blocking thread, never on the async runtime.

use super::catalog::Catalog;
use super::cost::Kind;
use super::error::ApiError;
use super::limits::Caps;
use super::request::{unsolvable, SolveRequest};
use crate::answer::{failure_json, solution_json_in};
use axum::http::StatusCode;
use pdbformat::{Board, PuzzleError};
use pdbsolver::prune::{cache, default_depth, Pruning, DEFAULT_DEPTH};
use pdbsolver::Observer;
use pdbsolver::{
    solve, DbChoice, DbError, HeuristicChoice, Quiet, Request, ResolveError, Search, SolveError,
};
use serde_json::json;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// A request ready to search: its heuristic (databases chosen and checked against the goal),
/// the heuristic in words, and the options.
pub struct Prepared {
    /// The request.
    pub request: SolveRequest,
    /// The heuristic.
    pub heuristic: HeuristicChoice,
    /// The heuristic in words (the `heuristic` field of the answer).
    pub description: String,
    /// The search: the request's, its limits clamped to the caps, the server's threads and
    /// pruning where the algorithm takes them, the stop flag, the observer.
    pub options: Search,
}

impl Prepared {
    /// What the search costs like: its board, algorithm, and whether its heuristic is a
    /// pattern database.
    pub fn kind(&self) -> Kind {
        let board = self.request.goal.board();
        Kind {
            width: board.width(),
            height: board.height(),
            algorithm: self.request.search.algorithm_name(),
            pdb: matches!(self.heuristic, HeuristicChoice::Pdb { .. }),
        }
    }

    /// The search's time limit (the request's, at most the server's cap).
    pub fn time_limit(&self, caps: &Caps) -> Duration {
        Duration::from_secs_f64(caps.seconds(self.request.search.timeout).min(1e9))
    }
}

/// Chooses the heuristic and the options of `request`: unknown database names are 404, a
/// database that cannot serve the goal is 422.
pub fn prepare(
    request: SolveRequest,
    catalog: &Catalog,
    caps: &Caps,
    stop: Arc<AtomicBool>,
    observer: Option<Observer>,
) -> Result<Prepared, ApiError> {
    let cells = request.goal.board().cells();
    if cells > caps.max_cells {
        return Err(ApiError::unprocessable(format!(
            "the {} board has {cells} cells; this server solves boards of at most {} cells (--max-cells)",
            request.goal.board(),
            caps.max_cells
        )));
    }
    let (heuristic, description) = choose_heuristic(&request, catalog)?;
    let mut wanted = request.search.clone();
    caps.clamp(&mut wanted);
    wanted.fill_from(&Request {
        threads: Some(caps.threads.max(1)),
        prune: Some(Pruning::Depth(prune_depth(request.goal.board()))),
        ..Request::default()
    });
    let options = Search {
        interrupt: Some(stop),
        observer,
        ..wanted.resolve().map_err(|e| ApiError::bad(e.to_string()))?
    };
    Ok(Prepared {
        request,
        heuristic,
        description,
        options,
    })
}

/// The duplicate-move pruning depth of a request on `board`: the board's default when its
/// machine is cheap to build or already cached, else the 4x4 default ([`DEFAULT_DEPTH`]), whose
/// machine builds in well under a second. No request waits for a deep machine's first build
/// (about 25 s for a 5x5 of depth 18): [`super::warm_pruners`] builds and caches
/// those in the background, and later requests use them.
pub fn prune_depth(board: Board) -> u32 {
    let deep = default_depth(board);
    if deep <= DEFAULT_DEPTH || cache::is_ready(board, deep) {
        deep
    } else {
        DEFAULT_DEPTH
    }
}

/// The heuristic of a request and its description, resolved among the server's databases.
fn choose_heuristic(
    r: &SolveRequest,
    catalog: &Catalog,
) -> Result<(HeuristicChoice, String), ApiError> {
    let choices: Vec<DbChoice> = match &r.databases {
        Some(names) if names.is_empty() => {
            return Err(ApiError::bad(format!(
                "databases: {}",
                ResolveError::EmptyList
            )))
        }
        Some(names) => names.iter().cloned().map(DbChoice::Named).collect(),
        None => Vec::new(),
    };
    let resolved = (catalog.resolver)
        .resolve(&r.search, &choices, &r.goal, &Quiet)
        .map_err(|e| resolve_error(&e))?;
    Ok((resolved.heuristic, resolved.description))
}

/// A resolver's error as the API's: 404 for an unknown database name, 422 for what the
/// request asked that its databases cannot do, 500 for a damaged database.
fn resolve_error(e: &ResolveError) -> ApiError {
    let status = match e {
        ResolveError::Unknown { .. } => StatusCode::NOT_FOUND,
        ResolveError::EmptyList | ResolveError::DatabasesNeedPdb(_) => StatusCode::BAD_REQUEST,
        ResolveError::Database(d) => db_error(d).status,
        e if e.is_unfit() => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    ApiError::new(status, pdbformat::error::describe(e))
}

/// Runs the search. The answer is `solver solve --json`'s object (with `goal` and `board`
/// added), or the error: 422 for what the request asked that cannot be done (a stopped
/// search comes with `stopped`, `lower_bound`, `nodes` and `seconds`), 500 for a damaged
/// database or an internal failure.
pub fn run(p: &Prepared) -> Result<serde_json::Value, ApiError> {
    let r = &p.request;
    match solve(&p.options, &p.heuristic, &r.puzzle, &r.goal) {
        Ok(s) => {
            let mut v = solution_json_in(&r.puzzle, &p.description, &s, r.notation);
            v["goal"] = json!(r.goal.to_string());
            v["board"] = json!(r.goal.board().to_string());
            Ok(v)
        }
        Err(e) => {
            let msg = unsolvable(&e, &r.puzzle, &r.goal);
            let status = match &e {
                SolveError::Puzzle(PuzzleError::Unsolvable { .. }) => {
                    StatusCode::UNPROCESSABLE_ENTITY
                }
                SolveError::Puzzle(_) => StatusCode::BAD_REQUEST,
                SolveError::Database(d) => db_error(d).status,
                SolveError::BoardTooLarge { .. }
                | SolveError::Refused(_)
                | SolveError::Stopped { .. }
                | SolveError::NotFound { .. } => StatusCode::UNPROCESSABLE_ENTITY,
                SolveError::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
            };
            Err(ApiError {
                status,
                message: msg.clone(),
                extra: failure_json(&format!("{:#}", r.puzzle), &e, &msg),
            })
        }
    }
}

/// A database error: 422 when the database does not fit the request, 500 when the file is
/// damaged (the server's fault, not the request's).
fn db_error(e: &DbError) -> ApiError {
    let status = match e {
        DbError::WrongBoard { .. }
        | DbError::WrongGoal { .. }
        | DbError::WrongMetric { .. }
        | DbError::TooMany { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    };
    ApiError::new(status, pdbformat::error::describe(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_never_waits_for_a_deep_machine_build() {
        for (w, h) in [(3, 3), (4, 4), (4, 5), (5, 5), (6, 6)] {
            let board = Board::new(w, h).unwrap();
            let depth = prune_depth(board);
            // Either a machine that builds in well under a second, or one read from the cache.
            assert!(
                depth <= DEFAULT_DEPTH || cache::is_ready(board, depth),
                "{board}: depth {depth} would be built inside a request"
            );
            // Never deeper than the board's own default.
            assert!(depth <= default_depth(board).max(DEFAULT_DEPTH));
        }
    }
}
