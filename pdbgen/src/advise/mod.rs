//! The advisor: which partition to build, predicted before building. For each partition (given,
//! or found by searching the partitions of [`candidates`] that fit the memory): its tables'
//! entries and bytes, the build's time and peak memory, and the nodes the solver's default
//! search (IDA* with the reflected lookups, duplicate-move pruning, one thread) would expand on
//! a random position. Nothing large is built: every pattern's exact distance is computed on a
//! seeded sample of random positions by a search in the pattern's own space ([`distance`]), the
//! patterns summed on the same position and maximised over the views as the solver does, and
//! the nodes predicted from that sample ([`predict`]).

mod calibrate;
pub mod candidates;
mod depth;
pub mod distance;
pub mod predict;
pub mod sample;
mod sizes;

pub use calibrate::{calibrate_ns_per_entry, LARGE_TABLE_SLOWDOWN};
pub use depth::{DEPTH_PER_MANHATTAN, EXACT_CELLS};
pub use predict::TreeSizes;
pub use sizes::{EncodingSize, Sizes, MAX_TABLE_ENTRIES};

use crate::pool::in_pool;
use distance::{PatternSpace, MAX_PATTERN_TILES};
use pdbformat::error::PatternError;
use pdbformat::units::{approx_bytes, bytes};
use pdbformat::{Goal, Partition, Pattern, TableKind};
use predict::{eta, mean_kre_nodes, Start};
use rayon::prelude::*;
use sizes::Sizer;
use std::collections::HashMap;

/// Receives the advisor's progress; every method has an empty default. Calls come from worker
/// threads, per pattern and position, never more often.
pub trait AdviseObserver: Sync {
    /// A stage starts: `what` it does, in words, in `total` steps.
    fn stage(&self, _what: &str, _total: u64) {}
    /// `steps` more steps of the current stage are done.
    fn advanced(&self, _steps: u64) {}
}

/// An observer that ignores everything.
pub struct NoAdviseProgress;

impl AdviseObserver for NoAdviseProgress {}

/// Why the advisor cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum AdviseError {
    /// A sample of no positions predicts nothing.
    #[error("the sample needs at least one position (--samples 0)")]
    NoSamples,
    /// A partition that is not one of the board's tiles.
    #[error("partition {spec}: {source}")]
    Partition {
        /// The partition as given.
        spec: String,
        /// What is wrong.
        source: PatternError,
    },
    /// No partition of the search space fits the memory.
    #[error(
        "no partition searched fits {memory}: tables of a single tile already take {smallest}"
    )]
    NothingFits {
        /// The memory, in words.
        memory: String,
        /// The bytes of the smallest tables.
        smallest: String,
    },
    /// The worker pool could not start.
    #[error(transparent)]
    Pool(#[from] rayon::ThreadPoolBuildError),
}

/// What to advise on.
#[derive(Clone, Debug)]
pub struct AdviseRequest {
    /// Goal (and board).
    pub goal: Goal,
    /// Kind of the tables.
    pub kind: TableKind,
    /// Partitions to compare, in order (the first is the reference of the ratios); empty: search
    /// the partitions of [`candidates`] that fit `max_memory`.
    pub partitions: Vec<Partition>,
    /// Bytes the tables may take as the solver holds them.
    pub max_memory: u64,
    /// Random positions in the sample.
    pub samples: usize,
    /// Seed of the sample.
    pub seed: u64,
    /// Whether the search takes the reflected lookups (the solver's default: yes).
    pub reflect: bool,
    /// How many partitions a search reports.
    pub best: usize,
    /// Worker threads (all cores when `None`), of the advisor and of the builds it times.
    pub threads: Option<usize>,
    /// Wall time per searched entry of a build on `threads`, in nanoseconds
    /// ([`calibrate_ns_per_entry`]).
    pub ns_per_entry: f64,
}

/// The advice on one partition.
#[derive(Clone, Debug)]
pub struct Advice {
    /// The partition, as `pdbgen build --partition` takes it when written.
    pub partition: Partition,
    /// Its sizes and build.
    pub sizes: Sizes,
    /// Why it cannot be built or held (a table beyond 2^40 entries, or more bytes than the
    /// memory), with the size; `None` when it fits.
    pub too_large: Option<String>,
    /// Mean heuristic value on the sample (`None` where not predicted: a table too large to
    /// search its pattern's space).
    pub mean_h: Option<f64>,
    /// Clausecker's η: the mean of `B^-h` over the sample.
    pub eta: Option<f64>,
    /// Mean nodes the solver's default search expands on a random position (Korf, Reid &
    /// Edelkamp's formula).
    pub predicted_nodes: Option<f64>,
    /// `predicted_nodes` over the first partition's.
    pub ratio: Option<f64>,
}

/// The advisor's answer.
#[derive(Clone, Debug)]
pub struct Report {
    /// Partitions, in the order given or best first.
    pub advice: Vec<Advice>,
    /// Partitions whose sample was evaluated (the search's candidates).
    pub evaluated: usize,
    /// The brute-force tree's asymptotic branching factor (η's `B`).
    pub branching_factor: f64,
    /// Whether the optimal depths of the sample are exact (small boards) or estimated.
    pub exact_depths: bool,
    /// Mean optimal depth of the sample.
    pub mean_depth: f64,
}

