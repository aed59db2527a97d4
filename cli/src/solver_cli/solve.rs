//! `solver solve`: one puzzle from the arguments with a full report, or a file of puzzles with a
//! progress bar, one line each and a closing summary; text or one JSON object per puzzle. One
//! path for every algorithm: the flags make a request, the request a search.

use super::checkpoint::{self, Checkpointing};
use super::flags::{request_error, usage, NotationFlag, SearchFlags};
use super::puzzles::{from_args, list_board, read_input};
use super::setup::{heuristic_for, make_goal, parse_board, prepare_pruner};
use super::{batch_exit_code, exit_code, HeuristicArgs};
use crate::answer::{
    failure_json, failure_message, improvement_json, improvement_line, iteration_json,
    iteration_line, solution_json_in, solution_line, solution_text,
};
use crate::output::{out, outln};
use crate::summary::Summary;
use anyhow::{bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pdbformat::{Board, Goal};
use pdbsolver::{solve, AlgorithmName, Event, HeuristicChoice, Observer, Search, SolveError};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
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
    /// Print one line per IDA* iteration on standard error (bound, nodes, nodes/s, time, and
    /// an estimate of the next iteration), even when standard error is not a terminal. On a
    /// terminal this is the default for a single puzzle. With --json the lines are JSON
    /// objects: {"iteration", "bound", "next_bound", "nodes", "total_nodes", "seconds",
    /// "total_seconds", "nodes_per_second", "growth", "next_nodes", "next_seconds"}. The
    /// anytime search prints a line per shorter solution or higher proven bound instead
    /// ({"length", "lower_bound", "bound_ratio", "weight", "nodes", "seconds"} with --json).
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Print no progress lines.
    #[arg(long)]
    quiet: bool,
    /// Keep the search's state in FILE (single puzzle, ida): rewritten atomically every
    /// --checkpoint-every seconds and when the search stops (limit or Ctrl-C). If FILE exists
    /// the search resumes from it (same puzzle, goal, databases and pruning, else it is
    /// refused); it is removed once the puzzle is solved. A checkpointed search visits children
    /// in the fixed order (no order learned from earlier iterations), so it may expand more
    /// nodes, and return another optimal solution, than one without a checkpoint.
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
    search: SearchFlags,
    #[command(flatten)]
    notation: NotationFlag,
}

/// Runs `solver solve`.
pub fn run(a: SolveArgs) -> Result<i32> {
    let mut request = a.search.request(&a.heuristic)?;
    if a.checkpoint.is_some() && request.algorithm.is_none() && request.threads.is_none() {
        // Only ida saves checkpoints: a resumable search names no algorithm.
        request.algorithm = Some(AlgorithmName::Ida);
    }
    let search = Search {
        interrupt: Some(super::interrupt_flag()),
        ..request.resolve().map_err(request_error)?
    };
    if a.checkpoint.is_some()
        && (request.algorithm_name() != AlgorithmName::Ida || a.input.is_some())
    {
        return Err(usage(
            "--checkpoint works with one puzzle and the ida algorithm",
        ));
    }
    if !(a.checkpoint_every.is_finite() && a.checkpoint_every > 0.0) {
        return Err(usage(format!(
            "--checkpoint-every must be a positive number of seconds, not {}",
            a.checkpoint_every
        )));
    }
    let board = parse_board(a.heuristic.board.as_deref())?;
    let run = Run {
        args: &a,
        request: &request,
        search,
    };
    match (&a.input, a.puzzle.is_empty()) {
        (Some(_), false) => Err(usage("give either a puzzle or --input FILE, not both")),
        (None, true) => Err(usage(
            "give a puzzle (e.g. solver solve \"1 2 3 4 5 6 7 0 8\") or --input FILE",
        )),
        (Some(path), true) => run.file(path, board),
        (None, false) => run.one(board),
    }
}

/// One `solver solve` under way: its arguments, its request and its search.
struct Run<'a> {
    args: &'a SolveArgs,
    request: &'a pdbsolver::Request,
    search: Search,
}

