//! The one writer of an answer, as text and as JSON, shared by `solver solve`, `bench`,
//! `compare` and `serve`: a solution, a failure (with what stopped it and what it proved), an
//! IDA* iteration. Callers add only their own fields (bench: the instance and the published
//! count; compare: the pair and the optimum; serve: the goal and the board).
//!
//! Moves are written in the [`Notation`] asked for (the blank's by default, as always).
//!
//! JSON of a solution: `puzzle`, `length`, `moves`, `tiles`, `nodes`, `expanded`,
//! `metric` (`stm` or `mtm`: what `length` counts), `iterations`, `initial_h`, `seconds`,
//! `algorithm`, `heuristic`, `optimal`, `peak_memory`,
//! `stored`, `detail`, `lower_bound` (the proven lower bound on the optimal length: the length
//! itself for the optimal algorithms, at least `initial_h` for the others), `bound_ratio`
//! (`length / lower_bound`; null with no bound), `stopped` (when a limit ended an anytime
//! search, which returns its best solution), and `per_thread` for the threaded searches.
//! Of a failure: `puzzle`,
//! `error`; with `nodes`, `seconds`, `peak_memory`, `initial_h` when a search ran, and
//! `stopped`, `lower_bound` when a limit stopped it.

use pdbformat::notation::{write_moves, Notation};
use pdbformat::units::{approx_bytes, rate, thousands};
use pdbformat::{Goal, Puzzle, PuzzleError};
use pdbsolver::{Algorithm, AlgorithmName, Improvement, Iteration, Solution, SolveError};
use serde_json::{json, Value};

/// Whether an answer of `algorithm` reports the search's memory and how it ran: every
/// algorithm but `ida`, which holds only its path and keeps its classic report.
fn reports_memory(algorithm: AlgorithmName) -> bool {
    algorithm != AlgorithmName::Ida
}

/// The full text report of one solution of `puzzle` for the goal named `goal_name` with the
/// heuristic described as `heuristic`, found by `algorithm` (with its settings); in the
/// tiles' notation a `moves:` line comes before the blank's moves.
pub fn solution_text(
    puzzle: &Puzzle,
    goal_name: &str,
    heuristic: &str,
    s: &Solution,
    algorithm: &Algorithm,
    notation: Notation,
) -> String {
    let mut out = String::new();
    out.push_str(&format!("puzzle:     {puzzle:#}\n"));
    out.push_str(&format!("goal:       {goal_name}\n"));
    out.push_str(&format!("heuristic:  {heuristic}\n"));
    out.push_str(&format!("length:     {}{}\n", s.len(), metric_note(s)));
    if !s.algorithm.is_optimal() {
        out.push_str(&format!("bound:      {}\n", bound_words(s)));
    }
    if notation != Notation::Blank {
        out.push_str(&format!(
            "moves:      {} ({notation} notation)\n",
            write_moves(&s.moves, notation)
        ));
    }
    out.push_str(&format!("blank:      {}\n", spaced(&s.blank_notation())));
    out.push_str(&format!("tiles:      {}\n", s.tile_notation()));
    out.push_str(&format!(
        "nodes:      {} generated, {} expanded, {} iterations, initial h {}\n",
        thousands(s.stats.nodes),
        thousands(s.stats.expanded),
        s.stats.iterations,
        s.stats.initial_h
    ));
    out.push_str(&format!(
        "time:       {:.3} s ({}nodes/s)\n",
        s.stats.seconds,
        rate(s.nodes_per_second())
    ));
    if !reports_memory(s.algorithm) {
        return out;
    }
    out.push_str(&format!("algorithm:  {}\n", promise(s, algorithm)));
    out.push_str(&format!(
        "memory:     {} estimated peak{}\n",
        approx_bytes(s.stats.peak_memory as f64),
        if s.stats.stored > 0 {
            format!(" ({} positions stored)", thousands(s.stats.stored))
        } else {
            String::new()
        }
    ));
    if !s.stats.detail.is_empty() {
        out.push_str(&format!("search:     {}\n", s.stats.detail));
    }
    if !s.stats.per_thread.is_empty() {
        out.push_str(&format!("per thread: {} nodes\n", per_thread(s, " / ")));
    }
    out
}

