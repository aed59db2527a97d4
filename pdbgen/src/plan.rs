//! The one build planner: what a [`BuildRequest`] needs before anything is built, per table
//! (entries, the entries its BFS searches, whether it is derived from a symmetric image, the
//! index's move tables) and for the whole build ([`BuildPlan`]: working bits, peak memory,
//! core-seconds, threads). The single-process build plans with [`plan`]; the distributed
//! build plans the same tables without derivation and adds its per-rank figures on top.

use crate::byte_table::ByteTable;
use crate::error::{BuildError, FromIndexError};
use crate::pool::worker_threads;
use crate::request::BuildRequest;
use crate::slice::LevelTable;
use crate::symmetric::image_of;
use crate::twobit::TwoBitTable;
use pdbformat::rank::{binomial, entry_count};
use pdbformat::TableKind;

/// Sizes a build will need, known before it starts.
#[derive(Clone, Debug)]
pub struct BuildPlan {
    /// Entries of each output table.
    pub entries: Vec<u64>,
    /// Peak bytes of memory one process of the build will hold (the whole build on one
    /// machine; one rank of a distributed build).
    pub peak_bytes: u64,
    /// Bits per entry of the BFS's working table: 2 for zero-aware `bit1` builds (the two-bit
    /// BFS), 8 otherwise.
    pub working_bits: u32,
    /// Tables derived from an earlier table through a board symmetry (no BFS of their own;
    /// none in a distributed build, which searches every table).
    pub derived: usize,
    /// Processor time the BFS levels will take, in core-seconds, over all processes: a rough
    /// estimate at 80 ns per searched entry, measured on the 4x4 7-8 (tables much larger than
    /// the caches run slower per entry).
    pub core_seconds: f64,
    /// Worker threads of each process: the request's, or one per core (rayon's global pool,
    /// which `RAYON_NUM_THREADS` sets).
    pub threads: usize,
    /// Peak bytes of disk the resumable state beside the output takes (one process's: the
    /// whole build's on one machine, one rank's in a distributed build): the finished tables
    /// kept for a resume and two saves of the largest working table.
    pub state_bytes: u64,
}

/// Processor time per entry of the BFS, in nanoseconds: measured on the 2-core development
/// machine with the zero-aware 7-8 of the 15-puzzle (about 109 CPU-s for 1.565 G entries under
/// load, see BENCHMARKS.md; 5x5 tables run slower per entry), used only to tell the user
/// before a build whether it takes minutes or days.
pub(crate) const NS_PER_ENTRY: f64 = 80.0;

/// Whether a build derives the tables that are symmetric images of earlier ones.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Images {
    /// Derived from the earlier table (the single-process build).
    Derived,
    /// Searched like any table (the distributed build, whose BFS gives the same bytes).
    #[cfg(feature = "mpi")]
    Searched,
}

/// One table of a build as the planner sees it.
pub(crate) struct PlannedTable {
    /// Entries of the output table (of the request's kind).
    pub entries: u64,
    /// Entries of the zero-aware table its BFS searches; 0 when it is derived.
    pub searched: u64,
    /// Bytes of the index's move tables while its BFS runs (`C(cells, k) · (cells + 24)`).
    pub index_bytes: u64,
}

impl PlannedTable {
    /// Whether the table is derived from a symmetric image rather than searched.
    pub fn derived(&self) -> bool {
        self.searched == 0
    }
}

/// The tables of `req`, in partition order (images derived or searched as `images` says).
pub(crate) fn planned_tables(
    req: &BuildRequest,
    images: Images,
) -> Result<Vec<PlannedTable>, BuildError> {
    let board = req.goal.board();
    let patterns = req.partition.patterns();
    let mut tables = Vec::with_capacity(patterns.len());
    for (i, pattern) in patterns.iter().enumerate() {
        let k = pattern.len();
        let entries = entry_count(board, k, req.kind).map_err(BuildError::index_error(pattern))?;
        let derived = images == Images::Derived && image_of(&req.goal, patterns, i).is_some();
        let searched = if derived {
            0
        } else {
            entry_count(board, k, TableKind::ZeroAware).map_err(BuildError::index_error(pattern))?
        };
        tables.push(PlannedTable {
            entries,
            searched,
            index_bytes: binomial(board.cells(), k) * (board.cells() as u64 + 24),
        });
    }
    Ok(tables)
}

impl BuildPlan {
    /// The plan of `req`'s `tables`, one process of which peaks at `peak_bytes`.
    pub(crate) fn new(req: &BuildRequest, tables: &[PlannedTable], peak_bytes: u64) -> Self {
        let searched: u64 = tables.iter().map(|t| t.searched).sum();
        BuildPlan {
            entries: tables.iter().map(|t| t.entries).collect(),
            peak_bytes,
            working_bits: working_bits(req),
            derived: tables.iter().filter(|t| t.derived()).count(),
            core_seconds: searched as f64 * NS_PER_ENTRY * 1e-9,
            threads: worker_threads(req.threads),
            state_bytes: state_bytes(req, tables),
        }
    }
}

/// Bits per entry of the BFS's working table for `req`: 2 for the two-bit BFS, else 8.
pub(crate) fn working_bits(req: &BuildRequest) -> u32 {
    if req.two_bit() {
        TwoBitTable::BITS
    } else {
        ByteTable::BITS
    }
}

/// Peak disk of the resumable state of `req`'s `tables` on one process: every finished
/// searched table but the last (the file follows it at once) stays there until the end, and a
/// table's working table is saved twice (the new save is in place before the old one goes).
fn state_bytes(req: &BuildRequest, tables: &[PlannedTable]) -> u64 {
    let last = tables.iter().rposition(|t| !t.derived());
    let (mut kept, mut peak) = (0u64, 0u64);
    for (i, t) in tables.iter().enumerate().filter(|(_, t)| !t.derived()) {
        let working = t.searched.div_ceil(8 / working_bits(req) as u64);
        peak = peak.max(kept + 2 * working);
        if Some(i) != last {
            kept += req.encoding.encoded_len(t.entries);
        }
    }
    peak.max(kept)
}

/// Works out what the single-process build of `req` needs: finished tables stay in memory
/// until the file is written; a table that is the image of an earlier one under a
/// blank-fixing board symmetry is derived from it and needs no BFS, only its own output; the
/// table being built needs its zero-aware working table (a byte per entry, or 2 bits for
/// zero-aware `bit1` builds, whose output is compacted in place), plus the zero-unaware
/// output for that kind, and the index's move tables.
pub fn plan(req: &BuildRequest) -> Result<BuildPlan, BuildError> {
    let tables = planned_tables(req, Images::Derived)?;
    let (mut peak, mut kept) = (0u64, 0u64);
    for t in &tables {
        let encoded = req.encoding.encoded_len(t.entries);
        let building = if t.derived() {
            encoded
        } else {
            let working = t.searched.div_ceil(8 / working_bits(req) as u64);
            let zero_unaware = match req.kind {
                TableKind::ZeroAware => 0,
                TableKind::ZeroUnaware => t.entries,
            };
            working + zero_unaware + t.index_bytes
        };
        peak = peak.max(kept + building);
        kept += encoded;
    }
    Ok(BuildPlan::new(req, &tables, peak.max(kept)))
}
