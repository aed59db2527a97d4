//! `solver compare`: several algorithm × heuristic pairs on the same puzzles, each run under
//! its own limits, in one table (or JSON lines; `--plot` adds a figure). `pairs.rs` reads the
//! pairs, `table.rs` writes the tables; here the puzzles are read, the heuristics prepared
//! once, and every pair run on every puzzle, the optimal ones checked against each other and
//! the input.

use crate::output::outln;
mod pairs;
mod table;

use super::flags::read_as;
use super::puzzles::{from_args, list_board, read_input};
use super::setup::{make_goal, make_heuristic, parse_board, resolver};
use super::{HeuristicArgs, EXIT_ERROR, EXIT_STOPPED};
use crate::answer::{failure_json, solution_json_in};
use crate::plot::comparison as plot;
use crate::resolve_printer::cli_error;
use anyhow::{bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pairs::{default_pairs, parse_pair, Pair};
use pdbformat::notation::Notation;
use pdbformat::units::{approx_bytes, thousands};
use pdbformat::{Goal, Puzzle};
use pdbsolver::input::PuzzleLine;
use pdbsolver::{DefaultSource, HeuristicChoice, HeuristicName, Limits, Request, Search};
use pdbsolver::{Solution, SolveError};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;
use table::{load_average, print_json_totals, print_tables, puzzle_row, Row, Totals};

/// Help on `--pairs` and the table.
pub const COMPARE_HELP: &str = "\
PAIRS
  ALGORITHM[:HEURISTIC][:KEY=VALUE...], comma separated, e.g.
    --pairs bfs,ida:manhattan,astar:pdb,parallel-ida:pdb:threads=2,weighted:manhattan:w=inf,strategic
  Algorithms: ida bfs astar hybrid parallel-ida dfs weighted strategic (bfs and strategic take no
  heuristic). Heuristics: hamming manhattan linear-conflict pdb. Keys override the options for
  one pair: threads (t), weight (w), timeout (seconds; 0 or none: no limit), max-nodes (nodes),
  max-memory (memory, e.g. 1G), depth-limit (depth: dfs), hybrid-nodes (budget: hybrid A*
  positions), prune (on, off or a word depth). A setting the pair's algorithm does not take
  is refused; the global --weight and --threads apply only to the pairs that take them.
  Without --pairs, a set suited to the board size is run (pdb pairs when a database is given
  or found).

TABLE
  length   moves of the solution (per puzzle) or their mean over solved puzzles (totals)
  optimal  proven: the algorithm guarantees it; yes: equals the known optimum; +k: k moves
           longer than the optimum; ?: optimum unknown. The optimum is the one given on the
           input line, or the length an optimal algorithm found in this comparison.
           Totals: how many of the solutions with a known optimum were optimal, and the mean
           excess.
  nodes    generated nodes (mean over solved puzzles in the totals)
  memory   estimated peak memory of the search (tables of pattern databases not included;
           largest over the puzzles in the totals)
  seconds  search time (totals: the sum over all runs, stopped ones included, and the mean
           over solved puzzles)

EXIT STATUS
  0 every run solved its puzzle; 1 an error, or optimal algorithms that disagree (with each
  other or with the length given on the line), or an invalid move sequence; 3 some runs were
  stopped by a limit (and nothing worse).";

/// Arguments of `solver compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The puzzle: tiles row by row, 0 or _ for the blank.
    #[arg(value_name = "TILES")]
    puzzle: Vec<String>,
    /// A file of puzzles, one per line (an extra number at the end is the optimal length).
    #[arg(long, short, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Only the first N puzzles of the file.
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// The algorithm:heuristic pairs to run (see PAIRS below).
    #[arg(long, value_delimiter = ',', value_name = "PAIRS", value_parser = parse_pair)]
    pairs: Vec<Pair>,
    /// Move metric of every pair: stm (the default) or mtm (default pairs: ida and
    /// parallel-ida with the walking distance, and with the class tables of --db or the
    /// board's default class file when one is found; bfs on small boards).
    #[arg(long, value_name = "METRIC", value_parser = read_as("metric", |r| r.metric))]
    metric: Option<pdbformat::Metric>,
    /// Stop each run after generating this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop each run after this many seconds (0: no limit).
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    timeout: f64,
    /// Stop each run before its estimated memory exceeds SIZE (e.g. 1G; default: half the
    /// available memory).
    #[arg(long, value_name = "SIZE", value_parser = read_as("max-memory", |r| r.max_memory))]
    max_memory: Option<u64>,
    /// Weight of weighted pairs without w=.
    #[arg(long, default_value = "2", value_name = "W", value_parser = read_as("weight", |r| r.weight))]
    weight: f64,
    /// Threads of parallel-ida and hybrid pairs without threads= (0: one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,
    /// Print a row for every puzzle and pair, not only the totals (always for one puzzle).
    #[arg(long)]
    per_puzzle: bool,
    /// Print one JSON object per run, then one per pair with its totals ("summary": true).
    #[arg(long)]
    json: bool,
    /// Also draw the nodes and the time of every run against the puzzle's optimal length,
    /// one mark per puzzle and pair, into this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
    /// Board as WxH; inferred from square tile counts otherwise.
    #[arg(long, value_name = "WxH", value_parser = super::flags::board_arg)]
    board: Option<String>,
    /// Goal: blank-first, blank-last or a tile list.
    #[arg(long, default_value = "blank-first", value_parser = super::flags::goal_arg)]
    goal: String,
    /// Pattern-database file for pdb pairs, or with --metric mtm a class file (repeatable).
    #[arg(long = "db", value_name = "FILE")]
    dbs: Vec<PathBuf>,
    /// Do not add the reflected database lookup.
    #[arg(long)]
    no_reflect: bool,
    /// Do not check the databases' digests while loading.
    #[arg(long)]
    no_verify: bool,
    /// Never build the default database for pdb pairs.
    #[arg(long)]
    no_build: bool,
    #[command(flatten)]
    notation: super::flags::NotationFlag,
}

