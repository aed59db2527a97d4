//! `solver compare`: several algorithm × heuristic pairs on the same puzzles, each run under
//! its own limits, in one table (or JSON lines).

use super::algorithm::{heuristic_for, parse_size, parse_weight, run_json, AlgorithmArgs};
use super::setup::{make_goal, parse_board};
use super::solve::{limits, list_board, read_input};
use super::{HeuristicArgs, EXIT_ERROR, EXIT_STOPPED};
use anyhow::{anyhow, bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pdbformat::system::LoadAverage;
use pdbformat::units::approx_bytes;
use pdbformat::units::thousands;
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::input::PuzzleLine;
use pdbsolver::{locate, HeuristicChoice, HeuristicName};
use pdbsolver::{AlgorithmName as Algorithm, Limits, Search};
use pdbsolver::{Solution, SolveError};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

/// Help on `--pairs` and the table.
pub const COMPARE_HELP: &str = "\
PAIRS
  ALGORITHM[:HEURISTIC][:KEY=VALUE...], comma separated, e.g.
    --pairs bfs,ida:manhattan,astar:pdb,parallel-ida:pdb:threads=2,weighted:manhattan:w=inf,strategic
  Algorithms: ida bfs astar hybrid parallel-ida dfs weighted strategic (bfs and strategic take no
  heuristic). Heuristics: hamming manhattan linear-conflict pdb. Keys override the options for
  one pair: threads, w (weight), timeout, nodes (node limit), memory (e.g. 1G), depth (dfs
  limit), budget (hybrid A* positions), prune (on, off or a word depth).
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
    /// Stop each run after generating this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop each run after this many seconds (0: no limit).
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    timeout: f64,
    /// Stop each run before its estimated memory exceeds SIZE (e.g. 1G; default: half the
    /// available memory).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    max_memory: Option<u64>,
    /// Weight of weighted pairs without w=.
    #[arg(long, default_value = "2", value_name = "W", value_parser = parse_weight)]
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
    /// Board as WxH; inferred from square tile counts otherwise.
    #[arg(long, value_name = "WxH")]
    board: Option<String>,
    /// Goal: blank-first, blank-last or a tile list.
    #[arg(long, default_value = "blank-first")]
    goal: String,
    /// Pattern-database file for pdb pairs (repeatable).
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
}

/// One algorithm × heuristic pair with its own settings.
#[derive(Clone, Debug)]
pub struct Pair {
    algorithm: Algorithm,
    heuristic: Option<HeuristicName>,
    threads: Option<usize>,
    weight: Option<f64>,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
    max_memory: Option<u64>,
    depth: Option<u32>,
    budget: Option<u64>,
    /// Word depth of the pruning machine (0: off).
    prune: Option<Option<u32>>,
    label: String,
}

