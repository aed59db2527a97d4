//! The distributed build: the BFS across the ranks of an MPI job (`mpirun -np N pdbgen build
//! --distributed`), each rank owning one contiguous slice of every table's index range, held
//! at the single-process build's bits per entry: two (the two-bit BFS of [`crate::twobit`])
//! when the output is `bit1`, a byte otherwise.
//!
//! Every level runs the same per-slice code as the single-process build ([`crate::slice`])
//! under the same level loop ([`crate::levels::run_levels`]): each rank expands its slice in
//! batches of work units; neighbours owned elsewhere go into one outbox per owner, which is
//! sent in bounded all-to-all exchanges (at most [`EXCHANGE_ENTRIES`] indices received per
//! rank and piece, counts well under 2^31) and claimed by their owner; an index travels as
//! its offset in its owner's slice, in 4 bytes where the slices allow. A rank whose outbox
//! is full calls the others to a meeting with a small message, and they join after their
//! current batch. Pull levels send each owner the neighbours to look at and get one byte
//! back per neighbour. A sum over all ranks decides when the BFS ends. A rank that waits for
//! slower ones at a meeting sleeps between tests rather than polling, leaving the processor
//! to them. Rank 0 then streams every slice, in rank order, through the
//! file writer (which hashes and compresses as it goes), so no rank ever holds a whole table,
//! and renames the file into place only after every rank has delivered its slice.
//!
//! `docs/DISTRIBUTED.md` describes the design and the memory and traffic of a large build.

use crate::build::EncodedOrRaw;
use crate::byte_table::ByteTable;
use crate::error::{BuildError, FromIndexError};
use crate::levels::{run_levels, BfsStart, Levels};
use crate::moves::ZeroAwareMoves;
use crate::observer::{BuildObserver, TableSummary};
use crate::plan::{planned_tables, BuildPlan, Images};
use crate::pool::{worker_threads, WorkerPool};
use crate::request::check_fits;
use crate::request::BuildRequest;
use crate::slice::{LevelTable, Slice, CHUNK_ENTRIES};
use crate::stats::ValueStats;
use crate::twobit::TwoBitTable;
use mpi::collective::SystemOperation;
use mpi::datatype::{Equivalence, Partition, PartitionMut};
use mpi::request::{Request, Scope};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::{Count, Rank, Tag};
use pdbformat::format::{encode_entries, write_pdb_streamed, Encoding, TableShape};
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::{Pattern, TableKind};
use rayon::prelude::*;
use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Indices one rank receives at most per exchange piece (64 MiB of `u64`): each owner gets at
/// most `EXCHANGE_ENTRIES / ranks` of them from each rank (at least [`MIN_PER_OWNER`]).
pub(crate) const EXCHANGE_ENTRIES: usize = 1 << 23;

/// The smallest per-owner share of a piece, so that a job of many ranks does not exchange
/// tiny messages.
pub(crate) const MIN_PER_OWNER: usize = 1 << 16;

/// Bytes per message of the slices streamed to rank 0 for the file.
const STREAM_BYTES: usize = 64 << 20;

/// Which rank owns which entries: one contiguous slice each, in rank order, of whole 64-entry
/// blocks (so that every slice's `u4` and `bit1` bytes start on a byte of the file), the last
/// rank taking the rest.
#[derive(Clone, Debug)]
pub struct Ownership {
    total: u64,
    /// `starts[r]`: rank `r`'s first entry; `starts[ranks]` is `total`.
    starts: Vec<u64>,
}

impl Ownership {
    /// `total` entries over `ranks` ranks in equal slices (what [`Self::balanced`] improves
    /// on, for the tests).
    #[cfg(test)]
    fn new(total: u64, ranks: usize) -> Ownership {
        let ranks = ranks.max(1);
        let per_rank = total.div_ceil(ranks as u64).div_ceil(64).max(1) * 64;
        Ownership {
            total,
            starts: (0..=ranks as u64)
                .map(|r| (r * per_rank).min(total))
                .collect(),
        }
    }

    /// The entries of the table of `idx` over `ranks` ranks in slices of about equal work:
    /// every entry is expanded once and each of its moves tried once, so a block of entries
    /// (a cell set and a blank region: all its entries have the same moves) weighs its
    /// entries times one plus its moves. On the zero-aware 4x4 7-8 the second half of the
    /// index range has 16 % more moves than the first; equal slices left the first rank
    /// waiting for the second at the end of every level.
    pub fn balanced(idx: &ZeroAwareIndex, moves: &ZeroAwareMoves<'_>, ranks: usize) -> Ownership {
        let ranks = ranks.max(1);
        let total = idx.len();
        let fact = idx.order_count();
        // Cost per entry of each block, in index order (the blocks tile the index range).
        let mut blocks = Vec::new();
        let mut work = 0u128;
        for set in 0..idx.set_count() {
            for region in idx.regions_of_set(set) {
                let cost = 1 + moves.block(set, region).len() as u64;
                blocks.push(cost);
                work += (cost * fact) as u128;
            }
        }
        let mut starts = vec![0u64; ranks + 1];
        starts[ranks] = total;
        let (mut done, mut block) = (0u128, 0usize);
        for (r, start) in starts.iter_mut().enumerate().take(ranks).skip(1) {
            let target = work * r as u128 / ranks as u128;
            while block < blocks.len() && done + (blocks[block] * fact) as u128 <= target {
                done += (blocks[block] * fact) as u128;
                block += 1;
            }
            // Inside the block that crosses the target: its entries weigh alike.
            let within = match blocks.get(block) {
                Some(&cost) => ((target - done) / cost as u128) as u64,
                None => 0,
            };
            let at = block as u64 * fact + within;
            *start = (at.div_ceil(64) * 64).min(total);
        }
        for r in 1..=ranks {
            starts[r] = starts[r].max(starts[r - 1]);
        }
        Ownership { total, starts }
    }

