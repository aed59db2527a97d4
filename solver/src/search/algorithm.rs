//! The algorithms as a caller chooses them: [`AlgorithmName`], the name alone (parsed and
//! printed), and [`Algorithm`], the name with the settings that algorithm takes
//! ([`Ida`], [`Hybrid`], [`ParallelIda`], [`Dfs`], [`Weighted`], [`Anytime`]; `bfs`, `astar` and
//! `strategic` take none). The settings live here, beside the choice; each algorithm's file
//! holds its search.

use super::threads::{check_threads, cores};
use crate::checkpoint::SearchState;
use crate::prune::Pruning;
use std::time::Duration;

#[cfg(doc)]
use super::Search;

/// The search algorithms by name, as written on the command line and in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AlgorithmName {
    /// Iterative-deepening A* (`ida`; the default on one core or with one thread).
    Ida,
    /// Breadth-first search (`bfs`).
    Bfs,
    /// A* with duplicate detection (`astar`).
    AStar,
    /// A* until a node budget is spent, then IDA* over threads from its frontier (`hybrid`).
    Hybrid,
    /// IDA* over threads with work stealing (`parallel-ida`; the default with several cores).
    ParallelIda,
    /// Depth-limited depth-first search (`dfs`).
    Dfs,
    /// Weighted A* and greedy best-first search (`weighted`).
    Weighted,
    /// Row-by-row, column-by-column human strategy (`strategic`).
    Strategic,
    /// Anytime weighted A* with a proven lower bound (`anytime`; the default on boards of
    /// more than [`AlgorithmName::OPTIMAL_CELLS`] cells).
    Anytime,
}

impl AlgorithmName {
    /// The largest boards (in cells: 5×5) that default to an optimal search; larger ones
    /// default to `anytime`.
    pub const OPTIMAL_CELLS: usize = 25;

    /// Every algorithm, `ida` first.
    pub const ALL: [AlgorithmName; 9] = [
        AlgorithmName::Ida,
        AlgorithmName::Bfs,
        AlgorithmName::AStar,
        AlgorithmName::Hybrid,
        AlgorithmName::ParallelIda,
        AlgorithmName::Dfs,
        AlgorithmName::Weighted,
        AlgorithmName::Strategic,
        AlgorithmName::Anytime,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            AlgorithmName::Ida => "ida",
            AlgorithmName::Bfs => "bfs",
            AlgorithmName::AStar => "astar",
            AlgorithmName::Hybrid => "hybrid",
            AlgorithmName::ParallelIda => "parallel-ida",
            AlgorithmName::Dfs => "dfs",
            AlgorithmName::Weighted => "weighted",
            AlgorithmName::Strategic => "strategic",
            AlgorithmName::Anytime => "anytime",
        }
    }

    /// Parses a name or an alias (`ida*`, `a*`, `idastar`, `greedy` is `weighted`, …).
    pub fn parse(s: &str) -> Option<AlgorithmName> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "ida" | "ida*" | "idastar" => AlgorithmName::Ida,
            "bfs" | "breadth-first" => AlgorithmName::Bfs,
            "astar" | "a*" | "a-star" => AlgorithmName::AStar,
            "hybrid" | "a*+ida*" | "astar+ida" => AlgorithmName::Hybrid,
            "parallel-ida" | "pida" | "parallel" => AlgorithmName::ParallelIda,
            "dfs" | "depth-first" => AlgorithmName::Dfs,
            "weighted" | "wastar" | "weighted-astar" | "greedy" => AlgorithmName::Weighted,
            "strategic" | "human" => AlgorithmName::Strategic,
            "anytime" | "awa*" | "anytime-astar" => AlgorithmName::Anytime,
            _ => return None,
        })
    }

    /// The algorithm of a search that names none, given the threads asked for (`None` or 0:
    /// every core): `parallel-ida` on every core when there are several and more than one
    /// thread is allowed, else `ida`. Parallel IDA* runs its first, small iterations on one
    /// thread and starts the others only once an iteration is large enough to pay for them
    /// (`search/parallel_ida.rs`), so short searches cost what `ida`'s do.
    pub fn default_for(threads: Option<usize>) -> AlgorithmName {
        match threads {
            Some(1) => AlgorithmName::Ida,
            Some(n) if n > 1 => AlgorithmName::ParallelIda,
            _ if cores() > 1 => AlgorithmName::ParallelIda,
            _ => AlgorithmName::Ida,
        }
    }

    /// The algorithm of a search that names none on a board of `cells` cells: `anytime` on
    /// boards of more than [`AlgorithmName::OPTIMAL_CELLS`] cells (beyond 5×5, where optimal
    /// search is out of reach), else [`AlgorithmName::default_for`] the threads.
    pub fn default_on(cells: usize, threads: Option<usize>) -> AlgorithmName {
        if cells > AlgorithmName::OPTIMAL_CELLS {
            AlgorithmName::Anytime
        } else {
            AlgorithmName::default_for(threads)
        }
    }

    /// Whether a solution it returns is always optimal.
    pub fn is_optimal(self) -> bool {
        matches!(
            self,
            AlgorithmName::Ida
                | AlgorithmName::Bfs
                | AlgorithmName::AStar
                | AlgorithmName::Hybrid
                | AlgorithmName::ParallelIda
        )
    }

    /// Whether it uses a heuristic (`bfs` and `strategic` do not).
    pub fn uses_heuristic(self) -> bool {
        !matches!(self, AlgorithmName::Bfs | AlgorithmName::Strategic)
    }
}

