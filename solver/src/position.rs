//! The search position: tiles on cells in fixed-capacity arrays, and per-cell move tables.
//!
//! The solver works on boards of at most [`MAX_CELLS`] cells, so a position fits in one
//! 64-byte array (`tiles[cell]`, 0 for the blank) and every cell's neighbours are precomputed:
//! making or unmaking a move is two byte stores and needs no allocation.

use pdbformat::{Board, Direction, Goal};

/// The largest board the optimal solver accepts (the pattern-database limit of `pdbformat`).
pub const MAX_CELLS: usize = pdbformat::board::PDB_MAX_CELLS;

/// Marks "no cell" in `u8` cell arrays (never a valid cell, since cells are below 64).
pub const NO_CELL: u8 = u8::MAX;

/// A position: the tile on every cell (0 is the blank) and the blank's cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The tile on each cell; cells past the board's end hold 0 and are never read.
    pub tiles: [u8; MAX_CELLS],
    /// The blank's cell.
    pub blank: u8,
}

impl Position {
    /// The position of `tiles` (row by row, 0 for the blank); `None` when the board is larger than
    /// [`MAX_CELLS`] or the list holds no blank.
    pub fn from_tiles(tiles: &[u16]) -> Option<Position> {
        if tiles.len() > MAX_CELLS {
            return None;
        }
        let mut t = [0u8; MAX_CELLS];
        for (cell, &tile) in tiles.iter().enumerate() {
            t[cell] = u8::try_from(tile).ok()?;
        }
        let blank = tiles.iter().position(|&x| x == 0)? as u8;
        Some(Position { tiles: t, blank })
    }

    /// Moves the tile on `to` into the blank's cell: the blank goes to `to`. Returns the tile.
    #[inline(always)]
    pub fn slide(&mut self, to: u8) -> u8 {
        let tile = self.tiles[to as usize];
        self.tiles[self.blank as usize] = tile;
        self.tiles[to as usize] = 0;
        self.blank = to;
        tile
    }

    /// Whether the first `cells` cells equal `goal`'s tiles.
    pub fn is_goal(&self, goal: &Goal) -> bool {
        goal.tiles()
            .iter()
            .zip(self.tiles.iter())
            .all(|(&g, &t)| g == t as u16)
    }
}

/// For every cell, the cells the blank can move to, in the fixed order Up, Down, Left, Right
/// (the slots the duplicate-move machine numbers), and the order in which the depth-first
/// searches visit them.
#[derive(Clone, Debug)]
pub struct MoveTable {
    targets: [[u8; 4]; MAX_CELLS],
    count: [u8; MAX_CELLS],
    visit: [[u8; 4]; MAX_CELLS],
}

impl MoveTable {
    /// The table of `board` (at most [`MAX_CELLS`] cells), visiting as for a blank whose goal
    /// is the top-left corner.
    ///
    /// # Panics
    /// If the board has more than [`MAX_CELLS`] cells.
    pub fn new(board: Board) -> MoveTable {
        MoveTable::visiting_towards(board, 0)
    }

    /// The table of `goal`'s board whose visiting order ([`MoveTable::visit`]) leads the blank
    /// towards its goal cell first.
    ///
    /// # Panics
    /// If the board has more than [`MAX_CELLS`] cells.
    pub fn for_goal(goal: &Goal) -> MoveTable {
        MoveTable::visiting_towards(goal.board(), goal.blank_cell())
    }

    /// The table whose visiting order is up, left, right, down (the cells in reading order) in
    /// the frame where the corner nearest `blank_goal` is the top-left one: the board is read
    /// bottom to top when `blank_goal` lies in the lower half, right to left when it lies in the
    /// right half. For a blank whose goal is a corner, the moves towards it come first.
    ///
    /// Measured against visiting the smallest estimate first (one thread, IDA*): Korf's 100
    /// with the eight standard 4×4 databases generate as many nodes in all (142.2 M against
    /// 142.0 M; from 4.5 % fewer to 7.1 % more per database), the mirrored and the move table's
    /// orders 11 % more with the 6-6-3; the 14 easiest of Korf's 24-puzzle instances with the
    /// 6-6-6-6 expand 2.86·10^9 nodes in all against over 4.2·10^9 (fewer on 7 of the 14, the
    /// rest within 1.8 times), and on the ten of BENCHMARKS.md's comparison with pdbsearch the
    /// mirrored order took over twice as long.
    fn visiting_towards(board: Board, blank_goal: usize) -> MoveTable {
        assert!(board.cells() <= MAX_CELLS, "at most {MAX_CELLS} cells");
        let (w, h) = (board.width(), board.height());
        let flip_rows = 2 * board.row(blank_goal) > h - 1;
        let flip_cols = 2 * board.col(blank_goal) > w - 1;
        let reading = |cell: usize| {
            let (r, c) = (board.row(cell), board.col(cell));
            let r = if flip_rows { h - 1 - r } else { r };
            let c = if flip_cols { w - 1 - c } else { c };
            r * w + c
        };
        let mut targets = [[NO_CELL; 4]; MAX_CELLS];
        let mut count = [0u8; MAX_CELLS];
        let mut visit = [[0, 1, 2, 3]; MAX_CELLS];
        for cell in 0..board.cells() {
            for (_, n) in board.neighbours(cell) {
                targets[cell][count[cell] as usize] = n as u8;
                count[cell] += 1;
            }
            let n = count[cell] as usize;
            visit[cell][..n].sort_by_key(|&slot| reading(targets[cell][slot as usize] as usize));
        }
        MoveTable {
            targets,
            count,
            visit,
        }
    }

