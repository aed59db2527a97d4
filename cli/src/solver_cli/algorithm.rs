//! `--algorithm` and its settings, and `solver solve` with an algorithm other than IDA*: one
//! puzzle with a full report, or a file of puzzles one line each.

use super::setup::{make_goal, make_heuristic, parse_board};
use super::solve::{list_board, puzzle_error, read_input};
use super::{HeuristicArgs, EXIT_ERROR, EXIT_STOPPED};
use crate::report::{solution_json, solution_text};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use pdbformat::units::approx_bytes;
use pdbformat::units::thousands;
use pdbformat::{Goal, Puzzle};
use pdbsolver::{solve as solve_one, HeuristicChoice, Limits, Solution, SolveError};
use pdbsolver::{
    Algorithm, AlgorithmName, Dfs, Hybrid, Ida, ParallelIda, Pruning, Search, Weighted,
};
use serde_json::{json, Value};
use std::path::PathBuf;

/// The algorithm options shared by `solve` and `compare`.
#[derive(Args, Debug, Clone)]
pub struct AlgorithmArgs {
    /// Search algorithm: ida (optimal, the default), bfs, astar, hybrid (A* then IDA*),
    /// parallel-ida (optimal, threads), dfs (depth-limited, not optimal), weighted (weighted A*
    /// or greedy, not optimal) or strategic (rows then columns, any board size, not optimal).
    #[arg(long, default_value = "ida", value_name = "NAME", value_parser = parse_algorithm)]
    pub algorithm: AlgorithmName,
    /// weighted: the weight w of f = g + w*h (at least 1), or inf for greedy best-first search.
    #[arg(long, default_value = "2", value_name = "W", value_parser = parse_weight)]
    pub weight: f64,
    /// parallel-ida and hybrid (its IDA* phase): worker threads (0: one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub threads: usize,
    /// bfs, astar, hybrid, weighted: stop before the estimated memory of the search exceeds
    /// SIZE (such as 512M or 4G; default: half the available memory). bfs refuses boards whose
    /// state space would not fit.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_memory: Option<u64>,
    /// dfs: a fixed depth limit (default: twice the start's estimate, doubled until solved).
    #[arg(long, value_name = "N")]
    pub depth_limit: Option<u32>,
    /// hybrid: positions A* stores before IDA* takes over from its frontier (default 1000000).
    #[arg(long, value_name = "N")]
    pub hybrid_nodes: Option<u64>,
    /// ida, hybrid, parallel-ida: turn duplicate-move pruning off (the move back to the
    /// previous cell is still never made).
    #[arg(long)]
    pub no_prune: bool,
    /// ida, hybrid, parallel-ida: word depth of the duplicate-move pruning machine (1 to 24;
    /// default 12 on boards of at most 16 cells, 18 on 17 to 25 cells, 10 on larger ones;
    /// machines of depth 12 or more are read from a file beside the databases when there is
    /// one, else cached in the user cache directory, or in $PDB_PRUNE_CACHE, `off` for none).
    #[arg(long, value_name = "L",
          value_parser = clap::value_parser!(u32).range(1..=pdbsolver::prune::MAX_DEPTH as i64))]
    pub prune_depth: Option<u32>,
}

impl AlgorithmArgs {
    /// The pruning asked for (`--no-prune`, `--prune-depth`, else the board's default).
    pub fn pruning(&self) -> Pruning {
        match (self.no_prune, self.prune_depth) {
            (true, _) => Pruning::Off,
            (false, Some(d)) => Pruning::Depth(d),
            (false, None) => Pruning::BoardDefault,
        }
    }

    /// The search with `limits` (and the memory limit of the options).
    pub fn search(&self, mut limits: Limits) -> Search {
        limits.max_memory = self.max_memory;
        let pruning = self.pruning();
        let algorithm = match self.algorithm {
            AlgorithmName::Ida => Algorithm::Ida(Ida {
                pruning,
                ..Ida::default()
            }),
            AlgorithmName::Hybrid => Algorithm::Hybrid(Hybrid {
                budget: self.hybrid_nodes,
                threads: self.threads,
                pruning,
            }),
            AlgorithmName::ParallelIda => Algorithm::ParallelIda(ParallelIda {
                threads: self.threads,
                pruning,
            }),
            AlgorithmName::Dfs => Algorithm::Dfs(Dfs {
                depth_limit: self.depth_limit,
            }),
            AlgorithmName::Weighted => Algorithm::Weighted(Weighted {
                weight: self.weight,
            }),
            name => Algorithm::from(name),
        };
        Search {
            limits,
            interrupt: Some(super::interrupt_flag()),
            ..Search::new(algorithm)
        }
    }
}