/// Parses `ALGORITHM[:HEURISTIC][:KEY=VALUE...]`.
pub fn parse_pair(s: &str) -> Result<Pair, String> {
    let s = s.trim();
    let mut parts = s.split(':').map(str::trim);
    let algorithm = super::algorithm::parse_algorithm(parts.next().unwrap_or(""))?;
    let mut p = Pair {
        algorithm,
        heuristic: None,
        threads: None,
        weight: None,
        timeout: None,
        max_nodes: None,
        max_memory: None,
        depth: None,
        budget: None,
        prune: None,
        label: s.to_string(),
    };
    for part in parts {
        let Some((k, v)) = part.split_once('=') else {
            if p.heuristic.is_some() {
                return Err(format!("{s:?}: a second heuristic {part:?}"));
            }
            if !algorithm.uses_heuristic() {
                if matches!(part, "" | "-" | "none") {
                    continue;
                }
                return Err(format!("{s:?}: {algorithm} takes no heuristic"));
            }
            p.heuristic = Some(HeuristicName::parse(part).ok_or_else(|| {
                format!("{s:?}: unknown heuristic {part:?}: use hamming, manhattan, linear-conflict or pdb")
            })?);
            continue;
        };
        let bad = |what: &str| format!("{s:?}: cannot read {k}={v:?} ({what})");
        match k.trim() {
            "threads" | "t" => p.threads = Some(v.parse().map_err(|_| bad("a count"))?),
            "w" | "weight" => p.weight = Some(parse_weight(v)?),
            "timeout" => {
                p.timeout = Some(
                    v.parse::<f64>()
                        .ok()
                        .filter(|t| t.is_finite() && *t >= 0.0)
                        .ok_or_else(|| bad("seconds"))?,
                )
            }
            "nodes" | "max-nodes" => p.max_nodes = Some(v.parse().map_err(|_| bad("a count"))?),
            "memory" | "max-memory" => p.max_memory = Some(parse_size(v)?),
            "depth" | "depth-limit" => p.depth = Some(v.parse().map_err(|_| bad("a depth"))?),
            "budget" | "hybrid-nodes" => p.budget = Some(v.parse().map_err(|_| bad("a count"))?),
            "prune" => {
                p.prune = Some(match v.trim() {
                    "off" | "no" | "0" => Some(0),
                    "on" | "yes" => None,
                    d => Some(
                        d.parse::<u32>()
                            .ok()
                            .filter(|d| (1..=pdbsolver::prune::MAX_DEPTH).contains(d))
                            .ok_or_else(|| bad("on, off or a word depth 1 to 24"))?,
                    ),
                })
            }
            other => {
                return Err(format!(
                    "{s:?}: unknown setting {other:?}: use threads, w, timeout, nodes, memory, depth, budget or prune"
                ))
            }
        }
    }
    if algorithm.uses_heuristic() && p.heuristic.is_none() {
        return Err(format!(
            "{s:?}: name a heuristic, e.g. {algorithm}:manhattan or {algorithm}:pdb"
        ));
    }
    Ok(p)
}

/// The pairs run without `--pairs`, by board size.
fn default_pairs(board: Board, pdb: bool) -> Vec<Pair> {
    let n = board.cells();
    let mut v: Vec<String> = Vec::new();
    let mut add = |items: &[&str]| v.extend(items.iter().map(|s| s.to_string()));
    if n <= 9 {
        add(&["bfs", "ida:manhattan", "ida:linear-conflict"]);
        if pdb {
            add(&["ida:pdb", "astar:pdb"]);
        }
        add(&[
            "astar:manhattan",
            "astar:linear-conflict",
            "hybrid:manhattan:budget=1000",
            "parallel-ida:manhattan",
            "dfs:manhattan",
            "weighted:manhattan:w=2",
            "weighted:manhattan:w=inf",
            "strategic",
        ]);
    } else if n <= 12 {
        if pdb {
            add(&["ida:pdb"]);
        }
        add(&[
            "ida:manhattan",
            "ida:linear-conflict",
            "astar:manhattan",
            "astar:linear-conflict",
            "hybrid:linear-conflict:budget=10000",
            "parallel-ida:linear-conflict",
            "dfs:linear-conflict",
            "weighted:linear-conflict:w=2",
            "weighted:manhattan:w=inf",
            "strategic",
        ]);
    } else if n <= 16 {
        let h = if pdb { "pdb" } else { "linear-conflict" };
        // A budget small enough that hybrid's IDA* phase runs on most 15-puzzles.
        for a in ["ida", "astar", "hybrid:", "parallel-ida", "dfs", "weighted"] {
            match a.strip_suffix(':') {
                Some(a) => add(&[&format!("{a}:{h}:budget=10000")]),
                None => add(&[&format!("{a}:{h}")]),
            }
        }
        add(&["ida:manhattan", "weighted:manhattan:w=inf", "strategic"]);
    } else if n <= 64 {
        if pdb {
            add(&["ida:pdb"]);
        }
        add(&[
            "weighted:linear-conflict:w=3",
            "weighted:manhattan:w=inf",
            "strategic",
        ]);
    } else {
        add(&["strategic"]);
    }
    v.iter()
        .map(|s| parse_pair(s).expect("default pairs parse"))
        .collect()
}

