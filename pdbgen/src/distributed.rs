//! The distributed build: the byte BFS across the ranks of an MPI job (`mpirun -np N pdbgen
//! build --distributed`), each rank owning one contiguous slice of every table's index range.
//!
//! Every level runs the same per-slice code as the single-process build ([`crate::slice`])
//! under the same level loop ([`crate::bfs::run_levels`]): each rank expands its slice in
//! batches of work units; neighbours owned elsewhere go into one outbox per owner, which is
//! sent in bounded all-to-all exchanges (at most [`EXCHANGE_ENTRIES`] indices received per
//! rank and piece, counts well under 2^31) and claimed by their owner. Pull levels send each
//! owner the neighbours to look at and get one byte back per neighbour. A sum over all ranks
//! decides when the BFS ends. Rank 0 then streams every slice, in rank order, through the
//! file writer (which hashes and compresses as it goes), so no rank ever holds a whole table,
//! and renames the file into place only after every rank has delivered its slice.
//!
//! `docs/DISTRIBUTED.md` describes the design and the memory and traffic of a large build.

use crate::bfs::{run_levels, BfsStart};
use crate::build::BuildRequest;
use crate::error::BuildError;
use crate::moves::ZeroAwareMoves;
use crate::observer::{BuildObserver, TableSummary};
use crate::slice::{Slice, CHUNK_ENTRIES};
use crate::stats::ValueStats;
use mpi::collective::SystemOperation;
use mpi::datatype::{Equivalence, Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use pdbformat::format::{encode_entries, write_pdb_streamed, Encoding, TableShape};
use pdbformat::rank::{binomial, entry_count, ZeroAwareIndex};
use pdbformat::{Pattern, TableKind};
use rayon::prelude::*;
use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// Indices one rank receives at most per exchange piece (64 MiB of `u64`): each owner gets at
/// most `EXCHANGE_ENTRIES / ranks` of them from each rank (at least [`MIN_PER_OWNER`]).
pub const EXCHANGE_ENTRIES: usize = 1 << 23;

/// The smallest per-owner share of a piece, so that a job of many ranks does not exchange
/// tiny messages.
pub const MIN_PER_OWNER: usize = 1 << 16;

/// Bytes per message of the slices streamed to rank 0 for the file.
const STREAM_BYTES: usize = 64 << 20;

/// Which rank owns which entries: equal slices of whole 64-entry blocks (so that every slice's
/// `u4` and `bit1` bytes start on a byte of the file), the last rank taking the rest.
#[derive(Clone, Debug)]
pub struct Ownership {
    total: u64,
    per_rank: u64,
}

impl Ownership {
    /// `total` entries over `ranks` ranks.
    pub fn new(total: u64, ranks: usize) -> Ownership {
        let ranks = ranks.max(1);
        let per_rank = total.div_ceil(ranks as u64).div_ceil(64).max(1) * 64;
        Ownership { total, per_rank }
    }

    /// The entries rank `r` owns (empty for trailing ranks of a tiny table).
    pub fn range(&self, r: usize) -> Range<u64> {
        let lo = (r as u64 * self.per_rank).min(self.total);
        let hi = ((r as u64 + 1) * self.per_rank).min(self.total);
        lo..hi
    }

    /// The rank that owns entry `n`.
    #[inline]
    pub fn owner(&self, n: u64) -> usize {
        (n / self.per_rank) as usize
    }

    /// The largest number of entries a rank owns.
    pub fn largest(&self) -> u64 {
        self.per_rank.min(self.total)
    }
}

/// Sizes of a distributed build, known before it starts (per rank: every rank runs the same
/// plan on its own slice).
#[derive(Clone, Debug)]
pub struct DistributedPlan {
    /// Ranks of the job.
    pub ranks: usize,
    /// Entries of each table.
    pub entries: Vec<u64>,
    /// Peak bytes of memory one rank holds: its slice of the table being built (a byte per
    /// entry), its encoded slices of the finished tables, the index's move tables and the
    /// exchange buffers.
    pub peak_bytes_per_rank: u64,
    /// Bytes of exchange buffers per rank (outboxes, one received piece, the answers of pull
    /// levels), included in the peak.
    pub exchange_bytes: u64,
    /// Processor time of the whole job's BFS levels, in core-seconds (see
    /// [`crate::build::NS_PER_ENTRY`]).
    pub core_seconds: f64,
}

/// Plans `req` over `ranks` ranks.
pub fn plan(req: &BuildRequest, ranks: usize) -> Result<DistributedPlan, BuildError> {
    check_request(req)?;
    let board = req.goal.board();
    let threads = req
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .max(1) as u64;
    let per_owner = per_owner(ranks) as u64;
    // Outboxes fill up to a piece per owner plus one batch of work units' output (a unit's
    // frontier is at most half its entries, of the parity in play, with at most 4 moves per
    // tile); one received piece; pull levels add the asking entries and the answers.
    let exchange = |k: u64| {
        let batch = threads * CHUNK_ENTRIES / 2 * 4 * k;
        (per_owner * ranks as u64 + batch) * 8 * 2 + per_owner * ranks as u64 * 9
    };
    let mut entries = Vec::new();
    let mut kept = 0u64;
    let mut peak = 0u64;
    let mut exchange_peak = 0;
    let mut total = 0u64;
    for p in req.partition.patterns() {
        let k = p.len();
        let n = entry_count(board, k, TableKind::ZeroAware).map_err(index_error(p))?;
        let own = Ownership::new(n, ranks);
        let sets = binomial(board.cells(), k);
        let index_bytes = sets * (board.cells() as u64 + 24);
        let ex = exchange(k as u64);
        exchange_peak = exchange_peak.max(ex);
        peak = peak.max(kept + own.largest() + index_bytes + ex);
        kept += req.encoding.encoded_len(own.largest());
        total += n;
        entries.push(n);
    }
    Ok(DistributedPlan {
        ranks,
        entries,
        peak_bytes_per_rank: peak.max(kept),
        exchange_bytes: exchange_peak,
        core_seconds: total as f64 * crate::build::NS_PER_ENTRY * 1e-9,
    })
}

/// Refuses what the distributed build does not make.
fn check_request(req: &BuildRequest) -> Result<(), BuildError> {
    if req.kind != TableKind::ZeroAware {
        return Err(if req.encoding == Encoding::Bit1 {
            BuildError::Bit1NeedsZeroAware
        } else {
            BuildError::DistributedNeedsZeroAware
        });
    }
    Ok(())
}

/// Checks on every rank that its share of `plan` fits the memory it has available (unless
/// `ignore`); every rank learns of the first rank short of memory and returns the same error.
pub fn check_memory(
    world: &SimpleCommunicator,
    plan: &DistributedPlan,
    ignore: bool,
) -> Result<(), BuildError> {
    let available = pdbformat::system::available_memory().unwrap_or(u64::MAX);
    let short = (!ignore && plan.peak_bytes_per_rank > available) as u64;
    let mut all = vec![0u64; world.size() as usize * 2];
    world.all_gather_into(&[short, available][..], &mut all[..]);
    match all.chunks(2).position(|c| c[0] == 1) {
        None => Ok(()),
        Some(rank) => {
            // Only the rank that is short knows its host name; the message is for rank 0.
            let host = if rank == world.rank() as usize {
                mpi::environment::processor_name().unwrap_or_default()
            } else {
                format!("rank {rank}'s host")
            };
            Err(BuildError::RankMemory {
                rank,
                host,
                needed: plan.peak_bytes_per_rank,
                available: all[2 * rank + 1],
            })
        }
    }
}

/// A table of a distributed build: its summary and the traffic between the ranks.
#[derive(Clone, Debug)]
pub struct DistributedTable {
    /// The table's figures (the same as a single-process build's).
    pub summary: TableSummary,
    /// Bytes the ranks sent each other at each BFS level (8 per neighbour index pushed to its
    /// owner, 9 per pull query and its answer), summed over the ranks.
    pub exchanged: Vec<u64>,
}

/// Tuning of a distributed build.
#[derive(Clone, Copy, Debug, Default)]
pub struct DistributedOptions {
    /// Indices each rank sends each owner per exchange piece (`None`: `2^23 / ranks`, at least
    /// [`MIN_PER_OWNER`]). Smaller bounds the buffers tighter and makes the ranks meet more
    /// often.
    pub per_owner: Option<usize>,
}

/// Builds every table of `req` across the ranks of `world` and writes one file at `path`
/// (on rank 0's file system, through a temporary file renamed into place once every rank has
/// delivered its slices). Every rank must call it; `obs` sees the whole job's levels (give
/// rank 0 a progress display and the others [`crate::NoProgress`]). Returns the same
/// summaries and traffic on every rank. Symmetric images are searched like any table (their BFS gives the
/// same bytes as the single-process build's derivation).
///
/// An error returned on one rank only (rank 0's file cannot be written) leaves the others
/// waiting: the caller must then end the whole job (`MPI_Abort`, as `pdbgen build` does).
pub fn build_file_distributed(
    req: &BuildRequest,
    path: &Path,
    world: &SimpleCommunicator,
    opts: DistributedOptions,
    obs: &dyn BuildObserver,
) -> Result<Vec<DistributedTable>, BuildError> {
    check_request(req)?;
    // MPI calls stay on this thread (the communicator is not shared between threads); the
    // parallel parts run in the pool.
    let pool = Pool::new(req.threads)?;
    {
        let mut slices: Vec<(Vec<u8>, TableSummary)> = Vec::new();
        let mut traffic = Vec::new();
        for (i, p) in req.partition.patterns().iter().enumerate() {
            let (entries, summary, bytes) = build_slice(req, p, i, world, &pool, opts, obs)?;
            traffic.push(bytes);
            if summary.unreached > 0 && req.encoding != Encoding::U8 {
                return Err(BuildError::UnreachedNeedsU8 {
                    pattern: p.to_string(),
                });
            }
            if req.encoding == Encoding::U4 && summary.max_value > 15 {
                return Err(BuildError::TooLargeForU4 {
                    pattern: p.to_string(),
                    max: summary.max_value,
                });
            }
            if summary.histogram.len() > u8::MAX as usize {
                return Err(BuildError::TooDeep {
                    pattern: p.to_string(),
                });
            }
            slices.push((encode_entries(&entries, req.encoding), summary));
        }
        write_slices(req, path, world, &slices)?;
        Ok(slices
            .into_iter()
            .zip(traffic)
            .map(|((_, summary), exchanged)| DistributedTable { summary, exchanged })
            .collect())
    }
}

/// The worker threads of one rank: a pool of the requested size, or rayon's global pool.
struct Pool(Option<rayon::ThreadPool>);

impl Pool {
    fn new(threads: Option<usize>) -> Result<Pool, BuildError> {
        Ok(Pool(match threads {
            None => None,
            Some(n) => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build()?,
            ),
        }))
    }

    /// Runs `f` (which may use rayon's parallel iterators) on the pool's threads.
    fn run<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match &self.0 {
            Some(p) => p.install(f),
            None => f(),
        }
    }

    /// Worker threads.
    fn threads(&self) -> usize {
        self.0
            .as_ref()
            .map_or_else(rayon::current_num_threads, |p| p.current_num_threads())
    }
}

