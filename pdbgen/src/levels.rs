//! The level loop: a level-synchronous parallel reverse BFS over the zero-aware abstract space
//! of one pattern, level after level until one reaches nothing.
//!
//! Level `d` scans the table, block by block (one block per cell set and region), for entries
//! at `d`, and claims every unreached neighbour with `d + 1` (push); late levels instead scan
//! the unreached entries for a neighbour at `d` (pull). All writes of a level write the same
//! value, so the table is the same whatever the number of threads. The per-level work on the
//! table is [`crate::slice`]'s, which the distributed build runs on each rank's slice, over a
//! byte per entry or two bits ([`crate::twobit`]); [`run_levels`] is the level loop of both.

use crate::byte_table::{ByteTable, Entries, UNREACHED};
use crate::error::BuildError;
use crate::moves::ZeroAwareMoves;
use crate::observer::BuildObserver;
use crate::slice::{LevelTable, Slice, Work};
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::{Goal, Pattern};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Builds the exact zero-aware distances of `pattern` towards `goal`, a byte per entry,
/// resuming from and saving into `saves` when given.
pub(crate) fn zero_aware_distances(
    goal: &Goal,
    pattern: &Pattern,
    idx: &ZeroAwareIndex,
    table: usize,
    obs: &dyn BuildObserver,
    saves: Option<&mut dyn LevelSaves<ByteTable>>,
) -> Result<(Entries, f64), BuildError> {
    let (t, levels) =
        distances::<ByteTable, _>(goal, pattern, idx, table, obs, &|_, _| true, saves)?;
    Ok((t.into_entries(), levels.seconds))
}

/// Where the level loop's BFS resumes from and saves its working table between levels: the
/// build's resumable state as [`distances`] sees it, handed in by the build (the level loop
/// knows nothing else of it). Called once per table and once per level, never per entry.
pub(crate) trait LevelSaves<T: LevelTable> {
    /// The working table of table `table` (its `len` entries) and its level counts, when the
    /// build resumes inside this table; `None` to start from the goal.
    fn resumed(&self, table: usize, len: usize) -> Result<Option<(T, Levels)>, BuildError>;
    /// After a level: saves `t`, the working table of table `table` with the counts `levels`
    /// so far, when it is worth saving now.
    fn level_done(&mut self, table: usize, t: &T, levels: &Levels) -> Result<(), BuildError>;
}

/// What a BFS found besides its table.
#[derive(Clone, Debug, Default)]
pub struct Levels {
    /// Entries first reached at each depth (the goal at 0).
    pub histogram: Vec<u64>,
    /// Entries expanded by push levels.
    pub expanded: u64,
    /// Entries expanded by push levels that were at the level's depth.
    pub frontier: u64,
    /// Seconds spent on this table by earlier runs of a resumed build.
    pub seconds: f64,
}

impl Levels {
    /// The counts of a BFS that has only reached the goal.
    pub fn at_goal() -> Levels {
        Levels {
            histogram: vec![1],
            ..Levels::default()
        }
    }
}

/// The BFS of `pattern` towards `goal` on one process, in a table of type `T` (a byte or two
/// bits per entry), where an unreached entry `i` may only be given the value `v` when
/// `accept(i, v)` holds. With a filter that reads bit 1 of each value from a `bit1` table,
/// the byte BFS restores that table's exact values. With `saves`, the BFS resumes from the
/// working table saved there, if the build resumes inside this table, and offers its own
/// after every level.
#[allow(clippy::too_many_arguments)]
pub(crate) fn distances<T: LevelTable, A: Fn(usize, u8) -> bool + Sync>(
    goal: &Goal,
    pattern: &Pattern,
    idx: &ZeroAwareIndex,
    table: usize,
    obs: &dyn BuildObserver,
    accept: &A,
    mut saves: Option<&mut dyn LevelSaves<T>>,
) -> Result<(T, Levels), BuildError> {
    let moves = ZeroAwareMoves::new(goal.board(), idx);
    let start = BfsStart::new(goal, pattern, idx, &moves);
    let resumed = match saves.as_deref() {
        Some(s) => s.resumed(table, idx.len() as usize)?,
        None => None,
    };
    let (slice, levels) = match resumed {
        Some((t, levels)) => (
            Slice::<T, A>::resumed(&moves, idx, 0..idx.len(), start.goal_parity, accept, t),
            levels,
        ),
        None => {
            let slice = Slice::<T, A>::new(&moves, idx, 0..idx.len(), start.goal_parity, accept);
            slice.claim(start.goal_index, 0);
            (slice, Levels::at_goal())
        }
    };
    // One process owns the whole range: no neighbour is owned elsewhere.
    let no_remote_push = |_: u64| unreachable!("a whole-range slice owns every neighbour");
    let no_remote_pull =
        |_: u64, _: &[u64]| unreachable!("a whole-range slice owns every neighbour");
    let levels = run_levels::<T>(
        &start,
        table,
        obs,
        levels,
        |depth, pull| {
            let scanned = AtomicU64::new(0);
            let work = slice
                .chunks()
                .par_iter()
                .map(|sets| {
                    let work = if pull {
                        slice.pull(sets.clone(), depth, &mut no_remote_pull.clone())
                    } else {
                        slice.push(sets.clone(), depth, &mut no_remote_push.clone())
                    };
                    obs.chunk_done(
                        table,
                        scanned.fetch_add(work.scanned, Relaxed) + work.scanned,
                    );
                    work
                })
                .reduce(Work::default, |mut a, b| {
                    a += b;
                    a
                });
            (work.claimed, work.expanded)
        },
        |levels| match saves.as_deref_mut() {
            Some(s) => s.level_done(table, slice.table(), levels),
            None => Ok(()),
        },
    )?;
    Ok((slice.into_table(), levels))
}