    /// The entries rank `r` owns (empty for trailing ranks of a tiny table).
    pub fn range(&self, r: usize) -> Range<u64> {
        self.starts[r]..self.starts[r + 1]
    }

    /// The rank that owns entry `n`.
    #[inline]
    pub fn owner(&self, n: u64) -> usize {
        self.starts[1..].partition_point(|&s| s <= n)
    }

    /// The rank that owns entry `n`, and `n`'s offset in that rank's slice.
    #[inline]
    pub fn split(&self, n: u64) -> (usize, u64) {
        let o = self.owner(n);
        (o, n - self.starts[o])
    }

    /// The largest number of entries a rank owns.
    pub fn largest(&self) -> u64 {
        self.starts
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }
}

/// Sizes of a distributed build, known before it starts: the single-process planner's
/// figures for the job, with one rank's peak, and the rank count and exchange buffers on top
/// (every rank runs the same plan on its own slice).
#[derive(Clone, Debug)]
pub struct DistributedPlan {
    /// The job's tables, bits per entry of each rank's working slice, core-seconds over all
    /// ranks and worker threads per rank, as [`crate::plan`] works them out (no table is
    /// derived: every rank searches symmetric images like any table); `peak_bytes` is what one
    /// rank holds at most: its working slice of the table being built, its encoded slices of
    /// the finished tables, the index's move tables and the exchange buffers; or, on rank 0
    /// while it writes the file, every slice it kept and one message.
    pub build: BuildPlan,
    /// Ranks of the job.
    pub ranks: usize,
    /// Bytes of exchange buffers per rank (outboxes, one piece sent and one received, the
    /// askers and answers of pull levels), included in the peak.
    pub exchange_bytes: u64,
}

/// Plans `req` over `ranks` ranks with the exchange options `opts`.
pub fn plan_distributed(
    req: &BuildRequest,
    ranks: usize,
    opts: DistributedOptions,
) -> Result<DistributedPlan, BuildError> {
    check_request(req)?;
    let board = req.goal.board();
    let tables = planned_tables(req, Images::Searched)?;
    let threads = worker_threads(req.threads) as u64;
    let share = opts.per_owner.unwrap_or_else(|| per_owner(ranks)).max(1) as u64;
    let pieces = share * ranks as u64;
    // The workers' outboxes hold at most a piece (a share per owner) plus one batch of work
    // units' output before the ranks meet (a unit's frontier is at most half its entries, of
    // the parity in play, with at most 4 moves per tile), `w` bytes an offset, and pull
    // levels keep the asking entry beside each query (as much again); one piece is copied
    // out and one received (`w` bytes an offset), and pull levels answer a byte per query
    // each way.
    let exchange = |k: u64, w: u64| {
        let batch = threads * CHUNK_ENTRIES / 2 * 4 * k;
        (pieces + batch) * w * 2 + pieces * (w + w + 2)
    };
    let (mut kept, mut peak, mut exchange_peak) = (0u64, 0u64, 0u64);
    for (p, t) in req.partition.patterns().iter().zip(&tables) {
        let k = p.len();
        let idx = ZeroAwareIndex::new(board, k).map_err(BuildError::index_error(p))?;
        let own = Ownership::balanced(&idx, &ZeroAwareMoves::new(board, &idx), ranks);
        let w = if wide_offsets(&own, opts.wide_offsets) {
            8
        } else {
            4
        };
        let ex = exchange(k as u64, w);
        exchange_peak = exchange_peak.max(ex);
        // The working slice in whole 8-byte words: 32 entries a word, or 8.
        let working = own.largest().div_ceil(64 / req.working_bits() as u64) * 8;
        let encoded = req.encoding.encoded_len(own.largest());
        peak = peak.max(kept + working + t.index_bytes + ex);
        // A byte slice packed into `u4` or `bit1` is held twice for a moment (`u8` slices are
        // kept as they are, two-bit slices compacted in place).
        if !req.two_bit() && req.encoding != Encoding::U8 {
            peak = peak.max(kept + working + encoded);
        }
        kept += encoded;
    }
    // Rank 0 writes the file holding its slices and one message of another rank's.
    let peak = peak.max(kept + STREAM_BYTES as u64);
    Ok(DistributedPlan {
        build: BuildPlan::new(req, &tables, peak),
        ranks,
        exchange_bytes: exchange_peak,
    })
}