/// Runs the BFS of one table over the ranks of `world`: this rank's slice of the byte entries,
/// and the whole table's summary (the same on every rank).
fn build_slice(
    req: &BuildRequest,
    pattern: &Pattern,
    table: usize,
    world: &SimpleCommunicator,
    pool: &Pool,
    opts: DistributedOptions,
    obs: &dyn BuildObserver,
) -> Result<(crate::words::Entries, TableSummary, Vec<u64>), BuildError> {
    let start = Instant::now();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let idx = ZeroAwareIndex::new(req.goal.board(), pattern.len()).map_err(index_error(pattern))?;
    let moves = ZeroAwareMoves::new(req.goal.board(), &idx);
    let bfs = BfsStart::new(&req.goal, pattern, &idx, &moves);
    let own = Ownership::new(idx.len(), ranks);
    let accept = |_: usize, _: u8| true;
    let slice = Slice::new(&moves, &idx, own.range(rank), bfs.goal_parity, &accept);
    if slice.owns(bfs.goal_index) {
        slice.claim(bfs.goal_index, 0);
    }
    obs.table_started(table, pattern, TableKind::ZeroAware, idx.len());
    let mut exchange = Exchange::new(world, &own, pool, opts);
    // Progress: this rank's share of the level, scaled to the whole table.
    let scale = idx.len() as f64 / (own.range(rank).end - own.range(rank).start).max(1) as f64;
    run_levels(&bfs, table, obs, |depth, pull| {
        let scanned = AtomicU64::new(0);
        let report = |entries: u64| {
            let s = scanned.fetch_add(entries, Relaxed) + entries;
            obs.chunk_done(table, (s as f64 * scale) as u64);
        };
        exchange.sent.push(0);
        let claimed = if pull {
            exchange.pull_level(&slice, depth, &report)
        } else {
            exchange.push_level(&slice, depth, &report)
        };
        exchange.sum(claimed)
    });
    let entries = slice.into_entries();
    let mut counts = pool.run(|| ValueStats::of(&entries).counts());
    let local = counts;
    world.all_reduce_into(&local[..], &mut counts[..], SystemOperation::sum());
    let stats = ValueStats::from_counts(&counts);
    let summary = TableSummary {
        pattern: pattern.clone(),
        kind: TableKind::ZeroAware,
        entries: idx.len(),
        unreached: stats.unreached,
        max_value: stats.max_value(),
        mean_value: stats.mean(),
        histogram: stats.histogram.clone(),
        seconds: start.elapsed().as_secs_f64(),
    };
    obs.table_done(table, &summary);
    let sent = exchange.sent;
    let mut exchanged = vec![0u64; sent.len()];
    world.all_reduce_into(&sent[..], &mut exchanged[..], SystemOperation::sum());
    Ok((entries, summary, exchanged))
}

