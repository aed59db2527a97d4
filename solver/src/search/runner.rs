//! The entry point of every algorithm: checks the puzzle and options, prepares the heuristic,
//! runs the search, and replays the solution on the puzzle before returning it.

use super::{astar, bfs, dfs, hybrid, parallel_ida, strategic, weighted};
use super::{Algorithm, Options, Outcome, Stats, Stop};
use crate::db::DbError;
use crate::heuristic::{Hamming, Heuristic, LinearConflict, Manhattan, PdbHeuristic};
use crate::ida::{ida_star, SearchResult, StopReason};
use crate::solver::{replay, HeuristicChoice};
use crate::state::{direction_between, State, MAX_CELLS};
use pdbformat::{Board, Direction, Goal, Puzzle, PuzzleError};
use thiserror::Error;

/// A solution found by one algorithm, replayed and checked, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
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

impl Run {
    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the puzzle was already solved.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The blank's moves as letters.
    pub fn blank_notation(&self) -> String {
        self.moves.iter().map(|d| d.letter()).collect()
    }
}

/// Why an algorithm returned no solution.
#[derive(Debug, Error)]
pub enum RunError {
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
    #[error("{}: stopped after {} nodes and {:.2} s{}", .stop.describe(), .stats.nodes, .stats.seconds, bound_note(.stats))]
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

impl RunError {
    /// The statistics of a search that ran, if it did.
    pub fn stats(&self) -> Option<&Stats> {
        match self {
            RunError::Stopped { stats, .. } | RunError::NotFound { stats, .. } => Some(stats),
            _ => None,
        }
    }
}

fn bound_note(s: &Stats) -> String {
    if s.lower_bound > 0 {
        format!(
            "; the optimal solution has at least {} moves",
            s.lower_bound
        )
    } else {
        String::new()
    }
}

/// Runs `algorithm` with the heuristic `choice` (ignored by `bfs` and `strategic`) on
/// `puzzle` for `goal`, and returns the replayed solution.
///
/// ```
/// use pdbformat::{Board, Goal, Puzzle};
/// use solver::search::{run, Algorithm, Options};
/// use solver::HeuristicChoice;
///
/// let goal = Goal::blank_last(Board::new(3, 3).unwrap());
/// let puzzle = Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
/// let opts = Options::default();
/// let a = run(Algorithm::AStar, &HeuristicChoice::Manhattan, &puzzle, &goal, &opts).unwrap();
/// let b = run(Algorithm::Bfs, &HeuristicChoice::Manhattan, &puzzle, &goal, &opts).unwrap();
/// assert_eq!((a.len(), b.len()), (31, 31));
/// let s = run(Algorithm::Strategic, &HeuristicChoice::Manhattan, &puzzle, &goal, &opts).unwrap();
/// assert!(s.len() >= 31 && !s.optimal);
/// ```
pub fn run(
    algorithm: Algorithm,
    choice: &HeuristicChoice,
    puzzle: &Puzzle,
    goal: &Goal,
    opts: &Options,
) -> Result<Run, RunError> {
    puzzle.check_solvable(goal)?;
    let board = goal.board();
    if algorithm == Algorithm::Strategic {
        let t0 = std::time::Instant::now();
        let moves = strategic::solve(puzzle, goal).map_err(RunError::Failed)?;
        let stats = Stats {
            peak_memory: (board.cells() * 32) as u64,
            detail: "rows, then columns, then the last 2x2 block".into(),
            seconds: t0.elapsed().as_secs_f64(),
            ..Stats::default()
        };
        return finish(algorithm, puzzle, goal, moves, stats);
    }
    if board.cells() > MAX_CELLS {
        return Err(RunError::BoardTooLarge {
            algorithm,
            board,
            cells: board.cells(),
        });
    }
    check_options(algorithm, opts)?;
    let start = State::from_tiles(puzzle.tiles()).expect("checked: at most 64 cells");
    let outcome = if algorithm == Algorithm::Bfs {
        bfs::check_fits(board, opts.memory_limit()).map_err(RunError::Refused)?;
        bfs::search(goal, &start, opts)
    } else {
        let task = Task {
            algorithm,
            goal,
            start: &start,
            opts,
        };
        dispatch(choice, goal, &task)?.map_err(RunError::Refused)?
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
                    return Err(RunError::Failed(format!(
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
        } => Err(RunError::Stopped { stop, stats }),
        Outcome { stats, .. } => match (algorithm, opts.depth_limit) {
            (Algorithm::Dfs, Some(limit)) => Err(RunError::NotFound { limit, stats }),
            _ => Err(RunError::Failed(format!(
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
) -> Result<Run, RunError> {
    let tiles_moved = replay(puzzle, &moves)
        .filter(|(end, _)| end.is_goal(goal))
        .map(|(_, t)| t)
        .ok_or_else(|| {
            RunError::Failed(format!(
                "{algorithm} returned moves that do not reach the goal"
            ))
        })?;
    Ok(Run {
        algorithm,
        moves,
        tiles_moved,
        optimal: algorithm.is_optimal(),
        stats,
    })
}

fn check_options(algorithm: Algorithm, opts: &Options) -> Result<(), RunError> {
    if algorithm == Algorithm::Weighted && (opts.weight.is_nan() || opts.weight < 1.0) {
        return Err(RunError::Refused(format!(
            "the weight must be at least 1 (or inf for greedy search), not {}",
            opts.weight
        )));
    }
    if opts.threads > 4096 {
        return Err(RunError::Refused(format!(
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
    start: &'a State,
    opts: &'a Options,
}

impl Task<'_> {
    fn go<H: Heuristic + Sync>(&self, h: &H) -> Result<Outcome, String> {
        let (goal, start, opts) = (self.goal, self.start, self.opts);
        Ok(match self.algorithm {
            Algorithm::Ida => ida(h, goal, start, opts),
            Algorithm::AStar => {
                astar::queue_for(h, opts.queue)?;
                astar::search(h, goal, start, opts)
            }
            Algorithm::Hybrid => {
                astar::queue_for(h, opts.queue)?;
                hybrid::search(h, goal, start, opts)
            }
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
            task.go(&PdbHeuristic::new(databases, goal, *reflect)?)
        }
    })
}

/// IDA* ([`crate::ida`]) in the common result type.
fn ida<H: Heuristic>(h: &H, goal: &Goal, start: &State, opts: &Options) -> Outcome {
    let (path, stop, s) = match ida_star(h, goal, start, &opts.limits) {
        SearchResult::Found { blank_path, stats } => (Some(blank_path), None, stats),
        SearchResult::Stopped { reason, stats } => (
            None,
            Some(match reason {
                StopReason::NodeLimit => Stop::Nodes,
                StopReason::Timeout => Stop::Time,
            }),
            stats,
        ),
    };
    Outcome {
        path,
        stop,
        stats: Stats {
            nodes: s.nodes,
            expanded: s.expanded,
            iterations: s.iterations,
            initial_h: s.initial_h,
            lower_bound: s.bound,
            stored: 0,
            // The path and the position: IDA* holds nothing else.
            peak_memory: (s.bound as usize + 1 + std::mem::size_of::<State>()) as u64,
            per_thread: Vec::new(),
            detail: format!(
                "{} iteration{}",
                s.iterations,
                if s.iterations == 1 { "" } else { "s" }
            ),
            seconds: s.seconds,
        },
    }
}