/// The heuristics of the pairs, each prepared once (databases loaded once), with their
/// descriptions; keyed by the pair's heuristic (`None`: the pair takes none).
type Heuristics = HashMap<Option<HeuristicName>, (HeuristicChoice, String)>;

/// Runs `solver compare`: reads the puzzles, prepares the pairs' heuristics, runs every pair
/// on every puzzle (checking the optimal ones against each other and the input), then prints
/// the per-puzzle rows and the totals (or JSON lines).
pub fn run(a: CompareArgs) -> Result<i32> {
    let timeout = (a.timeout > 0.0).then_some(a.timeout);
    // The global flags: every pair's limits, and its settings where it takes them.
    let defaults = Request {
        weight: Some(a.weight),
        threads: Some(a.threads),
        metric: a.metric,
        max_nodes: a.max_nodes,
        timeout: Some(timeout.unwrap_or(f64::INFINITY)),
        max_memory: a.max_memory,
        ..Request::default()
    };
    if let Some(path) = &a.plot {
        crate::plot::check_path(path)?;
    }
    let lines = read_lines(&a)?;
    let board = match lines.iter().find_map(|l| l.puzzle.as_ref().ok()) {
        Some(p) => p.board(),
        None => bail!("no readable puzzle in the input"),
    };
    let goal = make_goal(board, &a.goal)?;
    let (pairs, heuristics) = prepare_pairs(&a, &goal)?;
    let searches = pairs
        .iter()
        .map(|p| {
            let mut r = p.request.clone();
            r.fill_from(&defaults);
            let search = r
                .resolve()
                .map_err(|e| anyhow::anyhow!("{}: {}", p.label, super::flags::describe(&e)))?;
            Ok(Search {
                interrupt: Some(super::interrupt_flag()),
                ..search
            })
        })
        .collect::<Result<Vec<Search>>>()?;
    if !a.json {
        print_header(&a, &goal, lines.len(), &pairs, &heuristics, timeout);
    }
    let pb = ProgressBar::new((lines.len() * pairs.len()) as u64);
    pb.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg}")
            .expect("valid template"),
    );
    pb.enable_steady_tick(Duration::from_millis(250));
    let mut c = Comparison {
        args: &a,
        goal: &goal,
        pairs: &pairs,
        searches: &searches,
        heuristics: &heuristics,
        per_puzzle: a.per_puzzle || lines.len() == 1,
        numbered: lines.len() > 1,
        totals: vec![Totals::default(); pairs.len()],
        table: Vec::new(),
        errors: 0,
        stopped: 0,
        pb: &pb,
        plotted: Vec::new(),
        left_out: 0,
    };
    for (pi, l) in lines.iter().enumerate() {
        c.compare_on(pi, l);
    }
    pb.finish_and_clear();
    if a.json {
        print_json_totals(&pairs, &c.totals, lines.len());
    } else {
        print_tables(&pairs, &c.totals, &c.table, c.per_puzzle, lines.len());
    }
    if let Some(path) = &a.plot {
        let labels: Vec<String> = pairs.iter().map(|p| p.label.clone()).collect();
        let figure = plot::Figure {
            title: format!(
                "solver compare: {} puzzle{}, {} board, goal {goal}",
                lines.len(),
                if lines.len() == 1 { "" } else { "s" },
                goal.board()
            ),
            pairs: &labels,
            runs: &c.plotted,
            left_out: c.left_out,
        };
        plot::draw(path, &figure)?;
        if !a.json {
            outln!("figure: {}", path.display());
        }
    }
    Ok(if c.errors > 0 {
        EXIT_ERROR
    } else if c.stopped > 0 {
        EXIT_STOPPED
    } else {
        0
    })
}

