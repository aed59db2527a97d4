//! The build's speed on this machine, now: a small table built and timed on the build's threads.

use crate::build::build_table;
use crate::observer::NoProgress;
use crate::plan::NS_PER_ENTRY;
use pdbformat::rank::entry_count;
use pdbformat::{Goal, Pattern, TableKind};
use std::time::Instant;

/// How much slower per entry a table far larger than the caches builds than the calibration
/// table: measured on the 2-core development machine under the same load, the zero-aware 7-8
/// of the 4x4 (1.565 G entries, 157 s on 2 threads: 100 ns of wall time per entry) against
/// tiles 1-6 (11.8 M entries, 1.1 s: 93 ns).
pub const LARGE_TABLE_SLOWDOWN: f64 = 1.07;

/// Wall-clock nanoseconds per searched entry of a large build on `threads` threads (all cores
/// when `None`) on this machine as loaded now: the zero-aware table of tiles 1-6 of the 4x4
/// (11.8 million entries, about a second) built and timed, times [`LARGE_TABLE_SLOWDOWN`]. Where
/// it cannot be built, the planner's fixed [`NS_PER_ENTRY`] of processor time shared by the
/// threads.
pub fn calibrate_ns_per_entry(threads: Option<usize>) -> f64 {
    let fallback = NS_PER_ENTRY / crate::pool::worker_threads(threads) as f64;
    let goal = Goal::blank_first(pdbformat::Board::new(4, 4).expect("4x4"));
    let pattern = Pattern::new(goal.board(), &[1, 2, 3, 4, 5, 6]).expect("tiles of the 4x4");
    let Ok(entries) = entry_count(goal.board(), 6, TableKind::ZeroAware) else {
        return fallback;
    };
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
        return fallback;
    }
    start.elapsed().as_secs_f64() * 1e9 / entries as f64 * LARGE_TABLE_SLOWDOWN
}