impl std::fmt::Display for AlgorithmName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm with its settings: what [`super::Search`] runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Algorithm {
    /// Iterative-deepening A* (`search/ida.rs`).
    Ida(Ida),
    /// Breadth-first search (`search/bfs.rs`).
    Bfs,
    /// A* with duplicate detection, on the open list the heuristic allows (`search/astar.rs`).
    AStar,
    /// A* until a node budget is spent, then IDA* over threads from its frontier
    /// (`search/hybrid.rs`).
    Hybrid(Hybrid),
    /// IDA* over threads with work stealing (`search/parallel_ida.rs`).
    ParallelIda(ParallelIda),
    /// Depth-limited depth-first search (`search/dfs.rs`).
    Dfs(Dfs),
    /// Weighted A* and greedy best-first search (`search/weighted.rs`).
    Weighted(Weighted),
    /// Row-by-row, column-by-column human strategy (`search/strategic.rs`).
    Strategic,
    /// Anytime weighted A* with a proven lower bound (`search/anytime.rs`).
    Anytime(Anytime),
}

impl Default for Algorithm {
    /// IDA* with its default settings.
    fn default() -> Algorithm {
        Algorithm::Ida(Ida::default())
    }
}

impl From<AlgorithmName> for Algorithm {
    /// The algorithm with its default settings.
    fn from(name: AlgorithmName) -> Algorithm {
        match name {
            AlgorithmName::Ida => Algorithm::Ida(Ida::default()),
            AlgorithmName::Bfs => Algorithm::Bfs,
            AlgorithmName::AStar => Algorithm::AStar,
            AlgorithmName::Hybrid => Algorithm::Hybrid(Hybrid::default()),
            AlgorithmName::ParallelIda => Algorithm::ParallelIda(ParallelIda::default()),
            AlgorithmName::Dfs => Algorithm::Dfs(Dfs::default()),
            AlgorithmName::Weighted => Algorithm::Weighted(Weighted::default()),
            AlgorithmName::Strategic => Algorithm::Strategic,
            AlgorithmName::Anytime => Algorithm::Anytime(Anytime::default()),
        }
    }
}

impl Algorithm {
    /// The algorithm's name.
    pub fn name(&self) -> AlgorithmName {
        match self {
            Algorithm::Ida(_) => AlgorithmName::Ida,
            Algorithm::Bfs => AlgorithmName::Bfs,
            Algorithm::AStar => AlgorithmName::AStar,
            Algorithm::Hybrid(_) => AlgorithmName::Hybrid,
            Algorithm::ParallelIda(_) => AlgorithmName::ParallelIda,
            Algorithm::Dfs(_) => AlgorithmName::Dfs,
            Algorithm::Weighted(_) => AlgorithmName::Weighted,
            Algorithm::Strategic => AlgorithmName::Strategic,
            Algorithm::Anytime(_) => AlgorithmName::Anytime,
        }
    }

    /// The duplicate-move pruning of the cost-bounded searches (`ida`, `hybrid`,
    /// `parallel-ida`); `None` for the others.
    pub fn pruning(&self) -> Option<Pruning> {
        match self {
            Algorithm::Ida(s) => Some(s.pruning),
            Algorithm::Hybrid(s) => Some(s.pruning),
            Algorithm::ParallelIda(s) => Some(s.pruning),
            _ => None,
        }
    }