/// Totals of one pair over the puzzles.
#[derive(Clone, Debug, Default)]
struct Totals {
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

/// What one run gave, for the table.
struct Row {
    puzzle: usize,
    pair: usize,
    result: Result<Solution, SolveError>,
}

/// The load averages over 1, 5 and 15 minutes, for the header and the last line.
fn load_average() -> String {
    LoadAverage::read().map_or_else(|| "unknown".into(), |l| l.to_string())
}

/// The heuristics of the pairs, each prepared once (databases loaded once), with their
/// descriptions; keyed by the pair's heuristic (`None`: the pair takes none).
type Heuristics = HashMap<Option<HeuristicName>, (HeuristicChoice, String)>;

/// Runs `solver compare`: reads the puzzles, prepares the pairs' heuristics, runs every pair
/// on every puzzle (checking the optimal ones against each other and the input), then prints
/// the per-puzzle rows and the totals (or JSON lines).
pub fn run(a: CompareArgs) -> Result<i32> {
    let timeout = (a.timeout > 0.0).then_some(a.timeout);
    let base_limits = limits(a.max_nodes, timeout)?;
    let lines = read_lines(&a)?;
    let board = match lines.iter().find_map(|l| l.puzzle.as_ref().ok()) {
        Some(p) => p.board(),
        None => bail!("no readable puzzle in the input"),
    };
    let goal = make_goal(board, &a.goal)?;
    let (pairs, heuristics) = prepare_pairs(&a, &goal)?;
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
        heuristics: &heuristics,
        base_limits,
        per_puzzle: a.per_puzzle || lines.len() == 1,
        numbered: lines.len() > 1,
        totals: vec![Totals::default(); pairs.len()],
        table: Vec::new(),
        errors: 0,
        stopped: 0,
        pb: &pb,
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
            let text = a.puzzle.join(" ");
            let p = Puzzle::parse(&text, board).map_err(|e| anyhow!("{e}"))?;
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
        load: pdbsolver::Residence::Mapped, // the CLI's default (see --load)
    };
    let explicit = !a.pairs.is_empty();
    let mut pairs = if explicit {
        a.pairs.clone()
    } else {
        let pdb =
            board.fits_pdb() && (!a.dbs.is_empty() || locate::find_default(goal).path.is_some());
        default_pairs(board, pdb)
    };
    let mut heuristics = Heuristics::new();
    let mut dropped = Vec::new();
    for p in &pairs {
        if heuristics.contains_key(&p.heuristic) || dropped.contains(&p.heuristic) {
            continue;
        }
        let name = p.heuristic.map_or("manhattan", |h| h.name());
        let algorithm = if p.heuristic.is_some() {
            Algorithm::Ida
        } else {
            Algorithm::Strategic
        };
        match heuristic_for(algorithm, &hargs(name), goal) {
            Ok(h) => {
                heuristics.insert(p.heuristic, h);
            }
            Err(e) if !explicit => {
                eprintln!(
                    "note: leaving out the {name} pairs: {}",
                    pdbformat::error::describe(&*e)
                );
                dropped.push(p.heuristic);
            }
            Err(e) => return Err(e),
        }
    }
    pairs.retain(|p| heuristics.contains_key(&p.heuristic));
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
    println!(
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
        if let (Some(h), false) = (p.heuristic, seen.contains(&p.heuristic)) {
            seen.push(p.heuristic);
            println!("  {h}: {}", heuristics[&p.heuristic].1);
        }
    }
}

/// A comparison under way: the settings, and what the puzzles done so far gave.
struct Comparison<'a> {
    args: &'a CompareArgs,
    goal: &'a Goal,
    pairs: &'a [Pair],
    heuristics: &'a Heuristics,
    base_limits: pdbsolver::Limits,
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
        let opts = options(p, self.args, self.base_limits);
        let (choice, _) = &self.heuristics[&p.heuristic];
        let result = pdbsolver::solve(&opts, choice, puzzle, self.goal);
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
        let optimum = l.expected.map(|e| e as usize).or(proven.first().copied());
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
                    l.expected
                        .map_or(String::new(), |e| format!(" (the line says {e})")),
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
            let v = json_line(puzzle, l, r, p, &self.heuristics[&p.heuristic].1, optimum);
            self.pb.suspend(|| println!("{v}"));
        } else if self.per_puzzle {
            self.table.push(puzzle_row(r, p, optimum, self.numbered));
        }
    }
}

