//! The algorithms as a caller chooses them: [`AlgorithmName`], the name alone (parsed and
//! printed), and [`Algorithm`], the name with the settings that algorithm takes
//! ([`Ida`], [`Hybrid`], [`ParallelIda`], [`Dfs`], [`Weighted`]; `bfs`, `astar` and
//! `strategic` take none).

use super::dfs::Dfs;
use super::hybrid::Hybrid;
use super::ida::Ida;
use super::parallel_ida::ParallelIda;
use super::weighted::Weighted;
use crate::prune::Pruning;

/// The most threads a search may ask for.
pub const MAX_THREADS: usize = 4096;

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
}

impl AlgorithmName {
    /// Every algorithm, `ida` first.
    pub const ALL: [AlgorithmName; 8] = [
        AlgorithmName::Ida,
        AlgorithmName::Bfs,
        AlgorithmName::AStar,
        AlgorithmName::Hybrid,
        AlgorithmName::ParallelIda,
        AlgorithmName::Dfs,
        AlgorithmName::Weighted,
        AlgorithmName::Strategic,
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

    /// Checks the settings: a weight of at least 1, at most [`MAX_THREADS`] threads.
    pub(crate) fn check(&self) -> Result<(), String> {
        match self {
            Algorithm::Weighted(w) => check_weight(w.weight),
            Algorithm::Hybrid(Hybrid { threads, .. })
            | Algorithm::ParallelIda(ParallelIda { threads, .. }) => check_threads(*threads),
            _ => Ok(()),
        }
    }
}

/// The cores this process may use (1 when unknown).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
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

algorithm_from_settings!(Ida, Hybrid, ParallelIda, Dfs, Weighted);

/// Whether `w` is a weight of weighted A*: at least 1, or infinity (greedy search).
pub(crate) fn check_weight(w: f64) -> Result<(), String> {
    if w.is_nan() || w < 1.0 {
        return Err(format!(
            "the weight must be at least 1 (or inf for greedy search), not {w}"
        ));
    }
    Ok(())
}

/// Whether `n` threads may be started ([`MAX_THREADS`] at most; 0 is one per core).
pub(crate) fn check_threads(n: usize) -> Result<(), String> {
    if n > MAX_THREADS {
        return Err(format!("{n} threads is too many (at most {MAX_THREADS})"));
    }
    Ok(())
}