/// Refuses what the distributed build does not make.
fn check_request(req: &BuildRequest) -> Result<(), BuildError> {
    req.check_encoding()?;
    if req.kind != TableKind::ZeroAware {
        return Err(BuildError::DistributedNeedsZeroAware);
    }
    Ok(())
}

/// Checks on every rank that its share of `plan` fits the memory it has available (unless
/// `ignore`); every rank learns of the first rank short of memory and returns the same error.
pub fn check_rank_memory(
    world: &SimpleCommunicator,
    plan: &DistributedPlan,
    ignore: bool,
) -> Result<(), BuildError> {
    let available = pdbformat::system::available_memory().unwrap_or(u64::MAX);
    let short = (!ignore && plan.build.peak_bytes > available) as u64;
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
                needed: plan.build.peak_bytes,
                available: all[2 * rank + 1],
            })
        }
    }
}

/// A table of a distributed build: its summary, the traffic between the ranks and where
/// their time went.
#[derive(Clone, Debug)]
pub struct DistributedTable {
    /// The table's figures (the same as a single-process build's).
    pub summary: TableSummary,
    /// Bytes the ranks sent each other at each BFS level (4 or 8 per neighbour offset pushed
    /// to its owner, 5 or 9 per pull query and its answer), summed over the ranks.
    pub exchanged: Vec<u64>,
    /// Seconds each rank (by rank) waited for the others: at meetings and at the end of each
    /// level.
    pub waited: Vec<f64>,
    /// Seconds each rank spent in the exchanges: sending, receiving, claiming what it received
    /// and answering queries.
    pub exchanging: Vec<f64>,
}

/// What one table's BFS leaves on a rank: its slice, the whole table's figures and who owns
/// what.
struct BuiltSlice<T> {
    table: T,
    table_info: DistributedTable,
    own: Ownership,
}

/// Tuning of a distributed build.
#[derive(Clone, Copy, Debug, Default)]
pub struct DistributedOptions {
    /// Indices each rank sends each owner per exchange piece (`None`: `2^23 / ranks`, at least
    /// 2^16). Smaller bounds the buffers tighter and makes the ranks meet more
    /// often.
    pub per_owner: Option<usize>,
    /// Send offsets in 8 bytes even where every slice's fit 4 (to test the path that tables
    /// of more than 2^32 entries per rank take).
    pub wide_offsets: bool,
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
    let pool = WorkerPool::new(req.threads)?;
    let mut slices: Vec<(EncodedOrRaw, TableSummary, Ownership)> = Vec::new();
    let mut tables = Vec::new();
    for (i, p) in req.partition.patterns().iter().enumerate() {
        let ctx = Context {
            req,
            pattern: p,
            table: i,
            world,
            pool: &pool,
            opts,
            obs,
        };
        let slice = if req.two_bit() {
            let b = build_slice::<TwoBitTable>(&ctx)?;
            check_fits(req.encoding, &b.table_info.summary)?;
            (EncodedOrRaw::Bit1(b.table.into_bit1()), b.table_info, b.own)
        } else {
            let b = build_slice::<ByteTable>(&ctx)?;
            check_fits(req.encoding, &b.table_info.summary)?;
            let entries = b.table.into_entries();
            let out = match req.encoding {
                Encoding::U8 => EncodedOrRaw::Raw(entries),
                e => EncodedOrRaw::Encoded(pool.run(|| encode_entries(&entries, e))),
            };
            (out, b.table_info, b.own)
        };
        slices.push((slice.0, slice.1.summary.clone(), slice.2));
        tables.push(slice.1);
    }
    write_slices(req, path, world, &slices)?;
    Ok(tables)
}

/// What the BFS of one table on one rank works with.
struct Context<'a> {
    req: &'a BuildRequest,
    pattern: &'a Pattern,
    table: usize,
    world: &'a SimpleCommunicator,
    pool: &'a WorkerPool,
    opts: DistributedOptions,
    obs: &'a dyn BuildObserver,
}