    /// Checks the settings: a weight of at least 1, a `within` of at least 1, at most
    /// [`MAX_THREADS`] threads.
    pub(crate) fn check(&self) -> Result<(), String> {
        match self {
            Algorithm::Weighted(w) => check_weight(w.weight),
            Algorithm::Anytime(Anytime { within: Some(w) }) => check_within(*w),
            Algorithm::Hybrid(Hybrid { threads, .. })
            | Algorithm::ParallelIda(ParallelIda { threads, .. }) => check_threads(*threads),
            _ => Ok(()),
        }
    }
}

/// The settings of IDA* (`ida`, the default algorithm).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ida {
    /// The duplicate-move pruning machine.
    pub pruning: Pruning,
    /// Also report a checkpoint this often while searching (to [`Search::observer`]). Makes
    /// the search [`Ida::resumable`].
    pub checkpoint_every: Option<Duration>,
    /// Start from this saved search state instead of the start's estimate. Makes the search
    /// [`Ida::resumable`].
    pub resume: Option<SearchState>,
    /// Make the search resumable: with an observer, report a checkpoint when a limit or the
    /// interrupt stops it within an iteration, and visit every node's children in the move
    /// table's fixed order, which a checkpoint's path can be replayed in. Otherwise the order of
    /// children near the start is learned from the earlier iterations
    /// (`search/history.rs`), which meets the goal sooner in the last iteration but cannot be
    /// replayed from a checkpoint, and no checkpoint is reported. Implied by
    /// [`Ida::checkpoint_every`] and [`Ida::resume`].
    pub resumable: bool,
}

impl Ida {
    /// Whether the search can be stopped and resumed from a checkpoint (see
    /// [`Ida::resumable`]).
    pub fn is_resumable(&self) -> bool {
        self.resumable || self.checkpoint_every.is_some() || self.resume.is_some()
    }
}

/// The settings of A*+IDA* (`hybrid`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hybrid {
    /// How many positions A* may store before IDA* takes over from its frontier (`None`:
    /// 1,000,000, or fewer when the memory limit would not hold them).
    pub budget: Option<u64>,
    /// Threads of the IDA* phase (0: one per core).
    pub threads: usize,
    /// The duplicate-move pruning machine of the IDA* phase.
    pub pruning: Pruning,
}

/// The settings of parallel IDA* (`parallel-ida`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParallelIda {
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The duplicate-move pruning machine.
    pub pruning: Pruning,
}

/// The settings of depth-limited depth-first search (`dfs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dfs {
    /// The depth limit (`None`: start at twice the start's estimate and double it until a
    /// solution is found).
    pub depth_limit: Option<u32>,
}

/// The settings of weighted A* (`weighted`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighted {
    /// The weight `w` of `f = g + w·h` (at least 1); infinity for greedy best-first search
    /// (`f = h`).
    pub weight: f64,
}

impl Default for Weighted {
    /// `w = 2`.
    fn default() -> Weighted {
        Weighted { weight: 2.0 }
    }
}

impl Weighted {
    /// The weight as people write it: `w = 2`, `w = 1.5`, `greedy (w = inf)`.
    pub fn describe(&self) -> String {
        if self.weight.is_infinite() {
            "greedy (w = inf)".to_string()
        } else {
            format!("w = {}", self.weight)
        }
    }
}

/// The settings of anytime weighted A* (`anytime`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Anytime {
    /// Stop at the first solution proven at most this many times the optimum (`length ≤
    /// within × lower bound`; at least 1, 1 asks for a proven optimum). `None`: improve
    /// until the time limit, or for a few seconds without one.
    pub within: Option<f64>,
}

/// `From<Settings> for Algorithm`, for each algorithm whose variant holds its settings.
macro_rules! algorithm_from_settings {
    ($($settings:ident),*) => {
        $(
            impl From<$settings> for Algorithm {
                fn from(s: $settings) -> Algorithm {
                    Algorithm::$settings(s)
                }
            }
        )*
    };
}

algorithm_from_settings!(Ida, Hybrid, ParallelIda, Dfs, Weighted, Anytime);

/// Whether `w` is a weight of weighted A*: at least 1, or infinity (greedy search).
pub(crate) fn check_weight(w: f64) -> Result<(), String> {
    if w.is_nan() || w < 1.0 {
        return Err(format!(
            "the weight must be at least 1 (or inf for greedy search), not {w}"
        ));
    }
    Ok(())
}

/// Whether `w` is a bound of the anytime search: a number of at least 1.
pub(crate) fn check_within(w: f64) -> Result<(), String> {
    if w.is_nan() || w < 1.0 {
        return Err(format!("within must be a number of at least 1, not {w}"));
    }
    Ok(())
}