/// Where a BFS starts: the goal's global index and the parity of its cell set, and how many
/// entries each depth parity can hold.
pub(crate) struct BfsStart {
    /// Global index of the goal state (depth 0).
    pub goal_index: u64,
    /// Set parity of the goal state: entries at even depths lie in sets of this parity.
    pub goal_parity: u8,
    /// `parity_entries[p]`: the entries of the cell sets whose depths have parity `p`.
    pub parity_entries: [u64; 2],
}

impl BfsStart {
    /// The start of the BFS of `pattern` towards `goal`.
    pub fn new(
        goal: &Goal,
        pattern: &Pattern,
        idx: &ZeroAwareIndex,
        moves: &ZeroAwareMoves,
    ) -> BfsStart {
        let goal_cells: Vec<u8> = pattern.goal_cells(goal).iter().map(|&c| c as u8).collect();
        let goal_occ = goal_cells.iter().fold(0u64, |m, &c| m | 1 << c);
        let goal_parity = moves.set_parity(goal_occ);
        let mut parity_entries = [0u64; 2];
        for set in 0..idx.set_count() {
            let parity = moves.set_parity(idx.set_mask(set)) ^ goal_parity;
            parity_entries[parity as usize] += idx.regions_of_set(set).len() as u64;
        }
        BfsStart {
            goal_index: idx.index(&goal_cells, goal.blank_cell()),
            goal_parity,
            parity_entries: parity_entries.map(|regions| regions * idx.order_count()),
        }
    }
}

/// The level loop of the BFS in a table of type `T`, shared by the single-process and the
/// distributed build: `level(depth, pull)` runs one level over the whole table (every slice
/// of it) and returns how many entries it reached, summed over every process, and how many
/// it expanded. Starts from `levels` (the goal alone at depth 0, or the counts of a resumed
/// BFS whose table holds them) and stops at the first level that reaches nothing; after each
/// other level, `done(levels)` may save the table (an error there ends the loop), and then
/// `obs` hears [`BuildObserver::after_level`]. Returns the entries first reached at each depth
/// (`frontier` counting the push levels' own entries).
pub(crate) fn run_levels<T: LevelTable>(
    start: &BfsStart,
    table: usize,
    obs: &dyn BuildObserver,
    mut levels: Levels,
    mut level: impl FnMut(u8, bool) -> (u64, u64),
    mut done: impl FnMut(&Levels) -> Result<(), BuildError>,
) -> Result<Levels, BuildError> {
    // Entries reached at even and at odd depths.
    let mut reached = [0u64, 0];
    for (d, &n) in levels.histogram.iter().enumerate() {
        reached[d & 1] += n;
    }
    let mut depth = (levels.histogram.len() - 1) as u8;
    loop {
        obs.level_started(table, depth);
        // Direction-optimising BFS: push from the frontier while it is small; once fewer
        // entries of the next depth's parity are unreached than a push would expand, let each
        // of them look for a neighbour at `depth` (stopping at the first), which trades random
        // writes for reads. (A pull level skips the sets of the other parity, so only the
        // unreached entries of that parity are its work: on the 7-tile 4x4 table this pulls
        // from level 24 on instead of 26.)
        let next = (depth as usize + 1) & 1;
        let unreached = start.parity_entries[next] - reached[next];
        let pull = unreached < T::push_work(&levels.histogram);
        if !pull {
            levels.frontier += levels.histogram[depth as usize];
        }
        let (new, expanded) = level(depth, pull);
        levels.expanded += expanded;
        reached[next] += new;
        obs.level_done(table, depth, reached[0] + reached[1]);
        if new == 0 {
            break;
        }
        levels.histogram.push(new);
        let finished = depth;
        depth += 1;
        assert!(
            depth < UNREACHED - 1,
            "distances beyond 253 do not fit a byte"
        );
        done(&levels)?;
        obs.after_level(table, finished);
    }
    Ok(levels)
}
