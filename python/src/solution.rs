//! `Solution`: what `solve` and `solve_many` return for one puzzle.

use pdbformat::Puzzle;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A solved puzzle: the moves, and what the search cost.
///
/// `moves` is the blank's moves as letters (`U`, `D`, `L`, `R`: the direction the blank
/// goes), `tiles` the tile that slides at each move; `nodes` counts generated nodes over
/// every iteration (as `solver solve --json` does), `seconds` the search's wall time;
/// `optimal` says whether the solution is proven shortest; `lower_bound` is the proven lower
/// bound on the optimal length and `bound_ratio` is `length / lower_bound`.
#[pyclass(module = "pdbtiles", frozen, get_all, eq)]
#[derive(Clone, PartialEq)]
pub struct Solution {
    /// The number of moves, in `metric`.
    pub length: usize,
    /// The metric `length` counts in: `"stm"` (one tile per move) or `"mtm"` (1 to k tiles
    /// of a row or column per move; `moves` then lists the blank's single steps).
    pub metric: String,
    /// The blank's moves, one letter each (`"RDLU…"`).
    pub moves: String,
    /// The tile moved at each move.
    pub tiles: Vec<u16>,
    /// Nodes generated, summed over every iteration.
    pub nodes: u64,
    /// Nodes expanded.
    pub expanded: u64,
    /// IDA* iterations (0 for searches without iterations).
    pub iterations: u32,
    /// The heuristic's estimate of the start.
    pub initial_h: u32,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
    /// Whether no solution is shorter: guaranteed by the algorithm, or proven by the bound.
    pub optimal: bool,
    /// The proven lower bound on the optimal length (the length itself for an optimal
    /// search, at least `initial_h` for the others).
    pub lower_bound: u32,
    /// `length / lower_bound`: the solution is at most this many times the optimum
    /// (infinity with no bound).
    pub bound_ratio: f64,
    /// Why an anytime search returned its best solution so far (`"time limit"`, …), or None.
    pub stopped: Option<String>,
    /// The algorithm (`"ida"`, `"astar"`, …).
    pub algorithm: String,
    /// The heuristic in words (the database files, the reflection).
    pub heuristic: String,
    /// The puzzle, as the command line writes it.
    pub puzzle: String,
}

impl Solution {
    /// The solution `s` of `puzzle`, found with the heuristic described as `heuristic`.
    pub fn new(puzzle: &Puzzle, heuristic: &str, s: &pdbsolver::Solution) -> Solution {
        Solution {
            length: s.len(),
            metric: s.metric.name().to_string(),
            moves: s.blank_notation(),
            tiles: s.tiles_moved.clone(),
            nodes: s.stats.nodes,
            expanded: s.stats.expanded,
            iterations: s.stats.iterations,
            initial_h: s.stats.initial_h,
            seconds: s.stats.seconds,
            optimal: s.optimal,
            lower_bound: s.lower_bound(),
            bound_ratio: s.bound_ratio(),
            stopped: s.stopped.map(|st| st.describe().to_string()),
            algorithm: s.algorithm.name().to_string(),
            heuristic: heuristic.to_string(),
            puzzle: format!("{puzzle:#}"),
        }
    }
}

#[pymethods]
impl Solution {
    /// The number of moves.
    fn __len__(&self) -> usize {
        self.length
    }

    fn __repr__(&self) -> String {
        format!(
            "Solution(length={}, moves={:?}, nodes={}, seconds={:.4}, optimal={})",
            self.length,
            self.moves,
            self.nodes,
            self.seconds,
            if self.optimal { "True" } else { "False" }
        )
    }

    /// The moves as one string in `notation`: `"blank"` (the blank's letters, as `moves`) or
    /// `"tiles"` (the letters of the direction the tiles slide, a count for several tiles of
    /// one line: `"R2"`, as speedsolvers and `solver solve --notation tiles` write them).
    #[pyo3(signature = (notation="tiles"))]
    fn written(&self, notation: &str) -> PyResult<String> {
        use pdbformat::notation::{read_moves, write_moves, Notation};
        let to_value = |e: pdbformat::notation::MoveError| {
            pyo3::exceptions::PyValueError::new_err(e.to_string())
        };
        let notation: Notation = notation.parse().map_err(to_value)?;
        let steps = read_moves(&self.moves, Notation::Blank).map_err(to_value)?;
        Ok(write_moves(&steps, notation))
    }

    /// The fields as a dict, with the keys of `solver solve --json`.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("puzzle", &self.puzzle)?;
        d.set_item("length", self.length)?;
        d.set_item("metric", &self.metric)?;
        d.set_item("moves", &self.moves)?;
        d.set_item("tiles", &self.tiles)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("expanded", self.expanded)?;
        d.set_item("iterations", self.iterations)?;
        d.set_item("initial_h", self.initial_h)?;
        d.set_item("seconds", self.seconds)?;
        d.set_item("algorithm", &self.algorithm)?;
        d.set_item("heuristic", &self.heuristic)?;
        d.set_item("optimal", self.optimal)?;
        d.set_item("lower_bound", self.lower_bound)?;
        d.set_item("bound_ratio", self.bound_ratio)?;
        if let Some(st) = &self.stopped {
            d.set_item("stopped", st)?;
        }
        Ok(d)
    }
}
