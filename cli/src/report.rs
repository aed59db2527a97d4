//! Output: a solution as text or as one JSON object, and the summary of a batch.

use pdbformat::units::thousands;
use pdbformat::Puzzle;
use pdbsolver::Iteration;
use pdbsolver::Solution;
use serde_json::{json, Value};

/// A rate such as nodes per second, with a unit prefix (`12.3 M`).
pub fn rate(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.2} k", x / 1e3)
    } else {
        format!("{x:.0} ")
    }
}

/// The full text report of one solution.
pub fn solution_text(puzzle: &Puzzle, goal_name: &str, heuristic: &str, s: &Solution) -> String {
    let mut out = String::new();
    out.push_str(&format!("puzzle:     {puzzle:#}\n"));
    out.push_str(&format!("goal:       {goal_name}\n"));
    out.push_str(&format!("heuristic:  {heuristic}\n"));
    out.push_str(&format!("length:     {}\n", s.len()));
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
    out
}

/// One line per solution, for batches: `#n  length  nodes  seconds  moves`.
pub fn solution_line(number: usize, s: &Solution) -> String {
    format!(
        "#{number:<4} length {:>3}  nodes {:>15}  {:>9.3} s  {}",
        s.len(),
        thousands(s.stats.nodes),
        s.stats.seconds,
        s.blank_notation()
    )
}

/// The JSON object of one solution.
pub fn solution_json(puzzle: &Puzzle, s: &Solution) -> Value {
    json!({
        "puzzle": format!("{puzzle:#}"),
        "length": s.len(),
        "moves": s.blank_notation(),
        "tiles": s.tiles_moved,
        "nodes": s.stats.nodes,
        "expanded": s.stats.expanded,
        "iterations": s.stats.iterations,
        "initial_h": s.stats.initial_h,
        "seconds": s.stats.seconds,
    })
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

/// The JSON object of a puzzle that was not solved.
pub fn error_json(text: &str, line: Option<usize>, error: &str) -> Value {
    let mut v = json!({ "puzzle": text, "error": error });
    if let Some(l) = line {
        v["line"] = json!(l);
    }
    v
}

/// `RDLU` as `R D L U`.
fn spaced(moves: &str) -> String {
    let v: Vec<String> = moves.chars().map(|c| c.to_string()).collect();
    v.join(" ")
}

/// Totals of a batch.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Puzzles solved.
    pub solved: usize,
    /// Puzzles not solved (unreadable, unsolvable, stopped by a limit).
    pub failed: usize,
    /// Solutions whose length differs from the one given on the line.
    pub mismatched: usize,
    /// Search seconds of each solved puzzle.
    pub seconds: Vec<f64>,
    /// Generated nodes of each solved puzzle.
    pub nodes: Vec<u64>,
}

impl Summary {
    /// Records a solution.
    pub fn add(&mut self, s: &Solution) {
        self.solved += 1;
        self.seconds.push(s.stats.seconds);
        self.nodes.push(s.stats.nodes);
    }

    /// Total search seconds.
    pub fn total_seconds(&self) -> f64 {
        // An empty f64 sum is -0.0; adding 0.0 prints it as 0.
        self.seconds.iter().sum::<f64>() + 0.0
    }

    /// Total generated nodes.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().sum()
    }

    /// Median search seconds (0 when nothing was solved).
    pub fn median_seconds(&self) -> f64 {
        median_f64(&self.seconds)
    }

    /// Median generated nodes (0 when nothing was solved).
    pub fn median_nodes(&self) -> f64 {
        let v: Vec<f64> = self.nodes.iter().map(|&n| n as f64).collect();
        median_f64(&v)
    }

    /// The closing summary as text.
    pub fn text(&self) -> String {
        let total = self.solved + self.failed;
        let secs = self.total_seconds();
        let mut s = format!(
            "solved {} of {total}; total {:.3} s, median {:.4} s; total nodes {}, median {}; {}nodes/s",
            self.solved,
            secs,
            self.median_seconds(),
            thousands(self.total_nodes()),
            thousands(self.median_nodes().round() as u64),
            rate(if secs > 0.0 {
                self.total_nodes() as f64 / secs
            } else {
                0.0
            }),
        );
        if self.mismatched > 0 {
            s.push_str(&format!(
                "; {} lengths differ from the given ones",
                self.mismatched
            ));
        }
        s
    }
}

/// The median of `v` (the mean of the middle two for even counts; 0 when empty).
pub fn median_f64(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(median_f64(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median_f64(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median_f64(&[]), 0.0);
        assert_eq!(rate(2.5e6), "2.50 M");
    }
}