/// Runs the BFS of one table over the ranks of the job in tables of type `T`: this rank's
/// slice, the whole table's summary and the bytes exchanged per level (the same on every
/// rank).
fn build_slice<T: LevelTable>(c: &Context<'_>) -> Result<BuiltSlice<T>, BuildError> {
    let start = Instant::now();
    let (req, pattern, table, obs) = (c.req, c.pattern, c.table, c.obs);
    let (rank, ranks) = (c.world.rank() as usize, c.world.size() as usize);
    let idx = ZeroAwareIndex::new(req.goal.board(), pattern.len())
        .map_err(BuildError::index_error(pattern))?;
    let moves = ZeroAwareMoves::new(req.goal.board(), &idx);
    let bfs = BfsStart::new(&req.goal, pattern, &idx, &moves);
    let own = Ownership::balanced(&idx, &moves, ranks);
    let accept = |_: usize, _: u8| true;
    let slice = Slice::<T, _>::new(&moves, &idx, own.range(rank), bfs.goal_parity, &accept);
    if slice.owns(bfs.goal_index) {
        slice.claim(bfs.goal_index, 0);
    }
    obs.table_started(table, pattern, TableKind::ZeroAware, idx.len());
    let (levels, sent, times) = if wide_offsets(&own, c.opts.wide_offsets) {
        bfs_levels::<T, _, u64>(c, &bfs, &own, &slice)
    } else {
        bfs_levels::<T, _, u32>(c, &bfs, &own, &slice)
    };
    // Every level's count is the whole job's: the histogram needs no pass over the slices.
    let stats = ValueStats::of_levels(levels.histogram, idx.len());
    let summary = TableSummary::new(pattern, TableKind::ZeroAware, stats, start);
    obs.table_done(table, &summary);
    let mut exchanged = vec![0u64; sent.len()];
    c.world
        .all_reduce_into(&sent[..], &mut exchanged[..], SystemOperation::sum());
    let mut all_times = vec![0f64; 2 * ranks];
    c.world.all_gather_into(&times[..], &mut all_times[..]);
    Ok(BuiltSlice {
        table: slice.into_table(),
        table_info: DistributedTable {
            summary,
            exchanged,
            waited: all_times.iter().step_by(2).copied().collect(),
            exchanging: all_times.iter().skip(1).step_by(2).copied().collect(),
        },
        own,
    })
}

/// The level loop of one table on this rank, its offsets sent in `W`: the levels' whole-job
/// counts, the bytes this rank sent at each level, and the seconds it waited for the others
/// and spent in exchanges.
fn bfs_levels<T: LevelTable, A: Fn(usize, u8) -> bool + Sync, W: Wire>(
    c: &Context<'_>,
    bfs: &BfsStart,
    own: &Ownership,
    slice: &Slice<'_, T, A>,
) -> (Levels, Vec<u64>, [f64; 2]) {
    let (table, obs) = (c.table, c.obs);
    let workers = worker_threads(c.req.threads);
    let mut exchange = Exchange::<W>::new(c.world, own, c.pool, workers, c.opts);
    // Progress: this rank's share of the level, scaled to the whole table.
    let owned = slice.owned();
    let scale = own.total as f64 / (owned.end - owned.start).max(1) as f64;
    let levels = run_levels::<T>(bfs, table, obs, |depth, pull| {
        let scanned = AtomicU64::new(0);
        let report = |entries: u64| {
            let s = scanned.fetch_add(entries, Relaxed) + entries;
            obs.chunk_done(table, (s as f64 * scale) as u64);
        };
        exchange.sent.push(0);
        let claimed = exchange.level(slice, depth, pull, &report);
        let waiting = Instant::now();
        let total = exchange.sum(claimed);
        exchange.waited += waiting.elapsed();
        total
    });
    let times = [
        exchange.waited.as_secs_f64(),
        exchange.exchanging.as_secs_f64(),
    ];
    (levels, exchange.sent, times)
}

/// An owned entry as it travels between the ranks: its offset in its owner's slice, in 4
/// bytes when every slice has at most 2^32 entries (any table here on two ranks or more), in 8
/// otherwise.
pub(crate) trait Wire: Equivalence + Copy + Default + Send + Sync + Into<u64> {
    /// Bytes of one offset on the wire.
    const BYTES: u64;
    /// The offset `o` (below the largest slice's entry count, checked by the caller).
    fn from_offset(o: u64) -> Self;
}

impl Wire for u32 {
    const BYTES: u64 = 4;
    #[inline]
    fn from_offset(o: u64) -> u32 {
        o as u32
    }
}

impl Wire for u64 {
    const BYTES: u64 = 8;
    #[inline]
    fn from_offset(o: u64) -> u64 {
        o
    }
}

/// Whether the offsets of `own`'s slices need 8 bytes (or `wide` asks for them).
fn wide_offsets(own: &Ownership, wide: bool) -> bool {
    wide || own.largest() > 1 << 32
}

/// Why a rank arrives at a meeting (the tag of its message to the others).
#[derive(Clone, Copy)]
enum Signal {
    /// An outbox of this rank holds a full share: the others join at once.
    Full = 1,
    /// This rank has expanded its whole slice for the level: the others join when they are
    /// full or done themselves.
    Done = 2,
    /// Another rank asked to meet.
    Joined = 3,
}

/// One worker's outboxes: per owner, the offsets to send it (push: neighbours to claim; pull:
/// neighbours to look at) and, for pull, the offset in this rank's slice of the entry that
/// asks each query. Kept from batch to batch and level to level (their memory is reused).
struct Outbox<W> {
    queries: Vec<Vec<W>>,
    askers: Vec<Vec<W>>,
}

impl<W: Wire> Outbox<W> {
    fn new(ranks: usize) -> Outbox<W> {
        Outbox {
            queries: vec![Vec::new(); ranks],
            askers: vec![Vec::new(); ranks],
        }
    }

