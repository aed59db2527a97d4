//! The build on each rank: every table's BFS over the ranks of the job (this rank's slice
//! under the single-process level loop, its neighbours owned elsewhere exchanged), checked
//! against the output encoding and encoded in place, then the file streamed to rank 0.

use super::exchange::{DistributedOptions, Exchange};
use super::ownership::Ownership;
use super::plan::check_request;
use super::stream::write_slices;
use super::wire::{wide_offsets, Wire};
use crate::build::EncodedOrRaw;
use crate::byte_table::ByteTable;
use crate::error::{BuildError, FromIndexError};
use crate::levels::{run_levels, BfsStart, Levels};
use crate::moves::ZeroAwareMoves;
use crate::observer::{BuildObserver, TableSummary};
use crate::pool::{worker_threads, WorkerPool};
use crate::request::{check_fits, BuildRequest};
use crate::slice::{LevelTable, Slice};
use crate::state::{remove_empty_state, summary_of, BuildState};
use crate::stats::ValueStats;
use crate::twobit::TwoBitTable;
use mpi::collective::SystemOperation;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use pdbformat::format::{encode_entries, Encoding};
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::{Pattern, TableKind};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

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

/// Builds every table of `req` across the ranks of `world` and writes one file at `path`
/// (on rank 0's file system, through a temporary file renamed into place once every rank has
/// delivered its slices). Every rank must call it; `obs` sees the whole job's levels (give
/// rank 0 a progress display and the others [`crate::NoProgress`]). Returns the same
/// summaries and traffic on every rank. Symmetric images are searched like any table (their
/// BFS gives the same bytes as the single-process build's derivation).
///
/// With a `state` (this rank's, opened with [`BuildState::open_rank`]), the ranks agree on
/// the last position every one of them saved and go on from there, save their progress at
/// the same levels (rank 0 decides when; every rank keeps its previous save until all have
/// written the new one), and remove their states once the file is in place.
///
/// An error returned on one rank only (rank 0's file cannot be written, a rank's state cannot
/// be saved) leaves the others waiting: the caller must then end the whole job
/// (`MPI_Abort`, as `pdbgen build` does).
pub fn build_file_distributed(
    req: &BuildRequest,
    path: &Path,
    world: &SimpleCommunicator,
    opts: DistributedOptions,
    mut state: Option<&mut BuildState>,
    obs: &dyn BuildObserver,
) -> Result<Vec<DistributedTable>, BuildError> {
    check_request(req)?;
    if let Some(s) = state.as_deref_mut() {
        s.agree(world)?;
        s.restart_clock();
    }
    // MPI calls stay on this thread (the communicator is not shared between threads); the
    // parallel parts run in the pool.
    let pool = WorkerPool::new(req.threads)?;
    let mut slices: Vec<(EncodedOrRaw, TableSummary, Ownership)> = Vec::new();
    let mut tables = Vec::new();
    for (i, p) in req.partition.patterns().iter().enumerate() {
        if let Some(s) = state.as_deref().filter(|s| s.has_finished(i)) {
            let (bytes, info, own) = load_slice(req, p, i, world, s)?;
            slices.push((EncodedOrRaw::Encoded(bytes), info.summary.clone(), own));
            tables.push(info);
            continue;
        }
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
            let b = build_slice::<TwoBitTable>(&ctx, state.as_deref_mut())?;
            check_fits(req.encoding, &b.table_info.summary)?;
            (EncodedOrRaw::Bit1(b.table.into_bit1()), b.table_info, b.own)
        } else {
            let b = build_slice::<ByteTable>(&ctx, state.as_deref_mut())?;
            check_fits(req.encoding, &b.table_info.summary)?;
            let entries = b.table.into_entries();
            let out = match req.encoding {
                Encoding::U8 => EncodedOrRaw::Raw(entries),
                e => EncodedOrRaw::Encoded(pool.run(|| encode_entries(&entries, e))),
            };
            (out, b.table_info, b.own)
        };
        // Rank 0 decides for all, so that every rank saves its slice or none does.
        let bytes = slice.0.bytes().len() as u64;
        let mut save = [state
            .as_deref()
            .is_some_and(|s| s.wants_finished_save(i, bytes)) as u8];
        world.process_at_rank(0).broadcast_into(&mut save[..]);
        if let Some(s) = state.as_deref_mut().filter(|_| save[0] == 1) {
            s.save_finished(i, slice.0.bytes(), &slice.1.summary, false)?;
            // Every rank has its slice in place before any forgets how it got there.
            s.wait()?;
            world.barrier();
            s.drop_levels(i, None)?;
        }
        slices.push((slice.0, slice.1.summary.clone(), slice.2));
        tables.push(slice.1);
    }
    write_slices(req, path, world, &slices, obs)?;
    if let Some(s) = state {
        s.wait()?;
        s.finish()?;
        world.barrier();
        if world.rank() == 0 {
            remove_empty_state(path);
        }
    }
    Ok(tables)
}