impl Run<'_> {
    /// Takes the default algorithm of `board` when none was named (`anytime` beyond 25
    /// cells), keeping the hooks already attached.
    fn on_board(&mut self, board: Board) -> Result<()> {
        if self.request.algorithm.is_some() {
            return Ok(());
        }
        let search = self
            .request
            .on_board(board.cells())
            .resolve()
            .map_err(request_error)?;
        self.search.algorithm = search.algorithm;
        Ok(())
    }

    /// The heuristic for `goal` (none for the algorithms that use none) and its description,
    /// and the pruning machine made before the first search. A machine read from its file
    /// (about a quarter of a second for 5×5 at depth 18) is read on a thread of its own while
    /// the databases load; one to be built is built after them, saying so.
    fn prepare(&self, goal: &Goal) -> Result<(HeuristicChoice, String)> {
        let board = goal.board();
        let pruning = self.search.algorithm.pruning();
        let ready = pruning.filter(|p| pdbsolver::prune::cache::is_ready(board, p.depth(board)));
        let h = std::thread::scope(|scope| {
            let reading = ready.and_then(|p| {
                std::thread::Builder::new()
                    .name("read-pruning-machine".into())
                    .spawn_scoped(scope, move || p.machine(board))
                    .ok()
            });
            let h = heuristic_for(&self.args.heuristic, self.request, goal);
            // Joined before the search starts (which takes the same machine, then made).
            if let Some(r) = reading {
                let _ = r.join();
            }
            h
        })?;
        if let Some(pruning) = pruning {
            prepare_pruner(board, pruning, self.args.quiet);
        }
        Ok(h)
    }

    /// One puzzle from the arguments: a full report.
    fn one(mut self, board: Option<Board>) -> Result<i32> {
        let a = self.args;
        let puzzle = from_args(&a.puzzle, board)?;
        let goal = make_goal(puzzle.board(), &a.heuristic.goal)?;
        self.on_board(puzzle.board())?;
        if let Err(e) = puzzle.check_solvable(&goal) {
            bail!(
                "{}",
                failure_message(&e.into(), Some(&puzzle), &goal, "--goal")
            );
        }
        let (heuristic, description) = self.prepare(&goal)?;
        if !a.quiet && (a.progress || std::io::stderr().is_terminal()) {
            self.search.observer = Some(progress_printer(a.json));
        }
        let saver: Option<Checkpointing> = match &a.checkpoint {
            Some(path) => Some(checkpoint::attach(
                path,
                Duration::from_secs_f64(a.checkpoint_every),
                &puzzle,
                &goal,
                &heuristic,
                &mut self.search,
                a.quiet,
            )?),
            None => None,
        };
        let result = solve(&self.search, &heuristic, &puzzle, &goal);
        if let Some(saver) = &saver {
            saver.finish(&result);
        }
        match result {
            Ok(s) => {
                if a.json {
                    let notation = a.notation.notation;
                    outln!("{}", solution_json_in(&puzzle, &description, &s, notation));
                } else {
                    out!(
                        "{}",
                        solution_text(
                            &puzzle,
                            &goal.to_string(),
                            &description,
                            &s,
                            &self.search.algorithm,
                            a.notation.notation
                        )
                    );
                }
                Ok(0)
            }
            Err(e) => {
                let msg = failure_message(&e, Some(&puzzle), &goal, "--goal");
                if a.json {
                    outln!("{}", failure_json(&format!("{puzzle:#}"), &e, &msg));
                }
                eprintln!("error: {msg}");
                Ok(exit_code(&e))
            }
        }
    }

    /// A file of puzzles: a line per puzzle above a progress bar, each length checked against
    /// the one on its line, and a summary.
    fn file(mut self, path: &Path, board: Option<Board>) -> Result<i32> {
        let a = self.args;
        let text = read_input(path)?;
        let (board, lines) = list_board(&text, board)?;
        self.on_board(board)?;
        let goal = make_goal(board, &a.heuristic.goal)?;
        let (heuristic, description) = self.prepare(&goal)?;
        if !a.json {
            outln!(
                "{} puzzles, {board} board, goal {goal}, algorithm {}, heuristic {description}",
                lines.len(),
                self.search.algorithm.name()
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
        let say = |s: String| pb.suspend(|| outln!("{s}"));
        let complain = |s: String| pb.suspend(|| eprintln!("error: {s}"));
        let mut summary = Summary::default();
        for (i, l) in lines.iter().enumerate() {
            let result = l
                .puzzle
                .as_ref()
                .map_err(|e| SolveError::Puzzle(e.clone()))
                .and_then(|p| solve(&self.search, &heuristic, p, &goal).map(|s| (p, s)));
            match result {
                Ok((p, s)) => {
                    summary.add(&s);
                    // A proven optimum must match the line's; another is measured against it.
                    // The file's lengths are single-tile ones: mtm solutions are not held to them.
                    let stm = l.expected.filter(|_| s.metric == pdbformat::Metric::Stm);
                    let mismatch = stm.filter(|&e| s.optimal && e as usize != s.len());
                    let excess = stm
                        .filter(|_| !s.optimal)
                        .map(|e| s.len() as i64 - e as i64);
                    if a.json {
                        let mut v = solution_json_in(p, &description, &s, a.notation.notation);
                        if let Some(e) = l.expected {
                            v["expected"] = e.into();
                        }
                        if let Some(x) = excess {
                            v["excess"] = x.into();
                        }
                        say(v.to_string());
                    } else {
                        say(solution_line(i + 1, &s, excess, a.notation.notation));
                    }
                    if let Some(e) = mismatch {
                        summary.mismatched += 1;
                        complain(format!(
                            "line {}: found length {}, the line says {e}",
                            l.line,
                            s.len()
                        ));
                    }
                    pb.set_message(format!("last: {} moves", s.len()));
                }
                Err(e) => {
                    summary.add_failure(&e);
                    let msg = failure_message(&e, l.puzzle.as_ref().ok(), &goal, "--goal");
                    if a.json {
                        let mut v = failure_json(&l.text, &e, &msg);
                        v["line"] = l.line.into();
                        say(v.to_string());
                    }
                    complain(format!("line {}: {msg}", l.line));
                }
            }
            pb.inc(1);
        }
        pb.finish_and_clear();
        if a.json {
            eprintln!("{}", summary.text());
        } else {
            outln!("{}", summary.text());
        }
        Ok(batch_exit_code(&summary))
    }
}

/// Prints each finished iteration, and each improvement of an anytime search, on standard
/// error: a line of text, or a JSON object.
fn progress_printer(json: bool) -> Observer {
    Observer::new(move |e| match e {
        Event::Iteration(it) if json => eprintln!("{}", iteration_json(it)),
        Event::Iteration(it) => eprintln!("{}", iteration_line(it)),
        Event::Improvement(i) if json => eprintln!("{}", improvement_json(i)),
        Event::Improvement(i) => eprintln!("{}", improvement_line(i)),
        _ => {}
    })
}