    fn clear(&mut self) {
        self.queries.iter_mut().for_each(Vec::clear);
        self.askers.iter_mut().for_each(Vec::clear);
    }
}

/// The per-level traffic between the ranks: one outbox per worker thread and owner, filled by
/// the expansion in place, and the bounded all-to-all exchanges that empty them through one
/// send and one receive buffer. Every buffer lives as long as the table's BFS.
struct Exchange<'w, W> {
    world: &'w SimpleCommunicator,
    /// A duplicate of `world` for the messages that call the ranks to a meeting, kept apart
    /// from every other message of the job.
    signals: SimpleCommunicator,
    pool: &'w WorkerPool,
    own: Ownership,
    ranks: usize,
    per_owner: usize,
    /// One outbox per work unit of a batch (one per worker thread).
    outboxes: Vec<Outbox<W>>,
    /// What one worker's outbox may hold for one owner before the ranks meet: the share
    /// divided among the workers, so that all of them together hold at most a share per
    /// owner plus one batch's output.
    per_worker: usize,
    /// One piece as sent (every owner's part in rank order) and as received.
    send: Vec<W>,
    recv: Vec<W>,
    /// Pull: the answers to the queries received, and those to this rank's queries.
    answers: Vec<u8>,
    answered: Vec<u8>,
    /// Bytes this rank sent to the others, per level.
    sent: Vec<u64>,
    /// Time this rank spent at meetings and level ends waiting for the others, and in the
    /// exchanges themselves (sending, receiving, claiming and answering).
    waited: Duration,
    exchanging: Duration,
}

