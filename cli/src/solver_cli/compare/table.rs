//! `solver compare`'s output: each pair's totals over the puzzles, the per-puzzle rows, the
//! aligned text tables and the JSON summary lines.

use super::pairs::Pair;
use crate::output::{out, outln};
use pdbformat::system::LoadAverage;
use pdbformat::units::{approx_bytes, thousands};
use pdbsolver::{Solution, SolveError};
use serde_json::json;

/// Totals of one pair over the puzzles.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    solved: usize,
    stopped: usize,
    errors: usize,
    length: u64,
    nodes: u64,
    solved_seconds: f64,
    all_seconds: f64,
    memory: u64,
    known: usize,
    optimal: usize,
    excess: u64,
}

impl Totals {
    /// Counts a solution; `optimum` is the puzzle's known optimal length.
    pub fn add_solution(&mut self, run: &Solution, optimum: Option<usize>) {
        self.solved += 1;
        self.length += run.len() as u64;
        self.nodes += run.stats.nodes;
        self.solved_seconds += run.stats.seconds;
        self.all_seconds += run.stats.seconds;
        self.memory = self.memory.max(run.stats.peak_memory);
        if let Some(o) = optimum {
            self.known += 1;
            self.optimal += (run.len() == o) as usize;
            self.excess += run.len().saturating_sub(o) as u64;
        }
    }

    /// Counts a run that gave no solution (its time and memory count if it searched).
    pub fn add_failure(&mut self, e: &SolveError) {
        if let Some(s) = e.stats() {
            self.all_seconds += s.seconds;
            self.memory = self.memory.max(s.peak_memory);
        }
        if matches!(e, SolveError::Stopped { .. }) {
            self.stopped += 1;
        } else {
            self.errors += 1;
        }
    }
}

/// What one run gave, for the table.
pub struct Row {
    /// The puzzle's number, from 0.
    pub puzzle: usize,
    /// The pair's number.
    pub pair: usize,
    /// What the run gave.
    pub result: Result<Solution, SolveError>,
}

/// The load averages over 1, 5 and 15 minutes, for the header and the last line.
pub fn load_average() -> String {
    LoadAverage::read().map_or_else(|| "unknown".into(), |l| l.to_string())
}

/// One JSON summary line per pair.
pub fn print_json_totals(pairs: &[Pair], totals: &[Totals], puzzles: usize) {
    for (p, t) in pairs.iter().zip(totals) {
        let n = t.solved.max(1) as f64;
        outln!(
            "{}",
            json!({
                "summary": true,
                "pair": p.label,
                "puzzles": puzzles,
                "solved": t.solved,
                "stopped": t.stopped,
                "errors": t.errors,
                "mean_length": t.length as f64 / n,
                "optimal": t.optimal,
                "known_optimum": t.known,
                "mean_excess": if t.known > 0 { t.excess as f64 / t.known as f64 } else { 0.0 },
                "mean_nodes": t.nodes as f64 / n,
                "peak_memory": t.memory,
                "seconds": t.all_seconds,
                "mean_seconds": t.solved_seconds / n,
            })
        );
    }
}

/// The per-puzzle table (when asked for, or for a single puzzle) and the totals table (for
/// several puzzles, or without per-puzzle rows), then the load average.
pub fn print_tables(
    pairs: &[Pair],
    totals: &[Totals],
    table: &[Vec<String>],
    per_puzzle: bool,
    puzzles: usize,
) {
    if per_puzzle {
        let mut head = vec![
            "pair", "length", "optimal", "nodes", "memory", "seconds", "note",
        ];
        if puzzles > 1 {
            head.insert(0, "#");
        }
        out!("{}", render(&head, table));
    }
    if !per_puzzle || puzzles > 1 {
        if per_puzzle {
            outln!();
        }
        let rows: Vec<Vec<String>> = pairs
            .iter()
            .zip(totals)
            .map(|(p, t)| total_row(p, t, puzzles))
            .collect();
        out!(
            "{}",
            render(
                &[
                    "pair", "solved", "length", "optimal", "nodes", "memory", "total s", "mean s",
                    "note"
                ],
                &rows
            )
        );
    }
    outln!("load average at the end: {}", load_average());
}

