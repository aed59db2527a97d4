//! The one entry point of every algorithm, [`solve`]: checks the puzzle and the settings of
//! the [`Search`], prepares the heuristic (the one dispatch over heuristics), runs the search,
//! and replays the solution on the puzzle before returning it.

use super::solution::finish_moves;
use super::{anytime, astar, bfs, dfs, hybrid, ida, mtm_bfs, mtm_ida, mtm_parallel, parallel_ida};
use super::{strategic, weighted};
use super::{Algorithm, AlgorithmName, Outcome, Search, Solution, SolveError, Stats};
use crate::db::DbError;
use crate::heuristic::{
    single_class_database, ClassHeuristic, Hamming, Heuristic, HeuristicChoice, LinearConflict,
    Manhattan, PdbHeuristic, WalkingDistance,
};
use crate::position::{direction_between, Position, MAX_CELLS};
use pdbformat::{Goal, Metric, Puzzle};

/// Runs `search` with the heuristic `choice` (ignored by `bfs` and `strategic`) on `puzzle`
/// for `goal`, and returns the replayed solution.
///
/// Databases opened with [`crate::OpenOptions::verify_in_background`] are waited for before
/// anything is returned (unless [`Search::wait_verified`] is off): if one fails its digest
/// check, that corruption is the error.
///
/// ```
/// use pdbformat::{Board, Goal, Puzzle};
/// use pdbsolver::{solve, AlgorithmName, HeuristicChoice, Search};
///
/// let goal = Goal::blank_last(Board::new(3, 3).unwrap());
/// let puzzle = Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
/// let run = |name: AlgorithmName, h: &HeuristicChoice| {
///     solve(&Search::new(name), h, &puzzle, &goal).unwrap()
/// };
/// let a = run(AlgorithmName::AStar, &HeuristicChoice::Manhattan);
/// let b = run(AlgorithmName::Bfs, &HeuristicChoice::Manhattan);
/// let i = run(AlgorithmName::Ida, &HeuristicChoice::LinearConflict);
/// assert_eq!((a.len(), b.len(), i.len()), (31, 31, 31));
/// let s = run(AlgorithmName::Strategic, &HeuristicChoice::Manhattan);
/// assert!(s.len() >= 31 && !s.optimal);
/// ```
pub fn solve(
    search: &Search,
    choice: &HeuristicChoice,
    puzzle: &Puzzle,
    goal: &Goal,
) -> Result<Solution, SolveError> {
    let result = solve_unverified(search, choice, puzzle, goal);
    // A table whose digest check fails makes every answer from it suspect: the corruption is
    // the result, whatever the search found.
    if search.wait_verified {
        choice.wait_verified()?;
    }
    result
}

