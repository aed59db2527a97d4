//! `solver bench`: every instance of a benchmark file, single-threaded, with a table of nodes and
//! seconds per instance and in total, the database load time reported separately; with
//! `--json`, one JSON object per instance and a summary object instead.
//!
//! Files that give a published node count per instance (`bench/korf50-24.txt`: Korf & Felner's
//! IDA* nodes) get two more columns: that count and the ratio of ours to it. An instance
//! stopped by `--timeout` or `--max-nodes` shows the lower bound its search proved. `--plot`
//! draws every instance's nodes beside the published ones (`crate::plot::instances`).

use super::flags::{limits_request, request_error, LimitFlags, NotationFlag, PruneFlags};
use super::puzzles::{list_board, read_input};
use super::setup::{make_goal, make_heuristic, parse_board, prepare_pruner};
use super::{batch_exit_code, HeuristicArgs};
use crate::answer::{failure_json, failure_message, solution_json_in};
use crate::output::outln;
use crate::plot::instances::{draw, Figure, Instance};
use crate::summary::Summary;
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pdbformat::units::{rate, thousands};
use pdbsolver::{solve, Algorithm, Search, SolveError, Stop};
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
    /// Print JSON lines instead of the table: one object per instance, in order (the
    /// answer of `solve --json`, {"puzzle", "length", "moves", "nodes", "expanded",
    /// "iterations", "initial_h", "seconds", …}, with "instance", "id", "line", "expected",
    /// "published_nodes" and "ratio"; or {"instance", "id", "line", "puzzle", "error"} when it
    /// was not solved, with "stopped", "lower_bound", "initial_h", "nodes", "seconds",
    /// "expected", "published_nodes" when a limit stopped it), then one {"summary": {"file",
    /// "heuristic", "instances", "solved", "failed",
    /// "mismatched", "total_nodes", "total_seconds", "mean_nodes", "mean_seconds",
    /// "median_nodes", "median_seconds", "nodes_per_second", "load_seconds"}}.
    #[arg(long)]
    json: bool,
    /// Also draw the nodes of every instance (beside the published counts where the file
    /// gives them) into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Worker threads of the search (default 0: one per core, parallel-ida; 1: ida).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    #[command(flatten)]
    limits: LimitFlags,
    #[command(flatten)]
    prune: PruneFlags,
    #[command(flatten)]
    heuristic: HeuristicArgs,
    #[command(flatten)]
    notation: NotationFlag,
}

