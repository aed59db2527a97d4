//! Command-line arguments and dispatch; every failure becomes a message and an exit code.

mod bench;
mod check;
mod checkpoint;
mod compare;
mod fetch;
pub(crate) mod flags;
mod locate;
mod puzzles;
mod scramble;
pub(crate) mod setup;
mod solve;

use crate::output::outln;
use clap::{Args, Parser, Subcommand};
use pdbsolver::{Request, SolveError};
use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Exit code for errors: unreadable or unsolvable puzzles, unusable databases, bad files.
pub const EXIT_ERROR: i32 = 1;
/// Exit code for bad arguments: clap's usage errors, and settings the algorithm does not take.
pub const EXIT_USAGE: i32 = 2;
/// Exit code when a search was stopped by `--max-nodes`, `--timeout` or Ctrl-C.
pub const EXIT_STOPPED: i32 = 3;
/// Exit code of a second Ctrl-C, which quits at once (128 + SIGINT, as a shell reports it).
pub const EXIT_INTERRUPTED_TWICE: i32 = 130;

/// The exit code of a search that failed with `e`: [`EXIT_STOPPED`] for a limit or Ctrl-C,
/// else [`EXIT_ERROR`].
pub fn exit_code(e: &SolveError) -> i32 {
    match e {
        SolveError::Stopped { .. } => EXIT_STOPPED,
        _ => EXIT_ERROR,
    }
}

/// The exit code of a batch of puzzles: [`EXIT_STOPPED`] when a limit or Ctrl-C stopped a
/// search, else [`EXIT_ERROR`] when a puzzle failed or a length differs from its line's, else
/// 0.
pub fn batch_exit_code(summary: &crate::summary::Summary) -> i32 {
    if summary.stopped {
        EXIT_STOPPED
    } else if summary.failed > 0 || summary.mismatched > 0 {
        EXIT_ERROR
    } else {
        0
    }
}

/// The flag a Ctrl-C sets: searches read it every 1,024 nodes and stop with their proven lower
/// bound (and checkpoint). The handler is installed on first use, just before the first search;
/// a second Ctrl-C quits at once. The `ctrlc` crate installs it portably (a signal handler on
/// Unix, a console handler on Windows) instead of unsafe `sigaction` code here.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        // Without a handler (e.g. one is installed already) Ctrl-C simply ends the process.
        let _ = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                std::process::exit(EXIT_INTERRUPTED_TWICE);
            }
        });
        flag
    })
    .clone()
}

const ABOUT: &str = "Optimal solutions of sliding-tile puzzles: IDA* with additive pattern databases (and their reflection), or the classic heuristics.";