/// The optimality cell of one run.
fn optimality(run: &Solution, optimum: Option<usize>) -> String {
    if run.optimal {
        "proven".into()
    } else {
        match optimum {
            Some(o) if run.len() == o => "yes".into(),
            Some(o) => format!("+{}", run.len().saturating_sub(o)),
            None => "?".into(),
        }
    }
}

pub fn puzzle_row(r: &Row, p: &Pair, optimum: Option<usize>, numbered: bool) -> Vec<String> {
    let mut row = match &r.result {
        Ok(run) => vec![
            p.label.clone(),
            run.len().to_string(),
            optimality(run, optimum),
            thousands(run.stats.nodes),
            approx_bytes(run.stats.peak_memory as f64),
            format!("{:.3}", run.stats.seconds),
            note(run),
        ],
        Err(e) => {
            let s = e.stats();
            vec![
                p.label.clone(),
                "-".into(),
                "-".into(),
                s.map_or("-".into(), |s| thousands(s.nodes)),
                s.map_or("-".into(), |s| approx_bytes(s.peak_memory as f64)),
                s.map_or("-".into(), |s| format!("{:.3}", s.seconds)),
                match e {
                    SolveError::Stopped { stop, stats } => format!(
                        "stopped: {}{}",
                        stop.describe(),
                        if stats.lower_bound > 0 {
                            format!(" (optimum >= {})", stats.lower_bound)
                        } else {
                            String::new()
                        }
                    ),
                    e => format!("error: {e}"),
                },
            ]
        }
    };
    if numbered {
        row.insert(0, (r.puzzle + 1).to_string());
    }
    row
}

/// Notes on a run: the open list or phases, and the threads' shares.
fn note(run: &Solution) -> String {
    let mut s = run.stats.detail.clone();
    if !run.stats.per_thread.is_empty() {
        let v: Vec<String> = run.stats.per_thread.iter().map(|&n| thousands(n)).collect();
        s.push_str(&format!("; per thread {}", v.join("/")));
    }
    s
}

fn total_row(p: &Pair, t: &Totals, puzzles: usize) -> Vec<String> {
    let n = t.solved.max(1) as f64;
    let optimal = if t.solved == 0 {
        "-".into()
    } else if p.algorithm().is_optimal() {
        "proven".into()
    } else if t.known == 0 {
        "?".into()
    } else {
        format!(
            "{}/{} +{:.1}",
            t.optimal,
            t.known,
            t.excess as f64 / t.known as f64
        )
    };
    let mut notes = Vec::new();
    if t.stopped > 0 {
        notes.push(format!("{} stopped", t.stopped));
    }
    if t.errors > 0 {
        notes.push(format!("{} errors", t.errors));
    }
    vec![
        p.label.clone(),
        format!("{}/{puzzles}", t.solved),
        if t.solved > 0 {
            format!("{:.2}", t.length as f64 / n)
        } else {
            "-".into()
        },
        optimal,
        if t.solved > 0 {
            thousands((t.nodes as f64 / n).round() as u64)
        } else {
            "-".into()
        },
        approx_bytes(t.memory as f64),
        format!("{:.3}", t.all_seconds),
        if t.solved > 0 {
            format!("{:.4}", t.solved_seconds / n)
        } else {
            "-".into()
        },
        notes.join(", "),
    ]
}

/// An aligned text table: the first column and the last (notes) left-aligned, the others
/// right-aligned.
fn render(head: &[&str], rows: &[Vec<String>]) -> String {
    let cols = head.len();
    let mut width: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let pad = width[i].saturating_sub(c.chars().count());
            let left = i == 0 || i + 1 == cols || (i == 1 && head[0] == "#");
            if i > 0 {
                s.push_str("  ");
            }
            if left {
                s.push_str(c);
                if i + 1 < cols {
                    s.push_str(&" ".repeat(pad));
                }
            } else {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(head.to_vec());
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_aligns() {
        let t = render(
            &["pair", "nodes", "note"],
            &[
                vec!["ida:md".into(), "1,000".into(), "x".into()],
                vec!["bfs".into(), "7".into(), "".into()],
            ],
        );
        assert_eq!(t, "pair    nodes  note\nida:md  1,000  x\nbfs         7\n");
    }
}