impl<'w, W: Wire> Exchange<'w, W> {
    fn new(
        world: &'w SimpleCommunicator,
        own: &Ownership,
        pool: &'w WorkerPool,
        workers: usize,
        opts: DistributedOptions,
    ) -> Exchange<'w, W> {
        let ranks = world.size() as usize;
        let per_owner = opts.per_owner.unwrap_or_else(|| per_owner(ranks)).max(1);
        // Buffers given to MPI always own an allocation: an empty `Vec`'s dangling pointer
        // (e.g. 0x1 for bytes) may read as `MPI_IN_PLACE`; they are only ever cleared or
        // resized, never shrunk.
        Exchange {
            world,
            signals: world.duplicate(),
            pool,
            own: own.clone(),
            ranks,
            per_owner,
            outboxes: (0..workers).map(|_| Outbox::new(ranks)).collect(),
            per_worker: per_owner.div_ceil(workers),
            send: Vec::with_capacity(1),
            recv: Vec::with_capacity(1),
            answers: Vec::with_capacity(1),
            answered: Vec::with_capacity(1),
            sent: Vec::new(),
            waited: Duration::ZERO,
            exchanging: Duration::ZERO,
        }
    }

    /// The sum of `x` over every rank.
    fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        mpi::request::scope(|scope| {
            let req =
                self.world
                    .immediate_all_reduce_into(scope, &x, &mut total, SystemOperation::sum());
            idle_wait(req);
        });
        total
    }

    /// One level on this rank: expands (push) or fills (pull) its slice a batch of work units
    /// at a time, one unit per worker. Neighbours owned elsewhere go into the worker's outbox
    /// for their owner, as offsets in the owner's slice (pull: with the asking entry beside
    /// each). The ranks meet whenever one of them holds a full share for an owner (the others
    /// join after their current batch) or once every rank has finished its slice or been
    /// called, and empty every outbox in bounded pieces. Returns the entries this rank
    /// claimed.
    fn level<T: LevelTable, A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, T, A>,
        depth: u8,
        pull: bool,
        report: &(dyn Fn(u64) + Sync),
    ) -> u64 {
        let mut claimed = 0u64;
        let mut next = 0;
        let units = slice.chunks();
        let start = slice.owned().start;
        loop {
            // Expand without waiting for the others until an outbox holds a full share or the
            // slice is done: the ranks meet only then.
            let done = loop {
                let batch = &units[next..(next + self.outboxes.len()).min(units.len())];
                next += batch.len();
                let own = &self.own;
                let outboxes = &mut self.outboxes[..batch.len()];
                claimed += self.pool.run(|| {
                    batch
                        .par_iter()
                        .zip(outboxes.par_iter_mut())
                        .map(|(sets, out)| {
                            let work = if pull {
                                slice.pull(sets.clone(), depth, &mut |i, others| {
                                    let asker = W::from_offset(i - start);
                                    for &n in others {
                                        let (o, at) = own.split(n);
                                        out.queries[o].push(W::from_offset(at));
                                        out.askers[o].push(asker);
                                    }
                                })
                            } else {
                                slice.push(sets.clone(), depth, &mut |n| {
                                    let (o, at) = own.split(n);
                                    out.queries[o].push(W::from_offset(at));
                                })
                            };
                            report(work.scanned);
                            work.claimed
                        })
                        .sum::<u64>()
                });
                if next == units.len() {
                    break true;
                }
                if self.full() || self.asked_to_meet() {
                    break false;
                }
            };
            let waiting = Instant::now();
            self.arrive(if done {
                Signal::Done
            } else if self.full() {
                Signal::Full
            } else {
                Signal::Joined
            });
            let (pieces, busy) = self.meet(done);
            self.waited += waiting.elapsed();
            let exchanging = Instant::now();
            for piece in 0..pieces {
                claimed += if pull {
                    self.ask(slice, depth, piece)
                } else {
                    self.deliver(slice, depth, piece)
                };
            }
            self.exchanging += exchanging.elapsed();
            if pieces > 0 {
                self.outboxes.iter_mut().for_each(Outbox::clear);
            }
            if !busy {
                return claimed;
            }
        }
    }

    /// Whether another rank has an outbox holding a full share and waits at the meeting (its
    /// [`Signal::Full`] is here): this rank then joins it at once instead of expanding on.
    fn asked_to_meet(&self) -> bool {
        self.ranks > 1
            && self
                .signals
                .any_process()
                .immediate_probe_with_tag(Signal::Full as Tag)
                .is_some()
    }

    /// Arrives at a meeting: tells every other rank why (one small message each, tagged with
    /// `why`), then waits, asleep, until every other rank has arrived too (its message is
    /// here). Every rank sends exactly one message to every other per meeting and cannot
    /// send the next one before this meeting's reduction, so the message of each rank that
    /// is waiting here is the first one from it.
    fn arrive(&self, why: Signal) {
        let me = self.world.rank() as usize;
        for r in (0..self.ranks).filter(|&r| r != me) {
            self.signals
                .process_at_rank(r as Rank)
                .send_with_tag(&0u8, why as Tag);
        }
        let mut missing: Vec<usize> = (0..self.ranks).filter(|&r| r != me).collect();
        let mut nap = Duration::from_micros(20);
        loop {
            missing.retain(|&r| {
                let from = self.signals.process_at_rank(r as Rank);
                if from.immediate_probe().is_none() {
                    return true;
                }
                let _ = from.receive::<u8>();
                false
            });
            if missing.is_empty() {
                return;
            }
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(1));
        }
    }

    /// Whether some owner's outboxes hold a full share, or one worker's its part of one.
    fn full(&self) -> bool {
        (0..self.ranks).any(|o| {
            let mut total = 0;
            for out in &self.outboxes {
                let n = out.queries[o].len();
                if n >= self.per_worker {
                    return true;
                }
                total += n;
            }
            total >= self.per_owner
        })
    }

    /// Indices queued for owner `o`, in all the outboxes.
    fn queued(&self, o: usize) -> usize {
        self.outboxes.iter().map(|out| out.queries[o].len()).sum()
    }

    /// The runs of piece `piece` of owner `o`'s queue (the workers' outboxes one after the
    /// other, `per_owner` items a piece), taken from the queries or, with `askers`, from the
    /// asking entries beside them.
    fn runs(&self, o: usize, piece: usize, askers: bool) -> impl Iterator<Item = &[W]> {
        let (lo, hi) = (piece * self.per_owner, (piece + 1) * self.per_owner);
        let mut at = 0;
        self.outboxes.iter().filter_map(move |out| {
            let v = if askers {
                &out.askers[o]
            } else {
                &out.queries[o]
            };
            let (a, b) = (at, at + v.len());
            at = b;
            let (a, b) = (lo.max(a) - a, hi.min(b).saturating_sub(a));
            (a < b).then(|| &v[a..b])
        })
    }

    /// Copies piece `piece` of every owner's queue into the send buffer, in rank order;
    /// returns the counts per owner.
    fn pack(&mut self, piece: usize) -> Vec<Count> {
        let mut send = std::mem::take(&mut self.send);
        send.clear();
        let mut counts = Vec::with_capacity(self.ranks);
        for o in 0..self.ranks {
            let before = send.len();
            for run in self.runs(o, piece, false) {
                send.extend_from_slice(run);
            }
            counts.push(count(send.len() - before));
        }
        self.send = send;
        counts
    }

    /// Sends piece `piece` of the outboxes to their owners and receives the others' into
    /// `self.recv`, counting `bytes` sent per offset. Returns the counts sent to and received
    /// from each rank.
    fn send_piece(&mut self, piece: usize, bytes: u64) -> (Vec<Count>, Vec<Count>) {
        let counts = self.pack(piece);
        self.count_sent(bytes);
        let recv_counts = exchange_counts(self.world, &counts);
        all_to_all_v(
            self.world,
            &self.send,
            &counts,
            &recv_counts,
            &mut self.recv,
        );
        (counts, recv_counts)
    }

    /// Push: sends piece `piece` of the outboxes (neighbours of this rank's frontier) to
    /// their owners and claims with `depth + 1` what the others sent here. Returns the
    /// entries claimed.
    fn deliver<T: LevelTable, A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, T, A>,
        depth: u8,
        piece: usize,
    ) -> u64 {
        self.send_piece(piece, W::BYTES);
        let received = &self.recv;
        self.pool.run(|| {
            received
                .par_chunks(1 << 14)
                .map(|c| slice.claim_received(c, depth + 1))
                .sum::<u64>()
        })
    }

    /// Pull: asks the owners whether the neighbours of piece `piece` are at `depth` (one
    /// byte back each, in the order asked), answers the others' questions the same way, and
    /// claims with `depth + 1` each asking entry that got a yes. Returns the entries claimed.
    fn ask<T: LevelTable, A: Fn(usize, u8) -> bool + Sync>(
        &mut self,
        slice: &Slice<'_, T, A>,
        depth: u8,
        piece: usize,
    ) -> u64 {
        // A query is an offset out and a byte back.
        let (counts, recv_counts) = self.send_piece(piece, W::BYTES + 1);
        let start = slice.owned().start;
        let (asked, answers) = (&self.recv, &mut self.answers);
        answers.resize(asked.len(), 0);
        self.pool.run(|| {
            asked
                .par_chunks(1 << 14)
                .zip(answers.par_chunks_mut(1 << 14))
                .for_each(|(c, out)| {
                    for (k, (&n, a)) in c.iter().zip(out.iter_mut()).enumerate() {
                        if let Some(&ahead) = c.get(k + 16) {
                            slice.prefetch(start + ahead.into());
                        }
                        *a = slice.neighbour_at(start + n.into(), depth) as u8;
                    }
                })
        });
        // The answers go back the way the queries came: the counts are known on both sides.
        let mut answered = std::mem::take(&mut self.answered);
        all_to_all_v(
            self.world,
            &self.answers,
            &recv_counts,
            &counts,
            &mut answered,
        );
        let mut claimed = 0;
        let mut yes = answered.iter();
        for o in 0..self.ranks {
            for run in self.runs(o, piece, true) {
                for (&i, &y) in run.iter().zip(yes.by_ref()) {
                    claimed += (y == 1 && slice.claim(start + i.into(), depth + 1)) as u64;
                }
            }
        }
        self.answered = answered;
        claimed
    }

    /// Meets the other ranks once all have arrived ([`Self::arrive`]): decides with them, in one reduction, how many pieces to exchange now
    /// (enough to empty every outbox) and whether any rank still has work units to expand.
    fn meet(&self, done: bool) -> (usize, bool) {
        let longest = (0..self.ranks).map(|o| self.queued(o)).max().unwrap_or(0);
        let mine = [longest.div_ceil(self.per_owner) as u64, !done as u64];
        let mut all = [0u64; 2];
        mpi::request::scope(|scope| {
            let req = self.world.immediate_all_reduce_into(
                scope,
                &mine[..],
                &mut all[..],
                SystemOperation::max(),
            );
            idle_wait(req);
        });
        (all[0] as usize, all[1] != 0)
    }

    /// Adds `bytes_each` per item of the send buffer to this level's traffic.
    fn count_sent(&mut self, bytes_each: u64) {
        *self.sent.last_mut().expect("a level is running") += self.send.len() as u64 * bytes_each;
    }
}

