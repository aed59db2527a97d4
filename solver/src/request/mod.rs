//! The one place that turns a search as a user asks for it into a [`Search`]: [`Request`], every
//! field optional as the user gave it, whoever asked (command-line flags, the HTTP body of
//! `solver serve`, `solver compare`'s `KEY=VALUE` pairs, keyword arguments of bindings);
//! [`Request::set`] for textual keys; [`Request::fill_from`] for defaults that apply only where
//! they fit; and [`Request::resolve`], which checks everything and gives the [`Search`].
//!
//! A setting the chosen algorithm does not take is refused when it was given
//! ([`RequestError`] names the algorithms that take it): a weight with `ida`, threads with
//! `astar`. The limits (nodes, time, memory) apply to every algorithm; the heuristic and the
//! reflection are ignored by the two that use none (`bfs`, `strategic`).
//!
//! ```
//! use pdbsolver::{AlgorithmName, Request};
//!
//! let mut r = Request::default();
//! r.set("algorithm", "weighted").unwrap();
//! r.set("w", "inf").unwrap();
//! r.set("timeout", "2.5").unwrap();
//! let search = r.resolve().unwrap();
//! assert_eq!(search.algorithm.name(), AlgorithmName::Weighted);
//! assert_eq!(search.limits.timeout.map(|t| t.as_millis()), Some(2500));
//!
//! let mut ida = Request::default();
//! ida.set("threads", "1").unwrap(); // no algorithm named: one thread is ida
//! ida.set("weight", "3").unwrap();
//! assert_eq!(
//!     ida.resolve().unwrap_err().to_string(),
//!     "weight is a setting of weighted, not of ida"
//! );
//! ```

mod error;
mod key;
mod parse;

pub use error::RequestError;

use crate::heuristic::HeuristicName;
use crate::prune::{Pruning, MAX_DEPTH};
use crate::search::{
    check_threads, check_weight, check_within, Algorithm, AlgorithmName, Anytime, Dfs, Hybrid, Ida,
    Limits, ParallelIda, Search, Weighted,
};
use key::Key;
use pdbformat::Metric;
use std::time::Duration;

/// A search as a user asks for it: every field `None` unless given. [`Request::resolve`] gives
/// the [`Search`]; the heuristic (which needs databases opened) is the caller's to make from
/// [`Request::heuristic`] and [`Request::reflect`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    /// The algorithm (`None`: `anytime` when `within` is given or on boards of more than 25
    /// cells when [`Request::cells`] says so, else [`AlgorithmName::default_for`] the threads:
    /// `parallel-ida` on every core where there are several, `ida` with one thread or on one
    /// core).
    pub algorithm: Option<AlgorithmName>,
    /// The board's cells, when the caller knows the board: what the default algorithm
    /// depends on ([`AlgorithmName::default_on`]). Not a textual key.
    pub cells: Option<usize>,
    /// The move metric (`None`: `stm`).
    pub metric: Option<Metric>,
    /// The heuristic (`None`: `auto`, a database if one is given or found).
    pub heuristic: Option<HeuristicName>,
    /// Whether to add the symmetric database lookups (`None`: yes).
    pub reflect: Option<bool>,
    /// `parallel-ida`, `hybrid`, and the default algorithm: worker threads (0: one per core;
    /// at most [`crate::MAX_THREADS`]; 1 with no algorithm named: `ida`).
    pub threads: Option<usize>,
    /// `weighted`: the weight `w` of `f = g + w·h` (at least 1; infinity: greedy search).
    pub weight: Option<f64>,
    /// `anytime`: stop at a solution proven at most this many times the optimum (at least 1).
    pub within: Option<f64>,
    /// `dfs`: a fixed depth limit.
    pub depth_limit: Option<u32>,
    /// `hybrid`: positions A* stores before IDA* takes over.
    pub hybrid_nodes: Option<u64>,
    /// `ida`, `hybrid`, `parallel-ida`: the duplicate-move pruning.
    pub prune: Option<Pruning>,
    /// Stop after generating this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds (positive; infinity: no time limit).
    pub timeout: Option<f64>,
    /// Stop before the search's estimated memory exceeds this many bytes (positive).
    pub max_memory: Option<u64>,
}

