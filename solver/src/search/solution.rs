//! What [`super::solve`] returns: a [`Solution`] (replayed and checked) or a [`SolveError`];
//! and [`replay`], which plays moves on a puzzle.

use super::{AlgorithmName, Stats, Stop};
use crate::db::DbError;
use crate::position::MAX_CELLS;
use pdbformat::{Board, Direction, Goal, Metric, Puzzle, PuzzleError};
use thiserror::Error;

/// A solution found by one algorithm, replayed and checked, its proven lower bound
/// ([`Solution::lower_bound`], [`Solution::bound_ratio`]), and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The algorithm.
    pub algorithm: AlgorithmName,
    /// The metric the search counted in: the solution is optimal, and [`Solution::len`]
    /// counted, in it.
    pub metric: Metric,
    /// The blank's single steps (in the multi-tile metric, a move of k tiles is k equal
    /// steps in a row).
    pub moves: Vec<Direction>,
    /// The tile that slides at each move.
    pub tiles_moved: Vec<u16>,
    /// Whether the solution is proven optimal: the algorithm guarantees it, or its proven
    /// lower bound ([`Stats::lower_bound`]) equals its length.
    pub optimal: bool,
    /// Why an anytime search returned its best solution so far (a time, node or memory
    /// limit, or an interrupt); `None` when it finished (the bound asked for is proven) and
    /// for the other algorithms.
    pub stopped: Option<Stop>,
    /// What it cost.
    pub stats: Stats,
}

impl Solution {
    /// The number of moves in the solution's metric: its single steps in the single-tile
    /// metric; in the multi-tile metric its maximal runs of steps in one direction (each
    /// run slides its tiles in one move).
    pub fn len(&self) -> usize {
        match self.metric {
            Metric::Stm => self.moves.len(),
            Metric::Mtm => mtm_length(&self.moves),
        }
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
        self.stats.nodes_per_second()
    }

    /// The proven lower bound on the optimal length (in the solution's metric): the length
    /// itself for an optimal search, at least the start's estimate for the others (0 for
    /// `strategic`, which uses no heuristic).
    pub fn lower_bound(&self) -> u32 {
        self.stats.lower_bound
    }

    /// [`Solution::len`] divided by [`Solution::lower_bound`]: the solution is at most this
    /// many times the optimum (1 for an optimal one or an empty one; infinity with no bound).
    pub fn bound_ratio(&self) -> f64 {
        super::observer::bound_ratio(self.len() as u32, self.stats.lower_bound)
    }
}

/// Why an algorithm returned no solution.
#[derive(Debug, Error)]
pub enum SolveError {
    /// The puzzle does not fit the goal's board or cannot reach the goal.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// A database does not fit the board or goal.
    #[error(transparent)]
    Database(#[from] DbError),
    /// Searches other than `strategic` work on boards of at most 64 cells.
    #[error("{algorithm} works on boards of at most {MAX_CELLS} cells; {board} has {cells} (the strategic algorithm solves boards of any size)")]
    BoardTooLarge {
        /// The algorithm asked for.
        algorithm: AlgorithmName,
        /// The board.
        board: Board,
        /// Its cells.
        cells: usize,
    },
    /// The algorithm refuses this board or these options (the message says why).
    #[error("{0}")]
    Refused(String),
    /// A limit stopped the search.
    #[error("{}: stopped after {} nodes and {:.2} s{}", .stop.headline(), .stats.nodes, .stats.seconds, bound_note(.stats))]
    Stopped {
        /// Which limit.
        stop: Stop,
        /// What was spent.
        stats: Stats,
    },
    /// The search space was exhausted (a fixed DFS depth limit below the solution length).
    #[error("no solution within {limit} moves ({} nodes searched)", .stats.nodes)]
    NotFound {
        /// The depth limit.
        limit: u32,
        /// What was spent.
        stats: Stats,
    },
    /// An internal failure: a bug, reported instead of a panic.
    #[error("internal error: {0}")]
    Failed(String),
}

impl SolveError {
    /// The statistics of a search that ran, if it did.
    pub fn stats(&self) -> Option<&Stats> {
        match self {
            SolveError::Stopped { stats, .. } | SolveError::NotFound { stats, .. } => Some(stats),
            _ => None,
        }
    }
}

fn bound_note(s: &Stats) -> String {
    if s.lower_bound > 0 {
        format!(
            "; no solution found; proven lower bound {0} (the optimal solution has at least {0} moves)",
            s.lower_bound
        )
    } else {
        String::new()
    }
}

/// The number of multi-tile moves `moves` make: its maximal runs of one direction.
pub fn mtm_length(moves: &[Direction]) -> usize {
    (moves.iter().enumerate())
        .filter(|&(i, d)| i == 0 || moves[i - 1] != *d)
        .count()
}

/// The solution of `algorithm` that plays `moves`, replayed: a sequence that leaves the board or
/// misses the goal is an internal error.
pub(crate) fn finish_moves(
    algorithm: AlgorithmName,
    metric: Metric,
    puzzle: &Puzzle,
    goal: &Goal,
    moves: Vec<Direction>,
    stats: Stats,
) -> Result<Solution, SolveError> {
    let tiles_moved = replay(puzzle, &moves)
        .filter(|(end, _)| end.is_goal(goal))
        .map(|(_, t)| t)
        .ok_or_else(|| {
            SolveError::Failed(format!(
                "{algorithm} returned moves that do not reach the goal"
            ))
        })?;
    let mut stats = stats;
    let len = moves_len(metric, &moves);
    if algorithm.is_optimal() {
        // An optimal search proves its own length.
        stats.lower_bound = len as u32;
    }
    Ok(Solution {
        algorithm,
        metric,
        moves,
        tiles_moved,
        optimal: stats.lower_bound as usize >= len,
        stopped: None,
        stats,
    })
}

/// The length of `moves` in `metric`.
fn moves_len(metric: Metric, moves: &[Direction]) -> usize {
    match metric {
        Metric::Stm => moves.len(),
        Metric::Mtm => mtm_length(moves),
    }
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
