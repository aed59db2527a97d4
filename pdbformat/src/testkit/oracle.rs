//! The brute-force oracle of exact abstract distances: 0-1 BFS over explicit abstract states
//! (the cells of the pattern's tiles and the exact blank cell) kept in a hash map, each state
//! packed into a `u64` key (6 bits a cell), so that no state costs an allocation.
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
use std::hash::{BuildHasherDefault, Hasher};

/// A hasher for packed states: one multiply and a rotation per `u64` (the keys are dense
/// small integers, which the standard library's SipHash spends most of the oracle's time on).
#[derive(Default)]
struct StateHasher(u64);

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

type StateMap = HashMap<u64, u8, BuildHasherDefault<StateHasher>>;

/// The state with the tiles on `cells` (tile order) and the blank on `blank`, packed: 6 bits a
/// cell, the blank first (boards of at most 64 cells; at most 9 tiles).
fn pack(cells: &[u8], blank: u8) -> u64 {
    cells
        .iter()
        .fold(blank as u64, |key, &c| key << 6 | c as u64)
}

/// Exact distance to the goal of every abstract state of one pattern.
#[derive(Clone, Debug)]
pub struct AbstractDistances {
    goal: Goal,
    pattern: Pattern,
    /// Key: the state packed by [`pack`].
    dist: StateMap,
}

impl AbstractDistances {
    /// Runs the 0-1 BFS from the goal state of `pattern` under `goal`. Every state of the
    /// pattern is visited, so keep patterns small (a million states takes about a second).
    pub fn new(goal: &Goal, pattern: &Pattern) -> AbstractDistances {
        let board = goal.board();
        let k = pattern.len();
        assert!(
            k <= 9 && board.cells() <= 64,
            "the oracle packs 9 tiles of 64 cells"
        );
        let mut start = [0u8; 9];
        for (s, &c) in start.iter_mut().zip(&pattern.goal_cells(goal)) {
            *s = c as u8;
        }
        let mut dist = StateMap::default();
        dist.insert(pack(&start[..k], goal.blank_cell() as u8), 0u8);
        let mut queue = VecDeque::from([(start, goal.blank_cell() as u8)]);
        while let Some((s, blank)) = queue.pop_front() {
            let d = dist[&pack(&s[..k], blank)];
            for (_, c) in board.neighbours(blank as usize) {
                let mut t = s;
                let cost = match s[..k].iter().position(|&x| x as usize == c) {
                    Some(i) => {
                        t[i] = blank;
                        1
                    }
                    None => 0,
                };
                let key = pack(&t[..k], c as u8);
                let nd = d + cost;
                if dist.get(&key).is_none_or(|&old| nd < old) {
                    dist.insert(key, nd);
                    if cost == 0 {
                        queue.push_front((t, c as u8));
                    } else {
                        queue.push_back((t, c as u8));
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
        if cells.len() != self.pattern.len() || blank >= 64 || cells.iter().any(|&c| c >= 64) {
            return None;
        }
        self.dist.get(&pack(cells, blank as u8)).copied()
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
