//! The one entry point of every algorithm, [`solve`]: checks the puzzle and options, prepares
//! the heuristic (the one dispatch over heuristics), runs the search, and replays the solution
//! on the puzzle before returning it.

use super::{astar, bfs, dfs, hybrid, ida, parallel_ida, strategic, weighted};
use super::{Algorithm, Clock, Options, Outcome, Stats, Stop};
use crate::db::DbError;
use crate::heuristic::{
    Hamming, Heuristic, HeuristicChoice, LinearConflict, Manhattan, PdbHeuristic,
};
use crate::position::{direction_between, Position, MAX_CELLS};
use pdbformat::{Board, Direction, Goal, Puzzle, PuzzleError};
use thiserror::Error;

/// A solution found by one algorithm, replayed and checked, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The blank's moves.
    pub moves: Vec<Direction>,
    /// The tile that slides at each move.
    pub tiles_moved: Vec<u16>,
    /// Whether the algorithm guarantees that the solution is optimal.
    pub optimal: bool,
    /// What it cost.
    pub stats: Stats,
}

impl Solution {
    /// The number of moves.
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
        self.stats.nodes_per_second()
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
        algorithm: Algorithm,
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

/// Runs `algorithm` with the heuristic `choice` (ignored by `bfs` and `strategic`) on
/// `puzzle` for `goal`, and returns the replayed solution.
///
/// Databases opened with [`crate::OpenOptions::verify_in_background`] are waited for before
/// anything is returned (unless [`Options::wait_verified`] is off): if one fails its digest
/// check, that corruption is the error.
///
/// ```
/// use pdbformat::{Board, Goal, Puzzle};
/// use pdbsolver::search::{solve, Algorithm, Options};
/// use pdbsolver::HeuristicChoice;
///
/// let goal = Goal::blank_last(Board::new(3, 3).unwrap());
/// let puzzle = Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
/// let opts = Options::default();
/// let a = solve(Algorithm::AStar, &HeuristicChoice::Manhattan, &puzzle, &goal, &opts).unwrap();
/// let b = solve(Algorithm::Bfs, &HeuristicChoice::Manhattan, &puzzle, &goal, &opts).unwrap();
/// let i = solve(Algorithm::Ida, &HeuristicChoice::LinearConflict, &puzzle, &goal, &opts).unwrap();
/// assert_eq!((a.len(), b.len(), i.len()), (31, 31, 31));
/// let s = solve(Algorithm::Strategic, &HeuristicChoice::Manhattan, &puzzle, &goal, &opts).unwrap();
/// assert!(s.len() >= 31 && !s.optimal);
/// ```
pub fn solve(
    algorithm: Algorithm,
    choice: &HeuristicChoice,
    puzzle: &Puzzle,
    goal: &Goal,
    opts: &Options,
) -> Result<Solution, SolveError> {
    let result = solve_unverified(algorithm, choice, puzzle, goal, opts);
    // A table whose digest check fails makes every answer from it suspect: the corruption is
    // the result, whatever the search found.
    if opts.wait_verified {
        choice.wait_verified()?;
    }
    result
}

/// [`solve`] without waiting for the databases' background digest checks.
fn solve_unverified(
    algorithm: Algorithm,
    choice: &HeuristicChoice,
    puzzle: &Puzzle,
    goal: &Goal,
    opts: &Options,
) -> Result<Solution, SolveError> {
    puzzle.check_solvable(goal)?;
    let board = goal.board();
    if algorithm == Algorithm::Strategic {
        let t0 = std::time::Instant::now();
        let moves = match strategic::solve_within(puzzle, goal, &Clock::of(opts)) {
            Ok(moves) => moves,
            Err(strategic::Halt::Failed(why)) => return Err(SolveError::Failed(why)),
            Err(strategic::Halt::Stopped(stop)) => {
                let stats = Stats {
                    seconds: t0.elapsed().as_secs_f64(),
                    ..Stats::default()
                };
                return Err(SolveError::Stopped { stop, stats });
            }
        };
        let stats = Stats {
            peak_memory: (board.cells() * 32) as u64,
            detail: "rows, then columns, then the last 2x2 block".into(),
            seconds: t0.elapsed().as_secs_f64(),
            ..Stats::default()
        };
        return finish(algorithm, puzzle, goal, moves, stats);
    }
    if board.cells() > MAX_CELLS {
        return Err(SolveError::BoardTooLarge {
            algorithm,
            board,
            cells: board.cells(),
        });
    }
    check_options(algorithm, opts)?;
    let start = Position::from_tiles(puzzle.tiles()).expect("checked: at most 64 cells");
    let outcome = if algorithm == Algorithm::Bfs {
        bfs::check_fits(board, opts.memory_limit()).map_err(SolveError::Refused)?;
        bfs::search(goal, &start, opts)
    } else {
        let task = Task {
            algorithm,
            goal,
            start: &start,
            opts,
        };
        dispatch(choice, goal, &task)?.map_err(SolveError::Refused)?
    };
    match outcome {
        Outcome {
            path: Some(path),
            stats,
            ..
        } => {
            let mut moves = Vec::with_capacity(path.len());
            let mut prev = puzzle.blank();
            for &c in &path {
                if board.manhattan(prev, c as usize) != 1 {
                    return Err(SolveError::Failed(format!(
                        "{algorithm} returned a move from cell {prev} to cell {c}"
                    )));
                }
                moves.push(direction_between(board, prev, c as usize));
                prev = c as usize;
            }
            finish(algorithm, puzzle, goal, moves, stats)
        }
        Outcome {
            stop: Some(stop),
            stats,
            ..
        } => Err(SolveError::Stopped { stop, stats }),
        Outcome { stats, .. } => match (algorithm, opts.depth_limit) {
            (Algorithm::Dfs, Some(limit)) => Err(SolveError::NotFound { limit, stats }),
            _ => Err(SolveError::Failed(format!(
                "{algorithm} ended without a solution or a limit"
            ))),
        },
    }
}

/// Replays `moves` and builds the run; a sequence that leaves the board or misses the goal is
/// an internal error.
fn finish(
    algorithm: Algorithm,
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
    Ok(Solution {
        algorithm,
        moves,
        tiles_moved,
        optimal: algorithm.is_optimal(),
        stats,
    })
}

fn check_options(algorithm: Algorithm, opts: &Options) -> Result<(), SolveError> {
    if algorithm == Algorithm::Weighted && (opts.weight.is_nan() || opts.weight < 1.0) {
        return Err(SolveError::Refused(format!(
            "the weight must be at least 1 (or inf for greedy search), not {}",
            opts.weight
        )));
    }
    if opts.threads > 4096 {
        return Err(SolveError::Refused(format!(
            "{} threads is too many (at most 4096)",
            opts.threads
        )));
    }
    Ok(())
}

/// One search to run once the heuristic is known.
struct Task<'a> {
    algorithm: Algorithm,
    goal: &'a Goal,
    start: &'a Position,
    opts: &'a Options,
}

