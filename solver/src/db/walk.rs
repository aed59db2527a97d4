//! The value of a first position in a `bit1` table: a walk down the stored bits to the goal
//! ([`Walk::value`], which [`super::LoadedTable::exact_value`] calls), each step's neighbours
//! requested together.

use crate::position::MAX_CELLS;
use pdbformat::format::TableHeader;
use pdbformat::rank::{flood, BoardBits, FastIndex};
use pdbformat::{Board, Goal};

/// What a walk reads of its table: the index of a state, the stored bit of an entry, and a
/// prefetch of an entry's line.
pub(super) trait Bits {
    /// The entry of the state with the pattern tiles on `cells` (tile order, occupying
    /// `occ`) and the blank on `blank`.
    fn index(&self, cells: &[u8], occ: u64, blank: u8) -> u64;
    /// The stored bit of entry `i` (bit 1 of its value).
    fn bit1(&self, i: u64) -> u8;
    /// Starts loading entry `i`'s line.
    fn prefetch(&self, i: u64);
}

/// What the walk to the goal of a `bit1` table needs: the goal in the table's frame and the
/// board's flood-fill masks.
#[derive(Clone, Debug)]
pub(super) struct Walk {
    /// The goal cell of each pattern tile (tile order), in the table's frame.
    goal_cells: [u8; MAX_CELLS],
    /// The entry of the goal state (value 0).
    pub(super) goal_index: u64,
    /// For each cell, the mask of its neighbours.
    neighbours: [u64; MAX_CELLS],
    /// Flood-fill masks of the board (the blank's free region).
    bits: BoardBits,
    /// The board, for Manhattan distances.
    board: Board,
}

impl Walk {
    /// The walk of the table `th` of a database built for `goal`, indexed by `fast`.
    pub(super) fn new(th: &TableHeader, goal: &Goal, fast: &FastIndex) -> Walk {
        let board = goal.board();
        let mut goal_cells = [0u8; MAX_CELLS];
        for (g, c) in goal_cells.iter_mut().zip(th.pattern.goal_cells(goal)) {
            *g = c as u8;
        }
        let k = th.pattern.len();
        let occ = goal_cells[..k].iter().fold(0u64, |m, &c| m | 1u64 << c);
        let mut neighbours = [0u64; MAX_CELLS];
        for (c, m) in neighbours.iter_mut().enumerate().take(board.cells()) {
            *m = board.neighbours(c).fold(0u64, |m, (_, n)| m | 1u64 << n);
        }
        Walk {
            goal_index: fast.index(&goal_cells[..k], occ, goal.blank_cell() as u8),
            goal_cells,
            neighbours,
            bits: BoardBits::new(board),
            board,
        }
    }
}

impl Walk {
    /// The value of the state with the pattern tiles on `cells` (tile order, occupying `occ`)
    /// and the blank on `blank`, in the frame of `table`, a `bit1` table whose largest value
    /// is `max_value`, by a walk to the goal: the value modulo 4 is known from the stored bit and the parity (every pattern move
    /// changes both the value and the tiles' Manhattan distance by 1, so they have the same
    /// parity); from a state of value `v > 0` one pattern move leads to a state of value
    /// `v - 1`, the neighbour whose stored bit is bit 1 of `v - 1`; the walk ends at the goal
    /// after exactly `v` moves. It costs a few lookups per move, whose lines each step requests
    /// together before reading the first (one memory latency per step, not one per
    /// neighbour tried), and allocates nothing.
    ///
    /// Errors, saying why, when the bits lead nowhere (no neighbour one lower, or no goal
    /// within the table's largest value): the table is corrupt.
    pub(super) fn value(
        &self,
        table: &impl Bits,
        max_value: u8,
        cells: &[u8],
        occ: u64,
        blank: u8,
    ) -> Result<u8, String> {
        let w = self;
        let corrupt = |why: String| why;
        let k = cells.len();
        let mut cur = [0u8; MAX_CELLS];
        cur[..k].copy_from_slice(cells);
        let (mut occ, mut blank) = (occ, blank);
        let parity = cells
            .iter()
            .zip(&w.goal_cells)
            .map(|(&c, &g)| w.board.manhattan(c as usize, g as usize))
            .sum::<usize>()
            & 1;
        let mut i = table.index(&cur[..k], occ, blank);
        // The value modulo 4, as the walk goes down.
        let mut v4 = (2 * table.bit1(i) as usize + parity) as u8;
        let mut steps = 0u32;
        let bound = max_value as u32;
        while i != w.goal_index {
            if steps >= bound {
                return Err(corrupt(format!(
                    "a walk down its bits did not reach the goal within {bound} moves (its largest value)"
                )));
            }
            let want = ((v4 + 3) & 3) >> 1;
            let region = flood(&w.bits, 1u64 << blank, w.bits.all() & !occ);
            // Every neighbour's line is requested before the first is read, in batches: the
            // misses overlap instead of following each other.
            let mut batch = [Neighbour::default(); WALK_BATCH];
            let mut n = 0;
            // The first of the requested neighbours one lower, in the order requested.
            let lower = |b: &[Neighbour]| b.iter().find(|nb| table.bit1(nb.index) == want).copied();
            let mut next = None;
            'moves: for slot in 0..k {
                let c = cur[slot];
                let mut targets = w.neighbours[c as usize] & region;
                while targets != 0 {
                    let d = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    cur[slot] = d;
                    let o = occ ^ (1u64 << c) ^ (1u64 << d);
                    let j = table.index(&cur[..k], o, c);
                    cur[slot] = c;
                    table.prefetch(j);
                    batch[n] = Neighbour {
                        index: j,
                        occ: o,
                        slot: slot as u8,
                        cell: d,
                    };
                    n += 1;
                    if n == WALK_BATCH {
                        next = lower(&batch);
                        if next.is_some() {
                            break 'moves;
                        }
                        n = 0;
                    }
                }
            }
            if next.is_none() {
                next = lower(&batch[..n]);
            }
            let Some(nb) = next else {
                return Err(corrupt(format!(
                    "a state {steps} moves down a walk has no neighbour one lower"
                )));
            };
            // The tile leaves its cell to the blank.
            blank = cur[nb.slot as usize];
            cur[nb.slot as usize] = nb.cell;
            (i, occ) = (nb.index, nb.occ);
            v4 = (v4 + 3) & 3;
            steps += 1;
        }
        if v4 != 0 {
            return Err(corrupt(format!(
                "a walk reached the goal after {steps} moves, a number its bits contradict"
            )));
        }
        Ok(steps as u8)
    }
}

/// How many neighbours [`Walk::value`]'s walk requests before it reads them.
const WALK_BATCH: usize = 16;

/// One neighbour of a state on [`Walk::value`]'s walk: one pattern tile (the
/// one in `slot`) moved to `cell`, the new occupied set and the new state's index.
#[derive(Clone, Copy, Debug, Default)]
struct Neighbour {
    index: u64,
    occ: u64,
    slot: u8,
    cell: u8,
}
