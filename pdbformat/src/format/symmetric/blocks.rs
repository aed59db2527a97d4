//! What a board symmetry does to a zero-aware index: the tile map between two patterns'
//! goal states, cell masks mapped, and the walk over the index's (cell set, region) blocks
//! with each block's image and the map of its tile orders.

use crate::board::Board;
use crate::goal::Goal;
use crate::pattern::Pattern;
use crate::rank::{flood, rank_permutation, unrank_permutation, BoardBits, ZeroAwareIndex};
use crate::symmetry::Symmetry;
use std::collections::HashMap;

/// `τ` with `τ[j]` the tile of `target` (by position in its pattern) whose goal cell is the
/// image of the goal cell of tile `j` of `source`, when `symmetry` maps the source's goal
/// state (its tiles' goal cells and the blank's region among the other cells) onto the
/// target's; `None` otherwise.
pub fn tile_map(
    goal: &Goal,
    symmetry: Symmetry,
    source: &Pattern,
    target: &Pattern,
) -> Option<Vec<usize>> {
    let board = goal.board();
    if source.len() != target.len() || !maps_board(board, symmetry) {
        return None;
    }
    let (from, to) = (source.goal_cells(goal), target.goal_cells(goal));
    let tau: Vec<usize> = from
        .iter()
        .map(|&c| to.iter().position(|&d| d == symmetry.map(board, c)))
        .collect::<Option<_>>()?;
    let bits = BoardBits::new(board);
    let region = |cells: &[usize]| {
        let occ = cells.iter().fold(0u64, |m, &c| m | 1 << c);
        flood(&bits, 1 << goal.blank_cell(), bits.all() & !occ)
    };
    let mapped = map_mask(board, symmetry, region(&from));
    (mapped == region(&to)).then_some(tau)
}

fn maps_board(board: Board, s: Symmetry) -> bool {
    Symmetry::of_board(board).contains(&s)
}

fn map_mask(board: Board, s: Symmetry, mut m: u64) -> u64 {
    let mut out = 0u64;
    while m != 0 {
        out |= 1 << s.map(board, m.trailing_zeros() as usize);
        m &= m - 1;
    }
    out
}

/// The most tile-order map entries kept at once (256 MiB): a symmetry that reorders the cells
/// of many sets differently recomputes maps rather than holding one per set.
const MAP_CACHE_ENTRIES: u64 = 1 << 26;

/// Calls `each(set, region, image_region, orders)` for every (cell set, region) block of the
/// index, in index order: the set's cells, the block's image under `symmetry` and `orders[o]`,
/// the image's tile order of order `o`.
pub(super) fn for_each_block<F>(
    z: &ZeroAwareIndex,
    board: Board,
    symmetry: Symmetry,
    tau: &[usize],
    mut each: F,
) -> Result<(), String>
where
    F: FnMut(u64, usize, usize, &[u32]) -> Result<(), String>,
{
    let k = z.k();
    let mut maps: HashMap<Vec<u8>, Vec<u32>> = HashMap::new();
    let mut slots = vec![0u8; k];
    for set in 0..z.set_count() {
        let occ = z.set_mask(set);
        let image = map_mask(board, symmetry, occ);
        let image_set = z.set_rank(image);
        // pi[i]: the slot in the image set of the image of the set's i-th cell.
        let mut pi = Vec::with_capacity(k);
        let mut m = occ;
        while m != 0 {
            let c = symmetry.map(board, m.trailing_zeros() as usize);
            pi.push((image & ((1u64 << c) - 1)).count_ones() as u8);
            m &= m - 1;
        }
        if !maps.contains_key(&pi) && maps.len() as u64 * z.order_count() >= MAP_CACHE_ENTRIES {
            maps.clear();
        }
        let orders = maps.entry(pi).or_insert_with_key(|pi| {
            let mut image_slots = vec![0u8; k];
            (0..z.order_count())
                .map(|o| {
                    unrank_permutation(o, k, &mut slots);
                    for j in 0..k {
                        image_slots[tau[j]] = pi[slots[j] as usize];
                    }
                    rank_permutation(&image_slots, k) as u32
                })
                .collect()
        });
        for region in z.regions_of_set(set) {
            let blank = z.region_mask(region).trailing_zeros() as usize;
            let image_region = z.region_at(image_set, symmetry.map(board, blank));
            each(occ, region, image_region, orders)?;
        }
    }
    Ok(())
}

/// The zero-aware index of `k` tiles on `board`.
pub(super) fn index_for(board: Board, k: usize) -> Result<ZeroAwareIndex, String> {
    ZeroAwareIndex::new(board, k).map_err(|e| e.to_string())
}