/// Waits for `req` to finish, sleeping between tests (20 µs at first, doubling up to 1 ms): a
/// rank that waits at a meeting for slower ones leaves the processor to them, and to the
/// machine's other work, instead of polling as blocking MPI calls do. Only the small
/// reductions wait this way; the exchanges themselves, which both sides enter together, block
/// (a large transfer progresses only while MPI is called).
fn idle_wait<'a, D: ?Sized, S: Scope<'a>>(mut req: Request<'a, D, S>) {
    let mut nap = Duration::from_micros(20);
    loop {
        match req.test() {
            Ok(_) => return,
            Err(r) => req = r,
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(1));
    }
}

/// The per-owner share of an exchange piece on a job of `ranks` ranks.
fn per_owner(ranks: usize) -> usize {
    (EXCHANGE_ENTRIES / ranks.max(1)).max(MIN_PER_OWNER)
}

/// `n` items as an MPI count: every part of a piece is far below 2^31 items (a piece is
/// bounded by [`EXCHANGE_ENTRIES`]).
fn count(n: usize) -> Count {
    Count::try_from(n).expect("exchange pieces are bounded far below 2^31")
}

/// How many items every rank sends here, given how many this rank sends each (one
/// `MPI_Alltoall`).
fn exchange_counts(world: &SimpleCommunicator, send_counts: &[Count]) -> Vec<Count> {
    let mut recv_counts = vec![0 as Count; send_counts.len()];
    world.all_to_all_into(send_counts, &mut recv_counts[..]);
    recv_counts
}