/// The puzzles: the one given on the command line, or the lines of `--input` (the first
/// `--first` of them).
fn read_lines(a: &CompareArgs) -> Result<Vec<PuzzleLine>> {
    let board = parse_board(a.board.as_deref())?;
    Ok(match (&a.input, a.puzzle.is_empty()) {
        (Some(_), false) => bail!("give either a puzzle or --input FILE, not both"),
        (None, true) => {
            bail!("give a puzzle (e.g. solver compare \"8 6 7 2 5 4 3 0 1\") or --input FILE")
        }
        (Some(path), true) => {
            let text = read_input(path)?;
            let (_, mut lines) = list_board(&text, board)?;
            if let Some(n) = a.first {
                lines.truncate(n);
            }
            lines
        }
        (None, false) => {
            let p = from_args(&a.puzzle, board)?;
            vec![PuzzleLine {
                line: 1,
                text: format!("{p:#}"),
                puzzle: Ok(p),
                expected: None,
                id: None,
                published_nodes: None,
            }]
        }
    })
}

/// The pairs to run (those given, or a default set for the board) and their heuristics.
/// Without `--pairs`, pairs whose heuristic cannot be prepared (no database) are left out
/// with a note; with `--pairs`, that is an error.
fn prepare_pairs(a: &CompareArgs, goal: &Goal) -> Result<(Vec<Pair>, Heuristics)> {
    let board = goal.board();
    let hargs = |name: &str| HeuristicArgs {
        board: a.board.clone(),
        goal: a.goal.clone(),
        // Databases serve only the pdb pairs.
        dbs: if name == "pdb" {
            a.dbs.clone()
        } else {
            Vec::new()
        },
        heuristic: name.to_string(),
        no_reflect: a.no_reflect,
        no_verify: a.no_verify,
        no_build: a.no_build,
        load: pdbsolver::Residence::Auto, // the CLI's default (see --load)
    };
    // Whether the default database of `metric` is there (the resolver's plan; the default
    // pairs never build one).
    let default_found = |metric| -> Result<bool> {
        let plan = (resolver(&hargs("pdb")).plan_default(goal, metric)).map_err(cli_error)?;
        Ok(matches!(plan.source, DefaultSource::Found(_)))
    };
    let explicit = !a.pairs.is_empty();
    let mut pairs = if explicit {
        a.pairs.clone()
    } else if a.metric == Some(pdbformat::Metric::Mtm) {
        // The algorithms with a multi-tile form, with the heuristics admissible there: the
        // walking distance, and the class tables given or the board's default class file
        // when one is found (as the single-tile pairs take the default pattern database).
        let small = board.cells() <= 9;
        let pdb = !a.dbs.is_empty() || default_found(pdbformat::Metric::Mtm)?;
        ([
            "bfs",
            "ida:pdb",
            "parallel-ida:pdb",
            "ida:walking-distance",
            "parallel-ida:walking-distance",
        ]
        .iter())
        .filter(|s| small || **s != "bfs")
        .filter(|s| pdb || !s.ends_with(":pdb"))
        .map(|s| parse_pair(s).expect("default pairs parse"))
        .collect()
    } else {
        let pdb = board.fits_pdb() && (!a.dbs.is_empty() || default_found(pdbformat::Metric::Stm)?);
        default_pairs(board, pdb)
    };
    let mut heuristics = Heuristics::new();
    let mut dropped = Vec::new();
    for p in &pairs {
        let key = p.heuristic();
        if heuristics.contains_key(&key) || dropped.contains(&key) {
            continue;
        }
        let Some(h) = key else {
            heuristics.insert(None, (HeuristicChoice::Manhattan, "none".into()));
            continue;
        };
        let request = Request {
            heuristic: Some(h),
            metric: a.metric,
            reflect: Some(!a.no_reflect),
            ..Request::default()
        };
        match make_heuristic(&hargs(h.name()), &request, goal) {
            Ok(setup) => {
                heuristics.insert(key, (setup.heuristic, setup.description));
            }
            Err(e) if !explicit => {
                eprintln!(
                    "note: leaving out the {h} pairs: {}",
                    pdbformat::error::describe(&*e)
                );
                dropped.push(key);
            }
            Err(e) => return Err(e),
        }
    }
    pairs.retain(|p| heuristics.contains_key(&p.heuristic()));
    if pairs.is_empty() {
        bail!("no pair can run on the {board} board");
    }
    Ok((pairs, heuristics))
}