/// Exact pattern distances on the sample, computed once per pattern.
struct Distances {
    /// Every view of every sampled position.
    positions: Vec<Vec<Vec<u8>>>,
    /// `by_pattern[p][view][sample]`.
    by_pattern: HashMap<Pattern, Vec<Vec<u32>>>,
}

impl Distances {
    /// Computes the distances of the patterns of `patterns` not yet known.
    fn add(&mut self, goal: &Goal, patterns: &[Pattern], obs: &dyn AdviseObserver) {
        let new: Vec<&Pattern> = patterns
            .iter()
            .filter(|p| !self.by_pattern.contains_key(*p))
            .collect();
        let views = self.positions.len();
        let samples = self.positions[0].len();
        obs.stage(
            "pattern distances on the sample",
            (new.len() * views * samples) as u64,
        );
        let results: Vec<(Pattern, Vec<Vec<u32>>)> = new
            .par_iter()
            .map(|&p| {
                let space = PatternSpace::new(goal, p);
                let d = self
                    .positions
                    .iter()
                    .map(|pos| {
                        pos.par_iter()
                            .map(|t| {
                                let d = space.distance(t);
                                obs.advanced(1);
                                d
                            })
                            .collect()
                    })
                    .collect();
                (p.clone(), d)
            })
            .collect();
        self.by_pattern.extend(results);
    }