/// One all-to-all exchange (`MPI_Alltoallv`): `send` holds, in rank order, `send_counts[r]`
/// items for rank `r`; `recv` is resized to what every rank sends here (`recv_counts[r]`
/// from rank `r`) and receives it in rank order. `send` and `recv` must own an allocation
/// even when empty (see [`Exchange::new`]).
fn all_to_all_v<T: Equivalence + Copy + Default>(
    world: &SimpleCommunicator,
    send: &[T],
    send_counts: &[Count],
    recv_counts: &[Count],
    recv: &mut Vec<T>,
) {
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
    let received: usize = recv_counts.iter().map(|&c| c as usize).sum();
    recv.resize(received, T::default());
    let sdispl = displs(send_counts);
    let rdispl = displs(recv_counts);
    let p = Partition::new(send, send_counts, &sdispl[..]);
    let mut q = PartitionMut::new(&mut recv[..], recv_counts, &rdispl[..]);
    world.all_to_all_varcount_into(&p, &mut q);
}

/// Writes the file: rank 0 streams its own slice of each table, then every other rank's in
/// rank order (received in messages of at most [`STREAM_BYTES`]), through the file writer;
/// the other ranks send theirs. The file is renamed into place only once every slice has
/// arrived; then every rank learns whether rank 0 succeeded.
fn write_slices(
    req: &BuildRequest,
    path: &Path,
    world: &SimpleCommunicator,
    slices: &[(EncodedOrRaw, TableSummary, Ownership)],
) -> Result<(), BuildError> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let root = world.process_at_rank(0);
    if rank == 0 {
        let shapes: Vec<TableShape<'_>> = slices
            .iter()
            .map(|(_, s, _)| TableShape {
                kind: TableKind::ZeroAware,
                pattern: &s.pattern,
                encoding: req.encoding,
                max_value: s.max_value,
            })
            .collect();
        let mut buf = Vec::new();
        let mut fill = |i: usize, w: &mut dyn Write| -> io::Result<()> {
            w.write_all(slices[i].0.bytes())?;
            let own = &slices[i].2;
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
        for (bytes, _, _) in slices {
            for chunk in bytes.bytes().chunks(STREAM_BYTES) {
                root.send(chunk);
            }
        }
    }
    // Every rank returns once the file is in place. (A rank 0 that fails returns its error
    // without coming here, and the caller ends the job: see `build_file_distributed`.)
    world.barrier();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn ownership_covers_the_range_in_whole_blocks() {
        for (total, ranks) in [(1u64, 4usize), (100, 3), (64 * 7 + 5, 4), (1 << 20, 16)] {
            check_covers(&Ownership::new(total, ranks), total, ranks);
        }
        for (w, h, k, ranks) in [(3, 3, 2, 7), (3, 4, 5, 2), (3, 4, 5, 5), (4, 4, 4, 3)] {
            let board = Board::new(w, h).unwrap();
            let idx = ZeroAwareIndex::new(board, k).unwrap();
            let moves = ZeroAwareMoves::new(board, &idx);
            check_covers(&Ownership::balanced(&idx, &moves, ranks), idx.len(), ranks);
        }
    }

    #[test]
    fn balanced_slices_hold_equal_work() {
        // Work counted entry by entry (one plus its moves, found from the state itself),
        // against the block sums `balanced` splits by: every slice is within 64 entries'
        // work (the alignment) of an equal share.
        for (w, h, k, ranks) in [(3, 4, 5, 2), (3, 4, 5, 3), (4, 3, 4, 4)] {
            let board = Board::new(w, h).unwrap();
            let idx = ZeroAwareIndex::new(board, k).unwrap();
            let moves = ZeroAwareMoves::new(board, &idx);
            let own = Ownership::balanced(&idx, &moves, ranks);
            let fact = idx.order_count();
            let mut work = vec![0u64; ranks];
            let mut most = 0;
            for set in 0..idx.set_count() {
                for region in idx.regions_of_set(set) {
                    for order in 0..fact {
                        let mut cost = 1;
                        moves.for_each_neighbour(&moves.state(set, region, order), |_| cost += 1);
                        most = most.max(cost);
                        work[own.owner(region as u64 * fact + order)] += cost;
                    }
                }
            }
            let share = work.iter().sum::<u64>() / ranks as u64;
            for (r, &wr) in work.iter().enumerate() {
                assert!(
                    wr.abs_diff(share) <= 64 * most + ranks as u64,
                    "{w}x{h} k={k} rank {r} of {ranks}: {wr} against {share}"
                );
            }
            // The equal split is less even on these boards.
            let equal = Ownership::new(idx.len(), ranks);
            assert_ne!(equal.range(0), own.range(0));
        }
    }

    /// `own` tiles `0..total` over `ranks` ranks in slices starting on 64-entry blocks, and
    /// finds each slice's first and last entries in it.
    fn check_covers(own: &Ownership, total: u64, ranks: usize) {
        let mut next = 0;
        for r in 0..ranks {
            let range = own.range(r);
            assert_eq!(range.start, next);
            assert!(range.start.is_multiple_of(64) || range.is_empty());
            for n in [range.start, range.end.saturating_sub(1)] {
                if !range.is_empty() {
                    assert_eq!(own.owner(n), r);
                    assert_eq!(own.split(n), (r, n - range.start));
                }
            }
            next = range.end;
        }
        assert_eq!(next, total);
    }
}