/// The first lines of the text output: puzzles, board, goal, limits, machine, heuristics.
fn print_header(
    a: &CompareArgs,
    goal: &Goal,
    puzzles: usize,
    pairs: &[Pair],
    heuristics: &Heuristics,
    timeout: Option<f64>,
) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    outln!(
        "{puzzles} puzzle{}, {} board, goal {goal}; per run: {}{}{}; {cores} cores, load average {}",
        if puzzles == 1 { "" } else { "s" },
        goal.board(),
        timeout.map_or("no time limit".into(), |t| format!("timeout {t} s")),
        a.max_nodes
            .map_or(String::new(), |n| format!(", at most {} nodes", thousands(n))),
        format_args!(
            ", memory limit {}",
            approx_bytes(
                Limits {
                    max_memory: a.max_memory,
                    ..Limits::default()
                }
                .memory_limit() as f64
            )
        ),
        load_average()
    );
    let mut seen = Vec::new();
    for p in pairs {
        if let (Some(h), false) = (p.heuristic(), seen.contains(&p.heuristic())) {
            seen.push(p.heuristic());
            outln!("  {h}: {}", heuristics[&p.heuristic()].1);
        }
    }
}

/// A comparison under way: the settings, and what the puzzles done so far gave.
struct Comparison<'a> {
    args: &'a CompareArgs,
    goal: &'a Goal,
    pairs: &'a [Pair],
    /// Each pair's search: its settings, then the global flags where they fit.
    searches: &'a [Search],
    heuristics: &'a Heuristics,
    /// Whether a row per puzzle and pair is printed (else only the totals).
    per_puzzle: bool,
    /// Whether the per-puzzle rows carry the puzzle's number.
    numbered: bool,
    totals: Vec<Totals>,
    /// The per-puzzle rows, printed at the end.
    table: Vec<Vec<String>>,
    errors: usize,
    stopped: usize,
    pb: &'a ProgressBar,
    /// The solved runs with a known optimum, for `--plot`.
    plotted: Vec<plot::Run>,
    /// The runs `--plot` cannot show.
    left_out: usize,
}

