//! Puzzle positions: validation, moves and solvability.

use crate::board::{Board, Direction};
use crate::error::PuzzleError;
use crate::goal::Goal;
use std::fmt;

/// A position: the tile on every cell of a board (0 is the blank).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    board: Board,
    tiles: Vec<u16>,
    blank: usize,
}

impl Puzzle {
    /// A position from the tile on each cell, row by row; must be a permutation of `0..cells`.
    pub fn new(board: Board, tiles: &[u16]) -> Result<Puzzle, PuzzleError> {
        let cell_of = crate::board::check_permutation(board, tiles)?;
        Ok(Puzzle {
            board,
            tiles: tiles.to_vec(),
            blank: cell_of[0] as usize,
        })
    }

    /// Parses a position (see [`crate::parse`]); the board is inferred when `board` is `None`.
    pub fn parse(text: &str, board: Option<Board>) -> Result<Puzzle, PuzzleError> {
        let (board, tiles) = crate::parse::parse_with_board(text, board)?;
        Puzzle::new(board, &tiles)
    }

    /// Parses a position for `goal`'s board and checks that it can reach `goal`.
    pub fn parse_for_goal(text: &str, goal: &Goal) -> Result<Puzzle, PuzzleError> {
        let p = Puzzle::parse(text, Some(goal.board()))?;
        p.check_solvable(goal)?;
        Ok(p)
    }