/// [`solve`] without waiting for the databases' background digest checks.
fn solve_unverified(
    search: &Search,
    choice: &HeuristicChoice,
    puzzle: &Puzzle,
    goal: &Goal,
) -> Result<Solution, SolveError> {
    puzzle.check_solvable(goal)?;
    let board = goal.board();
    let algorithm = search.algorithm.name();
    let metric = search.metric;
    if metric == Metric::Mtm {
        mtm_ida::check(algorithm, choice).map_err(SolveError::Refused)?;
    }
    if algorithm == AlgorithmName::Strategic {
        let t0 = std::time::Instant::now();
        let moves = match strategic::solve_within(puzzle, goal, &search.clock()) {
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
        return finish_moves(algorithm, metric, puzzle, goal, moves, stats);
    }
    if board.cells() > MAX_CELLS {
        return Err(SolveError::BoardTooLarge {
            algorithm,
            board,
            cells: board.cells(),
        });
    }
    search.algorithm.check().map_err(SolveError::Refused)?;
    let start = Position::from_tiles(puzzle.tiles()).expect("checked: at most 64 cells");
    let outcome = if algorithm == AlgorithmName::Bfs {
        bfs::check_fits(board, search.limits.memory_limit()).map_err(SolveError::Refused)?;
        match metric {
            Metric::Stm => bfs::search(goal, &start, search),
            Metric::Mtm => mtm_bfs::search(goal, &start, search),
        }
    } else {
        let task = Task {
            goal,
            start: &start,
            search,
        };
        dispatch(choice, goal, &task)?.map_err(SolveError::Refused)?
    };
    let mut outcome = outcome;
    // Every answer proves at least the start's estimate.
    outcome.stats.lower_bound = outcome.stats.lower_bound.max(outcome.stats.initial_h);
    match outcome {
        Outcome {
            path: Some(path),
            stats,
            stop,
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
            let mut s = finish_moves(algorithm, metric, puzzle, goal, moves, stats)?;
            s.stopped = stop;
            Ok(s)
        }
        Outcome {
            stop: Some(stop),
            stats,
            ..
        } => Err(SolveError::Stopped { stop, stats }),
        Outcome { stats, .. } => match &search.algorithm {
            Algorithm::Dfs(super::Dfs {
                depth_limit: Some(limit),
            }) => Err(SolveError::NotFound {
                limit: *limit,
                stats,
            }),
            _ => Err(SolveError::Failed(format!(
                "{algorithm} ended without a solution or a limit"
            ))),
        },
    }
}

/// One search to run once the heuristic is known.
struct Task<'a> {
    goal: &'a Goal,
    start: &'a Position,
    search: &'a Search,
}

impl Task<'_> {
    fn go<H: Heuristic + Sync>(&self, h: &H) -> Result<Outcome, String> {
        let (goal, start, search) = (self.goal, self.start, self.search);
        if search.metric == Metric::Mtm {
            return match &search.algorithm {
                Algorithm::Ida(settings) if settings.is_resumable() => {
                    Err("checkpoints and resuming are single-tile-metric features of ida".into())
                }
                Algorithm::Ida(_) => Ok(mtm_ida::search(h, goal, start, search)),
                Algorithm::ParallelIda(settings) => Ok(mtm_parallel::search(
                    h,
                    goal,
                    start,
                    settings.threads,
                    search,
                )),
                other => Err(format!("{} has no multi-tile-metric form", other.name())),
            };
        }
        Ok(match &search.algorithm {
            Algorithm::Ida(settings) => {
                if let Some(r) = &settings.resume {
                    r.check_start(super::estimate(h, &start.tiles))
                        .map_err(|e| format!("cannot resume: {e}"))?;
                }
                ida::search(h, goal, start, settings, search)
            }
            Algorithm::AStar => astar::search(h, goal, start, search),
            Algorithm::Hybrid(settings) => hybrid::search(h, goal, start, settings, search),
            Algorithm::ParallelIda(settings) => {
                parallel_ida::search(h, goal, start, settings, search)
            }
            Algorithm::Dfs(settings) => dfs::search(h, goal, start, settings, search),
            Algorithm::Weighted(settings) => weighted::search(h, goal, start, settings, search),
            Algorithm::Anytime(settings) => anytime::search(h, goal, start, settings, search),
            Algorithm::Bfs | Algorithm::Strategic => {
                return Err(format!("{} needs no heuristic", search.algorithm.name()))
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
        HeuristicChoice::WalkingDistance => match WalkingDistance::new(goal) {
            Ok(h) => task.go(&h),
            Err(why) => Err(why),
        },
        HeuristicChoice::Pdb { databases, .. }
            if choice.database_metric() == Some(Metric::Mtm)
                && task.search.metric == Metric::Mtm =>
        {
            task.go(&ClassHeuristic::new(
                single_class_database(databases)?,
                goal,
            )?)
        }
        HeuristicChoice::Pdb { databases, reflect } => {
            let h = PdbHeuristic::new(databases, goal, *reflect)?;
            // Every search starts from the start's exact values: `bit1` tables give them by a
            // walk that only a corrupt table can fail.
            h.check_position(&task.start.tiles)?;
            task.go(&h)
        }
    })
}
