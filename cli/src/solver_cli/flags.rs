//! The flags that make a search's [`Request`]: the algorithm, its settings and the limits, as
//! clap reads them (each value that has a textual form read exactly as [`Request::set`] reads
//! it, so flags, compare's pairs and the server's body share one reading), turned into the
//! request in one place ([`SearchFlags::request`]); and a request's error in the flags' words.

use super::HeuristicArgs;
use anyhow::Result;
use clap::Args;
use pdbformat::notation::Notation;
use pdbformat::parse::parse_tiles;
use pdbformat::{Board, Goal, PuzzleError};
use pdbsolver::{AlgorithmName, Pruning, Request, RequestError};

/// A clap value parser for a flag whose value [`Request::set`] reads under `key`: the field
/// `field` of a request set from the value, or the request's message (a usage error, exit 2).
pub fn read_as<T: 'static>(
    key: &'static str,
    field: fn(Request) -> Option<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |value| {
        let mut r = Request::default();
        r.set(key, value).map_err(|e| describe(&e))?;
        field(r).ok_or_else(|| format!("--{key} takes a value"))
    }
}

/// The clap value parser of `--board`: a board `WxH` that exists, kept as written (a usage
/// error, exit 2, otherwise).
pub fn board_arg(s: &str) -> Result<String, String> {
    s.parse::<Board>()
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// The clap value parser of `--goal`: a named goal, or tiles that make a goal on a board of
/// their number of cells (a usage error, exit 2, otherwise). Whether the goal fits the
/// puzzle's board is checked once that board is known.
pub fn goal_arg(s: &str) -> Result<String, String> {
    let cells = parse_tiles(s).map_or(16, |t| t.len());
    let board = (2..=cells / 2)
        .find(|&w| cells.is_multiple_of(w) && cells / w >= 2)
        .and_then(|w| Board::new(w, cells / w).ok())
        .ok_or_else(|| format!("invalid goal {s:?}: {cells} tiles fill no board"))?;
    match Goal::parse(board, s) {
        Ok(_) => Ok(s.to_string()),
        Err(e @ PuzzleError::InvalidGoal { .. }) => Err(e.to_string()),
        Err(e) => Err(format!("invalid goal {s:?}: {e}")),
    }
}

/// A request's error with each setting named by its flag.
pub fn describe(e: &RequestError) -> String {
    e.describe(|key| match key {
        "prune" => "--prune-depth (or --no-prune)".to_string(),
        key => format!("--{key}"),
    })
}

/// Flags that cannot go together (a setting the algorithm does not take): bad arguments, exit
/// status 2 like clap's own usage errors.
#[derive(Debug)]
pub struct UsageError(String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Bad arguments said in `message`: a [`UsageError`] (exit status 2).
pub fn usage(message: impl std::fmt::Display) -> anyhow::Error {
    UsageError(message.to_string()).into()
}

/// [`describe`] as an error: a [`UsageError`] (exit status 2) for a setting the algorithm
/// does not take, else a plain one (exit status 1, as for other input that cannot be used).
pub fn request_error(e: RequestError) -> anyhow::Error {
    if e.is_not_taken() {
        UsageError(describe(&e)).into()
    } else {
        anyhow::anyhow!(describe(&e))
    }
}

/// `--notation`: how the commands that print moves write them.
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct NotationFlag {
    /// How moves are written: blank (the blank's direction, a letter per move: RDLU; the
    /// default) or tiles (the direction the tiles slide, with a count for several: U2LD3R, as
    /// puzzle racers write them).
    #[arg(long, value_name = "tiles|blank", default_value_t = Notation::Blank)]
    pub notation: Notation,
}

/// The limits of every search (nodes and time) and the metric it counts moves in.
#[derive(Args, Debug, Clone, Default)]
pub struct LimitFlags {
    /// Move metric: stm (one tile per move, the default) or mtm (1 to k tiles of a row or
    /// column per move; searched by ida, parallel-ida and bfs with the board's default class
    /// tables, on 4x4 15-rows+rokicki+rokicki-mirror-mtm, found or built on first use, else
    /// the walking distance).
    #[arg(long, value_name = "METRIC", value_parser = read_as("metric", |r| r.metric))]
    pub metric: Option<pdbformat::Metric>,
    /// Stop each search after generating this many nodes.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Stop each search after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
}

/// The duplicate-move pruning of `ida`, `hybrid` and `parallel-ida`.
#[derive(Args, Debug, Clone, Default)]
pub struct PruneFlags {
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

impl PruneFlags {
    /// The pruning the flags ask for, if they ask (`--no-prune` wins).
    pub fn pruning(&self) -> Option<Pruning> {
        match (self.no_prune, self.prune_depth) {
            (true, _) => Some(Pruning::Off),
            (false, Some(d)) => Some(Pruning::Depth(d)),
            (false, None) => None,
        }
    }
}

/// The flags of `solver solve` that choose and set the search.
#[derive(Args, Debug, Clone)]
pub struct SearchFlags {
    /// Search algorithm: ida (optimal), bfs, astar, hybrid (A* then IDA*), parallel-ida
    /// (optimal, threads), dfs (depth-limited, not optimal), weighted (weighted A* or greedy,
    /// not optimal), strategic (rows then columns, any board size, not optimal) or anytime
    /// (anytime weighted A*: a solution fast, then shorter ones, each with a proven lower
    /// bound; optimal when proven). Default: anytime on boards of more than 25 cells (6x6 and
    /// larger); else parallel-ida on every core (--threads chooses; its small first
    /// iterations run on one thread, so short searches cost what ida's do), ida with
    /// --threads 1 or on one core. A setting the algorithm does not take (--weight with ida)
    /// is refused.
    #[arg(long, value_name = "NAME", value_parser = read_as("algorithm", |r| r.algorithm))]
    pub algorithm: Option<AlgorithmName>,
    /// weighted: the weight w of f = g + w*h (at least 1; default 2), or inf for greedy
    /// best-first search.
    #[arg(long, value_name = "W", value_parser = read_as("weight", |r| r.weight))]
    pub weight: Option<f64>,
    /// anytime: stop at the first solution proven at most W times the optimum (length <= W x
    /// the proven lower bound; W at least 1, 1 asks for a proven optimum); with no
    /// --algorithm it chooses anytime on any board. Without --within
    /// and --timeout, anytime improves its solution for 5 seconds; with --timeout it improves
    /// until the time limit and returns the best solution found.
    #[arg(long, value_name = "W", value_parser = read_as("within", |r| r.within))]
    pub within: Option<f64>,
    /// parallel-ida, hybrid (its IDA* phase) and the default algorithm: worker threads
    /// (default 0: one per core; with no --algorithm, 1 means ida).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Stop before the estimated memory of the search exceeds SIZE (such as 512M or 4G;
    /// default: half the available memory); it binds bfs, astar, hybrid, weighted and
    /// anytime, which keep positions (anytime returns its best solution when it is reached). bfs refuses boards whose state space would not fit.
    #[arg(long, value_name = "SIZE", value_parser = read_as("max-memory", |r| r.max_memory))]
    pub max_memory: Option<u64>,
    /// dfs: a fixed depth limit (default: twice the start's estimate, doubled until solved).
    #[arg(long, value_name = "N")]
    pub depth_limit: Option<u32>,
    /// hybrid: positions A* stores before IDA* takes over from its frontier (default 1000000).
    #[arg(long, value_name = "N")]
    pub hybrid_nodes: Option<u64>,
    #[command(flatten)]
    pub prune: PruneFlags,
    #[command(flatten)]
    pub limits: LimitFlags,
}

impl SearchFlags {
    /// The request these flags and the heuristic flags make: only what was given is set.
    pub fn request(&self, heuristic: &HeuristicArgs) -> Result<Request> {
        let mut r = Request {
            algorithm: self.algorithm,
            threads: self.threads,
            weight: self.weight,
            within: self.within,
            depth_limit: self.depth_limit,
            hybrid_nodes: self.hybrid_nodes,
            max_memory: self.max_memory,
            ..limits_request(&self.limits, &self.prune)
        };
        heuristic.add_to(&mut r)?;
        Ok(r)
    }
}

/// The request of the limit and pruning flags alone (`solver bench`, an IDA* search).
pub fn limits_request(limits: &LimitFlags, prune: &PruneFlags) -> Request {
    Request {
        max_nodes: limits.max_nodes,
        timeout: limits.timeout,
        metric: limits.metric,
        prune: prune.pruning(),
        ..Request::default()
    }
}