    /// The puzzle that is already solved.
    pub fn solved(goal: &Goal) -> Puzzle {
        Puzzle::new(goal.board(), goal.tiles()).expect("a goal is a valid position")
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The tiles on each cell, row by row.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The tile on `cell`.
    pub fn tile_at(&self, cell: usize) -> usize {
        self.tiles[cell] as usize
    }

    /// The blank's cell.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The cell of every tile (index 0 is the blank).
    pub fn cells_of_tiles(&self) -> Vec<u16> {
        let mut c = vec![0; self.tiles.len()];
        for (cell, &t) in self.tiles.iter().enumerate() {
            c[t as usize] = cell as u16;
        }
        c
    }

    /// Moves the blank in `dir`; returns the moved tile, or `None` (and changes nothing) at an edge.
    pub fn apply(&mut self, dir: Direction) -> Option<usize> {
        let to = self.board.neighbour(self.blank, dir)?;
        let tile = self.tiles[to];
        self.tiles.swap(self.blank, to);
        self.blank = to;
        Some(tile as usize)
    }

    /// Whether this position can reach `goal`: the parity of the permutation that takes it to the
    /// goal equals the parity of the blank's Manhattan distance to its goal cell. This one rule
    /// holds for every goal and board shape (it contains both classic inversion rules).
    pub fn is_solvable(&self, goal: &Goal) -> bool {
        if goal.board() != self.board {
            return false;
        }
        let n = self.tiles.len();
        // Permutation of cells: cell -> goal cell of the tile standing there.
        let target: Vec<usize> = self
            .tiles
            .iter()
            .map(|&t| goal.cell_of(t as usize))
            .collect();
        let mut seen = vec![false; n];
        let mut transpositions = 0;
        for start in 0..n {
            let mut len = 0;
            let mut c = start;
            while !seen[c] {
                seen[c] = true;
                c = target[c];
                len += 1;
            }
            if len > 0 {
                transpositions += len - 1;
            }
        }
        transpositions % 2 == self.board.manhattan(self.blank, goal.blank_cell()) % 2
    }

    /// Like [`Puzzle::is_solvable`], but an error that names the goal.
    pub fn check_solvable(&self, goal: &Goal) -> Result<(), PuzzleError> {
        if goal.board() != self.board {
            return Err(PuzzleError::WrongCount {
                expected: goal.board().cells(),
                found: self.tiles.len(),
                board: goal.board().to_string(),
            });
        }
        if self.is_solvable(goal) {
            Ok(())
        } else {
            Err(PuzzleError::Unsolvable {
                goal: goal.to_string(),
            })
        }
    }

    /// For a position that cannot reach `goal`: the first of the two common goals
    /// (blank-first, blank-last) other than `goal` that it can reach, which messages suggest.
    pub fn solvable_other_goal(&self, goal: &Goal) -> Option<Goal> {
        let b = goal.board();
        [Goal::blank_first(b), Goal::blank_last(b)]
            .into_iter()
            .find(|other| other != goal && self.is_solvable(other))
    }

    /// The position in rows separated by `/`, as puzzle racers write it: `8 2 0/4 6 1/3 7 5`
    /// (read back by [`Puzzle::parse`], which infers the board from the rows).
    pub fn to_rows(&self) -> String {
        let rows: Vec<String> = self
            .tiles
            .chunks(self.board.width())
            .map(|row| {
                let v: Vec<String> = row.iter().map(|t| t.to_string()).collect();
                v.join(" ")
            })
            .collect();
        rows.join("/")
    }

    /// Whether the position equals `goal`.
    pub fn is_goal(&self, goal: &Goal) -> bool {
        self.tiles == goal.tiles()
    }
}

/// The classic textbook rule for the goal `1 2 … N-1 0`, by counting inversions: on odd widths
/// the inversions must be even; on even widths inversions plus the blank's row counted from the
/// bottom (1-based) must be odd. Kept as an independent check of [`Puzzle::is_solvable`].
pub fn solvable_by_inversions(puzzle: &Puzzle) -> bool {
    let tiles: Vec<u16> = puzzle.tiles().iter().copied().filter(|&t| t != 0).collect();
    let mut inversions = 0usize;
    for i in 0..tiles.len() {
        for j in i + 1..tiles.len() {
            if tiles[i] > tiles[j] {
                inversions += 1;
            }
        }
    }
    let b = puzzle.board();
    if b.width() % 2 == 1 {
        inversions.is_multiple_of(2)
    } else {
        let row_from_bottom = b.height() - b.row(puzzle.blank());
        (inversions + row_from_bottom) % 2 == 1
    }
}

impl fmt::Display for Puzzle {
    /// Row by row, space separated, rows separated by newlines (`{:#}`: one line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self.board.cells().saturating_sub(1).to_string().len();
        for r in 0..self.board.height() {
            if r > 0 {
                f.write_str(if f.alternate() { " " } else { "\n" })?;
            }
            for c in 0..self.board.width() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                let t = self.tiles[self.board.cell(r, c)];
                if f.alternate() {
                    write!(f, "{t}")?;
                } else {
                    write!(f, "{t:>width$}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashSet, VecDeque};

    fn reachable(goal: &Goal) -> HashSet<Vec<u16>> {
        let start = Puzzle::solved(goal);
        let mut seen = HashSet::new();
        seen.insert(start.tiles().to_vec());
        let mut q = VecDeque::from([start]);
        while let Some(p) = q.pop_front() {
            for d in Direction::ALL {
                let mut c = p.clone();
                if c.apply(d).is_some() && seen.insert(c.tiles().to_vec()) {
                    q.push_back(c);
                }
            }
        }
        seen
    }

    fn all_perms(n: usize) -> Vec<Vec<u16>> {
        let mut out = vec![];
        let mut p: Vec<u16> = (0..n as u16).collect();
        fn rec(k: usize, p: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
            if k == p.len() {
                out.push(p.clone());
                return;
            }
            for i in k..p.len() {
                p.swap(k, i);
                rec(k + 1, p, out);
                p.swap(k, i);
            }
        }
        rec(0, &mut p, &mut out);
        out
    }

    #[test]
    fn parity_rule_matches_reachability_on_small_boards() {
        for (w, h) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4)] {
            let b = Board::new(w, h).unwrap();
            for goal in [Goal::blank_first(b), Goal::blank_last(b)] {
                let reach = reachable(&goal);
                let perms = all_perms(b.cells());
                assert_eq!(reach.len() * 2, perms.len());
                for p in perms {
                    let pz = Puzzle::new(b, &p).unwrap();
                    assert_eq!(pz.is_solvable(&goal), reach.contains(&p), "{w}x{h} {p:?}");
                }
            }
        }
    }

    #[test]
    fn parity_rule_matches_inversion_rules() {
        // A simple LCG keeps the test deterministic without extra crates.
        let mut s = 0x1234_5678_9abc_def0u64;
        for (w, h) in [(3, 3), (4, 4), (5, 5), (3, 4), (4, 3), (2, 5), (6, 7)] {
            let b = Board::new(w, h).unwrap();
            let goal = Goal::blank_last(b);
            for _ in 0..300 {
                let mut t: Vec<u16> = (0..b.cells() as u16).collect();
                for i in (1..t.len()).rev() {
                    s = s
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    t.swap(i, (s >> 33) as usize % (i + 1));
                }
                let p = Puzzle::new(b, &t).unwrap();
                assert_eq!(
                    p.is_solvable(&goal),
                    solvable_by_inversions(&p),
                    "{w}x{h} {t:?}"
                );
            }
        }
    }

    #[test]
    fn validation_errors_are_distinct() {
        let b = Board::new(3, 3).unwrap();
        let g = Goal::blank_last(b);
        assert!(matches!(
            Puzzle::parse("1 2 3 4 5 6 7 8 8", Some(b)),
            Err(PuzzleError::Duplicate { tile: 8 })
        ));
        assert!(matches!(
            Puzzle::parse("1 2 3 4 5 6 7 8 9", Some(b)),
            Err(PuzzleError::OutOfRange { tile: 9, max: 8 })
        ));
        assert!(matches!(
            Puzzle::parse_for_goal("2 1 3 4 5 6 7 8 0", &g),
            Err(PuzzleError::Unsolvable { .. })
        ));
        let p = Puzzle::parse_for_goal("1 2 3\n4 5 6\n7 _ 8", &g).unwrap();
        assert_eq!(p.blank(), 7);
        assert_eq!(format!("{p:#}"), "1 2 3 4 5 6 7 0 8");
        assert_eq!(p.to_rows(), "1 2 3/4 5 6/7 0 8");
        let wide =
            Puzzle::parse("1 2 3 4 5 6 7 8 9 10 11 0", Some(Board::new(4, 3).unwrap())).unwrap();
        assert_eq!(wide.to_rows(), "1 2 3 4/5 6 7 8/9 10 11 0");
        assert_eq!(Puzzle::parse(&wide.to_rows(), None).unwrap(), wide);
    }
}
