//! The rebuild-free check of a table's values.
//!
//! A zero-aware table equals the exact abstract distances when every entry is reached, the goal
//! entry is 0, no pattern move changes a value by more than 1 and every non-zero entry has a
//! neighbour exactly one lower. Parity and the Manhattan lower bound are checked as well. For
//! zero-unaware tables (minima over regions, not consistent) the checks that hold for them are
//! made: reached, goal 0 and only the goal 0, parity, the Manhattan bound, and a neighbour at
//! most one lower for every non-zero entry.

use crate::byte_table::UNREACHED;
use crate::error::{CheckError, FromIndexError};
use crate::moves::ZeroAwareMoves;
use pdbformat::rank::{rank_permutation, unrank_permutation, PermutationIndex, ZeroAwareIndex};
use pdbformat::{Goal, Pattern, Puzzle, TableKind};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The names of the checks, as reported.
pub mod checks {
    /// An entry was never reached although its state is reachable.
    pub const REACHED: &str = "every reachable entry is reached";
    /// A parity-unreachable state holds a value.
    pub const UNREACHABLE: &str = "parity-unreachable states hold the unreached marker";
    /// The goal entry is not 0, or another entry is.
    pub const GOAL_ZERO: &str = "the goal entry is 0 and no other entry is";
    /// The value's parity differs from the pattern's Manhattan distance.
    pub const PARITY: &str = "value has the parity of the pattern's Manhattan distance";
    /// The value is below the pattern's Manhattan distance.
    pub const MANHATTAN: &str = "value is at least the pattern's Manhattan distance";
    /// A pattern move changes the value by more than 1 (or, zero-aware, not at all).
    pub const STEP: &str = "every pattern move changes the value by exactly 1";
    /// A non-zero entry has no neighbour one lower.
    pub const DESCENT: &str = "every non-zero entry has a neighbour one lower";
    /// Class tables: a move changes the value by more than 1.
    pub const CLASS_STEP: &str = "every move changes a class table's value by at most 1";
    /// bit1 tables: the restored values, encoded again, differ from the stored bits (checked
    /// by [`crate::verify_file`], which restores the values first).
    pub const STORED_BITS: &str = "stored bits match the restored values";
}

/// One failed check, with the smallest index that fails it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The check (one of [`checks`]).
    pub check: &'static str,
    /// The smallest failing index.
    pub index: u64,
    /// Its value.
    pub value: u8,
    /// How many entries fail it.
    pub count: u64,
}

#[derive(Default, Clone)]
struct Found(Vec<Violation>);

impl Found {
    fn add(&mut self, check: &'static str, index: u64, value: u8) {
        match self.0.iter_mut().find(|v| v.check == check) {
            Some(v) => {
                v.count += 1;
                if index < v.index {
                    v.index = index;
                    v.value = value;
                }
            }
            None => self.0.push(Violation {
                check,
                index,
                value,
                count: 1,
            }),
        }
    }

    fn merge(mut self, other: Found) -> Found {
        for v in other.0 {
            match self.0.iter_mut().find(|w| w.check == v.check) {
                Some(w) => {
                    w.count += v.count;
                    if v.index < w.index {
                        w.index = v.index;
                        w.value = v.value;
                    }
                }
                None => self.0.push(v),
            }
        }
        self
    }
}