impl Request {
    /// The textual keys [`Request::set`] reads, canonical names first (each also answers to
    /// its aliases and to `_` for `-`).
    pub const KEYS: [&'static str; 13] = Key::NAMES;

    /// Sets the field named `key` from its text `value`, as a user writes it: `algorithm`
    /// (`ida`, `a*`, …), `metric` (`stm`, `mtm`), `heuristic` (`auto`, `pdb`, `md`, …), `reflect` (`on`/`off`),
    /// `threads` (`t`), `weight` (`w`: a number of at least 1, or `inf`), `within` (a number
    /// of at least 1), `depth-limit`
    /// (`depth`), `hybrid-nodes` (`budget`), `prune` (`on`, `off` or a word depth; also
    /// `prune-depth`), `max-nodes` (`nodes`), `timeout` (seconds, or `none`), `max-memory`
    /// (`memory`: `512M`, `4G`, …). The value is checked at once; whether the algorithm takes
    /// the setting is checked by [`Request::resolve`].
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RequestError> {
        let key = Key::parse(key).ok_or_else(|| RequestError::unknown(key))?;
        let bad = |expected: &str| RequestError::invalid(key.name(), value, expected);
        match key {
            Key::Algorithm => {
                self.algorithm = Some(
                    AlgorithmName::parse(value)
                        .ok_or_else(|| RequestError::unknown_algorithm(value))?,
                )
            }
            Key::Metric => {
                self.metric = Some(value.parse::<Metric>().map_err(|_| bad(parse::METRIC))?)
            }
            Key::Heuristic => {
                self.heuristic = if value.trim().eq_ignore_ascii_case("auto") {
                    None
                } else {
                    Some(
                        HeuristicName::parse(value)
                            .ok_or_else(|| RequestError::unknown_heuristic(value))?,
                    )
                }
            }
            Key::Reflect => {
                self.reflect = Some(parse::switch(value).ok_or_else(|| bad(parse::SWITCH))?)
            }
            Key::Threads => {
                let n = parse::count(value).ok_or_else(|| bad(parse::THREADS))?;
                check_threads(n as usize).map_err(|_| bad(parse::THREADS))?;
                self.threads = Some(n as usize);
            }
            Key::Weight => {
                let w = parse::weight(value).ok_or_else(|| bad(parse::WEIGHT))?;
                check_weight(w).map_err(|_| bad(parse::WEIGHT))?;
                self.weight = Some(w);
            }
            Key::Within => {
                let w = parse::count_f64(value).ok_or_else(|| bad(parse::WITHIN))?;
                check_within(w).map_err(|_| bad(parse::WITHIN))?;
                self.within = Some(w);
            }
            Key::DepthLimit => {
                self.depth_limit = Some(
                    parse::count(value)
                        .and_then(|d| u32::try_from(d).ok())
                        .ok_or_else(|| bad(parse::DEPTH))?,
                )
            }
            Key::HybridNodes => {
                self.hybrid_nodes = Some(parse::count(value).ok_or_else(|| bad(parse::COUNT))?)
            }
            Key::Prune => {
                self.prune = Some(parse::pruning(value).ok_or_else(|| bad(parse::PRUNE))?)
            }
            Key::MaxNodes => {
                self.max_nodes = Some(parse::count(value).ok_or_else(|| bad(parse::COUNT))?)
            }
            Key::Timeout => {
                self.timeout = Some(
                    parse::seconds(value)
                        .filter(|&t| check_timeout(t))
                        .ok_or_else(|| bad(parse::TIMEOUT))?,
                )
            }
            Key::MaxMemory => {
                self.max_memory = Some(parse::size(value).ok_or_else(|| bad(parse::SIZE))?)
            }
        }
        Ok(())
    }

    /// The algorithm asked for; when none was, `anytime` on a board of more than 25 cells
    /// ([`Request::cells`]), else [`AlgorithmName::default_for`] the threads (`parallel-ida`
    /// on every core where there are several, `ida` with `threads` 1).
    /// A `within` with no algorithm named asks for `anytime`, the one that takes it.
    pub fn algorithm_name(&self) -> AlgorithmName {
        self.algorithm.unwrap_or_else(|| match self.cells {
            _ if self.within.is_some() => AlgorithmName::Anytime,
            Some(cells) => AlgorithmName::default_on(cells, self.threads),
            None => AlgorithmName::default_for(self.threads),
        })
    }

    /// The same request for a board of `cells` cells, whose default algorithm it takes.
    pub fn on_board(&self, cells: usize) -> Request {
        Request {
            cells: Some(cells),
            ..self.clone()
        }
    }

    /// Whether the setting `key` may be given: the algorithm takes it, or no algorithm was
    /// named and it is the threads (which choose the default algorithm).
    fn takes(&self, key: Key) -> bool {
        key.taken_by(self.algorithm_name()) || (key == Key::Threads && self.algorithm.is_none())
    }

    /// The metric asked for, `stm` when none was.
    pub fn metric(&self) -> Metric {
        self.metric.unwrap_or_default()
    }

    /// Whether the symmetric database lookups are asked for (yes unless refused).
    pub fn reflect(&self) -> bool {
        self.reflect.unwrap_or(true)
    }

    /// Fills the fields not given from `defaults` where they fit: the algorithm, the
    /// heuristic, the reflection and the limits always; an algorithm's setting (threads,
    /// weight, depth limit, A* budget, pruning) only when the algorithm takes it, so that a
    /// default of several algorithms (`solver compare`'s `--weight`, the server's threads) is
    /// left out, not refused, where it does not apply.
    pub fn fill_from(&mut self, defaults: &Request) {
        self.algorithm = self.algorithm.or(defaults.algorithm);
        self.cells = self.cells.or(defaults.cells);
        self.metric = self.metric.or(defaults.metric);
        self.heuristic = self.heuristic.or(defaults.heuristic);
        self.reflect = self.reflect.or(defaults.reflect);
        self.max_nodes = self.max_nodes.or(defaults.max_nodes);
        self.timeout = self.timeout.or(defaults.timeout);
        self.max_memory = self.max_memory.or(defaults.max_memory);
        if self.takes(Key::Threads) {
            self.threads = self.threads.or(defaults.threads);
        }
        let name = self.algorithm_name();
        let fits = |k: Key| k.taken_by(name);
        if fits(Key::Weight) {
            self.weight = self.weight.or(defaults.weight);
        }
        if fits(Key::Within) {
            self.within = self.within.or(defaults.within);
        }
        if fits(Key::DepthLimit) {
            self.depth_limit = self.depth_limit.or(defaults.depth_limit);
        }
        if fits(Key::HybridNodes) {
            self.hybrid_nodes = self.hybrid_nodes.or(defaults.hybrid_nodes);
        }
        if fits(Key::Prune) {
            self.prune = self.prune.or(defaults.prune);
        }
    }

    /// Checks the request and makes its [`Search`]: the algorithm with its settings (defaults
    /// for those not given) and the limits, with no hooks (the caller attaches an interrupt
    /// flag or an observer). Refuses a setting the algorithm does not take, and values out of
    /// range (a weight or a `within` below 1, more than [`crate::MAX_THREADS`] threads, a timeout that is
    /// not positive, a word depth beyond [`crate::prune::MAX_DEPTH`], no memory).
    pub fn resolve(&self) -> Result<Search, RequestError> {
        let name = self.algorithm_name();
        let given = [
            (Key::Threads, self.threads.is_some()),
            (Key::Weight, self.weight.is_some()),
            (Key::Within, self.within.is_some()),
            (Key::DepthLimit, self.depth_limit.is_some()),
            (Key::HybridNodes, self.hybrid_nodes.is_some()),
            (Key::Prune, self.prune.is_some()),
        ];
        if let Some((key, _)) = given.iter().find(|(k, given)| *given && !self.takes(*k)) {
            return Err(RequestError::not_taken(*key, name));
        }
        let invalid =
            |key: Key, value: String, expected| RequestError::invalid(key.name(), &value, expected);
        if let Some(w) = self.weight {
            check_weight(w).map_err(|_| invalid(Key::Weight, w.to_string(), parse::WEIGHT))?;
        }
        if let Some(w) = self.within {
            check_within(w).map_err(|_| invalid(Key::Within, w.to_string(), parse::WITHIN))?;
        }
        if let Some(n) = self.threads {
            check_threads(n).map_err(|_| invalid(Key::Threads, n.to_string(), parse::THREADS))?;
        }
        if let Some(Pruning::Depth(d)) = self.prune {
            if !(1..=MAX_DEPTH).contains(&d) {
                return Err(invalid(Key::Prune, d.to_string(), parse::PRUNE));
            }
        }
        let timeout = match self.timeout {
            Some(t) if !check_timeout(t) => {
                return Err(invalid(Key::Timeout, t.to_string(), parse::TIMEOUT))
            }
            // Beyond what a `Duration` holds (centuries): no limit, as infinity.
            Some(t) => Duration::try_from_secs_f64(t).ok(),
            None => None,
        };
        if self.max_memory == Some(0) {
            return Err(invalid(Key::MaxMemory, "0".into(), parse::SIZE));
        }
        let pruning = self.prune.unwrap_or_default();
        let threads = self.threads.unwrap_or(0);
        let algorithm = match name {
            AlgorithmName::Ida => Algorithm::Ida(Ida {
                pruning,
                ..Ida::default()
            }),
            AlgorithmName::Hybrid => Algorithm::Hybrid(Hybrid {
                budget: self.hybrid_nodes,
                threads,
                pruning,
            }),
            AlgorithmName::ParallelIda => Algorithm::ParallelIda(ParallelIda { threads, pruning }),
            AlgorithmName::Dfs => Algorithm::Dfs(Dfs {
                depth_limit: self.depth_limit,
            }),
            AlgorithmName::Weighted => Algorithm::Weighted(Weighted {
                weight: self.weight.unwrap_or(Weighted::default().weight),
            }),
            AlgorithmName::Anytime => Algorithm::Anytime(Anytime {
                within: self.within,
            }),
            other => Algorithm::from(other),
        };
        Ok(Search {
            metric: self.metric(),
            limits: Limits {
                max_nodes: self.max_nodes,
                timeout,
                max_memory: self.max_memory,
            },
            ..Search::new(algorithm)
        })
    }
}

/// Whether `t` seconds is a timeout: positive (infinity is none).
fn check_timeout(t: f64) -> bool {
    t > 0.0
}

#[cfg(test)]
mod tests;
