//! The lookup indexes on the portable bit count (the fallback of a processor without POPCNT)
//! and on the processor's choice: the same numbers as the reference ranking, for random
//! states of zero-aware tables on 4×4 and 5×5 (every region layout of the fast index) and of
//! zero-unaware ones. The path is a process-wide choice: no other test of the binary selects it.

use pdbformat::rank::{
    select_popcount, FastIndex, FastZeroAware, PermutationIndex, PopcountPath, TableIndex,
    TableKind, ZeroAwareIndex,
};
use pdbformat::Board;

/// Random states (tile cells, blank cell) of `k` tiles on `board`.
fn states(board: Board, k: usize, count: usize, seed: u64) -> Vec<(Vec<u8>, u8)> {
    let mut x = seed;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..count)
        .map(|_| {
            let mut cells: Vec<u8> = (0..board.cells() as u8).collect();
            for i in (1..cells.len()).rev() {
                cells.swap(i, (next() % (i as u64 + 1)) as usize);
            }
            (cells[..k].to_vec(), cells[k])
        })
        .collect()
}

/// Every index of the random states of each case, checked against the reference ranking.
fn indexes() -> Vec<u64> {
    let mut all = Vec::new();
    for (w, h, k) in [
        (4, 4, 5),
        (4, 4, 7),
        (4, 4, 8),
        (5, 5, 5),
        (5, 5, 6),
        (5, 5, 7),
    ] {
        let board = Board::new(w, h).unwrap();
        let z = ZeroAwareIndex::new(board, k).unwrap();
        let fast = FastZeroAware::new(board, &z);
        let permutation = PermutationIndex::new(board, k).unwrap();
        let fast_permutation = FastIndex::new(
            board,
            &TableIndex::new(board, k, TableKind::ZeroUnaware).unwrap(),
        );
        for (tiles, blank) in states(board, k, 2000, 0x2545_f491_4f6c_dd1d ^ (w * k) as u64) {
            let occ = tiles.iter().fold(0u64, |m, &c| m | 1 << c);
            let i = fast.index(&tiles, occ, blank);
            assert_eq!(i, z.index(&tiles, blank as usize), "{w}x{h}, {k} tiles");
            let p = fast_permutation.index(&tiles, occ, blank);
            assert_eq!(p, permutation.index(&tiles), "{w}x{h}, {k} tiles");
            all.extend([i, p]);
        }
    }
    all
}

#[test]
fn both_paths_give_the_reference_numbering() {
    let dispatching = cfg!(all(target_arch = "x86_64", not(target_feature = "popcnt")));
    let taken = select_popcount(PopcountPath::Software);
    assert!(!dispatching || taken == PopcountPath::Software);
    let software = indexes();
    select_popcount(PopcountPath::Hardware);
    let hardware = indexes();
    assert_eq!(software, hardware);
}
