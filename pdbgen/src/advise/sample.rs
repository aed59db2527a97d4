//! The sample the advisor predicts from: uniformly random solvable positions drawn from a
//! seeded generator, and the views (board symmetries fixing the goal's blank) under which the
//! solver looks each position up a second time.

use pdbformat::{Goal, Puzzle, Symmetry};

/// A small seeded generator (SplitMix64): the same seed draws the same sample everywhere.
pub(crate) struct SplitMix(u64);

impl SplitMix {
    /// The generator of `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n > 0`), with negligible bias for the small `n` used here.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 11) % n as u64) as usize
    }
}

/// A position: the tile on every cell, 0 for the blank.
pub type Tiles = Vec<u8>;

/// Whether `tiles` (a permutation of the board's cells) can reach `goal`
/// ([`Puzzle::is_solvable`]).
pub fn solvable(goal: &Goal, tiles: &[u8]) -> bool {
    let tiles: Vec<u16> = tiles.iter().map(|&t| t as u16).collect();
    Puzzle::new(goal.board(), &tiles).is_ok_and(|p| p.is_solvable(goal))
}

/// `count` uniformly random solvable positions of `goal`'s board drawn from `seed`: a random
/// permutation, with its first two tiles swapped when it cannot reach the goal (a bijection
/// between the two parity classes, so the result stays uniform).
pub fn random_positions(goal: &Goal, count: usize, seed: u64) -> Vec<Tiles> {
    let cells = goal.board().cells();
    let mut rng = SplitMix::new(seed);
    (0..count)
        .map(|_| {
            let mut t: Tiles = (0..cells as u8).collect();
            for i in (1..cells).rev() {
                t.swap(i, rng.below(i + 1));
            }
            if !solvable(goal, &t) {
                let tiles: Vec<usize> = (0..cells).filter(|&c| t[c] != 0).take(2).collect();
                t.swap(tiles[0], tiles[1]);
            }
            t
        })
        .collect()
}

/// The views the solver's default search takes the maximum over: the identity, then every
/// other board symmetry fixing the goal's blank cell (the solver's reflected lookups).
pub fn views(goal: &Goal, reflect: bool) -> Vec<Symmetry> {
    let mut v = vec![Symmetry::Identity];
    if reflect {
        let mut others = Symmetry::fixing(goal.board(), goal.blank_cell());
        others.retain(|&s| s != Symmetry::Identity);
        others.sort_by_key(|s| !matches!(s, Symmetry::Transpose | Symmetry::AntiTranspose));
        v.extend(others);
    }
    v
}

/// `tiles` seen through `view` as the solver looks it up: the tile `t` on cell `x` becomes the
/// tile whose goal cell is the image of `t`'s, standing on the image of `x`. It is as far from
/// the goal as `tiles`.
pub fn viewed(goal: &Goal, tiles: &[u8], view: Symmetry) -> Tiles {
    let board = goal.board();
    let mut out = vec![0u8; tiles.len()];
    for (x, &t) in tiles.iter().enumerate() {
        let image = goal.tile_at(view.map(board, goal.cell_of(t as usize)));
        out[view.map(board, x)] = image as u8;
    }
    out
}

/// The sum of the Manhattan distances of `tiles`' tiles (the blank not counted) to their goal
/// cells.
pub fn manhattan(goal: &Goal, tiles: &[u8]) -> u32 {
    let board = goal.board();
    tiles
        .iter()
        .enumerate()
        .filter(|(_, &t)| t != 0)
        .map(|(c, &t)| board.manhattan(c, goal.cell_of(t as usize)) as u32)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn samples_are_solvable_and_seeded() {
        let goal = Goal::blank_first(Board::new(4, 4).unwrap());
        let a = random_positions(&goal, 50, 7);
        assert_eq!(a, random_positions(&goal, 50, 7));
        assert_ne!(a, random_positions(&goal, 50, 8));
        assert!(a.iter().all(|t| solvable(&goal, t)));
        let mut swapped: Tiles = (0..16).collect();
        swapped.swap(1, 2);
        assert!(!solvable(&goal, &swapped));
    }

    #[test]
    fn a_view_keeps_the_goal_and_the_manhattan_distance() {
        let goal = Goal::blank_first(Board::new(3, 3).unwrap());
        let g: Tiles = (0..9).collect();
        assert_eq!(viewed(&goal, &g, Symmetry::Transpose), g);
        for t in random_positions(&goal, 20, 1) {
            let v = viewed(&goal, &t, Symmetry::Transpose);
            assert_eq!(manhattan(&goal, &t), manhattan(&goal, &v));
            assert!(solvable(&goal, &v));
        }
    }
}
