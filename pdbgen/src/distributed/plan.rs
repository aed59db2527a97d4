//! The plan of a distributed build, worked out alike on every rank before the BFS: the
//! single-process planner's figures for the job ([`crate::plan`]'s tables, searched every one)
//! with each rank's slices, move tables and exchange buffers on top; and the memory check in
//! which every rank compares its share with the memory it has.

use super::exchange::DistributedOptions;
use super::ownership::Ownership;
use super::stream::STREAM_BYTES;
use super::wire::wide_offsets;
use crate::error::{BuildError, FromIndexError};
use crate::moves::ZeroAwareMoves;
use crate::plan::{planned_tables, working_bits, BuildPlan, Images};
use crate::pool::worker_threads;
use crate::request::BuildRequest;
use crate::slice::CHUNK_ENTRIES;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use pdbformat::format::Encoding;
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::TableKind;

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
    let share = opts.share(ranks) as u64;
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
        let working = own.largest().div_ceil(64 / working_bits(req) as u64) * 8;
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
    let mut build = BuildPlan::new(req, &tables, peak);
    // Each rank keeps its own slice of the state.
    build.state_bytes = build.state_bytes.div_ceil(ranks as u64);
    Ok(DistributedPlan {
        build,
        ranks,
        exchange_bytes: exchange_peak,
    })
}

/// Refuses what the distributed build does not make.
pub(super) fn check_request(req: &BuildRequest) -> Result<(), BuildError> {
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
