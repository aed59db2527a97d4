//! Optimal solver for sliding-tile puzzles: IDA* with additive pattern databases, reflection
//! and the classic heuristics (misplaced tiles, Manhattan, linear conflict).
//!
//! # Library use
//! ```
//! use pdbformat::{Board, Goal, Puzzle};
//! use pdbsolver::{solve, HeuristicChoice, Search};
//!
//! let goal = Goal::blank_first(Board::new(3, 3).unwrap());
//! let puzzle = Puzzle::parse_for_goal("3 1 2 0 4 5 6 7 8", &goal).unwrap();
//! let solution = solve(&Search::default(), &HeuristicChoice::Manhattan, &puzzle, &goal).unwrap();
//! assert_eq!(solution.len(), 1);
//! assert_eq!(solution.blank_notation(), "U");
//! assert_eq!(solution.tiles_moved, vec![3]);
//! assert!(solution.optimal);
//! ```
//! [`solve`] is the one entry point of every algorithm: a [`Search`] holds the [`Algorithm`]
//! with its settings, the [`Limits`] and the hooks (interrupt, observer). A [`Request`] makes
//! a `Search` from settings as a user gives them (text keys, optional fields, defaults),
//! refusing those the algorithm does not take.
//! For pattern databases, open files with [`Database::open`] and pass them in
//! [`HeuristicChoice::Pdb`]; [`locate`] finds (and for 4×4 builds) the default one.
//!
//! # Move notation
//! A move is written as the direction the **blank** moves: `U` (up), `D` (down), `L` (left),
//! `R` (right) — [`pdbformat::Direction`]. The tile that slides moves the opposite way; the
//! solver also reports the numbers of the moved tiles ([`Solution::tiles_moved`]), which is the
//! notation people usually follow on a physical puzzle.
//!
//! # Goals and databases
//! Goals are `blank-first` (`0 1 2 … N-1`, Korf's convention), `blank-last` (`1 2 … N-1 0`) or any
//! permutation. A database built for one goal serves every goal whose blank cell is the image of
//! its goal's blank cell under a board symmetry (tiles are relabelled and cells mapped); the
//! search always runs in the user's frame, so moves come back in the user's convention. See
//! [`heuristic::pdb`] for the additive grouping, the maximum and the reflection.
//!
//! # The default database
//! [`locate::find_default`] looks, in this order, in
//! 1. the directory named by the environment variable `PDB_DIR`,
//! 2. `artifacts/` in the current directory,
//! 3. the user cache directory: `$XDG_CACHE_HOME/pdb-tiles`, or `~/.cache/pdb-tiles`,
//!
//! for a file that fits the board and goal: first the default name (for 4×4,
//! `15-663-za.pdb`, the default of [`pdbformat::standard`]), then any other `*.pdb` file in name
//! order. For 4×4, when none is found, with the default `build` feature,
//! `locate::build_default` builds the zero-aware 6-6-3 database (`u8` entries, uncompressed)
//! into `PDB_DIR` when set, otherwise into the cache directory.
//!
//! # Node counts
//! Nodes are counted as *generated* (every child produced by a move, including those pruned at
//! once by the bound), summed over all IDA* iterations, and likewise over every phase of the
//! other algorithms.
//!
//! # Algorithms
//! Besides IDA* (the default), [`solve`] runs breadth-first search, A* (with bucket queues
//! where the heuristic allows), A*+IDA*, parallel IDA*, depth-limited DFS, weighted A* and
//! greedy search, and a human row-by-row strategy for boards of any size, with the same
//! heuristics: the variants of [`Algorithm`], each with its settings ([`Ida`], [`Hybrid`],
//! [`ParallelIda`], [`Dfs`], [`Weighted`]).
//!
//! # The façade
//! Besides the names re-exported here, five modules are public: [`heuristic`] (the
//! [`heuristic::Heuristic`] trait, its implementations and the search position), [`prune`]
//! (the duplicate-move pruning machine and its cache files), [`checkpoint`] (the state and the
//! file of long IDA* searches), [`locate`] (the default database) and [`input`] (puzzle list
//! files). Everything else (the algorithms, the database loading, packed keys) is private.

pub mod checkpoint;
mod db;
pub mod heuristic;
pub mod input;
mod key;
pub mod locate;
mod position;
pub mod prune;
mod request;
mod search;

pub use db::{Database, DbError, LoadedTable, OpenOptions, Residence};
pub use heuristic::{HeuristicChoice, HeuristicName};
pub use prune::Pruning;
pub use request::{Request, RequestError};
pub use search::{
    replay, solve, Algorithm, AlgorithmName, Dfs, Event, Hybrid, Ida, Iteration, Limits, Observer,
    ParallelIda, Search, Solution, SolveError, Stats, Stop, Weighted, MAX_THREADS,
};