impl Totals {
    /// Counts a solution; `optimum` is the puzzle's known optimal length.
    fn add_solution(&mut self, run: &Solution, optimum: Option<usize>) {
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
    fn add_failure(&mut self, e: &SolveError) {
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

/// The JSON line of run `r` of pair `p` on the puzzle of line `l`.
fn json_line(
    puzzle: &Puzzle,
    l: &PuzzleLine,
    r: &Row,
    p: &Pair,
    heuristic: &str,
    optimum: Option<usize>,
) -> serde_json::Value {
    let mut v = match &r.result {
        Ok(run) => run_json(puzzle, heuristic, run),
        Err(e) => {
            let mut v = json!({ "puzzle": format!("{puzzle:#}"), "error": e.to_string() });
            if let Some(s) = e.stats() {
                v["nodes"] = json!(s.nodes);
                v["seconds"] = json!(s.seconds);
                v["peak_memory"] = json!(s.peak_memory);
            }
            v
        }
    };
    v["index"] = json!(r.puzzle + 1);
    v["line"] = json!(l.line);
    v["pair"] = json!(p.label);
    if let Some(o) = optimum {
        v["optimum"] = json!(o);
    }
    v
}

/// One JSON summary line per pair.
fn print_json_totals(pairs: &[Pair], totals: &[Totals], puzzles: usize) {
    for (p, t) in pairs.iter().zip(totals) {
        let n = t.solved.max(1) as f64;
        println!(
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
fn print_tables(
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
        print!("{}", render(&head, table));
    }
    if !per_puzzle || puzzles > 1 {
        if per_puzzle {
            println!();
        }
        let rows: Vec<Vec<String>> = pairs
            .iter()
            .zip(totals)
            .map(|(p, t)| total_row(p, t, puzzles))
            .collect();
        print!(
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
    println!("load average at the end: {}", load_average());
}

/// The search options of pair `p`.
fn options(p: &Pair, a: &CompareArgs, base: pdbsolver::Limits) -> Search {
    let mut limits = base;
    if let Some(t) = p.timeout {
        limits.timeout = (t > 0.0).then(|| Duration::from_secs_f64(t));
    }
    if let Some(n) = p.max_nodes {
        limits.max_nodes = Some(n);
    }
    let args = AlgorithmArgs {
        algorithm: p.algorithm,
        weight: p.weight.unwrap_or(a.weight),
        threads: p.threads.unwrap_or(a.threads),
        max_memory: p.max_memory.or(a.max_memory),
        depth_limit: p.depth,
        hybrid_nodes: p.budget,
        no_prune: p.prune == Some(Some(0)),
        prune_depth: p.prune.flatten().filter(|&d| d > 0),
    };
    args.search(limits)
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

fn puzzle_row(r: &Row, p: &Pair, optimum: Option<usize>, numbered: bool) -> Vec<String> {
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
    } else if p.algorithm.is_optimal() {
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
    fn pairs_parse() {
        let p = parse_pair("parallel-ida:pdb:threads=2").unwrap();
        assert_eq!(p.algorithm, Algorithm::ParallelIda);
        assert_eq!(p.heuristic, Some(HeuristicName::Pdb));
        assert_eq!(p.threads, Some(2));
        let p = parse_pair("weighted:md:w=inf:memory=1G").unwrap();
        assert_eq!(p.weight, Some(f64::INFINITY));
        assert_eq!(p.max_memory, Some(1 << 30));
        assert!(parse_pair("bfs").is_ok());
        assert!(parse_pair("strategic:-").is_ok());
        assert!(parse_pair("bfs:manhattan").is_err());
        assert!(parse_pair("astar").is_err());
        assert!(parse_pair("astar:magic").is_err());
        assert!(parse_pair("astar:md:colour=red").is_err());
        assert!(parse_pair("warp:md").is_err());
        for (w, h) in [(3, 3), (2, 4), (3, 4), (4, 4), (5, 5), (9, 9)] {
            let b = Board::new(w, h).unwrap();
            assert!(!default_pairs(b, true).is_empty());
            assert!(!default_pairs(b, false).is_empty());
        }
    }

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