const AFTER_HELP: &str = "\
MOVE NOTATION
  Moves are written as the direction the BLANK moves: U (up), D (down), L (left), R (right).
  The tile that slides moves the opposite way; the numbers of the moved tiles are printed too
  (\"tiles:\" in text, \"tiles\" in JSON). --notation tiles writes them as puzzle racers do:
  each letter the direction the TILES slide, with a count for several (U2LD3R).
  Positions may be written in rows separated by / (8 2 0/4 6 1/3 7 5).

GOALS
  blank-first  0 1 2 ... N-1 (blank top-left; Korf's convention, the default)
  blank-last   1 2 ... N-1 0 (blank bottom-right)
  or any permutation, written like a puzzle. A database built for one goal serves every goal
  whose blank cell a board symmetry maps onto its own (tiles are relabelled).

DEFAULT DATABASE
  Without --db, the heuristic 'auto' looks for a database that fits the board and goal in:
    1. $PDB_DIR
    2. artifacts/ in the current directory
    3. $XDG_CACHE_HOME/pdb-tiles, or ~/.cache/pdb-tiles
  trying the board's default name first (4x4: 15-663-za.pdb, 5x5: 24-6666x7-za-bit1.pdb),
  then any other *.pdb file in name order. On 4x4 and 5x5 with the blank's goal in a corner,
  when none is found, the board's default database (4x4: the zero-aware 6-6-3; 5x5: seven
  6-6-6-6 partitions sharing their tables, at one bit per entry) is built on first use into
  $PDB_DIR or the cache directory, and reused by later runs; the 5x5 build is long, so pass
  --no-build to skip it (or fetch the database with `solver fetch`). Boards without a
  database fall back to Manhattan + linear conflict, and say so. With --metric mtm the same
  folders are searched for class tables of that metric: the 4x4 default,
  15-rows+rokicki+rokicki-mirror-mtm.pdb (529 MB), is found or built on first use the same
  way; other boards use the walking distance.

EXIT STATUS
  0 all puzzles solved; 1 an error (unreadable, impossible or unsolvable puzzle, unusable
  database, wrong length in a benchmark); 2 bad arguments (also a setting the algorithm does not
  take, such as --weight with ida); 3 a search stopped by a limit or by Ctrl-C (the message
  gives the proven lower bound); 130 a second Ctrl-C (quit at once).";

/// The top-level command line.
#[derive(Parser, Debug)]
#[command(name = "solver", version = crate::VERSION, about = ABOUT, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve one puzzle (given as arguments) or a file of puzzles optimally.
    #[command(after_help = AFTER_HELP)]
    Solve(solve::SolveArgs),
    /// Solve every puzzle of a benchmark file single-threaded and print a table of nodes and
    /// seconds (total and median), with the database load time separately.
    Bench(bench::BenchArgs),
    /// Show where the default database is searched for and which file would be used, and
    /// where the pruning machine would come from.
    #[command(after_help = AFTER_HELP)]
    Locate(LocateArgs),
    /// Run several algorithm x heuristic pairs on the same puzzles, each under its own limits,
    /// and print one table: length, optimal or not, nodes, peak memory, seconds.
    #[command(after_help = compare::COMPARE_HELP)]
    Compare(compare::CompareArgs),
    /// Download a published database (or a catalogue's members) from a release folder over
    /// HTTP(S), check it against the release's SHA256SUMS and manifest.json, and install it in
    /// $PDB_DIR or the cache directory, where the solver looks.
    Fetch(fetch::FetchArgs),
    /// Print uniformly random solvable positions of a board, one a line in rows separated by
    /// / (the same ones for the same --seed).
    Scramble(scramble::ScrambleArgs),
    /// Play a move string on a position: whether it reaches the goal, and its length in both
    /// metrics (exit status 0 when it reaches the goal, 1 when it does not, 2 when a move
    /// cannot be read or made).
    Check(check::CheckArgs),
    /// Serve a web page and a JSON API for solving (loopback only unless --bind says
    /// otherwise), with the databases loaded once.
    #[cfg(feature = "serve")]
    Serve(crate::serve::ServeArgs),
}

/// Options shared by `solve`, `bench` and `locate`: board, goal and heuristic.
#[derive(Args, Debug, Clone)]
pub struct HeuristicArgs {
    /// Board as WxH (columns x rows), e.g. 3x4; inferred from square tile counts otherwise.
    #[arg(long, value_name = "WxH", value_parser = flags::board_arg)]
    pub board: Option<String>,
    /// Goal: blank-first, blank-last or a tile list such as "1 2 3 4 5 6 7 8 0".
    #[arg(long, default_value = "blank-first", value_parser = flags::goal_arg)]
    pub goal: String,
    /// Pattern-database file, or a standard database or catalogue name such as 15-78-za-bit1
    /// or 15-78+78b-za-bit1, found in the directories `solver locate` lists (repeatable).
    /// Tables of several files whose tiles are disjoint are added; overlapping ones start a new
    /// group, and the heuristic is the maximum over groups. A file may be named again (one
    /// table per file, groups sharing tables): it is loaded once, and a table shared by
    /// several groups is looked up once per move.
    #[arg(long = "db", value_name = "FILE|NAME")]
    pub dbs: Vec<PathBuf>,
    /// Heuristic: auto (a database if one is given or found, else linear-conflict), pdb,
    /// hamming, manhattan or linear-conflict.
    #[arg(long, default_value = "auto", value_name = "NAME")]
    pub heuristic: String,
    /// Do not add the reflected (transposed) database lookup.
    #[arg(long)]
    pub no_reflect: bool,
    /// Do not check the databases' SHA-256 digests (they are checked on a second thread while
    /// the search runs, and no result is final before the check has passed).
    #[arg(long)]
    pub no_verify: bool,
    /// Where uncompressed tables live while searched: `map` (mapped from the file: no copy,
    /// the fastest start, for many short searches), `huge-pages` (read into memory that asks
    /// for huge pages: a copy at load, then lookups with fewer TLB misses; for long searches)
    /// or `auto`: huge pages on boards of more than 16 cells and for multi-tile class tables,
    /// whose searches are long, else mapped. Compressed tables are always decoded into
    /// huge-page memory.
    #[arg(long, value_name = "HOW", default_value = "auto", value_parser = parse_residence)]
    pub load: pdbsolver::Residence,
    /// Never build the default database; fall back to linear-conflict when none is found.
    #[arg(long)]
    pub no_build: bool,
}

