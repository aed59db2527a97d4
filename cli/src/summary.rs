//! The totals of a batch of puzzles (`solver solve --input`, `solver bench`): solved, failed
//! and mismatched counts, nodes and seconds, their medians, and the closing line.

use pdbformat::units::rate;
use pdbformat::units::thousands;
use pdbsolver::{Solution, SolveError};

/// Totals of a batch.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Puzzles solved.
    pub solved: usize,
    /// Puzzles not solved (unreadable, unsolvable, stopped by a limit).
    pub failed: usize,
    /// Whether a limit or Ctrl-C stopped a search.
    pub stopped: bool,
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

    /// Records a puzzle that was not solved, for the error `e`.
    pub fn add_failure(&mut self, e: &SolveError) {
        self.failed += 1;
        self.stopped |= matches!(e, SolveError::Stopped { .. });
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
    fn medians() {
        assert_eq!(median_f64(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median_f64(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median_f64(&[]), 0.0);
    }
}
