//! Class boards: the abstraction of multi-tile-metric tables.
//!
//! Every tile is known only by its *class* (`rank/class_labels.rs` says which); the blank is
//! kept exactly. A move of the multi-tile metric maps class boards onto class boards, so the
//! distance between class boards never exceeds the distance between the positions they
//! abstract, in either metric.
//!
//! [`ClassIndex`] numbers class boards densely: the blank's cell first, then the cells of
//! class 0 as a combination (colex rank) of the cells the blank leaves, then those of class 1
//! among the cells left after class 0, and so on; the last class takes the cells that remain.
//! A class board is given as the blank's cell and one cell mask per class.

use super::class_labels::{CellClasses, ClassLabels};
use super::{binomial::Binomials, permutation::MAX_ENTRIES, IndexError};
use crate::board::Board;
use crate::goal::Goal;

/// The dense numbering of the class boards of one board, labelling and goal cell of the
/// blank.
#[derive(Clone, Debug)]
pub struct ClassIndex {
    board: Board,
    labels: ClassLabels,
    blank_goal: usize,
    /// Tiles per class (the blank's goal cell excluded).
    counts: Vec<usize>,
    /// `C(cells left before class c, counts[c])` for every class but the last.
    radices: Vec<u64>,
    binomials: Binomials,
    len: u64,
}

impl ClassIndex {
    /// The index of class boards labelled by `labels` on `board` whose goal has the blank on
    /// `blank_goal`. A [`ClassLabels::Cells`] labelling must be of this board and leave
    /// exactly the blank's goal cell without a class.
    pub fn new(
        board: Board,
        labels: ClassLabels,
        blank_goal: usize,
    ) -> Result<ClassIndex, IndexError> {
        let n = board.cells();
        let bad = |why: &str| IndexError::unsupported(board, n - 1, why);
        if !board.fits_pdb() {
            return Err(bad("boards of at most 64 cells are supported"));
        }
        if blank_goal >= n {
            return Err(bad("the blank's goal cell is off the board"));
        }
        if let ClassLabels::Cells(l) = labels {
            if l.cells() != n {
                return Err(bad("the labelling is of another board"));
            }
            if (0..n).any(|c| (l.class(c) == CellClasses::NONE) != (c == blank_goal)) {
                return Err(bad(
                    "the labelling must leave exactly the blank's goal cell out",
                ));
            }
        }
        let mut counts = vec![0usize; labels.classes(board)];
        for c in (0..n).filter(|&c| c != blank_goal) {
            counts[labels.class_of(board, c)] += 1;
        }
        if counts.len() < 2 {
            return Err(bad("a labelling needs at least two classes"));
        }
        let binomials = Binomials::new();
        let mut left = n - 1;
        let mut radices = Vec::with_capacity(counts.len() - 1);
        let mut len = Some(n as u64);
        for &k in &counts[..counts.len() - 1] {
            let r = binomials.get(left, k);
            radices.push(r);
            len = len.and_then(|l| l.checked_mul(r));
            left -= k;
        }
        let len = len
            .filter(|&l| l <= MAX_ENTRIES)
            .ok_or_else(|| bad("the class table would exceed 2^40 entries"))?;
        Ok(ClassIndex {
            board,
            labels,
            blank_goal,
            counts,
            radices,
            binomials,
            len,
        })
    }