/// Parses an algorithm name.
pub fn parse_algorithm(s: &str) -> Result<AlgorithmName, String> {
    AlgorithmName::parse(s).ok_or_else(|| {
        let names: Vec<&str> = AlgorithmName::ALL.iter().map(|a| a.name()).collect();
        format!("unknown algorithm {s:?}: use {}", names.join(", "))
    })
}

/// Parses a weight: a number of at least 1, or `inf`/`greedy`.
pub fn parse_weight(s: &str) -> Result<f64, String> {
    let t = s.trim().to_ascii_lowercase();
    if matches!(t.as_str(), "inf" | "infinity" | "greedy") {
        return Ok(f64::INFINITY);
    }
    match t.parse::<f64>() {
        Ok(w) if w >= 1.0 && w.is_finite() => Ok(w),
        _ => Err(format!(
            "the weight must be a number of at least 1, or inf for greedy search, not {s:?}"
        )),
    }
}

/// Parses a size in bytes: `1000000`, `512K`, `64M`, `4G`, `1.5GiB` (binary units).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => {
            return Err(format!(
                "cannot read the size {s:?}: use a number with K, M, G or T"
            ))
        }
    };
    match num.parse::<f64>() {
        Ok(v) if v > 0.0 && (v * scale as f64) < 1.8e19 => Ok((v * scale as f64) as u64),
        _ => Err(format!(
            "cannot read the size {s:?}: use a positive number with K, M, G or T"
        )),
    }
}

/// The heuristic an algorithm runs with, and its description: none for `bfs` and
/// `strategic`, otherwise the one the options choose (databases loaded once).
pub fn heuristic_for(
    algorithm: AlgorithmName,
    args: &HeuristicArgs,
    goal: &Goal,
) -> Result<(HeuristicChoice, String)> {
    if !algorithm.uses_heuristic() {
        return Ok((HeuristicChoice::Manhattan, "none".into()));
    }
    let setup = make_heuristic(args, goal)?;
    Ok((setup.heuristic, setup.description))
}

/// The exit code of a failed run.
pub fn exit_code(e: &SolveError) -> i32 {
    match e {
        SolveError::Stopped { .. } => EXIT_STOPPED,
        _ => EXIT_ERROR,
    }
}

/// What the algorithm promises, in words.
fn promise(r: &Solution, search: &Search) -> String {
    match (&search.algorithm, r.algorithm) {
        (_, a) if a.is_optimal() => format!("{a} (optimal)"),
        (Algorithm::Weighted(w), _) => format!("weighted, {} (not optimal)", w.describe()),
        (_, a) => format!("{a} (not optimal)"),
    }
}

/// The full text report of a run.
fn run_text(p: &Puzzle, goal: &Goal, heuristic: &str, r: &Solution, search: &Search) -> String {
    let mut out = solution_text(p, &goal.to_string(), heuristic, r);
    out.push_str(&format!("algorithm:  {}\n", promise(r, search)));
    out.push_str(&format!(
        "memory:     {} estimated peak{}\n",
        approx_bytes(r.stats.peak_memory as f64),
        if r.stats.stored > 0 {
            format!(" ({} positions stored)", thousands(r.stats.stored))
        } else {
            String::new()
        }
    ));
    if !r.stats.detail.is_empty() {
        out.push_str(&format!("search:     {}\n", r.stats.detail));
    }
    if !r.stats.per_thread.is_empty() {
        let v: Vec<String> = r.stats.per_thread.iter().map(|&n| thousands(n)).collect();
        out.push_str(&format!("per thread: {} nodes\n", v.join(" / ")));
    }
    out
}

/// The JSON object of a run.
pub fn run_json(p: &Puzzle, heuristic: &str, r: &Solution) -> Value {
    let mut v = solution_json(p, r);
    v["algorithm"] = json!(r.algorithm.name());
    v["heuristic"] = json!(heuristic);
    v["optimal"] = json!(r.optimal);
    v["peak_memory"] = json!(r.stats.peak_memory);
    v["stored"] = json!(r.stats.stored);
    v["detail"] = json!(r.stats.detail);
    if !r.stats.per_thread.is_empty() {
        v["per_thread"] = json!(r.stats.per_thread);
    }
    v
}

/// The pruning machine of the algorithms that use one, made before the first search.
fn prepare(algo: &AlgorithmArgs, goal: &Goal) {
    if matches!(
        algo.algorithm,
        AlgorithmName::Hybrid | AlgorithmName::ParallelIda
    ) {
        super::setup::prepare_pruner(goal.board(), algo.pruning(), false);
    }
}