/// The proven bound in words: `lower bound 98, length at most 1.204 x optimal`, with why an
/// anytime search stopped.
fn bound_words(s: &Solution) -> String {
    let stopped = s
        .stopped
        .map_or(String::new(), |st| format!(" (stopped: {})", st.describe()));
    if s.optimal {
        return format!("lower bound {}, proven optimal{stopped}", s.lower_bound());
    }
    let ratio = s.bound_ratio();
    if ratio.is_finite() {
        format!(
            "lower bound {}, length at most {:.3} x optimal{stopped}",
            s.lower_bound(),
            ratio
        )
    } else {
        format!("no lower bound{stopped}")
    }
}

/// What the algorithm promises, in words: `astar (optimal)`, `weighted, w = 2 (not optimal)`.
fn promise(s: &Solution, algorithm: &Algorithm) -> String {
    match (s.algorithm, algorithm) {
        (a, _) if a.is_optimal() => format!("{a} (optimal)"),
        (a, _) if s.optimal => format!("{a} (proven optimal)"),
        (a, Algorithm::Anytime(_)) => format!("{a} (within {:.3} of optimal)", s.bound_ratio()),
        (_, Algorithm::Weighted(w)) => format!("weighted, {} (not optimal)", w.describe()),
        (a, _) => format!("{a} (not optimal)"),
    }
}

/// Each thread's nodes, joined by `sep`.
pub fn per_thread(s: &Solution, sep: &str) -> String {
    let v: Vec<String> = s.stats.per_thread.iter().map(|&n| thousands(n)).collect();
    v.join(sep)
}

/// After the length of a multi-tile-metric solution: ` (mtm; N single-tile steps)`.
fn metric_note(s: &Solution) -> String {
    match s.metric {
        pdbformat::Metric::Stm => String::new(),
        pdbformat::Metric::Mtm => format!(" (mtm; {} single-tile steps)", s.moves.len()),
    }
}

/// One line per solution, for files of puzzles: `#n  length  nodes  seconds  moves` (in
/// `notation`), with `excess` (how far a solution that is not proven optimal is from the
/// optimum the line gives) after the length, and the memory for the algorithms that report it.
pub fn solution_line(
    number: usize,
    s: &Solution,
    excess: Option<i64>,
    notation: Notation,
) -> String {
    let bound = if s.algorithm.is_optimal() {
        String::new()
    } else {
        format!("  bound {:>4} (x{:.3})", s.lower_bound(), s.bound_ratio())
    };
    format!(
        "#{number:<4} length {:>4}{}{bound}  nodes {:>15}{}  {:>9.3} s  {}",
        s.len(),
        excess.map_or(String::new(), |x| format!(" (+{x:<3})")),
        thousands(s.stats.nodes),
        if reports_memory(s.algorithm) {
            format!("  memory {:>10}", approx_bytes(s.stats.peak_memory as f64))
        } else {
            String::new()
        },
        s.stats.seconds,
        write_moves(&s.moves, notation)
    )
}

/// The JSON object of a solution of `puzzle` with the heuristic described as `heuristic`, its
/// moves in the blank's notation.
pub fn solution_json(puzzle: &Puzzle, heuristic: &str, s: &Solution) -> Value {
    solution_json_in(puzzle, heuristic, s, Notation::Blank)
}

/// [`solution_json`] with `"moves"` written in `notation`.
pub fn solution_json_in(
    puzzle: &Puzzle,
    heuristic: &str,
    s: &Solution,
    notation: Notation,
) -> Value {
    let mut v = json!({
        "puzzle": format!("{puzzle:#}"),
        "length": s.len(),
        "metric": s.metric.name(),
        "moves": write_moves(&s.moves, notation),
        "tiles": s.tiles_moved,
        "nodes": s.stats.nodes,
        "expanded": s.stats.expanded,
        "iterations": s.stats.iterations,
        "initial_h": s.stats.initial_h,
        "seconds": s.stats.seconds,
        "algorithm": s.algorithm.name(),
        "heuristic": heuristic,
        "optimal": s.optimal,
        "peak_memory": s.stats.peak_memory,
        "stored": s.stats.stored,
        "detail": s.stats.detail,
        "lower_bound": s.lower_bound(),
        "bound_ratio": finite(s.bound_ratio()),
    });
    if let Some(stop) = s.stopped {
        v["stopped"] = stop.describe().into();
    }
    if !s.stats.per_thread.is_empty() {
        v["per_thread"] = json!(s.stats.per_thread);
    }
    v
}