impl Comparison<'_> {
    /// Runs every pair on the puzzle of line `l` (number `pi`), checks the optimal ones, and
    /// records the results.
    fn compare_on(&mut self, pi: usize, l: &PuzzleLine) {
        let puzzle = match &l.puzzle {
            Ok(p) => p,
            Err(e) => {
                self.errors += 1;
                self.pb.suspend(|| eprintln!("error: line {}: {e}", l.line));
                self.pb.inc(self.pairs.len() as u64);
                self.left_out += self.pairs.len();
                return;
            }
        };
        let rows: Vec<Row> = (0..self.pairs.len())
            .map(|k| self.run_pair(pi, k, puzzle))
            .collect();
        let optimum = self.optimum(l, &rows);
        for r in &rows {
            self.record(l, puzzle, r, optimum);
        }
    }

    /// Runs pair `k` on `puzzle` (number `pi`).
    fn run_pair(&self, pi: usize, k: usize, puzzle: &Puzzle) -> Row {
        let p = &self.pairs[k];
        self.pb.set_message(format!("#{} {}", pi + 1, p.label));
        let (choice, _) = &self.heuristics[&p.heuristic()];
        let result = pdbsolver::solve(&self.searches[k], choice, puzzle, self.goal);
        self.pb.inc(1);
        Row {
            puzzle: pi,
            pair: k,
            result,
        }
    }

    /// The optimum of line `l`: the line's, or what an optimal algorithm found. Optimal
    /// algorithms that disagree (with each other or the line) are an error, reported here.
    fn optimum(&mut self, l: &PuzzleLine, rows: &[Row]) -> Option<usize> {
        let proven: Vec<usize> = rows
            .iter()
            .filter_map(|r| {
                r.result
                    .as_ref()
                    .ok()
                    .filter(|r| r.optimal)
                    .map(Solution::len)
            })
            .collect();
        // A line's length is a single-tile one: multi-tile runs are held to each other only.
        let mtm = (rows.iter())
            .any(|r| (r.result.as_ref()).is_ok_and(|s| s.metric == pdbformat::Metric::Mtm));
        let expected = l.expected.filter(|_| !mtm);
        let optimum = expected.map(|e| e as usize).or(proven.first().copied());
        if optimum.is_some_and(|o| proven.iter().any(|&x| x != o)) {
            self.errors += 1;
            let all: Vec<String> = rows
                .iter()
                .filter_map(|r| {
                    let run = r.result.as_ref().ok().filter(|r| r.optimal)?;
                    Some(format!("{} {}", self.pairs[r.pair].label, run.len()))
                })
                .collect();
            self.pb.suspend(|| {
                eprintln!(
                    "error: line {}: optimal algorithms disagree{}: {}",
                    l.line,
                    expected.map_or(String::new(), |e| format!(" (the line says {e})")),
                    all.join(", ")
                )
            });
        }
        optimum
    }

    /// Adds run `r` to its pair's totals and to the output (a JSON line now, or a table row
    /// for the end).
    fn record(&mut self, l: &PuzzleLine, puzzle: &Puzzle, r: &Row, optimum: Option<usize>) {
        let p = &self.pairs[r.pair];
        if self.args.plot.is_some() {
            match (&r.result, optimum) {
                (Ok(run), Some(optimum)) => self.plotted.push(plot::Run {
                    pair: r.pair,
                    optimum,
                    nodes: run.stats.nodes,
                    seconds: run.stats.seconds,
                }),
                _ => self.left_out += 1,
            }
        }
        let t = &mut self.totals[r.pair];
        match &r.result {
            Ok(run) => t.add_solution(run, optimum),
            Err(e) => {
                t.add_failure(e);
                if matches!(e, SolveError::Stopped { .. }) {
                    self.stopped += 1;
                } else {
                    self.errors += 1;
                    self.pb
                        .suspend(|| eprintln!("error: line {}: {}: {e}", l.line, p.label));
                }
            }
        }
        if self.args.json {
            let heuristic = &self.heuristics[&p.heuristic()].1;
            let notation = self.args.notation.notation;
            let v = json_line(puzzle, l, r, p, heuristic, optimum, notation);
            self.pb.suspend(|| outln!("{v}"));
        } else if self.per_puzzle {
            self.table.push(puzzle_row(r, p, optimum, self.numbered));
        }
    }
}

/// The JSON line of run `r` of pair `p` on the puzzle of line `l`: the answer (moves in
/// `notation`), with the pair, the puzzle's number and line, and the optimum.
fn json_line(
    puzzle: &Puzzle,
    l: &PuzzleLine,
    r: &Row,
    p: &Pair,
    heuristic: &str,
    optimum: Option<usize>,
    notation: Notation,
) -> serde_json::Value {
    let mut v = match &r.result {
        Ok(run) => solution_json_in(puzzle, heuristic, run, notation),
        Err(e) => failure_json(&format!("{puzzle:#}"), e, &e.to_string()),
    };
    v["index"] = json!(r.puzzle + 1);
    v["line"] = json!(l.line);
    v["pair"] = json!(p.label);
    if let Some(o) = optimum {
        v["optimum"] = json!(o);
    }
    v
}