    /// The heuristic of `partition` on every sampled position: the sum over its patterns,
    /// maximised over the views.
    fn values(&self, partition: &Partition) -> Vec<u32> {
        let samples = self.positions[0].len();
        (0..samples)
            .map(|s| {
                (0..self.positions.len())
                    .map(|v| {
                        partition
                            .patterns()
                            .iter()
                            .map(|p| self.by_pattern[p][v][s])
                            .sum::<u32>()
                    })
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }
}

/// Whether the sample can be searched in every pattern's space (no table beyond 2^40 entries,
/// no pattern beyond [`MAX_PATTERN_TILES`]).
fn predictable(partition: &Partition, sizes: &Sizes) -> bool {
    sizes.tables.iter().all(Option::is_some)
        && partition
            .patterns()
            .iter()
            .all(|p| p.len() <= MAX_PATTERN_TILES)
}

/// Why `sizes` cannot be built or held within `memory`, if so.
fn too_large(sizes: &Sizes, memory: u64) -> Option<String> {
    if sizes.tables.iter().any(Option::is_none) {
        return Some(format!(
            "a table exceeds 2^40 entries (at least {:.3e} entries in all)",
            sizes.entries
        ));
    }
    (sizes.raw_bytes > memory as f64).then(|| {
        format!(
            "{} as {} exceeds the memory ({})",
            approx_bytes(sizes.raw_bytes),
            sizes.encoding,
            bytes(memory)
        )
    })
}

/// Advises on `req` (see [`AdviseRequest`]); `tree(depth)` gives the brute-force tree of the
/// search to `depth` ([`TreeSizes::parent_pruning`], or the solver's duplicate-move machine's).
pub fn advise(
    req: &AdviseRequest,
    tree: &(dyn Fn(usize) -> TreeSizes + Sync),
    obs: &dyn AdviseObserver,
) -> Result<Report, AdviseError> {
    if req.samples == 0 {
        return Err(AdviseError::NoSamples);
    }
    for p in &req.partitions {
        p.check_complete(req.goal.board())
            .map_err(|source| AdviseError::Partition {
                spec: p.to_string(),
                source,
            })?;
    }
    in_pool(req.threads, || run(req, tree, obs))
}

/// [`advise`] in the worker pool.
fn run(
    req: &AdviseRequest,
    tree: &(dyn Fn(usize) -> TreeSizes + Sync),
    obs: &dyn AdviseObserver,
) -> Result<Report, AdviseError> {
    let goal = &req.goal;
    let mut sizer = Sizer::default();
    let base = sample::random_positions(goal, req.samples, req.seed);
    let views = sample::views(goal, req.reflect);
    let mut dist = Distances {
        positions: views
            .iter()
            .map(|&v| base.iter().map(|t| sample::viewed(goal, t, v)).collect())
            .collect(),
        by_pattern: HashMap::new(),
    };
    let searched = req.partitions.is_empty();
    let (partitions, evaluated) = if searched {
        search(req, &mut sizer, &mut dist, tree, obs)?
    } else {
        (req.partitions.clone(), req.partitions.len())
    };
    let mut advice: Vec<Advice> = partitions
        .into_iter()
        .map(|partition| {
            let sizes = sizer.sizes(goal, &partition, req.kind, req.threads, req.ns_per_entry);
            Advice {
                too_large: too_large(&sizes, req.max_memory),
                partition,
                sizes,
                mean_h: None,
                eta: None,
                predicted_nodes: None,
                ratio: None,
            }
        })
        .collect();
    let patterns: Vec<Pattern> = advice
        .iter()
        .filter(|a| predictable(&a.partition, &a.sizes))
        .flat_map(|a| a.partition.patterns().to_vec())
        .collect();
    dist.add(goal, &patterns, obs);
    let values: Vec<Option<Vec<u32>>> = advice
        .iter()
        .map(|a| predictable(&a.partition, &a.sizes).then(|| dist.values(&a.partition)))
        .collect();
    // The best lower bound known for each position bounds its estimated optimal depth.
    let lower: Vec<u32> = (0..base.len())
        .map(|s| values.iter().flatten().map(|v| v[s]).max().unwrap_or(0))
        .collect();
    let (depths, exact_depths) = depth::optimal_depths(goal, &base, &lower);
    let deepest = depths.iter().copied().max().unwrap_or(0) as usize;
    let tree = tree(deepest + 1);
    let b = tree.branching_factor();
    for (a, v) in advice.iter_mut().zip(&values) {
        let Some(v) = v else { continue };
        let starts: Vec<Start> = base
            .iter()
            .zip(v)
            .zip(&depths)
            .map(|((t, &h), &depth)| Start {
                blank: t.iter().position(|&x| x == 0).expect("a blank"),
                h,
                depth,
            })
            .collect();
        a.mean_h = Some(v.iter().map(|&h| h as f64).sum::<f64>() / v.len() as f64);
        a.eta = Some(eta(v, b));
        a.predicted_nodes = Some(mean_kre_nodes(&starts, &tree));
    }
    if searched {
        advice.sort_by(|x, y| {
            let key = |a: &Advice| a.predicted_nodes.unwrap_or(f64::INFINITY);
            key(x).total_cmp(&key(y))
        });
        advice.truncate(req.best);
    }
    let reference = advice.first().and_then(|a| a.predicted_nodes);
    for a in &mut advice {
        a.ratio = a.predicted_nodes.zip(reference).map(|(n, r)| n / r);
    }
    Ok(Report {
        advice,
        evaluated,
        branching_factor: b,
        exact_depths,
        mean_depth: depths.iter().map(|&d| d as f64).sum::<f64>() / depths.len() as f64,
    })
}

/// Boards of more cells than this search groups of the largest size only.
pub const LARGE_BOARD_CELLS: usize = 25;

/// The search: the partitions of [`candidates::partitions`] that fit, ranked by η on the
/// sample; the best `3 × best` of them are returned for the full prediction, with the number
/// evaluated.
fn search(
    req: &AdviseRequest,
    sizer: &mut Sizer,
    dist: &mut Distances,
    tree: &(dyn Fn(usize) -> TreeSizes + Sync),
    obs: &dyn AdviseObserver,
) -> Result<(Vec<Partition>, usize), AdviseError> {
    let goal = &req.goal;
    let cells = goal.board().cells();
    let encoding_bytes = |sizer: &mut Sizer, k: usize| -> Option<u64> {
        let e = sizer.entries(goal, k, req.kind)?;
        Some(match req.kind {
            TableKind::ZeroAware => e.div_ceil(8),
            TableKind::ZeroUnaware => e,
        })
    };
    let mut by_size = HashMap::new();
    let mut kmax = 0;
    for k in 1..cells.min(MAX_PATTERN_TILES + 1) {
        match encoding_bytes(sizer, k) {
            Some(b) if b <= req.max_memory => {
                by_size.insert(k, b);
                kmax = k;
            }
            _ => break,
        }
    }
    if kmax == 0 {
        return Err(AdviseError::NothingFits {
            memory: bytes(req.max_memory),
            smallest: encoding_bytes(sizer, 1).map_or("more".into(), bytes),
        });
    }
    // On boards beyond 25 cells each pattern's searches take a fraction of a second per
    // position: only the largest size (and one smaller remainder group) is tried there.
    let smallest = if cells > LARGE_BOARD_CELLS {
        kmax
    } else {
        kmax.saturating_sub(2).max(1)
    };
    let sizes: Vec<usize> = (smallest..=kmax).rev().collect();
    let found = candidates::partitions(goal, &sizes, &|k| by_size.get(&k).copied(), req.max_memory);
    if found.is_empty() {
        return Err(AdviseError::NothingFits {
            memory: bytes(req.max_memory),
            smallest: bytes(by_size[&1] * (cells as u64 - 1)),
        });
    }
    let mut patterns: Vec<Pattern> = found.iter().flat_map(|p| p.patterns().to_vec()).collect();
    patterns.sort();
    patterns.dedup();
    dist.add(goal, &patterns, obs);
    let b = tree(64).branching_factor();
    let mut ranked: Vec<(f64, Partition)> = found
        .iter()
        .map(|p| (eta(&dist.values(p), b), p.clone()))
        .collect();
    ranked.sort_by(|x, y| x.0.total_cmp(&y.0));
    let evaluated = ranked.len();
    Ok((
        ranked
            .into_iter()
            .take(3 * req.best.max(1))
            .map(|(_, p)| p)
            .collect(),
        evaluated,
    ))
}
