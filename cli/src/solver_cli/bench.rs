//! `solver bench`: every instance of a benchmark file, single-threaded, with a table of nodes and
//! seconds per instance and in total, the database load time reported separately; with
//! `--json`, one JSON object per instance and a summary object instead.
//!
//! Files that give a published node count per instance (`bench/korf50-24.txt`: Korf & Felner's
//! IDA* nodes) get two more columns: that count and the ratio of ours to it. An instance
//! stopped by `--timeout` or `--max-nodes` shows the lower bound its search proved.

use super::setup::{make_goal, make_heuristic, parse_board};
use super::solve::{ida_search, limits, list_board, puzzle_error, read_input};
use super::{HeuristicArgs, EXIT_ERROR, EXIT_STOPPED};
use crate::report::{rate, Summary};
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pdbformat::units::thousands;
use pdbsolver::{solve, Pruning, Search, SolveError, Stop};
use serde_json::json;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `solver bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Benchmark file: one instance per line, tiles then (optionally) the optimal length.
    #[arg(default_value = "bench/korf100.txt", value_name = "FILE")]
    file: PathBuf,
    /// Only the first N instances.
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// Stop an instance's search after generating this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop an instance's search after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Print JSON lines instead of the table: one object per instance, in order
    /// ({"instance", "id", "line", "length", "expected", "initial_h", "nodes", "expanded",
    /// "iterations", "seconds", "moves", "published_nodes", "ratio"}, or {"instance", "id",
    /// "line", "error"} when it was not solved, with "stopped", "lower_bound", "nodes",
    /// "seconds", "published_nodes" when a limit stopped it), then one {"summary": {"file", "heuristic", "instances", "solved", "failed",
    /// "mismatched", "total_nodes", "total_seconds", "mean_nodes", "mean_seconds",
    /// "median_nodes", "median_seconds", "nodes_per_second", "load_seconds"}}.
    #[arg(long)]
    json: bool,
    /// Turn duplicate-move pruning off (the move back to the previous cell is still never made).
    #[arg(long)]
    no_prune: bool,
    /// Word depth of the duplicate-move pruning machine (1 to 24; default 12 on boards of at
    /// most 16 cells, 18 on 17 to 25 cells, 10 on larger ones; machines of depth 12 or more
    /// are read from a file beside the databases when there is one, else cached in the user
    /// cache directory, or in $PDB_PRUNE_CACHE, `off` for none).
    #[arg(long, value_name = "L",
          value_parser = clap::value_parser!(u32).range(1..=pdbsolver::prune::MAX_DEPTH as i64))]
    prune_depth: Option<u32>,
    #[command(flatten)]
    heuristic: HeuristicArgs,
}

/// Runs `solver bench`.
pub fn run(a: BenchArgs) -> Result<i32> {
    let pruning = match (a.no_prune, a.prune_depth) {
        (true, _) => Pruning::Off,
        (false, Some(d)) => Pruning::Depth(d),
        (false, None) => Pruning::BoardDefault,
    };
    let opts = Search {
        // Checked once, before the summary.
        wait_verified: false,
        ..ida_search(&limits(a.max_nodes, a.timeout)?, pruning)
    };
    let text = read_input(&a.file)?;
    let (board, mut lines) = list_board(&text, parse_board(a.heuristic.board.as_deref())?)?;
    if let Some(n) = a.first {
        lines.truncate(n);
    }
    let goal = make_goal(board, &a.heuristic.goal)?;
    let setup = make_heuristic(&a.heuristic, &goal)?;
    // The pruning machine is built once per process; build it before the clock of the first
    // instance starts, and report its build like the database load.
    let prune_start = std::time::Instant::now();
    super::setup::prepare_pruner(board, pruning, a.json);
    let machine = pruning.machine(board);
    let prune_seconds = prune_start.elapsed().as_secs_f64();
    let published = lines.iter().any(|l| l.published_nodes.is_some());
    if !a.json {
        println!(
            "{}: {} instances, {board} board, goal {goal}, single thread",
            a.file.display(),
            lines.len()
        );
        println!("heuristic: {}", setup.description);
        println!("database load: {:.3} s", setup.load_seconds);
        if machine.depth() == 0 {
            println!("pruning machine: off");
        } else {
            use pdbsolver::prune::Origin;
            let how = match machine.origin() {
                Origin::Built => "built".to_string(),
                Origin::Loaded(p) => format!("read from {}", p.display()),
                Origin::Cached { path, replaced } => format!(
                    "built and cached in {}{}",
                    path.display(),
                    replaced
                        .as_ref()
                        .map(|r| format!(" (replacing a file not used: {r})"))
                        .unwrap_or_default()
                ),
                Origin::NotSaved(why) => format!("built (not cached: {why})"),
            };
            println!(
                "pruning machine: word depth {}, {} states, {how} in {prune_seconds:.3} s",
                machine.depth(),
                machine.states()
            );
        }
        println!(
            "{:>4} {:>4} {:>4} {:>16} {:>10} {:>12}{}",
            "#",
            "len",
            "h0",
            "nodes",
            "seconds",
            "nodes/s",
            if published {
                format!(" {:>20} {:>9}", "published", "ratio")
            } else {
                String::new()
            }
        );
    }
    let pb = if a.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(lines.len() as u64)
    };
    pb.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len}")
            .expect("valid template"),
    );
    // Keep the clock moving while a hard instance is being searched.
    pb.enable_steady_tick(Duration::from_millis(250));
    let mut summary = Summary::default();
    let mut stopped = false;
    for (i, l) in lines.iter().enumerate() {
        let number = l.id.map_or(i + 1, |id| id as usize);
        let columns = |nodes: u64| match l.published_nodes {
            Some(p) => format!(
                " {:>20} {:>9}",
                thousands(p),
                match ratio(nodes, p) {
                    r if r == 0.0 || r >= 1e-3 => format!("{r:.4}"),
                    r => format!("{r:.2e}"),
                }
            ),
            None if published => format!(" {:>20} {:>9}", "-", "-"),
            None => String::new(),
        };
        let result = l
            .puzzle
            .as_ref()
            .map_err(|e| SolveError::Puzzle(e.clone()))
            .and_then(|p| solve(&opts, &setup.heuristic, p, &goal));
        match result {
            Ok(s) => {
                summary.add(&s);
                let flag = match l.expected {
                    Some(e) if e as usize != s.len() => {
                        summary.mismatched += 1;
                        format!("  MISMATCH: expected {e}")
                    }
                    _ => String::new(),
                };
                if a.json {
                    println!(
                        "{}",
                        json!({
                            "instance": i + 1,
                            "id": l.id,
                            "line": l.line,
                            "length": s.len(),
                            "expected": l.expected,
                            "initial_h": s.stats.initial_h,
                            "nodes": s.stats.nodes,
                            "expanded": s.stats.expanded,
                            "iterations": s.stats.iterations,
                            "seconds": s.stats.seconds,
                            "moves": s.blank_notation(),
                            "published_nodes": l.published_nodes,
                            "ratio": l.published_nodes.map(|p| ratio(s.stats.nodes, p)),
                        })
                    );
                } else {
                    pb.suspend(|| {
                        println!(
                            "{:>4} {:>4} {:>4} {:>16} {:>10.4} {:>12}{}{flag}",
                            number,
                            s.len(),
                            s.stats.initial_h,
                            thousands(s.stats.nodes),
                            s.stats.seconds,
                            rate(s.nodes_per_second()),
                            columns(s.stats.nodes)
                        )
                    });
                }
            }
            Err(e) => {
                summary.failed += 1;
                stopped |= matches!(e, SolveError::Stopped { .. });
                let msg = puzzle_error(&e, l.puzzle.as_ref().ok(), &goal);
                if let SolveError::Stopped { stop, stats } = &e {
                    if a.json {
                        println!(
                            "{}",
                            json!({
                                "instance": i + 1,
                                "id": l.id,
                                "line": l.line,
                                "error": msg,
                                "stopped": stop.describe(),
                                "lower_bound": stats.lower_bound,
                                "expected": l.expected,
                                "initial_h": stats.initial_h,
                                "nodes": stats.nodes,
                                "seconds": stats.seconds,
                                "published_nodes": l.published_nodes,
                            })
                        );
                    } else {
                        // The length column shows the proven lower bound, marked `>=`.
                        pb.suspend(|| {
                            println!(
                                "{:>4} {:>4} {:>4} {:>16} {:>10.4} {:>12}{}  stopped ({}): length >= {}",
                                number,
                                format!(">={}", stats.lower_bound),
                                stats.initial_h,
                                thousands(stats.nodes),
                                stats.seconds,
                                rate(stats.nodes_per_second()),
                                columns(stats.nodes),
                                stop.describe(),
                                stats.lower_bound
                            )
                        });
                    }
                    if *stop == Stop::Interrupted {
                        pb.inc(1);
                        break;
                    }
                } else if a.json {
                    println!(
                        "{}",
                        json!({ "instance": i + 1, "id": l.id, "line": l.line, "error": msg })
                    );
                } else {
                    pb.suspend(|| println!("{:>4} error (line {}): {msg}", number, l.line));
                }
            }
        }
        pb.inc(1);
    }
    pb.finish_and_clear();
    // The lines above are progress; the summary is the verdict, given only once the tables'
    // digests have been checked (the check ran beside the searches).
    setup.heuristic.wait_verified()?;
    let n = summary.solved.max(1) as f64;
    let total_rate = if summary.total_seconds() > 0.0 {
        summary.total_nodes() as f64 / summary.total_seconds()
    } else {
        0.0
    };
    if a.json {
        println!(
            "{}",
            json!({ "summary": {
                "file": a.file.display().to_string(),
                "heuristic": setup.description,
                "instances": lines.len(),
                "solved": summary.solved,
                "failed": summary.failed,
                "mismatched": summary.mismatched,
                "total_nodes": summary.total_nodes(),
                "total_seconds": summary.total_seconds(),
                "mean_nodes": summary.total_nodes() as f64 / n,
                "mean_seconds": summary.total_seconds() / n,
                "median_nodes": summary.median_nodes(),
                "median_seconds": summary.median_seconds(),
                "nodes_per_second": total_rate,
                "load_seconds": setup.load_seconds,
            }})
        );
    } else {
        println!(
            "total:  {} nodes, {:.3} s search ({}nodes/s); database load {:.3} s",
            thousands(summary.total_nodes()),
            summary.total_seconds(),
            rate(total_rate),
            setup.load_seconds
        );
        println!(
            "mean:   {} nodes, {:.4} s",
            thousands((summary.total_nodes() as f64 / n).round() as u64),
            summary.total_seconds() / n
        );
        println!(
            "median: {} nodes, {:.4} s",
            thousands(summary.median_nodes().round() as u64),
            summary.median_seconds()
        );
        println!("{}", summary.text());
    }
    Ok(if stopped {
        EXIT_STOPPED
    } else if summary.failed > 0 || summary.mismatched > 0 {
        EXIT_ERROR
    } else {
        0
    })
}

/// Our nodes divided by the published count (0 when that is 0).
fn ratio(nodes: u64, published: u64) -> f64 {
    if published == 0 {
        0.0
    } else {
        nodes as f64 / published as f64
    }
}