    /// The cells the blank on `cell` can move to.
    #[inline(always)]
    pub fn targets(&self, cell: u8) -> &[u8] {
        &self.targets[cell as usize][..self.count[cell as usize] as usize]
    }

    /// The slots of [`MoveTable::targets`]`(cell)` in the order the depth-first searches visit
    /// them (the first `targets(cell).len()` entries are meaningful).
    #[inline(always)]
    pub fn visit(&self, cell: u8) -> [u8; 4] {
        self.visit[cell as usize]
    }
}

/// The direction the blank moves to go from `from` to the neighbouring cell `to`.
///
/// # Panics
/// If the cells are not neighbours.
pub fn direction_between(board: Board, from: usize, to: usize) -> Direction {
    board
        .neighbours(from)
        .find(|&(_, n)| n == to)
        .map(|(d, _)| d)
        .expect("consecutive blank cells are neighbours")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_table_matches_board() {
        for (w, h) in [(3, 3), (4, 4), (2, 5), (8, 8)] {
            let b = Board::new(w, h).unwrap();
            let m = MoveTable::new(b);
            for c in 0..b.cells() {
                let want: Vec<u8> = b.neighbours(c).map(|(_, n)| n as u8).collect();
                assert_eq!(m.targets(c as u8), &want[..]);
                for &n in m.targets(c as u8) {
                    let d = direction_between(b, c, n as usize);
                    assert_eq!(b.neighbour(c, d), Some(n as usize));
                }
            }
        }
    }

    #[test]
    fn visiting_order_leads_the_blank_towards_its_goal_corner() {
        let b = Board::new(5, 5).unwrap();
        let visited = |m: &MoveTable, cell: u8| -> Vec<u8> {
            let t = m.targets(cell);
            m.visit(cell)[..t.len()]
                .iter()
                .map(|&s| t[s as usize])
                .collect()
        };
        // Blank's goal top-left (Korf's goal): up, left, right, down, as in reading order.
        let first = MoveTable::for_goal(&Goal::blank_first(b));
        assert_eq!(visited(&first, 12), [7, 11, 13, 17]);
        assert_eq!(visited(&first, 0), [1, 5]);
        assert_eq!(visited(&first, 24), [19, 23]);
        assert_eq!(visited(&MoveTable::new(b), 12), [7, 11, 13, 17]);
        // Bottom-right: the board read from the other corner, down and right first.
        let last = MoveTable::for_goal(&Goal::blank_last(b));
        assert_eq!(visited(&last, 12), [17, 13, 11, 7]);
        assert_eq!(visited(&last, 24), [23, 19]);
        // Top-right on a 4x3 board: columns read right to left.
        let r = Board::new(4, 3).unwrap();
        let tiles: Vec<u16> = (0..12)
            .map(|c| {
                if c == 3 {
                    0
                } else if c == 0 {
                    3
                } else {
                    c
                }
            })
            .collect();
        let goal = Goal::from_tiles(r, &tiles).unwrap();
        assert_eq!(goal.blank_cell(), 3);
        assert_eq!(visited(&MoveTable::for_goal(&goal), 5), [1, 6, 4, 9]);
        // Every cell's order is a permutation of its slots, on every board shape.
        for (w, h) in [(3, 3), (4, 4), (2, 5), (5, 5), (8, 8)] {
            let b = Board::new(w, h).unwrap();
            for blank in 0..b.cells() {
                let m = MoveTable::visiting_towards(b, blank);
                for c in 0..b.cells() as u8 {
                    let mut v = m.visit(c)[..m.targets(c).len()].to_vec();
                    v.sort_unstable();
                    assert_eq!(v, (0..m.targets(c).len() as u8).collect::<Vec<_>>());
                }
            }
        }
    }

    #[test]
    fn slide_and_back() {
        let b = Board::new(3, 3).unwrap();
        let g = Goal::blank_first(b);
        let mut s = Position::from_tiles(g.tiles()).unwrap();
        assert!(s.is_goal(&g));
        assert_eq!(s.slide(1), 1);
        assert_eq!(s.blank, 1);
        assert_eq!(s.tiles[0], 1);
        assert!(!s.is_goal(&g));
        assert_eq!(s.slide(0), 1);
        assert!(s.is_goal(&g));
        assert!(Position::from_tiles(&[1, 2, 3]).is_none());
    }
}