/// The per-level traffic between the ranks: outboxes (one per owner) and the bounded
/// all-to-all exchanges that empty them.
struct Exchange<'w> {
    world: &'w SimpleCommunicator,
    pool: &'w Pool,
    own: Ownership,
    ranks: usize,
    per_owner: usize,
    batch: usize,
    /// Bytes this rank sent to the others, per level.
    sent: Vec<u64>,
}

impl<'w> Exchange<'w> {
    fn new(
        world: &'w SimpleCommunicator,
        own: &Ownership,
        pool: &'w Pool,
        opts: DistributedOptions,
    ) -> Exchange<'w> {
        let ranks = world.size() as usize;
        Exchange {
            world,
            pool,
            own: own.clone(),
            ranks,
            per_owner: opts.per_owner.unwrap_or_else(|| per_owner(ranks)).max(1),
            batch: pool.threads().max(1),
            sent: Vec::new(),
        }
    }

    /// The sum of `x` over every rank.
    fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&x, &mut total, SystemOperation::sum());
        total
    }

    /// One push level: this rank expands its frontier a batch of work units at a time; the
    /// neighbours owned elsewhere are sent to their owners, who claim them. Returns the entries
    /// this rank claimed.
    fn push_level<A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, A>,
        depth: u8,
        report: &(dyn Fn(u64) + Sync),
    ) -> u64 {
        let mut outbox: Vec<Vec<u64>> = vec![Vec::new(); self.ranks];
        let mut claimed = 0u64;
        let mut next = 0;
        loop {
            // Expand without waiting for the others until an outbox holds a full share or the
            // slice is done: the ranks meet only then.
            let done = loop {
                let units = &slice.chunks()[next..(next + self.batch).min(slice.chunks().len())];
                next += units.len();
                let (own, ranks) = (&self.own, self.ranks);
                let results: Vec<(u64, Vec<Vec<u64>>)> = self.pool.run(|| {
                    units
                        .par_iter()
                        .map(|sets| {
                            let mut out = vec![Vec::new(); ranks];
                            let (c, entries) =
                                slice.push(sets.clone(), depth, &mut |n| out[own.owner(n)].push(n));
                            report(entries);
                            (c, out)
                        })
                        .collect()
                });
                for (c, out) in results {
                    claimed += c;
                    for (o, v) in outbox.iter_mut().zip(out) {
                        o.extend_from_slice(&v);
                    }
                }
                if next == slice.chunks().len() {
                    break true;
                }
                if outbox.iter().any(|v| v.len() >= self.per_owner) {
                    break false;
                }
            };
            let (pieces, busy) = self.pieces(&outbox, done);
            for piece in 0..pieces {
                let parts = self.piece(&outbox, piece);
                self.count_sent(&parts, 8);
                let (received, _) = all_to_all_v(self.world, &parts);
                claimed += self.pool.run(|| {
                    received
                        .par_chunks(1 << 14)
                        .map(|c| c.iter().filter(|&&n| slice.claim(n, depth + 1)).count() as u64)
                        .sum::<u64>()
                });
            }
            if pieces > 0 {
                outbox.iter_mut().for_each(Vec::clear);
            }
            if busy == 0 {
                return claimed;
            }
        }
    }

    /// One pull level: each unreached entry of this rank without an owned neighbour at `depth`
    /// asks the owners of its other neighbours, who answer one byte per neighbour (1: at
    /// `depth`); it is claimed on any 1. Returns the entries this rank claimed.
    fn pull_level<A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, A>,
        depth: u8,
        report: &(dyn Fn(u64) + Sync),
    ) -> u64 {
        let mut queries: Vec<Vec<u64>> = vec![Vec::new(); self.ranks];
        let mut askers: Vec<Vec<u64>> = vec![Vec::new(); self.ranks];
        let mut claimed = 0u64;
        let mut next = 0;
        loop {
            // As in push levels: the ranks meet when an outbox is full or the slice is done.
            let done = loop {
                let units = &slice.chunks()[next..(next + self.batch).min(slice.chunks().len())];
                next += units.len();
                type Asked = (Vec<Vec<u64>>, Vec<Vec<u64>>);
                let (own, ranks) = (&self.own, self.ranks);
                let results: Vec<(u64, Asked)> = self.pool.run(|| {
                    units
                        .par_iter()
                        .map(|sets| {
                            let mut q = vec![Vec::new(); ranks];
                            let mut a = vec![Vec::new(); ranks];
                            let (c, entries) = slice.pull(sets.clone(), depth, &mut |i, others| {
                                for &n in others {
                                    let o = own.owner(n);
                                    q[o].push(n);
                                    a[o].push(i);
                                }
                            });
                            report(entries);
                            (c, (q, a))
                        })
                        .collect()
                });
                for (c, (q, a)) in results {
                    claimed += c;
                    for (o, v) in queries.iter_mut().zip(q) {
                        o.extend_from_slice(&v);
                    }
                    for (o, v) in askers.iter_mut().zip(a) {
                        o.extend_from_slice(&v);
                    }
                }
                if next == slice.chunks().len() {
                    break true;
                }
                if queries.iter().any(|v| v.len() >= self.per_owner) {
                    break false;
                }
            };
            let (pieces, busy) = self.pieces(&queries, done);
            for piece in 0..pieces {
                let parts = self.piece(&queries, piece);
                // A query is an index out and a byte back.
                self.count_sent(&parts, 9);
                let (asked, counts) = all_to_all_v(self.world, &parts);
                let answers: Vec<u8> = self.pool.run(|| {
                    asked
                        .par_iter()
                        .map(|&n| (slice.get(n) == depth) as u8)
                        .collect()
                });
                let mut back = Vec::with_capacity(self.ranks);
                let mut at = 0;
                for &c in &counts {
                    back.push(&answers[at..at + c as usize]);
                    at += c as usize;
                }
                let (answered, _) = all_to_all_v(self.world, &back);
                let mut at = 0;
                for (o, part) in parts.iter().enumerate() {
                    // The same window of the askers as `piece` took of the queries.
                    let first = (piece * self.per_owner).min(askers[o].len());
                    let mine = &askers[o][first..first + part.len()];
                    let yes = &answered[at..at + part.len()];
                    at += part.len();
                    claimed += mine
                        .iter()
                        .zip(yes)
                        .filter(|&(&i, &y)| y == 1 && slice.claim(i, depth + 1))
                        .count() as u64;
                }
            }
            if pieces > 0 {
                queries.iter_mut().for_each(Vec::clear);
                askers.iter_mut().for_each(Vec::clear);
            }
            if busy == 0 {
                return claimed;
            }
        }
    }

    /// Meets the other ranks (this rank's outbox holds a full share for some owner, or its
    /// slice is done): decides with them how many pieces to exchange now (enough to empty
    /// every outbox) and how many ranks still have work units to expand.
    fn pieces(&self, outbox: &[Vec<u64>], done: bool) -> (usize, u64) {
        // Called when this rank's outbox is full or its slice done: it wants it emptied.
        let longest = outbox.iter().map(Vec::len).max().unwrap_or(0);
        let want = longest.div_ceil(self.per_owner) as u64;
        let mut pieces = 0u64;
        self.world
            .all_reduce_into(&want, &mut pieces, SystemOperation::max());
        (pieces as usize, self.sum(!done as u64))
    }

    /// Adds `bytes_each` per item of `parts` to this level's traffic.
    fn count_sent(&mut self, parts: &[&[u64]], bytes_each: u64) {
        let items: usize = parts.iter().map(|p| p.len()).sum();
        *self.sent.last_mut().expect("a level is running") += items as u64 * bytes_each;
    }

    /// Piece `piece` of every outbox: at most [`Self::per_owner`] indices per owner.
    fn piece<'a>(&self, outbox: &'a [Vec<u64>], piece: usize) -> Vec<&'a [u64]> {
        outbox
            .iter()
            .map(|v| {
                let lo = (piece * self.per_owner).min(v.len());
                let hi = ((piece + 1) * self.per_owner).min(v.len());
                &v[lo..hi]
            })
            .collect()
    }
}

