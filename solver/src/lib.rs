#![doc = include_str!("../README.md")]

pub mod checkpoint;
mod db;
pub mod heuristic;
pub mod input;
mod key;
pub mod locate;
mod position;
pub mod prune;
mod request;
mod resolve;
mod search;

pub use db::{Database, DbError, LoadedTable, OpenOptions, Residence};
pub use heuristic::{HeuristicChoice, HeuristicName};
pub use prune::Pruning;
pub use request::{Request, RequestError};
pub use resolve::{
    DbChoice, DefaultPlan, DefaultSource, Quiet, ResolveError, ResolveObserver, ResolveOptions,
    Resolved, Resolver, ServedDefault,
};
pub use search::{
    mtm_length, replay, solve, Algorithm, AlgorithmName, Anytime, Dfs, Event, Hybrid, Ida,
    Improvement, Iteration, Limits, Observer, ParallelIda, Search, Solution, SolveError, Stats,
    Stop, Weighted, ANYTIME_DEFAULT_SECONDS, ANYTIME_START_WEIGHT, MAX_THREADS,
};