    /// The index for `goal`'s board and blank cell.
    pub fn for_goal(goal: &Goal, labels: ClassLabels) -> Result<ClassIndex, IndexError> {
        ClassIndex::new(goal.board(), labels, goal.blank_cell())
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The labelling that names classes.
    pub fn labels(&self) -> ClassLabels {
        self.labels
    }

    /// The goal cell of the blank.
    pub fn blank_goal(&self) -> usize {
        self.blank_goal
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.counts.len()
    }

    /// Tiles of each class.
    pub fn counts(&self) -> &[usize] {
        &self.counts
    }

    /// Number of class boards (the size of the index range).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the range is empty (never).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The class masks of the goal: every cell but the blank's in its own class. Fills
    /// `masks` (one per class).
    pub fn goal_masks(&self, masks: &mut [u64]) {
        masks.iter_mut().for_each(|m| *m = 0);
        for c in (0..self.board.cells()).filter(|&c| c != self.blank_goal) {
            masks[self.labels.class_of(self.board, c)] |= 1 << c;
        }
    }

    /// The index of the class board with the blank on `blank` and the cells of class `c` in
    /// `masks[c]`. The masks must be disjoint, hold `counts()[c]` cells each and leave out
    /// the blank (not checked; debug builds assert it).
    #[inline]
    pub fn rank(&self, blank: usize, masks: &[u64]) -> u64 {
        debug_assert!(self.is_board(blank, masks));
        let n = self.board.cells();
        let mut free = full(n) & !(1u64 << blank);
        let mut r = blank as u64;
        for (c, &radix) in self.radices.iter().enumerate() {
            let mut m = masks[c];
            let mut sub = 0u64;
            let mut i = 1;
            while m != 0 {
                let x = m.trailing_zeros();
                let below = (free & ((1u64 << x) - 1)).count_ones() as usize;
                sub += self.binomials.get(below, i);
                i += 1;
                m &= m - 1;
            }
            r = r * radix + sub;
            free &= !masks[c];
        }
        r
    }

    /// The class board of `index`: fills `masks` (one per class) and returns the blank's
    /// cell.
    ///
    /// # Panics
    /// If `index` is out of range.
    pub fn unrank(&self, index: u64, masks: &mut [u64]) -> usize {
        assert!(index < self.len, "class index {index} out of range");
        let classes = self.counts.len();
        let mut digits = [0u64; 64];
        let mut rest = index;
        for c in (0..classes - 1).rev() {
            digits[c] = rest % self.radices[c];
            rest /= self.radices[c];
        }
        let blank = rest as usize;
        let mut free = full(self.board.cells()) & !(1u64 << blank);
        for c in 0..classes - 1 {
            let mut d = digits[c];
            let mut m = 0u64;
            let mut top = free.count_ones() as usize;
            for i in (1..=self.counts[c]).rev() {
                let mut p = top - 1;
                while self.binomials.get(p, i) > d {
                    p -= 1;
                }
                d -= self.binomials.get(p, i);
                m |= 1u64 << select(free, p);
                top = p;
            }
            masks[c] = m;
            free &= !m;
        }
        masks[classes - 1] = free;
        blank
    }

    /// Whether `blank` and `masks` make a class board of this index.
    pub fn is_board(&self, blank: usize, masks: &[u64]) -> bool {
        let n = self.board.cells();
        if blank >= n || masks.len() < self.counts.len() {
            return false;
        }
        let mut seen = 1u64 << blank;
        for (c, &k) in self.counts.iter().enumerate() {
            if masks[c] & seen != 0 || masks[c].count_ones() as usize != k {
                return false;
            }
            seen |= masks[c];
        }
        seen == full(n)
    }
}

/// The mask of cells `0..n`.
#[inline]
fn full(n: usize) -> u64 {
    if n == 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The cell of the `p`-th (from 0) set bit of `m`.
#[inline]
fn select(mut m: u64, p: usize) -> u32 {
    for _ in 0..p {
        m &= m - 1;
    }
    m.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every class board of the index, by brute force: every assignment of cells to the blank
    /// and the classes with the right counts.
    fn all_boards(ix: &ClassIndex) -> Vec<(usize, Vec<u64>)> {
        let n = ix.board().cells();
        let mut out = Vec::new();
        let mut cells = vec![usize::MAX; n];
        fn fill(
            cell: usize,
            left: &mut Vec<usize>,
            blank_left: &mut bool,
            cells: &mut Vec<usize>,
            out: &mut Vec<(usize, Vec<u64>)>,
        ) {
            let n = cells.len();
            if cell == n {
                let blank = cells.iter().position(|&c| c == usize::MAX - 1).unwrap();
                let mut masks = vec![0u64; left.len()];
                for (x, &c) in cells.iter().enumerate() {
                    if c < left.len() {
                        masks[c] |= 1 << x;
                    }
                }
                out.push((blank, masks));
                return;
            }
            if *blank_left {
                *blank_left = false;
                cells[cell] = usize::MAX - 1;
                fill(cell + 1, left, blank_left, cells, out);
                *blank_left = true;
            }
            for c in 0..left.len() {
                if left[c] > 0 {
                    left[c] -= 1;
                    cells[cell] = c;
                    fill(cell + 1, left, blank_left, cells, out);
                    left[c] += 1;
                }
            }
        }
        let mut left = ix.counts().to_vec();
        fill(0, &mut left, &mut true, &mut cells, &mut out);
        out
    }

    #[test]
    fn rank_is_a_bijection_onto_the_range() {
        for (w, h) in [(3, 3), (2, 4), (4, 2), (2, 2), (3, 2)] {
            let board = Board::new(w, h).unwrap();
            for axis in [ClassLabels::Rows, ClassLabels::Columns] {
                for blank_goal in [0, board.cells() - 1, 1] {
                    let ix = ClassIndex::new(board, axis, blank_goal).unwrap();
                    let boards = all_boards(&ix);
                    assert_eq!(boards.len() as u64, ix.len(), "{board} {axis}");
                    let mut hit = vec![false; ix.len() as usize];
                    let mut masks = vec![0u64; ix.classes()];
                    for (blank, m) in &boards {
                        assert!(ix.is_board(*blank, m));
                        let r = ix.rank(*blank, m);
                        assert!(!hit[r as usize], "rank {r} twice");
                        hit[r as usize] = true;
                        assert_eq!(ix.unrank(r, &mut masks), *blank);
                        assert_eq!(&masks, m);
                    }
                    assert!(hit.iter().all(|&h| h));
                }
            }
        }
    }

    /// A labelling of the 3x3 with the blank first: classes {1,5}, {2,3,6}, {4,7,8}.
    fn odd_three(goal: &Goal) -> ClassLabels {
        let groups = vec![vec![1, 5], vec![2, 3, 6], vec![4, 7, 8]];
        ClassLabels::Cells(CellClasses::from_tile_groups(goal, &groups).unwrap())
    }

    #[test]
    fn labelled_rank_is_a_bijection_onto_the_range() {
        let board = Board::new(3, 3).unwrap();
        for goal in [Goal::blank_first(board), Goal::blank_last(board)] {
            let ix = ClassIndex::for_goal(&goal, odd_three(&goal)).unwrap();
            assert_eq!(ix.counts(), &[2, 3, 3]);
            let boards = all_boards(&ix);
            assert_eq!(boards.len() as u64, ix.len());
            assert_eq!(ix.len(), 9 * 28 * 20);
            let mut seen = vec![false; ix.len() as usize];
            let mut masks = vec![0u64; 3];
            for (blank, m) in &boards {
                let r = ix.rank(*blank, m) as usize;
                assert!(!seen[r]);
                seen[r] = true;
                assert_eq!(ix.unrank(r as u64, &mut masks), *blank);
                assert_eq!(&masks, m);
            }
            // The goal's masks: tile t's goal cell in t's class.
            ix.goal_masks(&mut masks);
            for t in 1..9 {
                let c = [0, 0, 1, 1, 2, 0, 1, 2, 2][t];
                assert_ne!(masks[c] & 1 << goal.cell_of(t), 0, "tile {t}");
            }
        }
    }

    #[test]
    fn labellings_are_checked() {
        let goal = Goal::blank_first(Board::new(3, 3).unwrap());
        let groups = |g: &[&[usize]]| {
            let g: Vec<Vec<usize>> = g.iter().map(|x| x.to_vec()).collect();
            CellClasses::from_tile_groups(&goal, &g)
        };
        assert!(
            groups(&[&[1, 2, 3, 4], &[5, 6, 7]]).is_err(),
            "tile 8 left out"
        );
        assert!(
            groups(&[&[1, 2, 3, 4], &[4, 5, 6, 7, 8]]).is_err(),
            "tile 4 twice"
        );
        assert!(
            groups(&[&[1, 2, 3, 4], &[], &[5, 6, 7, 8]]).is_err(),
            "empty class"
        );
        assert!(
            groups(&[&[1, 2, 3, 9], &[4, 5, 6, 7, 8]]).is_err(),
            "no tile 9"
        );
        assert!(groups(&[&[1, 2, 3, 4, 5, 6, 7, 8]]).is_ok());
        let one = ClassLabels::Cells(groups(&[&[1, 2, 3, 4, 5, 6, 7, 8]]).unwrap());
        assert!(ClassIndex::for_goal(&goal, one).is_err(), "one class");
        let l = groups(&[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
        assert_eq!(l.by_tile(&goal), vec![0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(CellClasses::from_tiles(&goal, &l.by_tile(&goal)), Ok(l));
        assert!(CellClasses::from_tiles(&goal, &[0, 0, 0, 0, 2, 2, 2, 2]).is_err());
        assert!(CellClasses::from_tiles(&goal, &[0, 0, 0, 0, 1, 1, 1]).is_err());
        // On another blank cell the labelling leaves a tile's cell out: refused.
        let other = ClassIndex::new(goal.board(), ClassLabels::Cells(l), 4);
        assert!(other.is_err());
        assert_eq!(l.to_string(), "1,2,3,4/5,6,7,8");
    }

    #[test]
    fn counts_of_the_four_by_four() {
        let board = Board::new(4, 4).unwrap();
        let goal = Goal::blank_first(board);
        let rokicki = vec![
            vec![1, 2, 4, 5],
            vec![3, 6, 7, 10, 11],
            vec![8, 9, 12, 13],
            vec![14, 15],
        ];
        let l = ClassLabels::Cells(CellClasses::from_tile_groups(&goal, &rokicki).unwrap());
        assert_eq!(ClassIndex::for_goal(&goal, l).unwrap().len(), 151_351_200);
        let board = Board::new(4, 4).unwrap();
        for goal in [Goal::blank_first(board), Goal::blank_last(board)] {
            let ix = ClassIndex::for_goal(&goal, ClassLabels::Rows).unwrap();
            assert_eq!(ix.len(), 252_252_000);
            let mut masks = [0u64; 4];
            ix.goal_masks(&mut masks);
            let r = ix.rank(goal.blank_cell(), &masks);
            let mut back = [0u64; 4];
            assert_eq!(ix.unrank(r, &mut back), goal.blank_cell());
            assert_eq!(back, masks);
        }
        let three = Board::new(3, 3).unwrap();
        let ix = ClassIndex::new(three, ClassLabels::Rows, 0).unwrap();
        assert_eq!(ix.len(), 9 * 28 * 20);
        assert!(ClassIndex::new(Board::new(5, 5).unwrap(), ClassLabels::Rows, 0).is_err());
        assert!(ClassIndex::new(three, ClassLabels::Rows, 9).is_err());
    }
}