/// The per-owner share of an exchange piece on a job of `ranks` ranks.
fn per_owner(ranks: usize) -> usize {
    (EXCHANGE_ENTRIES / ranks.max(1)).max(MIN_PER_OWNER)
}

/// One all-to-all exchange: `parts[r]` goes to rank `r`; returns what every rank sent here,
/// in rank order, and how many items came from each. Counts are `c_int`: every part is far
/// below 2^31 items (a piece is bounded by [`EXCHANGE_ENTRIES`]).
fn all_to_all_v<T: Equivalence + Copy + Default>(
    world: &SimpleCommunicator,
    parts: &[&[T]],
) -> (Vec<T>, Vec<Count>) {
    let send_counts: Vec<Count> = parts
        .iter()
        .map(|p| Count::try_from(p.len()).expect("exchange pieces are bounded far below 2^31"))
        .collect();
    let mut recv_counts = vec![0 as Count; parts.len()];
    world.all_to_all_into(&send_counts[..], &mut recv_counts[..]);
    let displs = |counts: &[Count]| -> Vec<Count> {
        counts
            .iter()
            .scan(0, |acc, &c| {
                let d = *acc;
                *acc += c;
                Some(d)
            })
            .collect()
    };
    // Buffers always own an allocation: an empty `Vec<u8>`'s dangling pointer is 0x1, which
    // Open MPI reads as `MPI_IN_PLACE`.
    let mut send: Vec<T> = Vec::with_capacity(parts.iter().map(|p| p.len()).sum::<usize>().max(1));
    parts.iter().for_each(|p| send.extend_from_slice(p));
    let received: usize = recv_counts.iter().map(|&c| c as usize).sum();
    let mut recv = vec![T::default(); received.max(1)];
    recv.truncate(received);
    {
        let sdispl = displs(&send_counts);
        let rdispl = displs(&recv_counts);
        let p = Partition::new(&send[..], &send_counts[..], &sdispl[..]);
        let mut q = PartitionMut::new(&mut recv[..], &recv_counts[..], &rdispl[..]);
        world.all_to_all_varcount_into(&p, &mut q);
    }
    (recv, recv_counts)
}

