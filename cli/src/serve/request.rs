//! The body of `POST /api/solve` read into a checked request: the puzzle and its goal, the
//! databases asked for, and the search as a [`pdbsolver::Request`] (the command line's request
//! layer: names read as `solver solve` reads them, a setting the algorithm does not take
//! refused); every field typed and bounded, unknown fields refused, and each problem reported
//! as a message with its HTTP status.

use super::error::ApiError;
use crate::answer::failure_message;
use pdbformat::notation::Notation;
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::{HeuristicName, Request};
use serde_json::{Map, Value};

/// The fields a request may have.
const FIELDS: [&str; 13] = [
    "puzzle",
    "board",
    "goal",
    "algorithm",
    "metric",
    "notation",
    "heuristic",
    "databases",
    "max_nodes",
    "timeout",
    "weight",
    "within",
    "reflect",
];

/// A solve request, checked.
#[derive(Debug)]
pub struct SolveRequest {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The goal it is solved towards.
    pub goal: Goal,
    /// The databases asked for by name (`None`: every loaded one that fits the goal).
    pub databases: Option<Vec<String>>,
    /// How the answer's `moves` are written: the blank's letters (the default) or the
    /// tiles' (`R2` slides two tiles right), as `solver solve --notation` writes them.
    pub notation: Notation,
    /// The search asked for: algorithm, heuristic, reflection, weight, and the node and time
    /// limits (clamped to the server's caps later, [`super::limits::Caps::clamp`]).
    pub search: Request,
}

/// Reads a request body. Malformed JSON, wrong types, unknown fields and unreadable puzzles
/// are 400; a puzzle that cannot reach its goal is 422.
pub fn parse(body: &[u8]) -> Result<SolveRequest, ApiError> {
    let v: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad(format!("the body is not valid JSON: {e}")))?;
    let Value::Object(o) = v else {
        return Err(ApiError::bad(
            "the body must be a JSON object such as {\"puzzle\": \"1 2 3 4 5 6 7 0 8\"}",
        ));
    };
    if let Some(k) = o.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(ApiError::bad(format!(
            "unknown field {k:?}: the fields are {}",
            FIELDS.join(", ")
        )));
    }
    let board = match text(&o, "board")? {
        Some(s) => Some(
            s.parse::<Board>()
                .map_err(|e| ApiError::bad(format!("board: {e}")))?,
        ),
        None => None,
    };
    let puzzle_text = puzzle_text(&o)?;
    let puzzle =
        Puzzle::parse(&puzzle_text, board).map_err(|e| ApiError::bad(format!("puzzle: {e}")))?;
    let goal_spec = text(&o, "goal")?.unwrap_or("blank-first");
    let goal =
        Goal::parse(puzzle.board(), goal_spec).map_err(|e| ApiError::bad(format!("goal: {e}")))?;
    if let Err(e) = puzzle.check_solvable(&goal) {
        return Err(ApiError::unprocessable(unsolvable(
            &e.into(),
            &puzzle,
            &goal,
        )));
    }
    let mut search = Request::default();
    for key in ["algorithm", "metric", "heuristic"] {
        if let Some(s) = text(&o, key)? {
            search
                .set(key, s)
                .map_err(|e| ApiError::bad(e.to_string()))?;
        }
    }
    let notation = match text(&o, "notation")? {
        Some(n) => n
            .parse::<Notation>()
            .map_err(|e| ApiError::bad(format!("notation: {e}")))?,
        None => Notation::Blank,
    };
    let heuristic = search.heuristic;
    let databases = match o.get("databases") {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) if a.len() <= 64 => Some(
            a.iter()
                .map(|x| {
                    x.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| ApiError::bad("databases: a list of database names"))
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Some(_) => {
            return Err(ApiError::bad(
                "databases: a list of at most 64 database names",
            ))
        }
    };
    if databases.is_some() && heuristic.is_some_and(|h| h != HeuristicName::Pdb) {
        return Err(ApiError::bad(
            "databases need the heuristic pdb (or auto), not another heuristic",
        ));
    }
    search.max_nodes = match o.get("max_nodes") {
        None | Some(Value::Null) => None,
        Some(n) => Some(
            count(n).ok_or_else(|| ApiError::bad("max_nodes: a positive whole number of nodes"))?,
        ),
    };
    // Anything beyond a day is clamped to the server's cap anyway.
    search.timeout = positive(&o, "timeout")?.map(|t| t.min(86_400.0));
    search.weight = positive(&o, "weight")?;
    if search.weight.is_some_and(|w| w < 1.0) {
        return Err(ApiError::bad("weight: at least 1"));
    }
    search.within = positive(&o, "within")?;
    if search.within.is_some_and(|w| w < 1.0) {
        return Err(ApiError::bad("within: at least 1"));
    }
    // The board's default algorithm: anytime beyond 25 cells.
    search.cells = Some(puzzle.board().cells());
    search.reflect = match o.get("reflect") {
        None | Some(Value::Null) => None,
        Some(Value::Bool(b)) => Some(*b),
        Some(_) => return Err(ApiError::bad("reflect: true or false")),
    };
    // Everything the request layer refuses (a weight for an algorithm that takes none) is
    // the request's fault, found before it takes a place in the queue.
    search.resolve().map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(SolveRequest {
        puzzle,
        goal,
        databases,
        notation,
        search,
    })
}

