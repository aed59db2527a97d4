//! The brute-force oracle of exact distances of whole positions: a BFS over every position of
//! a small board kept in a hash map, in either metric.
//!
//! In the single-tile metric a move swaps the blank with a neighbour; in the multi-tile metric
//! the blank jumps k ≥ 1 cells along its row or column and the k tiles it passes each slide one
//! cell towards where it was. Like [`super::AbstractDistances`], it ranks nothing and shares no
//! code with the searches and tables it checks.

use crate::board::Direction;
use crate::goal::Goal;
use crate::metric::Metric;
use std::collections::{HashMap, VecDeque};

/// The exact distance to the goal of every position reachable from it.
#[derive(Clone, Debug)]
pub struct PositionDistances {
    /// Key: the tile on each cell (0 for the blank).
    dist: HashMap<Vec<u8>, u8>,
}

impl PositionDistances {
    /// Runs the BFS from `goal` in `metric`. Every reachable position is visited: keep boards
    /// small (the 3×3's 181,440 positions take about a second).
    pub fn new(goal: &Goal, metric: Metric) -> PositionDistances {
        let board = goal.board();
        let start: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
        let mut dist = HashMap::new();
        dist.insert(start.clone(), 0u8);
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let d = dist[&s];
            let blank = s
                .iter()
                .position(|&t| t == 0)
                .expect("a position has a blank");
            for dir in Direction::ALL {
                let mut t = s.clone();
                let mut b = blank;
                while let Some(n) = board.neighbour(b, dir) {
                    t.swap(b, n);
                    b = n;
                    if !dist.contains_key(&t) {
                        dist.insert(t.clone(), d + 1);
                        queue.push_back(t.clone());
                    }
                    if metric == Metric::Stm {
                        break;
                    }
                }
            }
        }
        PositionDistances { dist }
    }

    /// The distance of the position with `tiles[cell]` on each cell (0 for the blank); `None`
    /// when it cannot reach the goal (or is not a position of the board).
    pub fn distance(&self, tiles: &[u8]) -> Option<u8> {
        self.dist.get(tiles).copied()
    }

    /// Every reachable position with its distance, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], u8)> + '_ {
        self.dist.iter().map(|(k, &d)| (k.as_slice(), d))
    }

    /// Number of reachable positions.
    pub fn reachable(&self) -> usize {
        self.dist.len()
    }

    /// The greatest distance.
    pub fn max(&self) -> u8 {
        self.dist.values().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn the_3x3_in_both_metrics() {
        let goal = Goal::blank_first(Board::new(3, 3).unwrap());
        let stm = PositionDistances::new(&goal, Metric::Stm);
        let mtm = PositionDistances::new(&goal, Metric::Mtm);
        assert_eq!((stm.reachable(), stm.max()), (181_440, 31));
        assert_eq!((mtm.reachable(), mtm.max()), (181_440, 24));
        assert!(stm.iter().all(|(p, d)| mtm.distance(p).unwrap() <= d));
    }
}