impl HeuristicArgs {
    /// Checks that the goal fits the board when both are given (bad arguments, exit 2).
    pub fn check(&self) -> anyhow::Result<()> {
        let Some(board) = self.board.as_deref() else {
            return Ok(());
        };
        let board: pdbformat::Board = board.parse().map_err(flags::usage)?;
        pdbformat::Goal::parse(board, &self.goal).map_err(flags::usage)?;
        Ok(())
    }

    /// Adds the heuristic and the reflection these flags ask for to the request `r`, once
    /// the board and goal are [checked](Self::check).
    pub fn add_to(&self, r: &mut Request) -> anyhow::Result<()> {
        self.check()?;
        r.set("heuristic", &self.heuristic)
            .map_err(flags::request_error)?;
        if self.no_reflect {
            r.reflect = Some(false);
        }
        Ok(())
    }
}

#[derive(Args, Debug)]
struct LocateArgs {
    #[command(flatten)]
    heuristic: HeuristicArgs,
    /// The metric whose default is located: stm (the default; pattern databases) or mtm
    /// (class tables, on 4x4 15-rows+rokicki+rokicki-mirror-mtm; boards without one use the
    /// walking distance).
    #[arg(long, value_name = "METRIC", value_parser = flags::read_as("metric", |r| r.metric))]
    metric: Option<pdbformat::Metric>,
}

/// Parses `--load`.
fn parse_residence(s: &str) -> Result<pdbsolver::Residence, String> {
    match s {
        "huge-pages" => Ok(pdbsolver::Residence::HugePages),
        "map" => Ok(pdbsolver::Residence::Mapped),
        "auto" => Ok(pdbsolver::Residence::Auto),
        _ => Err(format!(
            "unknown way to load {s:?}: use auto, huge-pages or map"
        )),
    }
}

/// The subcommands whose `--json` answers errors in JSON too.
const JSON_COMMANDS: [&str; 4] = ["solve", "bench", "compare", "check"];

/// Whether the command line asks a command that answers in JSON for `--json` (read from the
/// words themselves, so that it holds for the errors of the command line too).
fn wants_json(args: &[OsString]) -> bool {
    let words = || args.iter().skip(1).take_while(|a| *a != "--");
    let command = words().find(|a| !a.to_string_lossy().starts_with('-'));
    command.is_some_and(|c| JSON_COMMANDS.iter().any(|j| c == j)) && words().any(|a| a == "--json")
}

/// Reports the error `message`: with `--json` one JSON object `{"error": message}` on standard
/// output, else `error: message` on standard error.
fn report(message: &str, json: bool) {
    if json {
        outln!("{}", serde_json::json!({ "error": message }));
    } else {
        eprintln!("error: {message}");
    }
}

/// Parses the command line, runs it, and returns the exit code.
pub fn run() -> i32 {
    let args: Vec<OsString> = std::env::args_os().collect();
    let json = wants_json(&args);
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        // Help and version go to standard output, usage errors as clap writes them.
        Err(e) if !json || !e.use_stderr() => e.exit(),
        Err(e) => {
            let rendered = e.to_string();
            let first = rendered.lines().next().unwrap_or_default();
            report(first.strip_prefix("error: ").unwrap_or(first), true);
            return EXIT_USAGE;
        }
    };
    let result = match cli.command {
        Command::Solve(a) => solve::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Compare(a) => compare::run(a),
        Command::Locate(a) => a
            .heuristic
            .check()
            .and_then(|()| locate::locate(&a.heuristic, a.metric.unwrap_or_default())),
        Command::Fetch(a) => fetch::run(a),
        Command::Scramble(a) => scramble::run(a),
        Command::Check(a) => check::run(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => crate::serve::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            report(&pdbformat::error::describe(&*e), json);
            if e.downcast_ref::<flags::UsageError>().is_some() {
                EXIT_USAGE
            } else {
                EXIT_ERROR
            }
        }
    }
}
