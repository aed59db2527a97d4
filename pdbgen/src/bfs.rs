//! Level-synchronous parallel reverse BFS over the zero-aware abstract space of one pattern.
//!
//! Level `d` scans the table, block by block (one block per cell set and region), for entries
//! equal to `d`, and claims every unreached neighbour with `d + 1` (push); late levels instead
//! scan the unreached entries for a neighbour at `d` (pull). All writes of a level write the
//! same value, so the table is the same whatever the number of threads.

use crate::moves::ZeroAwareMoves;
use crate::observer::BuildObserver;
use crate::words::{Entries, WordTable, UNREACHED};
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::{Goal, Pattern};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries scanned per unit of parallel work (and per progress report).
const CHUNK_ENTRIES: u64 = 1 << 20;

/// Builds the exact zero-aware distances of `pattern` towards `goal`.
pub fn zero_aware_distances(
    goal: &Goal,
    pattern: &Pattern,
    idx: &ZeroAwareIndex,
    table: usize,
    obs: &dyn BuildObserver,
) -> Entries {
    guided_distances(goal, pattern, idx, table, obs, &|_, _| true)
}

/// The BFS of [`zero_aware_distances`], where an unreached entry `i` may only be given the value
/// `v` when `accept(i, v)` holds. With a filter that reads bit 1 of each value from a compact
/// table, this restores the exact values of that table.
pub fn guided_distances<A: Fn(usize, u8) -> bool + Sync>(
    goal: &Goal,
    pattern: &Pattern,
    idx: &ZeroAwareIndex,
    table: usize,
    obs: &dyn BuildObserver,
    accept: &A,
) -> Entries {
    let board = goal.board();
    let moves = ZeroAwareMoves::new(board, idx);
    let t = WordTable::new(idx.len() as usize);
    let goal_cells: Vec<u8> = pattern.goal_cells(goal).iter().map(|&c| c as u8).collect();
    t.claim(idx.index(&goal_cells, goal.blank_cell()) as usize, 0);
    // Entries at an even depth lie in the cell sets of the goal's parity, odd depths in the
    // others (see `ZeroAwareMoves::set_parity`).
    let goal_occ = goal_cells.iter().fold(0u64, |m, &c| m | 1 << c);
    let goal_parity = moves.set_parity(goal_occ);
    let fact = idx.order_count();
    let chunks = set_chunks(idx);
    let total = idx.len();
    let mut reached = 1u64;
    let mut frontier = 1u64;
    let mut depth = 0u8;
    loop {
        obs.level_started(table, depth);
        // Direction-optimising BFS: push from the frontier while it is small; once fewer
        // entries are unreached than the frontier holds, let each unreached entry look for a
        // neighbour at `depth` (stopping at the first), which trades random writes for reads.
        let pull = total - reached < frontier;
        let scanned = AtomicU64::new(0);
        let new: u64 = chunks
            .par_iter()
            .map(|sets| {
                let mut claimed = 0u64;
                let mut entries = 0u64;
                let mut pending = Vec::with_capacity(2 * PREFETCH_BATCH);
                for set in sets.clone() {
                    let set_depth_parity = moves.set_parity(idx.set_mask(set)) ^ goal_parity;
                    // Push expands entries at `depth`, pull fills entries at `depth + 1`.
                    if set_depth_parity != (depth + pull as u8) & 1 {
                        entries += idx.regions_of_set(set).len() as u64 * fact;
                        continue;
                    }
                    for region in idx.regions_of_set(set) {
                        let base = region as u64 * fact;
                        let block = base as usize..(base + fact) as usize;
                        if pull {
                            t.for_each_equal(block, UNREACHED, |i| {
                                let state = moves.state(set, region, i as u64 - base);
                                if accept(i, depth + 1)
                                    && moves.any_neighbour(&state, |n| t.get(n as usize) == depth)
                                {
                                    claimed += t.claim(i, depth + 1) as u64;
                                }
                            });
                        } else {
                            t.for_each_equal(block, depth, |i| {
                                let state = moves.state(set, region, i as u64 - base);
                                moves.for_each_neighbour(&state, |n| {
                                    t.prefetch(n as usize);
                                    pending.push(n as usize);
                                });
                                // Claim in batches: the prefetches of earlier states have had
                                // time to arrive while later states were being expanded.
                                if pending.len() >= PREFETCH_BATCH {
                                    claimed += claim_all(&t, &mut pending, depth + 1, accept);
                                }
                            });
                        }
                        entries += fact;
                    }
                }
                claimed += claim_all(&t, &mut pending, depth + 1, accept);
                obs.chunk_done(table, scanned.fetch_add(entries, Relaxed) + entries);
                claimed
            })
            .sum();
        reached += new;
        frontier = new;
        obs.level_done(table, depth, reached);
        if new == 0 {
            break;
        }
        depth += 1;
        assert!(
            depth < UNREACHED - 1,
            "distances beyond 253 do not fit a byte"
        );
    }
    t.into_entries()
}

/// Neighbours gathered (and prefetched) before they are claimed.
const PREFETCH_BATCH: usize = 48;

/// Claims every pending entry that `accept` allows with `value`; returns how many were new.
#[inline]
fn claim_all<A: Fn(usize, u8) -> bool>(
    t: &WordTable,
    pending: &mut Vec<usize>,
    value: u8,
    accept: &A,
) -> u64 {
    let mut claimed = 0;
    for &n in pending.iter() {
        if accept(n, value) {
            claimed += t.claim(n, value) as u64;
        }
    }
    pending.clear();
    claimed
}

/// Ranges of cell sets holding about [`CHUNK_ENTRIES`] entries each: the units of parallel
/// work of both BFS variants (this one and the two-bit one).
pub(crate) fn set_chunks(idx: &ZeroAwareIndex) -> Vec<std::ops::Range<usize>> {
    let fact = idx.order_count();
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut acc = 0u64;
    for set in 0..idx.set_count() {
        acc += idx.regions_of_set(set).len() as u64 * fact;
        if acc >= CHUNK_ENTRIES {
            chunks.push(start..set + 1);
            start = set + 1;
            acc = 0;
        }
    }
    if start < idx.set_count() {
        chunks.push(start..idx.set_count());
    }
    chunks
}