/// The message of a search error for `puzzle`: `solver solve`'s, with its hint naming the
/// other goal as the API's `goal` field rather than the command line's `--goal`.
pub fn unsolvable(e: &pdbsolver::SolveError, puzzle: &Puzzle, goal: &Goal) -> String {
    failure_message(e, Some(puzzle), goal, "goal")
}

/// A string field.
fn text<'a>(o: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, ApiError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::bad(format!("{key}: a string"))),
    }
}

/// The puzzle as text: a string as people write puzzles, or a list of tile numbers.
fn puzzle_text(o: &Map<String, Value>) -> Result<String, ApiError> {
    match o.get("puzzle") {
        None | Some(Value::Null) => Err(ApiError::bad(
            "puzzle: missing (tiles row by row, 0 for the blank, e.g. \"1 2 3 4 5 6 7 0 8\")",
        )),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(a)) => {
            let mut out = Vec::with_capacity(a.len());
            for (i, x) in a.iter().enumerate() {
                match x.as_u64() {
                    Some(t) if t <= u16::MAX as u64 => out.push(t.to_string()),
                    _ => {
                        return Err(ApiError::bad(format!(
                            "puzzle: item {} is not a tile number: {x}",
                            i + 1
                        )))
                    }
                }
            }
            Ok(out.join(" "))
        }
        Some(_) => Err(ApiError::bad(
            "puzzle: a string of tiles or a list of tile numbers",
        )),
    }
}

/// A positive whole number; numbers too large for 64 bits read as `u64::MAX` (they are
/// clamped to the server's cap anyway).
fn count(v: &Value) -> Option<u64> {
    if let Some(n) = v.as_u64() {
        return (n > 0).then_some(n);
    }
    let f = v.as_f64()?;
    (f.is_finite() && f >= 1.0 && f.fract() == 0.0).then_some(if f >= u64::MAX as f64 {
        u64::MAX
    } else {
        f as u64
    })
}

