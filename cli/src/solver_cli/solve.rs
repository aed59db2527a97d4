//! `solver solve`: one puzzle from the arguments, or a file of puzzles with a progress bar and a
//! closing summary; text or one JSON object per puzzle.

use super::setup::{make_goal, make_heuristic, parse_board};
use super::{HeuristicArgs, EXIT_ERROR, EXIT_STOPPED};
use crate::report::rate;
use crate::report::{
    error_json, iteration_json, solution_json, solution_line, solution_text, Summary,
};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pdbformat::units::thousands;
use pdbformat::{Board, Goal, Puzzle, PuzzleError};
use pdbsolver::checkpoint::{Checkpoint, SearchState};
use pdbsolver::input::{read_puzzles, PuzzleLine};
use pdbsolver::{
    solve, Algorithm, AlgorithmName, HeuristicChoice, Ida, Limits, Pruning, Search, SolveError,
};
use pdbsolver::{Event, Observer};
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Arguments of `solver solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The puzzle: tiles row by row, 0 or _ for the blank, in one argument or several
    /// (e.g. "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").
    #[arg(value_name = "TILES")]
    puzzle: Vec<String>,
    /// A file of puzzles, one per line ('#' starts a comment; one extra number at the end of a
    /// line is the known optimal length and is checked); '-' reads standard input.
    #[arg(long, short, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Print one JSON object per puzzle (puzzle, length, moves, tiles, nodes, seconds, …).
    #[arg(long)]
    json: bool,
    /// Stop a puzzle's search after generating this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop a puzzle's search after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Print one line per IDA* iteration on standard error (bound, nodes, nodes/s, time, and
    /// an estimate of the next iteration), even when standard error is not a terminal. On a
    /// terminal this is the default for a single puzzle. With --json the lines are JSON
    /// objects: {"iteration", "bound", "next_bound", "nodes", "total_nodes", "seconds",
    /// "total_seconds", "nodes_per_second", "growth", "next_nodes", "next_seconds"}.
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Print no progress lines.
    #[arg(long)]
    quiet: bool,
    /// Keep the search's state in FILE (single puzzle, ida): rewritten atomically every
    /// --checkpoint-every seconds and when the search stops (limit or Ctrl-C). If FILE exists
    /// the search resumes from it (same puzzle, goal, databases and pruning, else it is
    /// refused); it is removed once the puzzle is solved.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Seconds between two checkpoints.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        requires = "checkpoint"
    )]
    checkpoint_every: f64,
    #[command(flatten)]
    heuristic: HeuristicArgs,
    #[command(flatten)]
    algorithm: super::algorithm::AlgorithmArgs,
}

/// Limits from the options.
pub fn limits(max_nodes: Option<u64>, timeout: Option<f64>) -> Result<Limits> {
    let timeout = match timeout {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            bail!("--timeout must be a positive number of seconds, not {t}")
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    Ok(Limits {
        max_nodes,
        timeout,
        ..Limits::default()
    })
}

/// An IDA* search under `limits` with `pruning`.
pub fn ida_search(limits: &Limits, pruning: Pruning) -> Search {
    Search {
        limits: *limits,
        interrupt: Some(super::interrupt_flag()),
        ..Search::new(Ida {
            pruning,
            ..Ida::default()
        })
    }
}

/// An error message for a puzzle that cannot reach `goal`, with a hint when the other named
/// goal fits.
pub fn puzzle_error(e: &SolveError, puzzle: Option<&Puzzle>, goal: &Goal) -> String {
    let mut msg = e.to_string();
    if let (SolveError::Puzzle(PuzzleError::Unsolvable { .. }), Some(p)) = (e, puzzle) {
        let b = goal.board();
        for other in [Goal::blank_first(b), Goal::blank_last(b)] {
            if other != *goal && p.is_solvable(&other) {
                msg.push_str(&format!(" (it is solvable for --goal {other})"));
                break;
            }
        }
    }
    msg
}

/// Runs `solver solve`.
pub fn run(a: SolveArgs) -> Result<i32> {
    let limits = limits(a.max_nodes, a.timeout)?;
    if a.checkpoint.is_some() && (a.algorithm.algorithm != AlgorithmName::Ida || a.input.is_some())
    {
        bail!("--checkpoint works with one puzzle and the ida algorithm");
    }
    if !(a.checkpoint_every.is_finite() && a.checkpoint_every > 0.0) {
        bail!(
            "--checkpoint-every must be a positive number of seconds, not {}",
            a.checkpoint_every
        );
    }
    if a.algorithm.algorithm != AlgorithmName::Ida {
        return super::algorithm::solve(
            &a.algorithm,
            &a.puzzle,
            a.input.as_ref(),
            a.json,
            limits,
            &a.heuristic,
        );
    }
    let board = parse_board(a.heuristic.board.as_deref())?;
    match (&a.input, a.puzzle.is_empty()) {
        (Some(_), false) => bail!("give either a puzzle or --input FILE, not both"),
        (None, true) => {
            bail!("give a puzzle (e.g. solver solve \"1 2 3 4 5 6 7 0 8\") or --input FILE")
        }
        (Some(path), true) => run_file(&a, path.clone(), board, &limits),
        (None, false) => run_one(&a, board, &limits),
    }
}

fn run_one(a: &SolveArgs, board: Option<Board>, limits: &Limits) -> Result<i32> {
    let text = a.puzzle.join(" ");
    let text = if a.puzzle.len() == 1 {
        &a.puzzle[0]
    } else {
        &text
    };
    let puzzle = Puzzle::parse(text, board).map_err(|e| anyhow!("{e}"))?;
    let goal = make_goal(puzzle.board(), &a.heuristic.goal)?;
    if let Err(e) = puzzle.check_solvable(&goal) {
        bail!("{}", puzzle_error(&e.into(), Some(&puzzle), &goal));
    }
    let setup = make_heuristic(&a.heuristic, &goal)?;
    let pruning = a.algorithm.pruning();
    super::setup::prepare_pruner(goal.board(), pruning, a.quiet);
    let mut opts = ida_search(limits, pruning);
    let show = !a.quiet && (a.progress || std::io::stderr().is_terminal());
    if show {
        opts.observer = Some(progress_printer(a.json));
    }
    let latest = Arc::new(Mutex::new(None));
    let mut saver = None;
    if let Some(path) = &a.checkpoint {
        // The depth in effect: a checkpoint names it, not "the default".
        let depth = pruning.depth(goal.board());
        let fresh = Checkpoint::new(&puzzle, &goal, &setup.heuristic, depth, placeholder());
        if path.exists() {
            let saved = Checkpoint::read(path)
                .and_then(|c| c.check_same_search(&fresh).map(|()| c))
                .with_context(|| format!("cannot resume from {}", path.display()))?;
            saved
                .check_state()
                .with_context(|| format!("cannot resume from {}", path.display()))?;
            if !a.quiet {
                eprintln!(
                    "resuming from {}: iteration {}, bound {}, {} nodes so far",
                    path.display(),
                    saved.state.iteration,
                    saved.state.bound,
                    thousands(saved.state.nodes)
                );
            }
            if let Algorithm::Ida(ida) = &mut opts.algorithm {
                ida.resume = Some(saved.state);
            }
        }
        if let Algorithm::Ida(ida) = &mut opts.algorithm {
            ida.checkpoint_every = Some(Duration::from_secs_f64(a.checkpoint_every));
        }
        let (path, slot) = (path.clone(), latest.clone());
        let then = opts.observer.take();
        let write = move |e: &Event| {
            if let Event::Checkpoint(st) = e {
                let c = Checkpoint {
                    state: st.clone(),
                    ..fresh.clone()
                };
                let r = c.write(&path).map_err(|e| e.to_string());
                *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
            }
            if let Some(t) = &then {
                t.tell(e);
            }
        };
        opts.observer = Some(Observer::new(write));
        saver = a.checkpoint.clone();
    }
    let result = solve(&opts, &setup.heuristic, &puzzle, &goal);
    if let Some(path) = &saver {
        let written = latest.lock().unwrap_or_else(|p| p.into_inner()).take();
        match (&result, written) {
            (_, Some(Err(e))) => eprintln!("error: {e}"),
            (Ok(_), _) => {
                let _ = std::fs::remove_file(path);
            }
            (Err(SolveError::Stopped { .. }), Some(Ok(()))) => {
                eprintln!("checkpoint written to {}", path.display())
            }
            _ => {}
        }
    }
    match result {
        Ok(s) => {
            if a.json {
                println!("{}", solution_json(&puzzle, &s));
            } else {
                print!(
                    "{}",
                    solution_text(&puzzle, &goal.to_string(), &setup.description, &s)
                );
            }
            Ok(0)
        }
        Err(e) => {
            let msg = puzzle_error(&e, Some(&puzzle), &goal);
            if a.json {
                println!("{}", failure_json(&puzzle, &e, &msg));
            }
            eprintln!("error: {msg}");
            Ok(exit_code(&e))
        }
    }
}

/// The JSON object of a puzzle whose search failed with `e` (described by `msg`): the error,
/// and for a search stopped by a limit what stopped it and what it proved. `solver serve`
/// answers with the same object.
pub fn failure_json(puzzle: &Puzzle, e: &SolveError, msg: &str) -> serde_json::Value {
    let mut v = error_json(&format!("{puzzle:#}"), None, msg);
    if let SolveError::Stopped { stop, stats } = e {
        v["stopped"] = stop.describe().into();
        v["lower_bound"] = stats.lower_bound.into();
        v["nodes"] = stats.nodes.into();
        v["seconds"] = stats.seconds.into();
    }
    v
}

/// A state to fill the checkpoint template with until the search reports one.
fn placeholder() -> SearchState {
    SearchState {
        initial_h: 0,
        iteration: 0,
        bound: 0,
        next_bound: None,
        path: Vec::new(),
        nodes: 0,
        expanded: 0,
        iteration_start_nodes: 0,
    }
}

/// Prints each finished iteration on standard error: a line of text, or a JSON object.
fn progress_printer(json: bool) -> Observer {
    Observer::new(move |e| {
        let Event::Iteration(it) = e else { return };
        if json {
            eprintln!("{}", iteration_json(it));
        } else {
            let next = match (it.growth, it.next_seconds) {
                (Some(g), Some(t)) => format!(
                    "; next: bound {}, about {:.1}x, {:.1} s",
                    it.next_bound, g, t
                ),
                _ => format!("; next: bound {}", it.next_bound),
            };
            eprintln!(
                "iteration {:>3}  bound {:>3}  nodes {:>17}  {:>10}nodes/s  {:>9.2} s (total {:.1} s){next}",
                it.iteration,
                it.bound,
                thousands(it.nodes),
                rate(it.nodes_per_second()),
                it.seconds,
                it.total_seconds
            );
        }
    })
}

fn exit_code(e: &SolveError) -> i32 {
    match e {
        SolveError::Stopped { .. } => EXIT_STOPPED,
        _ => EXIT_ERROR,
    }
}

/// Reads a puzzle file (or standard input for `-`).
pub fn read_input(path: &PathBuf) -> Result<String> {
    if path.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read standard input")?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
    }
}

/// The board of a list: the one given, or the first readable line's.
pub fn list_board(text: &str, board: Option<Board>) -> Result<(Board, Vec<PuzzleLine>)> {
    let lines = read_puzzles(text, board);
    let board = match board {
        Some(b) => b,
        None => match lines.iter().find_map(|l| l.puzzle.as_ref().ok()) {
            Some(p) => p.board(),
            None => match lines.first() {
                Some(l) => bail!(
                    "line {}: {}",
                    l.line,
                    l.puzzle
                        .as_ref()
                        .err()
                        .map(|e| e.to_string())
                        .unwrap_or_default()
                ),
                None => bail!("no puzzles in the input"),
            },
        },
    };
    // Read again with the board fixed so that every line is held to it.
    Ok((board, read_puzzles(text, Some(board))))
}

fn run_file(a: &SolveArgs, path: PathBuf, board: Option<Board>, limits: &Limits) -> Result<i32> {
    let text = read_input(&path)?;
    let (board, lines) = list_board(&text, board)?;
    let goal = make_goal(board, &a.heuristic.goal)?;
    let setup = make_heuristic(&a.heuristic, &goal)?;
    super::setup::prepare_pruner(board, a.algorithm.pruning(), a.quiet);
    if !a.json {
        println!(
            "{} puzzles, {board} board, goal {goal}, heuristic {}",
            lines.len(),
            setup.description
        );
    }
    let pb = ProgressBar::new(lines.len() as u64);
    pb.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg} (eta {eta})",
        )
        .expect("valid template"),
    );
    // Keep the clock moving while a hard instance is being searched.
    pb.enable_steady_tick(Duration::from_millis(250));
    let (summary, stopped) = solve_lines(
        &setup.heuristic,
        &goal,
        &lines,
        &ida_search(limits, a.algorithm.pruning()),
        a.json,
        &pb,
    );
    pb.finish_and_clear();
    if a.json {
        eprintln!("{}", summary.text());
    } else {
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

/// Solves each line, printing one result per puzzle above the bar. Returns the summary and
/// whether a limit stopped any search.
pub fn solve_lines(
    heuristic: &HeuristicChoice,
    goal: &Goal,
    lines: &[PuzzleLine],
    opts: &Search,
    json: bool,
    pb: &ProgressBar,
) -> (Summary, bool) {
    let mut summary = Summary::default();
    let mut stopped = false;
    let say = |s: String| pb.suspend(|| println!("{s}"));
    for (i, l) in lines.iter().enumerate() {
        let result = l
            .puzzle
            .as_ref()
            .map_err(|e| SolveError::Puzzle(e.clone()))
            .and_then(|p| solve(opts, heuristic, p, goal).map(|s| (p, s)));
        match result {
            Ok((p, s)) => {
                let mismatch = l.expected.filter(|&e| e as usize != s.len());
                summary.add(&s);
                if json {
                    let mut v = solution_json(p, &s);
                    if let Some(e) = l.expected {
                        v["expected"] = e.into();
                    }
                    say(v.to_string());
                } else {
                    say(solution_line(i + 1, &s));
                }
                if let Some(e) = mismatch {
                    summary.mismatched += 1;
                    pb.suspend(|| {
                        eprintln!(
                            "error: line {}: found length {}, the line says {e}",
                            l.line,
                            s.len()
                        )
                    });
                }
                pb.set_message(format!("last: {} moves", s.len()));
            }
            Err(e) => {
                summary.failed += 1;
                stopped |= matches!(e, SolveError::Stopped { .. });
                let msg = puzzle_error(&e, l.puzzle.as_ref().ok(), goal);
                if json {
                    say(error_json(&l.text, Some(l.line), &msg).to_string());
                }
                pb.suspend(|| eprintln!("error: line {}: {msg}", l.line));
            }
        }
        pb.inc(1);
    }
    (summary, stopped)
}
