//! Board symmetries (rotations and reflections) as maps on cells.
//!
//! Tiles are only names for goal cells, so a pattern database built for one goal also serves any
//! goal whose blank cell is the image of its blank cell under one of these maps.

use crate::board::Board;

/// One of the eight symmetries of a square (four of a rectangle), acting on cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every cell in place.
    Identity,
    /// Mirror across the main diagonal (square boards only).
    Transpose,
    /// Rotate by 180°.
    Rotate180,
    /// Mirror left-right.
    FlipColumns,
    /// Mirror top-bottom.
    FlipRows,
    /// Rotate by 90° clockwise (square boards only).
    Rotate90,
    /// Rotate by 270° clockwise (square boards only).
    Rotate270,
    /// Mirror across the anti-diagonal (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// Every symmetry that maps `board` onto itself (8 for squares, 4 for rectangles).
    pub fn of_board(board: Board) -> Vec<Symmetry> {
        use Symmetry::*;
        let mut v = vec![Identity, Rotate180, FlipColumns, FlipRows];
        if board.is_square() {
            v.extend([Transpose, Rotate90, Rotate270, AntiTranspose]);
        }
        v
    }

    /// The image of `cell`.
    ///
    /// # Panics
    /// For a square-only symmetry on a rectangular board.
    pub fn map(self, board: Board, cell: usize) -> usize {
        let (w, h) = (board.width(), board.height());
        let (r, c) = (board.row(cell), board.col(cell));
        let (nr, nc) = match self {
            Symmetry::Identity => (r, c),
            Symmetry::Rotate180 => (h - 1 - r, w - 1 - c),
            Symmetry::FlipColumns => (r, w - 1 - c),
            Symmetry::FlipRows => (h - 1 - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::Rotate90 => (c, w - 1 - r),
            Symmetry::Rotate270 => (h - 1 - c, r),
            Symmetry::AntiTranspose => (w - 1 - c, h - 1 - r),
        };
        assert!(
            nr < h && nc < w,
            "{self:?} does not map a {board} board onto itself"
        );
        board.cell(nr, nc)
    }

    /// The name people read: `transpose`, `rotate-90`, `flip-columns`, …
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::Transpose => "transpose",
            Symmetry::Rotate180 => "rotate-180",
            Symmetry::FlipColumns => "flip-columns",
            Symmetry::FlipRows => "flip-rows",
            Symmetry::Rotate90 => "rotate-90",
            Symmetry::Rotate270 => "rotate-270",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }

    /// Every symmetry of `board` that leaves `cell` in place, the identity first.
    pub fn fixing(board: Board, cell: usize) -> Vec<Symmetry> {
        Symmetry::of_board(board)
            .into_iter()
            .filter(|s| s.map(board, cell) == cell)
            .collect()
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }

    /// The whole cell map, `table[cell] = image`.
    pub fn table(self, board: Board) -> Vec<usize> {
        (0..board.cells()).map(|c| self.map(board, c)).collect()
    }

    /// The first symmetry of `board` that takes cell `from` to cell `to`, if any.
    pub fn taking(board: Board, from: usize, to: usize) -> Option<Symmetry> {
        Symmetry::of_board(board)
            .into_iter()
            .find(|s| s.map(board, from) == to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_fixing_a_cell_are_those_a_brute_force_finds() {
        // Brute force: every bijection of the cells that keeps adjacency (a graph automorphism
        // of the grid) and fixes `cell`, found by trying all images of two corners' rows.
        for (w, h) in [(3, 3), (5, 5), (4, 4), (3, 5), (4, 2)] {
            let b = Board::new(w, h).unwrap();
            for cell in 0..b.cells() {
                let mut want: Vec<Vec<usize>> = automorphisms(b)
                    .into_iter()
                    .filter(|t| t[cell] == cell)
                    .collect();
                want.sort();
                let mut got: Vec<Vec<usize>> = Symmetry::fixing(b, cell)
                    .iter()
                    .map(|s| s.table(b))
                    .collect();
                got.sort();
                assert_eq!(got, want, "{b} cell {cell}");
            }
        }
        let b5 = Board::new(5, 5).unwrap();
        assert_eq!(Symmetry::fixing(b5, 12).len(), 8);
        assert_eq!(Symmetry::fixing(b5, 0).len(), 2);
        assert_eq!(Symmetry::fixing(b5, 2).len(), 2);
        assert_eq!(Symmetry::fixing(b5, 1).len(), 1);
    }

    /// Every adjacency-keeping bijection of the grid, by trying every image of the cells in
    /// row-major order with backtracking (independent of [`Symmetry::map`]).
    fn automorphisms(b: Board) -> Vec<Vec<usize>> {
        fn extend(b: Board, img: &mut Vec<usize>, used: &mut Vec<bool>, out: &mut Vec<Vec<usize>>) {
            let x = img.len();
            if x == b.cells() {
                out.push(img.clone());
                return;
            }
            for y in 0..b.cells() {
                if used[y] || b.neighbours(x).count() != b.neighbours(y).count() {
                    continue;
                }
                // Adjacency to every earlier cell must be kept both ways.
                let ok = (0..x).all(|a| (b.manhattan(a, x) == 1) == (b.manhattan(img[a], y) == 1));
                if ok {
                    used[y] = true;
                    img.push(y);
                    extend(b, img, used, out);
                    img.pop();
                    used[y] = false;
                }
            }
        }
        let mut out = Vec::new();
        extend(b, &mut Vec::new(), &mut vec![false; b.cells()], &mut out);
        out
    }

    #[test]
    fn symmetries_are_bijections_that_keep_adjacency() {
        for (w, h) in [(4, 4), (3, 4), (5, 2), (3, 3)] {
            let b = Board::new(w, h).unwrap();
            for s in Symmetry::of_board(b) {
                let t = s.table(b);
                let mut sorted = t.clone();
                sorted.sort();
                assert_eq!(sorted, (0..b.cells()).collect::<Vec<_>>());
                for a in 0..b.cells() {
                    assert_eq!(s.inverse().map(b, t[a]), a, "{s:?}");
                    for (_, n) in b.neighbours(a) {
                        assert_eq!(b.manhattan(t[a], t[n]), 1);
                    }
                }
            }
        }
        let b = Board::new(4, 4).unwrap();
        assert_eq!(Symmetry::taking(b, 0, 15), Some(Symmetry::Rotate180));
        use Symmetry::{AntiTranspose, Identity, Transpose};
        assert_eq!(Symmetry::fixing(b, 0), vec![Identity, Transpose]);
        assert_eq!(Symmetry::fixing(b, 3), vec![Identity, AntiTranspose]);
        assert_eq!(Symmetry::fixing(b, 1), vec![Identity]);
        assert_eq!(Symmetry::Transpose.map(b, 1), 4);
    }
}
