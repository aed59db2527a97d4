//! The optimal solution lengths of the sampled positions, which bound IDA*'s last iteration:
//! exact on boards of at most [`EXACT_CELLS`] cells (a breadth-first search of the whole
//! puzzle from the goal), estimated elsewhere from the Manhattan distance.

use super::sample::manhattan;
use pdbformat::Goal;
use std::collections::HashMap;

/// The largest board whose every position's distance is computed (10 cells: 1.8 million
/// positions).
pub const EXACT_CELLS: usize = 10;

/// Optimal length over Manhattan distance, on average over random positions of the 4x4
/// (52.6 moves against 37.5; Korf & Felner's figures): the estimate where no exact distance is
/// known.
pub const DEPTH_PER_MANHATTAN: f64 = 1.40;

/// The optimal lengths of `positions`, or estimates (the sample's mean Manhattan distance times
/// [`DEPTH_PER_MANHATTAN`], each at least `lower[i]`, a lower bound known for position `i`, and
/// of its Manhattan distance's parity); and whether they are exact.
pub fn optimal_depths(goal: &Goal, positions: &[Vec<u8>], lower: &[u32]) -> (Vec<u32>, bool) {
    if goal.board().cells() <= EXACT_CELLS {
        let dist = all_distances(goal);
        let depths = positions
            .iter()
            .map(|p| dist[&pack(p)] as u32)
            .collect::<Vec<_>>();
        return (depths, true);
    }
    // One length for every position (the mean Manhattan distance's estimate, to each one's
    // parity): estimates per position spread wider than the true lengths, and the nodes grow
    // exponentially with the length, so that the widest estimates would decide the mean.
    let mds: Vec<u32> = positions.iter().map(|p| manhattan(goal, p)).collect();
    let mean = mds.iter().map(|&m| m as f64).sum::<f64>() / mds.len().max(1) as f64;
    let est = (mean * DEPTH_PER_MANHATTAN).round() as u32;
    let depths = mds
        .iter()
        .zip(lower)
        .map(|(&md, &lb)| (est + (est + md) % 2).max(lb))
        .collect();
    (depths, false)
}

/// A position of at most 16 cells packed 4 bits a cell.
fn pack(tiles: &[u8]) -> u64 {
    tiles
        .iter()
        .enumerate()
        .fold(0, |acc, (c, &t)| acc | (t as u64) << (4 * c))
}

/// The distance of every position of `goal`'s (small) board from the goal.
fn all_distances(goal: &Goal) -> HashMap<u64, u8> {
    let board = goal.board();
    let start: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
    let mut dist = HashMap::new();
    dist.insert(pack(&start), 0u8);
    let mut frontier = vec![start];
    let mut d = 0u8;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for p in &frontier {
            let blank = p.iter().position(|&t| t == 0).expect("a blank");
            for (_, n) in board.neighbours(blank) {
                let mut q = p.clone();
                q.swap(blank, n);
                let key = pack(&q);
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(key) {
                    e.insert(d);
                    next.push(q);
                }
            }
        }
        frontier = next;
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn the_eight_puzzle_is_at_most_31_moves_away() {
        let goal = Goal::blank_first(Board::new(3, 3).unwrap());
        let d = all_distances(&goal);
        assert_eq!(d.len(), 181_440);
        assert_eq!(d.values().max(), Some(&31));
    }
}
