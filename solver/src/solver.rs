//! The library entry point: [`Solver`] checks a puzzle, prepares the chosen heuristic for the
//! goal, runs IDA* and returns a replayed, verified [`Solution`].

use crate::db::{Database, DbError};
use crate::heuristic::{
    pdb::reflection_for, Hamming, HeuristicName, LinearConflict, Manhattan, PdbHeuristic,
};
use crate::ida::{ida_star, Limits, SearchResult, StopReason};
use crate::state::{direction_between, State, MAX_CELLS};
use pdbformat::{Board, Direction, Goal, Puzzle, PuzzleError};
use std::sync::Arc;
use thiserror::Error;

/// Which heuristic a [`Solver`] uses.
#[derive(Clone, Debug)]
pub enum HeuristicChoice {
    /// Misplaced tiles.
    Hamming,
    /// Manhattan distance.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Additive pattern databases from these files: tables grouped into additive sums, the
    /// maximum over groups, and with `reflect` the reflected lookup too (see
    /// [`crate::heuristic::pdb`]).
    Pdb {
        /// The loaded files, in the order given.
        databases: Vec<Arc<Database>>,
        /// Also look up the reflected position where the board and goal allow it.
        reflect: bool,
    },
}

impl HeuristicChoice {
    /// The heuristic's family.
    pub fn name(&self) -> HeuristicName {
        match self {
            HeuristicChoice::Hamming => HeuristicName::Hamming,
            HeuristicChoice::Manhattan => HeuristicName::Manhattan,
            HeuristicChoice::LinearConflict => HeuristicName::LinearConflict,
            HeuristicChoice::Pdb { .. } => HeuristicName::Pdb,
        }
    }
}

/// An optimal solution and what finding it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The blank's moves (`U`, `D`, `L`, `R`: the direction the blank moves).
    pub moves: Vec<Direction>,
    /// The tile that slides at each move (it moves opposite to the blank).
    pub tiles_moved: Vec<u16>,
    /// Generated nodes over all iterations (see [`crate::ida`]).
    pub nodes: u64,
    /// Expanded nodes over all iterations.
    pub expanded: u64,
    /// IDA* iterations.
    pub iterations: u32,
    /// The heuristic's estimate of the start position.
    pub initial_h: u32,
    /// Seconds spent searching (preparing the heuristic included, loading databases not).
    pub seconds: f64,
}

impl Solution {
    /// The solution's length (number of moves).
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the puzzle was already solved.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The blank's moves as letters, `RDLU…`.
    pub fn blank_notation(&self) -> String {
        self.moves.iter().map(|d| d.letter()).collect()
    }

    /// The moved tiles, space separated.
    pub fn tile_notation(&self) -> String {
        let v: Vec<String> = self.tiles_moved.iter().map(|t| t.to_string()).collect();
        v.join(" ")
    }

    /// Generated nodes per second (0 when too fast to measure).
    pub fn nodes_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Why a puzzle was not solved.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The puzzle does not fit the goal's board or cannot reach the goal.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The optimal solver works on boards of at most 64 cells.
    #[error(
        "the optimal solver supports boards of at most {MAX_CELLS} cells; {board} has {cells}"
    )]
    BoardTooLarge {
        /// The board.
        board: Board,
        /// Its cells.
        cells: usize,
    },
    /// A database does not fit the board or goal, or is unusable.
    #[error(transparent)]
    Database(#[from] DbError),
    /// A limit stopped the search before a solution was found.
    #[error("{}: stopped after {nodes} nodes and {seconds:.2} s; the optimal solution has at least {lower_bound} moves", match .reason { StopReason::NodeLimit => "node limit reached", StopReason::Timeout => "time limit reached" })]
    Stopped {
        /// Which limit.
        reason: StopReason,
        /// Nodes generated.
        nodes: u64,
        /// Seconds spent.
        seconds: f64,
        /// Every shorter solution has been ruled out.
        lower_bound: u32,
    },
}

/// Solves puzzles optimally with one heuristic.
///
/// ```
/// use pdbformat::{Board, Goal, Puzzle};
/// use solver::{HeuristicChoice, Limits, Solver};
/// let goal = Goal::blank_last(Board::new(3, 3).unwrap());
/// let puzzle = Puzzle::parse("1 2 3 4 5 6 0 7 8", None).unwrap();
/// let s = Solver::new(HeuristicChoice::LinearConflict)
///     .solve(&puzzle, &goal, &Limits::default())
///     .unwrap();
/// assert_eq!(s.blank_notation(), "RR");
/// assert_eq!(s.tiles_moved, vec![7, 8]);
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    choice: HeuristicChoice,
}

impl Solver {
    /// A solver using `choice`.
    pub fn new(choice: HeuristicChoice) -> Solver {
        Solver { choice }
    }

