//! The brute-force oracle of exact abstract distances: 0-1 BFS over explicit abstract states
//! (the cells of the pattern's tiles and the exact blank cell) kept in a hash map.
//!
//! Moving the blank onto a free cell costs 0 and swapping it with a pattern tile costs 1, so
//! the distance of a state is the fewest pattern-tile moves that bring it to the goal: the
//! zero-aware table entry; the zero-unaware entry is the least over the blank's cells. The
//! search ranks nothing, so it checks index ranking as well as the generator; only
//! [`AbstractDistances::table`] uses [`TableIndex::unrank`] to lay the values out.

use crate::goal::Goal;
use crate::pattern::Pattern;
use crate::rank::{TableIndex, TableKind};
use std::collections::{HashMap, VecDeque};

/// Exact distance to the goal of every abstract state of one pattern.
#[derive(Clone, Debug)]
pub struct AbstractDistances {
    goal: Goal,
    pattern: Pattern,
    /// Key: the cells of the pattern's tiles in tile order, then the blank cell.
    dist: HashMap<Vec<u8>, u8>,
}

impl AbstractDistances {
    /// Runs the 0-1 BFS from the goal state of `pattern` under `goal`. Every state of the
    /// pattern is visited, so keep patterns small (a million states takes about a second).
    pub fn new(goal: &Goal, pattern: &Pattern) -> AbstractDistances {
        let board = goal.board();
        let k = pattern.len();
        let mut start: Vec<u8> = pattern.goal_cells(goal).iter().map(|&c| c as u8).collect();
        start.push(goal.blank_cell() as u8);
        let mut dist = HashMap::new();
        dist.insert(start.clone(), 0u8);
        let mut queue = VecDeque::from([start]);
        while let Some(s) = queue.pop_front() {
            let d = dist[&s];
            let blank = s[k] as usize;
            for (_, c) in board.neighbours(blank) {
                let mut t = s.clone();
                let cost = match s[..k].iter().position(|&x| x as usize == c) {
                    Some(i) => {
                        t[i] = blank as u8;
                        1
                    }
                    None => 0,
                };
                t[k] = c as u8;
                let nd = d + cost;
                if dist.get(&t).is_none_or(|&old| nd < old) {
                    dist.insert(t.clone(), nd);
                    if cost == 0 {
                        queue.push_front(t);
                    } else {
                        queue.push_back(t);
                    }
                }
            }
        }
        AbstractDistances {
            goal: goal.clone(),
            pattern: pattern.clone(),
            dist,
        }
    }

    /// The zero-aware distance of the state with the pattern's tiles on `cells` (tile order)
    /// and the blank on `blank`; `None` when the goal cannot be reached from it (or the state
    /// is not one: a cell twice, the blank on a tile).
    pub fn zero_aware(&self, cells: &[u8], blank: usize) -> Option<u8> {
        let mut key = Vec::with_capacity(cells.len() + 1);
        key.extend_from_slice(cells);
        key.push(blank as u8);
        self.dist.get(&key).copied()
    }

    /// The zero-unaware distance of the tiles on `cells`: the least over every blank cell.
    pub fn zero_unaware(&self, cells: &[u8]) -> Option<u8> {
        (0..self.goal.board().cells())
            .filter(|&b| !cells.contains(&(b as u8)))
            .filter_map(|b| self.zero_aware(cells, b))
            .min()
    }

    /// Number of reachable abstract states.
    pub fn reachable(&self) -> usize {
        self.dist.len()
    }

    /// The greatest distance.
    pub fn max(&self) -> u8 {
        self.dist.values().copied().max().unwrap_or(0)
    }

    /// The whole table of `kind`, one byte per entry in the order of
    /// `TableIndex::new(board, pattern.len(), kind)`; unreachable entries hold 255 (the
    /// generator's `UNREACHED`).
    ///
    /// # Panics
    /// When the board and pattern have no index (too many cells); tests choose small ones.
    pub fn table(&self, kind: TableKind) -> Vec<u8> {
        let board = self.goal.board();
        let k = self.pattern.len();
        let index = TableIndex::new(board, k, kind).expect("a small pattern has an index");
        let mut cells = vec![0u8; k];
        (0..index.len())
            .map(|i| {
                let rep = index.unrank(i, &mut cells);
                let d = match kind {
                    TableKind::ZeroAware => self.zero_aware(&cells, rep),
                    TableKind::ZeroUnaware => self.zero_unaware(&cells),
                };
                d.unwrap_or(u8::MAX)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn one_tile_distances_are_manhattan() {
        // With one tile and free blank moves, the blank can always be brought to the side the
        // tile moves to, so the zero-unaware distance is the tile's Manhattan distance.
        let b = Board::new(3, 3).unwrap();
        let goal = Goal::blank_first(b);
        let p = Pattern::new(b, &[5]).unwrap();
        let d = AbstractDistances::new(&goal, &p);
        assert_eq!(d.reachable(), 9 * 8);
        for cell in 0..9u8 {
            assert_eq!(
                d.zero_unaware(&[cell]),
                Some(b.manhattan(cell as usize, goal.cell_of(5)) as u8)
            );
        }
        assert_eq!(d.zero_aware(&[5], 0), Some(0));
        assert_eq!(d.zero_aware(&[5], 5), None);
        let t = d.table(TableKind::ZeroUnaware);
        assert_eq!(t.len(), 9);
        assert_eq!(t.iter().copied().max(), Some(d.max()));
    }

    #[test]
    fn full_eight_puzzle_counts() {
        // A pattern of every tile is the whole 8-puzzle: half the 9! states are reachable,
        // and the farthest is 31 moves away.
        let b = Board::new(3, 3).unwrap();
        let goal = Goal::blank_first(b);
        let p = Pattern::new(b, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let d = AbstractDistances::new(&goal, &p);
        assert_eq!(d.reachable(), 181_440);
        assert_eq!(d.max(), 31);
    }
}