/// Checks `values` (one byte per entry) of a table of `kind` for `pattern` towards `goal`;
/// `progress` receives the number of entries checked so far. Returns every failed check.
pub fn verify_table(
    goal: &Goal,
    kind: TableKind,
    pattern: &Pattern,
    values: &[u8],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Violation>, CheckError> {
    let mut found = match kind {
        TableKind::ZeroAware => verify_zero_aware(goal, pattern, values, progress)?,
        TableKind::ZeroUnaware => {
            verify_zero_unaware(&Geometry::new(goal, pattern), values, progress)?
        }
    };
    found.0.sort_by_key(|v| v.index);
    Ok(found.0)
}

fn check_length(values: &[u8], entries: u64) -> Result<(), CheckError> {
    if values.len() as u64 == entries {
        Ok(())
    } else {
        Err(CheckError::Length {
            found: values.len() as u64,
            expected: entries,
        })
    }
}

/// Per-tile Manhattan distance tables and the parity test for full-board patterns.
struct Geometry {
    md: Vec<Vec<u8>>,
    fills_board: bool,
    goal: Goal,
    pattern: Pattern,
    tiles: Vec<u8>,
}

impl Geometry {
    fn new(goal: &Goal, pattern: &Pattern) -> Geometry {
        let b = goal.board();
        let md = pattern
            .tiles()
            .iter()
            .map(|&t| {
                (0..b.cells())
                    .map(|c| b.manhattan(c, goal.cell_of(t as usize)) as u8)
                    .collect()
            })
            .collect();
        Geometry {
            md,
            fills_board: pattern.len() + 1 == b.cells(),
            goal: goal.clone(),
            pattern: pattern.clone(),
            tiles: pattern.tiles().to_vec(),
        }
    }

    fn manhattan(&self, cells: &[u8]) -> u8 {
        cells
            .iter()
            .zip(&self.md)
            .map(|(&c, m)| m[c as usize])
            .sum()
    }

    /// For patterns that fill the board: whether the full position is solvable.
    fn reachable(&self, cells: &[u8]) -> bool {
        if !self.fills_board {
            return true;
        }
        let b = self.goal.board();
        let mut tiles = vec![0u16; b.cells()];
        for (&c, &t) in cells.iter().zip(&self.tiles) {
            tiles[c as usize] = t as u16;
        }
        Puzzle::new(b, &tiles)
            .map(|p| p.is_solvable(&self.goal))
            .unwrap_or(false)
    }

    /// The checks every entry gets, whatever the kind. Returns false when the entry holds the
    /// unreached marker (no further checks apply).
    fn common(&self, f: &mut Found, i: u64, v: u8, cells: &[u8], is_goal: bool) -> bool {
        let reachable = self.reachable(cells);
        if v == UNREACHED {
            if reachable {
                f.add(checks::REACHED, i, v);
            }
            return false;
        }
        if !reachable {
            f.add(checks::UNREACHABLE, i, v);
        }
        if is_goal != (v == 0) {
            f.add(checks::GOAL_ZERO, i, v);
        }
        let m = self.manhattan(cells);
        if v < m {
            f.add(checks::MANHATTAN, i, v);
        }
        if v % 2 != m % 2 {
            f.add(checks::PARITY, i, v);
        }
        true
    }
}

fn verify_zero_aware(
    goal: &Goal,
    pattern: &Pattern,
    values: &[u8],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Found, CheckError> {
    let board = goal.board();
    let idx =
        ZeroAwareIndex::new(board, pattern.len()).map_err(CheckError::index_error(pattern))?;
    check_length(values, idx.len())?;
    let moves = ZeroAwareMoves::new(board, &idx);
    let geo = Geometry::new(goal, pattern);
    let goal_cells: Vec<u8> = pattern.goal_cells(goal).iter().map(|&c| c as u8).collect();
    let goal_index = idx.index(&goal_cells, goal.blank_cell());
    let fact = idx.order_count();
    let k = pattern.len();
    let done = AtomicU64::new(0);
    let found = (0..idx.set_count())
        .into_par_iter()
        .with_min_len(64)
        .fold(Found::default, |mut f, set| {
            for region in idx.regions_of_set(set) {
                for order in 0..fact {
                    let i = idx.index_of(region, order);
                    let v = values[i as usize];
                    let state = moves.state(set, region, order);
                    if !geo.common(&mut f, i, v, &state.cells[..k], i == goal_index) {
                        continue;
                    }
                    let mut lower = false;
                    moves.for_each_neighbour(&state, |n| {
                        let w = values[n as usize];
                        if w.abs_diff(v) != 1 {
                            f.add(checks::STEP, i, v);
                        }
                        lower |= w.wrapping_add(1) == v;
                    });
                    if v > 0 && !lower {
                        f.add(checks::DESCENT, i, v);
                    }
                }
            }
            progress(done.fetch_add(idx.regions_of_set(set).len() as u64 * fact, Relaxed));
            f
        })
        .reduce(Found::default, Found::merge);
    Ok(found)
}

/// The zero-unaware checks, over the permutations of the pattern's tiles that `geo` describes.
fn verify_zero_unaware(
    geo: &Geometry,
    values: &[u8],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Found, CheckError> {
    let (goal, pattern) = (&geo.goal, &geo.pattern);
    let board = goal.board();
    let (n, k) = (board.cells(), pattern.len());
    let idx = PermutationIndex::new(board, k).map_err(CheckError::index_error(pattern))?;
    check_length(values, idx.len())?;
    let nbr = board.neighbour_masks();
    let goal_cells: Vec<u8> = pattern.goal_cells(goal).iter().map(|&c| c as u8).collect();
    let goal_index = idx.index(&goal_cells);
    let chunk = 1u64 << 16;
    let done = AtomicU64::new(0);
    let found = (0..idx.len().div_ceil(chunk))
        .into_par_iter()
        .fold(Found::default, |mut f, c| {
            let mut cells = [0u8; 64];
            let end = ((c + 1) * chunk).min(idx.len());
            for i in c * chunk..end {
                let v = values[i as usize];
                unrank_permutation(i, n, &mut cells[..k]);
                if !geo.common(&mut f, i, v, &cells[..k], i == goal_index) || v == 0 {
                    continue;
                }
                let occ = cells[..k].iter().fold(0u64, |m, &c| m | 1 << c);
                let mut lower = false;
                for t in 0..k {
                    let p = cells[t];
                    let mut targets = nbr[p as usize] & !occ;
                    while targets != 0 {
                        cells[t] = targets.trailing_zeros() as u8;
                        targets &= targets - 1;
                        lower |= values[rank_permutation(&cells[..k], n) as usize] < v;
                    }
                    cells[t] = p;
                }
                if !lower {
                    f.add(checks::DESCENT, i, v);
                }
            }
            progress(done.fetch_add(end - c * chunk, Relaxed));
            f
        })
        .reduce(Found::default, Found::merge);
    Ok(found)
}