/// The JSON object of a puzzle (as text) that was not solved, with the error `e` described as
/// `message`: what the search spent when one ran, and for a search stopped by a limit what
/// stopped it and the lower bound it proved.
pub fn failure_json(puzzle: &str, e: &SolveError, message: &str) -> Value {
    let mut v = json!({ "puzzle": puzzle, "error": message });
    if let Some(s) = e.stats() {
        v["nodes"] = s.nodes.into();
        v["seconds"] = s.seconds.into();
        v["peak_memory"] = s.peak_memory.into();
        v["initial_h"] = s.initial_h.into();
    }
    if let SolveError::Stopped { stop, stats } = e {
        v["stopped"] = stop.describe().into();
        v["lower_bound"] = stats.lower_bound.into();
    }
    v
}

/// The message of `e` for `puzzle` towards `goal`: the error, with a hint naming the other
/// named goal (by `goal_option`: `--goal` on the command line, `goal` in the API) when the
/// puzzle cannot reach this one but can reach that.
pub fn failure_message(
    e: &SolveError,
    puzzle: Option<&Puzzle>,
    goal: &Goal,
    goal_option: &str,
) -> String {
    let mut msg = e.to_string();
    if let (SolveError::Puzzle(PuzzleError::Unsolvable { .. }), Some(p)) = (e, puzzle) {
        if let Some(other) = p.solvable_other_goal(goal) {
            msg.push_str(&format!(" (it is solvable for {goal_option} {other})"));
        }
    }
    msg
}

/// The line of one finished IDA* iteration: bound, nodes, rate, time, and the estimate of the
/// next one.
pub fn iteration_line(it: &Iteration) -> String {
    let next = match (it.growth, it.next_seconds) {
        (Some(g), Some(t)) => format!(
            "; next: bound {}, about {:.1}x, {:.1} s",
            it.next_bound, g, t
        ),
        _ => format!("; next: bound {}", it.next_bound),
    };
    format!(
        "iteration {:>3}  bound {:>3}  nodes {:>17}  {:>10}nodes/s  {:>9.2} s (total {:.1} s){next}",
        it.iteration,
        it.bound,
        thousands(it.nodes),
        rate(it.nodes_per_second()),
        it.seconds,
        it.total_seconds
    )
}

/// The JSON object of one finished IDA* iteration, as `solver solve --json` prints it on
/// standard error and `solver serve` streams it (with an `"event"` field added).
pub fn iteration_json(it: &Iteration) -> Value {
    json!({
        "iteration": it.iteration,
        "bound": it.bound,
        "next_bound": it.next_bound,
        "nodes": it.nodes,
        "total_nodes": it.total_nodes,
        "seconds": it.seconds,
        "total_seconds": it.total_seconds,
        "nodes_per_second": it.nodes_per_second(),
        "growth": it.growth,
        "next_nodes": it.next_nodes,
        "next_seconds": it.next_seconds,
    })
}

/// `x` when finite, else JSON null.
fn finite(x: f64) -> Value {
    if x.is_finite() {
        x.into()
    } else {
        Value::Null
    }
}

/// The line of one improvement of an anytime search: length, proven lower bound, their
/// ratio, the weight, nodes and time.
pub fn improvement_line(i: &Improvement) -> String {
    format!(
        "solution  length {:>4}  lower bound {:>4}  ratio {:.3}  weight {:.2}  nodes {:>15}  {:>8.2} s",
        i.length,
        i.lower_bound,
        i.ratio(),
        i.weight,
        thousands(i.nodes),
        i.seconds
    )
}

/// The JSON object of one improvement of an anytime search (told from IDA*'s iterations by
/// its fields: `length`, `lower_bound`, `bound_ratio`, `weight`, `nodes`, `seconds`).
pub fn improvement_json(i: &Improvement) -> Value {
    json!({
        "length": i.length,
        "lower_bound": i.lower_bound,
        "bound_ratio": finite(i.ratio()),
        "weight": i.weight,
        "nodes": i.nodes,
        "seconds": i.seconds,
    })
}

/// `RDLU` as `R D L U`.
fn spaced(moves: &str) -> String {
    let v: Vec<String> = moves.chars().map(|c| c.to_string()).collect();
    v.join(" ")
}