/// Runs `solver bench`.
pub fn run(a: BenchArgs) -> Result<i32> {
    if let Some(path) = &a.plot {
        crate::plot::check_path(path)?;
    }
    let mut request = limits_request(&a.limits, &a.prune);
    request.threads = a.threads;
    a.heuristic.add_to(&mut request)?;
    // The settings are checked before the file is read.
    request.resolve().map_err(request_error)?;
    let text = read_input(&a.file)?;
    let (board, mut lines) = list_board(&text, parse_board(a.heuristic.board.as_deref())?)?;
    // The board's default algorithm: anytime beyond 25 cells.
    let request = request.on_board(board.cells());
    let opts = Search {
        interrupt: Some(super::interrupt_flag()),
        // Checked once, before the summary.
        wait_verified: false,
        ..request.resolve().map_err(request_error)?
    };
    // The algorithms without duplicate-move pruning (anytime) build no machine.
    let pruning = opts.algorithm.pruning().unwrap_or(pdbsolver::Pruning::Off);
    if let Some(n) = a.first {
        lines.truncate(n);
    }
    let goal = make_goal(board, &a.heuristic.goal)?;
    let setup = make_heuristic(&a.heuristic, &request, &goal)?;
    // The pruning machine is built once per process; build it before the clock of the first
    // instance starts, and report its build like the database load.
    let prune_start = std::time::Instant::now();
    let machine = prepare_pruner(board, pruning, a.json);
    let prune_seconds = prune_start.elapsed().as_secs_f64();
    let published = lines.iter().any(|l| l.published_nodes.is_some());
    if !a.json {
        outln!(
            "{}: {} instances, {board} board, goal {goal}, {}",
            a.file.display(),
            lines.len(),
            search_words(&opts)
        );
        outln!("heuristic: {}", setup.description);
        outln!("database load: {:.3} s", setup.load_seconds);
        if machine.depth() == 0 {
            outln!("pruning machine: off");
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
            outln!(
                "pruning machine: word depth {}, {} states, {how} in {prune_seconds:.3} s",
                machine.depth(),
                machine.states()
            );
        }
        outln!(
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
    let mut plotted = Vec::new();
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
        plotted.push(Instance {
            number,
            ours: match &result {
                Ok(s) => Some((s.stats.nodes, true)),
                Err(SolveError::Stopped { stats, .. }) => Some((stats.nodes, false)),
                Err(_) => None,
            },
            published: l.published_nodes,
        });
        match result {
            Ok(s) => {
                summary.add(&s);
                // A file's lengths are single-tile ones: an mtm solution is not checked by them.
                // A solution not proven optimal is measured against it, not held to it.
                let flag = match l.expected.filter(|_| s.metric == pdbformat::Metric::Stm) {
                    Some(e) if s.optimal && e as usize != s.len() => {
                        summary.mismatched += 1;
                        format!("  MISMATCH: expected {e}")
                    }
                    Some(e) if !s.optimal => format!("  (+{} over {e})", s.len() as i64 - e as i64),
                    _ => String::new(),
                };
                let flag = if s.algorithm.is_optimal() {
                    flag
                } else {
                    format!(
                        "{flag}  lower bound {} (length <= {:.3} x optimal)",
                        s.lower_bound(),
                        s.bound_ratio()
                    )
                };
                if a.json {
                    let p = l.puzzle.as_ref().expect("solved");
                    let notation = a.notation.notation;
                    let mut v = solution_json_in(p, &setup.description, &s, notation);
                    v["instance"] = json!(i + 1);
                    v["id"] = json!(l.id);
                    v["line"] = json!(l.line);
                    v["expected"] = json!(l.expected);
                    v["published_nodes"] = json!(l.published_nodes);
                    v["ratio"] = json!(l.published_nodes.map(|p| ratio(s.stats.nodes, p)));
                    outln!("{v}");
                } else {
                    pb.suspend(|| {
                        outln!(
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
                summary.add_failure(&e);
                let msg = failure_message(&e, l.puzzle.as_ref().ok(), &goal, "--goal");
                if a.json {
                    let mut v = failure_json(&l.text, &e, &msg);
                    v["instance"] = json!(i + 1);
                    v["id"] = json!(l.id);
                    v["line"] = json!(l.line);
                    if matches!(e, SolveError::Stopped { .. }) {
                        v["expected"] = json!(l.expected);
                        v["published_nodes"] = json!(l.published_nodes);
                    }
                    outln!("{v}");
                }
                if let SolveError::Stopped { stop, stats } = &e {
                    if !a.json {
                        // The length column shows the proven lower bound, marked `>=`.
                        pb.suspend(|| {
                            outln!(
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
                } else if !a.json {
                    pb.suspend(|| outln!("{:>4} error (line {}): {msg}", number, l.line));
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
    if let Some(path) = &a.plot {
        let figure = Figure {
            title: format!(
                "solver bench {}: {} instances, {board} board",
                a.file.file_name().map_or_else(
                    || a.file.display().to_string(),
                    |f| f.to_string_lossy().into_owned()
                ),
                lines.len()
            ),
            subtitle: format!("{}, {}", search_words(&opts), setup.description),
            instances: &plotted,
        };
        draw(path, &figure)?;
    }
    if a.json {
        outln!(
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
        outln!(
            "total:  {} nodes, {:.3} s search ({}nodes/s); database load {:.3} s",
            thousands(summary.total_nodes()),
            summary.total_seconds(),
            rate(total_rate),
            setup.load_seconds
        );
        outln!(
            "mean:   {} nodes, {:.4} s",
            thousands((summary.total_nodes() as f64 / n).round() as u64),
            summary.total_seconds() / n
        );
        outln!(
            "median: {} nodes, {:.4} s",
            thousands(summary.median_nodes().round() as u64),
            summary.median_seconds()
        );
        outln!("{}", summary.text());
        if let Some(path) = &a.plot {
            outln!("figure: {}", path.display());
        }
    }
    Ok(batch_exit_code(&summary))
}

/// Our nodes divided by the published count (0 when that is 0).
fn ratio(nodes: u64, published: u64) -> f64 {
    if published == 0 {
        0.0
    } else {
        nodes as f64 / published as f64
    }
}

/// The search in words for the header: its algorithm and threads (`ida, one thread`,
/// `parallel-ida, 2 threads`), the threads of a `0` setting being the cores.
fn search_words(opts: &Search) -> String {
    let threads = match &opts.algorithm {
        Algorithm::ParallelIda(p) => p.threads,
        Algorithm::Hybrid(h) => h.threads,
        _ => 1,
    };
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let threads = if threads == 1 {
        "one thread".to_string()
    } else {
        format!("{threads} threads")
    };
    format!("{}, {threads}", opts.algorithm.name())
}