impl Task<'_> {
    fn go<H: Heuristic + Sync>(&self, h: &H) -> Result<Outcome, String> {
        let (goal, start, opts) = (self.goal, self.start, self.opts);
        Ok(match self.algorithm {
            Algorithm::Ida => {
                if let Some(r) = &opts.resume {
                    r.check_start(super::estimate(h, &start.tiles))
                        .map_err(|e| format!("cannot resume: {e}"))?;
                }
                ida::search(h, goal, start, opts)
            }
            Algorithm::AStar => astar::search(h, goal, start, opts),
            Algorithm::Hybrid => hybrid::search(h, goal, start, opts),
            Algorithm::ParallelIda => parallel_ida::search(h, goal, start, opts),
            Algorithm::Dfs => dfs::search(h, goal, start, opts),
            Algorithm::Weighted => weighted::search(h, goal, start, opts),
            Algorithm::Bfs | Algorithm::Strategic => {
                return Err(format!("{} needs no heuristic", self.algorithm))
            }
        })
    }
}

/// Runs `task` with the heuristic `choice` prepared for `goal`.
fn dispatch(
    choice: &HeuristicChoice,
    goal: &Goal,
    task: &Task,
) -> Result<Result<Outcome, String>, DbError> {
    Ok(match choice {
        HeuristicChoice::Hamming => task.go(&Hamming::new(goal)),
        HeuristicChoice::Manhattan => task.go(&Manhattan::new(goal)),
        HeuristicChoice::LinearConflict => task.go(&LinearConflict::new(goal)),
        HeuristicChoice::Pdb { databases, reflect } => {
            let h = PdbHeuristic::new(databases, goal, *reflect)?;
            // Every search starts from the start's exact values: `bit1` tables give them by a
            // walk that only a corrupt table can fail.
            h.check_position(&task.start.tiles)?;
            task.go(&h)
        }
    })
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