/// A positive finite number field.
fn positive(o: &Map<String, Value>, key: &str) -> Result<Option<f64>, ApiError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(f) if f.is_finite() && f > 0.0 => Ok(Some(f)),
            _ => Err(ApiError::bad(format!("{key}: a positive number"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(body: &str) -> u16 {
        match parse(body.as_bytes()) {
            Ok(_) => 200,
            Err(e) => e.status.as_u16(),
        }
    }

    #[test]
    fn reads_good_requests() {
        let r = parse(br#"{"puzzle": "1 2 3 4 5 6 7 0 8", "goal": "blank-last"}"#).unwrap();
        assert_eq!(r.puzzle.board(), Board::new(3, 3).unwrap());
        assert_eq!(r.goal, Goal::blank_last(r.puzzle.board()));
        // No algorithm named: the default, chosen by the threads when the search is made.
        assert_eq!(r.search.algorithm, None);
        let r = parse(
            br#"{"puzzle": [1,2,3,4,5,6,7,0,8], "goal": "blank-last", "algorithm": "astar",
                 "heuristic": "manhattan", "max_nodes": 1e30, "timeout": 2.5}"#,
        )
        .unwrap();
        assert_eq!(r.search.algorithm_name(), pdbsolver::AlgorithmName::AStar);
        assert_eq!(r.search.heuristic, Some(HeuristicName::Manhattan));
        assert_eq!(r.search.max_nodes, Some(u64::MAX));
        assert_eq!(r.search.timeout, Some(2.5));
        let r = parse(br#"{"puzzle": "1 2 0 3 4 5", "board": "3x2", "goal": "blank-last"}"#);
        assert_eq!(r.map(|r| r.puzzle.board().width()).unwrap_or(0), 3);
    }

    #[test]
    fn refuses_bad_requests_with_the_right_status() {
        for (body, want) in [
            ("", 400),
            ("{", 400),
            ("[]", 400),
            ("null", 400),
            (r#"{"puzzel": "1 2 3 4 5 6 7 8 0"}"#, 400),
            (r#"{}"#, 400),
            (r#"{"puzzle": 12}"#, 400),
            (r#"{"puzzle": [1, -2]}"#, 400),
            (r#"{"puzzle": [1, 1e400]}"#, 400),
            (r#"{"puzzle": "1 1 2 3 4 5 6 7 0"}"#, 400),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8"}"#, 400),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "board": "2x2"}"#, 400),
            (
                r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "board": "99999999999x9"}"#,
                400,
            ),
            (
                r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "goal": "sideways"}"#,
                400,
            ),
            (
                r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "algorithm": "magic"}"#,
                400,
            ),
            (
                r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "heuristic": "oracle"}"#,
                400,
            ),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "max_nodes": -5}"#, 400),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "max_nodes": 0}"#, 400),
            (
                r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "max_nodes": "many"}"#,
                400,
            ),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "timeout": 0}"#, 400),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "weight": 0.5}"#, 400),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "within": 0.9}"#, 400),
            (
                r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "within": 1.5, "algorithm": "ida"}"#,
                400,
            ),
            (r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "databases": "x"}"#, 400),
            (
                r#"{"puzzle": "1 2 3 4 5 6 7 8 0", "databases": ["x"], "heuristic": "hamming"}"#,
                400,
            ),
            // Unsolvable for its goal: 422.
            (
                r#"{"puzzle": "2 1 3 4 5 6 7 8 0", "goal": "blank-last"}"#,
                422,
            ),
        ] {
            assert_eq!(status(body), want, "{body}");
        }
        // A bound asks for anytime; past 25 cells it is the default.
        let r = parse(br#"{"puzzle": "1 2 3 4 5 6 7 8 0", "goal": "blank-last", "within": 1.5}"#)
            .unwrap();
        assert_eq!(r.search.algorithm_name(), pdbsolver::AlgorithmName::Anytime);
        let big: Vec<String> = (1..36).chain([0]).map(|t| t.to_string()).collect();
        let body = format!(r#"{{"puzzle": "{}", "goal": "blank-last"}}"#, big.join(" "));
        let r = parse(body.as_bytes()).unwrap();
        assert_eq!(r.search.algorithm_name(), pdbsolver::AlgorithmName::Anytime);
        // On 4x4 the other goal is named when it fits.
        let e = parse(br#"{"puzzle": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"}"#).unwrap_err();
        assert_eq!(e.status.as_u16(), 422);
        assert!(e.message.contains("blank-last"), "{}", e.message);
    }
}
