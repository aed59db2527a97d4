//! The build's speed on this machine: a small table built and timed, against the same table
//! timed where the planner's per-entry figure was measured.

use crate::build::build_table;
use crate::observer::NoProgress;
use crate::plan::NS_PER_ENTRY;
use pdbformat::rank::entry_count;
use pdbformat::{Goal, Pattern, TableKind};
use std::time::Instant;

/// Processor nanoseconds per entry of the calibration table (the zero-aware 6-tile table of
/// the 4x4, 5.8 million entries) in a release build on the machine where the planner's
/// [`NS_PER_ENTRY`] was measured.
pub const REFERENCE_NS: f64 = 40.0;

/// The planner's nanoseconds per searched entry scaled to this machine: the zero-aware table of
/// tiles 1-6 of the 4x4 built on `threads` threads and timed, its processor time per entry over
/// [`REFERENCE_NS`] times [`NS_PER_ENTRY`]. Takes about a second in a release build (tables much
/// larger than the caches run slower per entry than this one, which the reference figure
/// keeps).
pub fn calibrate_ns_per_entry(threads: Option<usize>) -> f64 {
    let goal = Goal::blank_first(pdbformat::Board::new(4, 4).expect("4x4"));
    let pattern = Pattern::new(goal.board(), &[1, 2, 3, 4, 5, 6]).expect("tiles of the 4x4");
    let entries = entry_count(goal.board(), 6, TableKind::ZeroAware).expect("an index") as f64;
    let threads_used = crate::pool::worker_threads(threads) as f64;
    let start = Instant::now();
    if build_table(
        &goal,
        &pattern,
        TableKind::ZeroAware,
        threads,
        0,
        &NoProgress,
    )
    .is_err()
    {
        return NS_PER_ENTRY;
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 * threads_used / entries;
    NS_PER_ENTRY * ns / REFERENCE_NS
}
