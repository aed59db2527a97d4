//! Zero-unaware tables from zero-aware ones: the minimum over the blank's regions, re-indexed
//! by the k-permutation rank.

use crate::byte_table::{ByteTable, Entries};
use crate::moves::ZeroAwareMoves;
use pdbformat::rank::{rank_permutation, PermutationIndex, ZeroAwareIndex};
use pdbformat::Board;
use rayon::prelude::*;

/// For every tile configuration, the minimum of the zero-aware values over its regions.
pub fn zero_unaware_from_aware(
    board: Board,
    za_idx: &ZeroAwareIndex,
    za: &[u8],
    zu_idx: &PermutationIndex,
) -> Entries {
    let n = board.cells();
    let k = za_idx.k();
    let fact = za_idx.order_count();
    let moves = ZeroAwareMoves::new(board, za_idx);
    let out = ByteTable::new(zu_idx.len() as usize);
    (0..za_idx.set_count())
        .into_par_iter()
        .with_min_len(16)
        .for_each(|set| {
            let regions = za_idx.regions_of_set(set);
            for order in 0..fact {
                let v = regions
                    .clone()
                    .map(|r| za[(za_idx.index_of(r, order)) as usize])
                    .min()
                    .expect("every set has a region");
                let state = moves.state(set, regions.start, order);
                let i = rank_permutation(&state.cells[..k], n);
                out.claim(i as usize, v);
            }
        });
    out.into_entries()
}
