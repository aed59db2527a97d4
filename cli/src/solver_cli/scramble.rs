//! `solver scramble`: uniformly random solvable positions of a board, one a line in rows
//! separated by `/`, the same ones for the same seed.
//!
//! Uniform: a uniformly random permutation of the tiles (Fisher–Yates with unbiased draws);
//! one that cannot reach the goal has the tiles of its first two cells not holding the blank
//! swapped. That swap keeps the blank's cell and flips the permutation's parity, so it is a
//! bijection from the unsolvable half onto the solvable half, and every solvable position comes
//! out with the same probability.

use super::flags::{board_arg, goal_arg, usage};
use crate::output::outln;
use anyhow::Result;
use clap::Args;
use pdbformat::{Board, Goal, Puzzle};
use std::hash::{BuildHasher, Hasher};

/// Arguments of `solver scramble`.
#[derive(Args, Debug)]
pub struct ScrambleArgs {
    /// Board as WxH (columns x rows), e.g. 4x4.
    #[arg(long, value_name = "WxH", value_parser = board_arg)]
    board: String,
    /// How many positions.
    #[arg(long, value_name = "N", default_value_t = 1)]
    count: u64,
    /// Seed of the random source: the same seed gives the same positions on every machine
    /// (default: a random seed, printed on standard error).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// The goal the positions must be able to reach: blank-first, blank-last or a tile list.
    #[arg(long, default_value = "blank-first", value_parser = goal_arg)]
    goal: String,
}

/// Runs `solver scramble`.
pub fn run(a: ScrambleArgs) -> Result<i32> {
    let board: Board = a.board.parse().map_err(usage)?;
    let goal = Goal::parse(board, &a.goal).map_err(usage)?;
    let seed = a.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed {seed} (--seed {seed} gives these positions again)");
        seed
    });
    let mut random = Random::new(seed);
    for _ in 0..a.count {
        outln!("{}", scramble(&mut random, &goal).to_rows());
    }
    Ok(0)
}

/// A uniformly random position of `goal`'s board that can reach `goal`.
fn scramble(random: &mut Random, goal: &Goal) -> Puzzle {
    let board = goal.board();
    let mut tiles: Vec<u16> = (0..board.cells() as u16).collect();
    for i in (1..tiles.len()).rev() {
        tiles.swap(i, random.below(i as u64 + 1) as usize);
    }
    let p = Puzzle::new(board, &tiles).expect("a permutation is a position");
    if p.is_solvable(goal) {
        return p;
    }
    let mut cells = (0..tiles.len()).filter(|&c| tiles[c] != 0);
    let (a, b) = (cells.next(), cells.next());
    tiles.swap(a.expect("two tiles"), b.expect("two tiles"));
    Puzzle::new(board, &tiles).expect("a permutation is a position")
}

/// A seed from the process's random hash keys (drawn by the standard library from the
/// operating system), for runs without `--seed`.
fn random_seed() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x5eed);
    h.finish()
}

/// The random source: xorshift64* (Marsaglia's xorshift with a multiplied output), its state
/// seeded through splitmix64 so that near seeds give unrelated streams. Not cryptographic; the
/// same seed gives the same stream everywhere.
struct Random(u64);

impl Random {
    /// A source seeded with `seed` (any value, 0 included).
    fn new(seed: u64) -> Random {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Random(if z == 0 { 0x9e37_79b9_7f4a_7c15 } else { z })
    }

    /// The next 64 bits.
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A value in `0..n` (`n > 0`), without the bias of a plain remainder: draws from the
    /// incomplete top block of `n` values are drawn again.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_in_range_and_every_value_comes() {
        let mut r = Random::new(0);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_ne!(Random::new(1).next(), Random::new(2).next());
    }

    #[test]
    fn scrambles_can_reach_their_goal() {
        for (w, h) in [(2, 2), (3, 3), (4, 3), (5, 5)] {
            let board = Board::new(w, h).unwrap();
            for goal in [Goal::blank_first(board), Goal::blank_last(board)] {
                let mut r = Random::new(7);
                for _ in 0..200 {
                    assert!(scramble(&mut r, &goal).is_solvable(&goal));
                }
            }
        }
    }
}