    /// The heuristic in use.
    pub fn heuristic(&self) -> &HeuristicChoice {
        &self.choice
    }

    /// Checks that the heuristic can serve `goal` (databases fit its board and goal), so that
    /// a batch can fail before its first puzzle.
    pub fn check(&self, goal: &Goal) -> Result<(), SolveError> {
        check_board(goal.board())?;
        if let HeuristicChoice::Pdb { databases, reflect } = &self.choice {
            PdbHeuristic::new(databases, goal, *reflect)?;
        }
        Ok(())
    }

    /// Whether the reflected lookup applies to `goal` with this heuristic.
    pub fn reflects(&self, goal: &Goal) -> bool {
        matches!(&self.choice, HeuristicChoice::Pdb { reflect: true, .. })
            && reflection_for(goal).is_some()
    }

    /// Finds an optimal solution of `puzzle` for `goal` within `limits`.
    pub fn solve(
        &self,
        puzzle: &Puzzle,
        goal: &Goal,
        limits: &Limits,
    ) -> Result<Solution, SolveError> {
        check_board(goal.board())?;
        puzzle.check_solvable(goal)?;
        let start = State::from_tiles(puzzle.tiles()).expect("checked: at most 64 cells");
        let t0 = std::time::Instant::now();
        let result = match &self.choice {
            HeuristicChoice::Hamming => ida_star(&Hamming::new(goal), goal, &start, limits),
            HeuristicChoice::Manhattan => ida_star(&Manhattan::new(goal), goal, &start, limits),
            HeuristicChoice::LinearConflict => {
                ida_star(&LinearConflict::new(goal), goal, &start, limits)
            }
            HeuristicChoice::Pdb { databases, reflect } => {
                let h = PdbHeuristic::new(databases, goal, *reflect)?;
                h.check_position(&start.tiles)?;
                ida_star(&h, goal, &start, limits)
            }
        };
        let seconds = t0.elapsed().as_secs_f64();
        match result {
            SearchResult::Found { blank_path, stats } => {
                let board = goal.board();
                let mut moves = Vec::with_capacity(blank_path.len());
                let mut prev = puzzle.blank();
                for &c in &blank_path {
                    moves.push(direction_between(board, prev, c as usize));
                    prev = c as usize;
                }
                let tiles_moved = replay(puzzle, &moves)
                    .filter(|(end, _)| end.is_goal(goal))
                    .map(|(_, tiles)| tiles)
                    .expect("IDA* returns a path that reaches the goal");
                Ok(Solution {
                    moves,
                    tiles_moved,
                    nodes: stats.nodes,
                    expanded: stats.expanded,
                    iterations: stats.iterations,
                    initial_h: stats.initial_h,
                    seconds,
                })
            }
            SearchResult::Stopped { reason, stats } => Err(SolveError::Stopped {
                reason,
                nodes: stats.nodes,
                seconds,
                lower_bound: stats.bound,
            }),
        }
    }
}

fn check_board(board: Board) -> Result<(), SolveError> {
    if board.cells() > MAX_CELLS {
        return Err(SolveError::BoardTooLarge {
            board,
            cells: board.cells(),
        });
    }
    Ok(())
}

/// Plays `moves` (the blank's directions) from `puzzle`. Returns the final position and the
/// tile moved at each step, or `None` when a move leaves the board.
pub fn replay(puzzle: &Puzzle, moves: &[Direction]) -> Option<(Puzzle, Vec<u16>)> {
    let mut p = puzzle.clone();
    let mut tiles = Vec::with_capacity(moves.len());
    for &d in moves {
        tiles.push(p.apply(d)? as u16);
    }
    Some((p, tiles))
}

/// Parses a move sequence in either notation: blank letters (`RDLU`, spaces allowed) or the
/// numbers of the moved tiles (`7 8 12`), checking each move against `puzzle`.
pub fn parse_moves(puzzle: &Puzzle, text: &str) -> Result<Vec<Direction>, String> {
    let text = text.trim();
    if text.chars().any(|c| c.is_ascii_digit()) {
        let mut p = puzzle.clone();
        let mut out = Vec::new();
        for tok in text.split(|c: char| c.is_whitespace() || c == ',') {
            if tok.is_empty() {
                continue;
            }
            let tile: usize = tok
                .parse()
                .map_err(|_| format!("cannot read {tok:?} as a tile number"))?;
            let board = p.board();
            let d = board
                .neighbours(p.blank())
                .find(|&(_, n)| p.tile_at(n) == tile && tile != 0)
                .map(|(d, _)| d)
                .ok_or_else(|| format!("tile {tile} is not next to the blank"))?;
            p.apply(d);
            out.push(d);
        }
        Ok(out)
    } else {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .map(|c| Direction::from_letter(c).ok_or_else(|| format!("unknown move letter {c:?}")))
            .collect()
    }
}