/// `solver solve` with an algorithm other than `ida`.
pub fn solve(
    algo: &AlgorithmArgs,
    puzzle: &[String],
    input: Option<&PathBuf>,
    json_out: bool,
    limits: Limits,
    heuristic: &HeuristicArgs,
) -> Result<i32> {
    let search = algo.search(limits);
    let board = parse_board(heuristic.board.as_deref())?;
    match (input, puzzle.is_empty()) {
        (Some(_), false) => bail!("give either a puzzle or --input FILE, not both"),
        (None, true) => {
            bail!("give a puzzle (e.g. solver solve \"1 2 3 4 5 6 7 0 8\") or --input FILE")
        }
        (None, false) => {
            let text = puzzle.join(" ");
            let p = Puzzle::parse(&text, board).map_err(|e| anyhow!("{e}"))?;
            let goal = make_goal(p.board(), &heuristic.goal)?;
            if let Err(e) = p.check_solvable(&goal) {
                bail!("{}", puzzle_error(&e.into(), Some(&p), &goal));
            }
            let (choice, desc) = heuristic_for(algo.algorithm, heuristic, &goal)?;
            prepare(algo, &goal);
            match solve_one(&search, &choice, &p, &goal) {
                Ok(r) => {
                    if json_out {
                        println!("{}", run_json(&p, &desc, &r));
                    } else {
                        print!("{}", run_text(&p, &goal, &desc, &r, &search));
                    }
                    Ok(0)
                }
                Err(e) => {
                    let msg = puzzle_error(&e, Some(&p), &goal);
                    if json_out {
                        println!("{}", json!({ "puzzle": format!("{p:#}"), "error": msg }));
                    }
                    eprintln!("error: {msg}");
                    Ok(exit_code(&e))
                }
            }
        }
        (Some(path), true) => {
            let text = read_input(path)?;
            let (board, lines) = list_board(&text, board)?;
            let goal = make_goal(board, &heuristic.goal)?;
            let (choice, desc) = heuristic_for(algo.algorithm, heuristic, &goal)?;
            prepare(algo, &goal);
            if !json_out {
                println!(
                    "{} puzzles, {board} board, goal {goal}, algorithm {}, heuristic {desc}",
                    lines.len(),
                    algo.algorithm
                );
            }
            let (mut solved, mut failed, mut stopped, mut mismatched) = (0, 0, false, 0);
            for (i, l) in lines.iter().enumerate() {
                let fail = |e: &SolveError, p: Option<&Puzzle>| {
                    let msg = puzzle_error(e, p, &goal);
                    if json_out {
                        println!(
                            "{}",
                            json!({ "puzzle": l.text, "line": l.line, "error": msg })
                        );
                    }
                    eprintln!("error: line {}: {msg}", l.line);
                };
                let p = match &l.puzzle {
                    Ok(p) => p,
                    Err(e) => {
                        failed += 1;
                        fail(&SolveError::Puzzle(e.clone()), None);
                        continue;
                    }
                };
                match solve_one(&search, &choice, p, &goal) {
                    Ok(r) => {
                        solved += 1;
                        let mismatch = l.expected.filter(|&e| r.optimal && e as usize != r.len());
                        // How far a non-optimal solution is from the optimum on the line.
                        let excess = l
                            .expected
                            .filter(|_| !r.optimal)
                            .map(|e| r.len() as i64 - e as i64);
                        if json_out {
                            let mut v = run_json(p, &desc, &r);
                            if let Some(e) = l.expected {
                                v["expected"] = e.into();
                            }
                            if let Some(x) = excess {
                                v["excess"] = x.into();
                            }
                            println!("{v}");
                        } else {
                            println!(
                                "#{:<4} length {:>4}{}  nodes {:>15}  memory {:>10}  {:>9.3} s  {}",
                                i + 1,
                                r.len(),
                                excess.map_or(String::new(), |x| format!(" (+{x:<3})")),
                                thousands(r.stats.nodes),
                                approx_bytes(r.stats.peak_memory as f64),
                                r.stats.seconds,
                                r.blank_notation()
                            );
                        }
                        if let Some(e) = mismatch {
                            mismatched += 1;
                            eprintln!(
                                "error: line {}: found length {}, the line says {e}",
                                l.line,
                                r.len()
                            );
                        }
                    }
                    Err(e) => {
                        failed += 1;
                        stopped |= matches!(e, SolveError::Stopped { .. });
                        fail(&e, Some(p));
                    }
                }
            }
            let summary = format!("solved {solved} of {}", lines.len());
            if json_out {
                eprintln!("{summary}");
            } else {
                println!("{summary}");
            }
            Ok(if stopped {
                EXIT_STOPPED
            } else if failed > 0 || mismatched > 0 {
                EXIT_ERROR
            } else {
                0
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_weights_algorithms() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("2 GiB"), Ok(2 << 30));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("0").is_err());
        assert_eq!(parse_weight("inf"), Ok(f64::INFINITY));
        assert_eq!(parse_weight("1.5"), Ok(1.5));
        assert!(parse_weight("0.5").is_err());
        assert!(parse_weight("nan").is_err());
        assert!(parse_algorithm("a*").is_ok());
        assert!(parse_algorithm("quantum").is_err());
    }
}