/// Writes the file: rank 0 streams its own slice of each table, then every other rank's in
/// rank order (received in messages of at most [`STREAM_BYTES`]), through the file writer;
/// the other ranks send theirs. The file is renamed into place only once every slice has
/// arrived; then every rank learns whether rank 0 succeeded.
fn write_slices(
    req: &BuildRequest,
    path: &Path,
    world: &SimpleCommunicator,
    slices: &[(Vec<u8>, TableSummary)],
) -> Result<(), BuildError> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let root = world.process_at_rank(0);
    if rank == 0 {
        let shapes: Vec<TableShape<'_>> = slices
            .iter()
            .map(|(_, s)| TableShape {
                kind: TableKind::ZeroAware,
                pattern: &s.pattern,
                encoding: req.encoding,
                max_value: s.max_value,
            })
            .collect();
        let mut buf = Vec::new();
        let mut fill = |i: usize, w: &mut dyn Write| -> io::Result<()> {
            w.write_all(&slices[i].0)?;
            let own = Ownership::new(slices[i].1.entries, ranks);
            for r in 1..ranks {
                let range = own.range(r);
                let mut left = req.encoding.encoded_len(range.end - range.start) as usize;
                while left > 0 {
                    let n = left.min(STREAM_BYTES);
                    buf.resize(n, 0u8);
                    world.process_at_rank(r as i32).receive_into(&mut buf[..]);
                    w.write_all(&buf)?;
                    left -= n;
                }
            }
            Ok(())
        };
        write_pdb_streamed(path, &req.goal, &shapes, &req.write, &mut fill).map_err(|source| {
            BuildError::Write {
                path: path.to_path_buf(),
                source,
            }
        })?;
    } else {
        for (bytes, _) in slices {
            for chunk in bytes.chunks(STREAM_BYTES) {
                root.send(chunk);
            }
        }
    }
    // Every rank returns once the file is in place. (A rank 0 that fails returns its error
    // without coming here, and the caller ends the job: see `build_file_distributed`.)
    world.barrier();
    Ok(())
}

/// Wraps an index error with the pattern it is about.
fn index_error(pattern: &Pattern) -> impl Fn(pdbformat::rank::IndexError) -> BuildError + '_ {
    move |source| BuildError::Index {
        pattern: pattern.to_string(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_covers_the_range_in_whole_blocks() {
        for (total, ranks) in [(1u64, 4usize), (100, 3), (64 * 7 + 5, 4), (1 << 20, 16)] {
            let own = Ownership::new(total, ranks);
            let mut next = 0;
            for r in 0..ranks {
                let range = own.range(r);
                assert_eq!(range.start, next);
                assert!(range.start.is_multiple_of(64) || range.is_empty());
                for n in [range.start, range.end.saturating_sub(1)] {
                    if !range.is_empty() {
                        assert_eq!(own.owner(n), r);
                    }
                }
                next = range.end;
            }
            assert_eq!(next, total);
        }
    }
}