/// This rank's slice of the finished table `table` (pattern `p`) from its state, with the
/// table's figures (no traffic: it was exchanged by an earlier run).
fn load_slice(
    req: &BuildRequest,
    p: &Pattern,
    table: usize,
    world: &SimpleCommunicator,
    s: &BuildState,
) -> Result<(Vec<u8>, DistributedTable, Ownership), BuildError> {
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let idx = ZeroAwareIndex::new(req.goal.board(), p.len()).map_err(BuildError::index_error(p))?;
    let moves = ZeroAwareMoves::new(req.goal.board(), &idx);
    let own = Ownership::balanced(&idx, &moves, ranks);
    let range = own.range(rank);
    let len = req.encoding.encoded_len(range.end - range.start) as usize;
    let (bytes, summary) =
        s.load_finished(table, |meta| summary_of(meta, p, TableKind::ZeroAware), len)?;
    let info = DistributedTable {
        exchanged: vec![0; summary.histogram.len()],
        waited: vec![0.0; ranks],
        exchanging: vec![0.0; ranks],
        summary,
    };
    Ok((bytes, info, own))
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
fn build_slice<T: LevelTable>(
    c: &Context<'_>,
    mut state: Option<&mut BuildState>,
) -> Result<BuiltSlice<T>, BuildError> {
    let start = Instant::now();
    let (req, pattern, table, obs) = (c.req, c.pattern, c.table, c.obs);
    let (rank, ranks) = (c.world.rank() as usize, c.world.size() as usize);
    let idx = ZeroAwareIndex::new(req.goal.board(), pattern.len())
        .map_err(BuildError::index_error(pattern))?;
    let moves = ZeroAwareMoves::new(req.goal.board(), &idx);
    let bfs = BfsStart::new(&req.goal, pattern, &idx, &moves);
    let own = Ownership::balanced(&idx, &moves, ranks);
    let accept = |_: usize, _: u8| true;
    let range = own.range(rank);
    let resumed = match state.as_deref() {
        Some(s) => s.load_level::<T>(table, (range.end - range.start) as usize)?,
        None => None,
    };
    let (slice, levels) = match resumed {
        Some((t, levels)) => (
            Slice::<T, _>::resumed(&moves, &idx, range, bfs.goal_parity, &accept, t),
            levels,
        ),
        None => {
            let slice = Slice::<T, _>::new(&moves, &idx, range, bfs.goal_parity, &accept);
            if slice.owns(bfs.goal_index) {
                slice.claim(bfs.goal_index, 0);
            }
            (slice, Levels::at_goal())
        }
    };
    obs.table_started(table, pattern, TableKind::ZeroAware, idx.len());
    let (levels, sent, times) = if wide_offsets(&own, c.opts.wide_offsets) {
        bfs_levels::<T, _, u64>(c, &bfs, &own, &slice, levels, state.as_deref_mut())?
    } else {
        bfs_levels::<T, _, u32>(c, &bfs, &own, &slice, levels, state)?
    };
    let earlier = levels.seconds;
    // Every level's count is the whole job's: the histogram needs no pass over the slices.
    let stats = ValueStats::of_levels(levels.histogram, idx.len());
    let mut summary = TableSummary::new(pattern, TableKind::ZeroAware, stats, start);
    summary.seconds += earlier;
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

/// The level loop of one table on this rank from `levels` on, its offsets sent in `W`: the
/// levels' whole-job counts, the bytes this rank sent at each level (none for the levels of
/// an earlier run), and the seconds it waited for the others and spent in exchanges. With a
/// `state`, rank 0 decides after each level whether every rank saves its slice.
fn bfs_levels<T: LevelTable, A: Fn(usize, u8) -> bool + Sync, W: Wire>(
    c: &Context<'_>,
    bfs: &BfsStart,
    own: &Ownership,
    slice: &Slice<'_, T, A>,
    levels: Levels,
    mut state: Option<&mut BuildState>,
) -> Result<(Levels, Vec<u64>, [f64; 2]), BuildError> {
    let (table, obs) = (c.table, c.obs);
    let workers = worker_threads(c.req.threads);
    let earlier_levels = levels.histogram.len() - 1;
    let mut exchange = Exchange::<W>::new(c.world, own, c.pool, workers, c.opts);
    // Progress: this rank's share of the level, scaled to the whole table.
    let owned = slice.owned();
    let scale = own.total() as f64 / (owned.end - owned.start).max(1) as f64;
    let levels = run_levels::<T>(
        bfs,
        table,
        obs,
        levels,
        |depth, pull| {
            let scanned = AtomicU64::new(0);
            let report = |entries: u64| {
                let s = scanned.fetch_add(entries, Relaxed) + entries;
                obs.chunk_done(table, (s as f64 * scale) as u64);
            };
            (exchange.level(slice, depth, pull, &report), 0)
        },
        |levels| {
            if let Some(s) = state.as_deref_mut() {
                let bytes = (slice.table().words().len() * 8) as u64;
                let mut save = [s.wants_level_save(bytes) as u8];
                c.world.process_at_rank(0).broadcast_into(&mut save[..]);
                if save[0] == 1 {
                    let depth = (levels.histogram.len() - 1) as u8;
                    s.save_level(table, slice.table(), levels, false)?;
                    s.wait()?;
                    // Every rank has this level in place: the older ones can go (until
                    // now they were kept in case some rank had not written this one).
                    c.world.barrier();
                    s.drop_levels(table, Some(depth))?;
                }
            }
            Ok(())
        },
    )?;
    let (sent, times) = exchange.into_traffic();
    let mut all_sent = vec![0u64; earlier_levels];
    all_sent.extend(sent);
    Ok((levels, all_sent, times))
}
