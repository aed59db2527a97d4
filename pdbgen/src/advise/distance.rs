//! A pattern's exact abstract distance for one position, without its table: an A* search in the
//! pattern's own space (the pattern's tiles and the blank; the other cells are empty), where a
//! move of a pattern tile costs 1 and the blank moves freely through empty cells (a state holds
//! the blank's region, not its cell) — the value the zero-aware table of the pattern holds for
//! that position. The Manhattan distance of the pattern's tiles is the (consistent) heuristic.

use pdbformat::{Goal, Pattern};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The most tiles of a pattern searched here: the blank and each tile take 6 bits of a `u128`.
pub const MAX_PATTERN_TILES: usize = 20;

/// A multiply-rotate hasher for the packed states (the standard hasher is several times slower
/// and its resistance to collisions chosen by an adversary is not needed here).
#[derive(Default)]
pub(crate) struct StateHasher(u64);

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
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

/// The cells below `cells` for which `keep` holds, as a bit mask.
fn mask(cells: usize, keep: impl Fn(usize) -> bool) -> u64 {
    (0..cells).filter(|&c| keep(c)).fold(0, |m, c| m | 1 << c)
}

/// The space of one pattern on one goal, ready to search from any position.
pub struct PatternSpace {
    /// The pattern's tiles.
    tiles: Vec<u8>,
    /// Goal cell of each of the pattern's tiles.
    home: Vec<u8>,
    /// The goal's blank cell.
    blank_home: u8,
    /// Neighbouring cells of every cell.
    neighbours: Vec<Vec<u8>>,
    /// Manhattan distance between every two cells (`cells × cells`).
    md: Vec<u8>,
    /// Cells of the board.
    cells: usize,
    /// Width of the board.
    width: usize,
    /// Every cell of the board.
    all: u64,
    /// Every cell but those of the first column.
    not_first_column: u64,
    /// Every cell but those of the last column.
    not_last_column: u64,
}

impl PatternSpace {
    /// The space of `pattern` for `goal` (at most [`MAX_PATTERN_TILES`] tiles).
    pub fn new(goal: &Goal, pattern: &Pattern) -> PatternSpace {
        assert!(pattern.len() <= MAX_PATTERN_TILES);
        let board = goal.board();
        let cells = board.cells();
        PatternSpace {
            tiles: pattern.tiles().to_vec(),
            home: pattern
                .tiles()
                .iter()
                .map(|&t| goal.cell_of(t as usize) as u8)
                .collect(),
            blank_home: goal.blank_cell() as u8,
            neighbours: (0..cells)
                .map(|c| board.neighbours(c).map(|(_, n)| n as u8).collect())
                .collect(),
            md: (0..cells * cells)
                .map(|i| board.manhattan(i / cells, i % cells) as u8)
                .collect(),
            cells,
            width: board.width(),
            all: mask(cells, |_| true),
            not_first_column: mask(cells, |c| board.col(c) != 0),
            not_last_column: mask(cells, |c| board.col(c) != board.width() - 1),
        }
    }

    fn dist(&self, a: u8, b: u8) -> u32 {
        self.md[a as usize * self.cells + b as usize] as u32
    }

    /// The cells the blank reaches from `from` without moving a tile of `occupied`.
    fn region(&self, from: u8, occupied: u64) -> u64 {
        let free = self.all & !occupied;
        let mut r = 1u64 << from;
        loop {
            let grown = (r
                | (r << 1) & self.not_first_column
                | (r >> 1) & self.not_last_column
                | r << self.width
                | r >> self.width)
                & free;
            if grown == r {
                return r;
            }
            r = grown;
        }
    }

    /// The pattern's exact zero-aware distance of the position `tiles` (the tile on every cell,
    /// 0 for the blank): the fewest moves of pattern tiles that bring them home with the blank
    /// in its goal cell's region. A state is the tiles' cells and the blank's region (named by
    /// its lowest cell), since the blank moves freely within it; a move slides a tile next to
    /// the region into it and costs 1.
    pub fn distance(&self, tiles: &[u8]) -> u32 {
        let k = self.tiles.len();
        let mut pos = vec![0u8; k];
        let mut blank = 0u8;
        for (c, &t) in tiles.iter().enumerate() {
            if t == 0 {
                blank = c as u8;
            } else if let Ok(j) = self.tiles.binary_search(&t) {
                pos[j] = c as u8;
            }
        }
        let pack = |pos: &[u8], region: u64| -> u128 {
            pos.iter()
                .enumerate()
                .fold(region.trailing_zeros() as u128, |acc, (j, &p)| {
                    acc | (p as u128) << (6 * (j + 1))
                })
        };
        let occupied = |pos: &[u8]| pos.iter().fold(0u64, |m, &p| m | 1 << p);
        let h0: u32 = (0..k).map(|j| self.dist(pos[j], self.home[j])).sum();
        let mut best: HashMap<u128, u32, BuildHasherDefault<StateHasher>> = HashMap::default();
        // Open states by f = g + h; each bucket a stack of (state, g, h).
        let mut buckets: Vec<Vec<(u128, u32, u32)>> = Vec::new();
        let push = |buckets: &mut Vec<Vec<(u128, u32, u32)>>, s: u128, g: u32, h: u32| {
            let f = (g + h) as usize;
            if buckets.len() <= f {
                buckets.resize_with(f + 1, Vec::new);
            }
            buckets[f].push((s, g, h));
        };
        let start = pack(&pos, self.region(blank, occupied(&pos)));
        best.insert(start, 0);
        push(&mut buckets, start, 0, h0);
        let mut f = h0 as usize;
        loop {
            let Some((state, g, h)) = buckets.get_mut(f).and_then(Vec::pop) else {
                f += 1;
                assert!(
                    f <= buckets.len(),
                    "the goal is reachable from every position"
                );
                continue;
            };
            if best.get(&state).is_some_and(|&b| b < g) {
                continue;
            }
            for (j, p) in pos.iter_mut().enumerate() {
                *p = ((state >> (6 * (j + 1))) & 63) as u8;
            }
            let occ = occupied(&pos);
            let region = self.region((state & 63) as u8, occ);
            if h == 0 && region >> self.blank_home & 1 == 1 {
                return g;
            }
            for j in 0..k {
                let from = pos[j];
                for &to in &self.neighbours[from as usize] {
                    if region >> to & 1 == 0 {
                        continue;
                    }
                    pos[j] = to;
                    let next_region = self.region(from, occ ^ (1 << from) ^ (1 << to));
                    let next = pack(&pos, next_region);
                    pos[j] = from;
                    let nh = h + self.dist(to, self.home[j]) - self.dist(from, self.home[j]);
                    if best.get(&next).is_none_or(|&b| g + 1 < b) {
                        best.insert(next, g + 1);
                        push(&mut buckets, next, g + 1, nh);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn the_goal_is_at_zero_and_one_slide_costs_one() {
        let goal = Goal::blank_first(Board::new(3, 3).unwrap());
        let p = Pattern::new(goal.board(), &[1, 2, 3]).unwrap();
        let space = PatternSpace::new(&goal, &p);
        let g: Vec<u8> = (0..9).collect();
        assert_eq!(space.distance(&g), 0);
        // The blank moved right: tile 1 slid left; then down under 4 (not in the pattern).
        let mut t = g.clone();
        t.swap(0, 1);
        assert_eq!(space.distance(&t), 1);
        t.swap(1, 4);
        assert_eq!(space.distance(&t), 1);
    }
}
