//! `solver check`: plays a move string on a position and says whether it reaches the goal, and
//! its length in both metrics. Exit status 0 when the moves reach the goal, 1 when they are
//! legal but do not, 2 when the moves cannot be read or one cannot be made (the message names
//! the move), or the position or goal cannot be read.

use super::flags::{board_arg, goal_arg, usage, NotationFlag};
use crate::output::outln;
use anyhow::Result;
use clap::Args;
use pdbformat::notation::{length, read_tokens, write_moves, MoveToken, Notation};
use pdbformat::{Board, Direction, Goal, Metric, Puzzle};
use serde_json::json;

/// Arguments of `solver check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The position, in one argument: tiles row by row (rows may be separated by /, as in
    /// "8 2 0/4 6 1/3 7 5"), 0 or _ for the blank.
    #[arg(value_name = "PUZZLE")]
    puzzle: String,
    /// The moves, in one argument, such as "U2LD3R" (spaces between moves are allowed; an
    /// empty string is no move).
    #[arg(value_name = "MOVES", allow_hyphen_values = true)]
    moves: String,
    #[command(flatten)]
    notation: NotationFlag,
    /// Board as WxH (columns x rows); inferred from the rows or a square tile count otherwise.
    #[arg(long, value_name = "WxH", value_parser = board_arg)]
    board: Option<String>,
    /// Goal: blank-first, blank-last or a tile list such as "1 2 3 4 5 6 7 8 0".
    #[arg(long, default_value = "blank-first", value_parser = goal_arg)]
    goal: String,
    /// Print one JSON object: {"puzzle", "goal", "notation", "moves", "stm", "mtm",
    /// "reaches_goal", "end", "solvable"}.
    #[arg(long)]
    json: bool,
}

/// Runs `solver check`.
pub fn run(a: CheckArgs) -> Result<i32> {
    let board: Option<Board> = a
        .board
        .as_deref()
        .map(|b| b.parse().map_err(usage))
        .transpose()?;
    let start = Puzzle::parse(&a.puzzle, board).map_err(|e| usage(format!("puzzle: {e}")))?;
    let goal = Goal::parse(start.board(), &a.goal).map_err(usage)?;
    let notation = a.notation.notation;
    let tokens = read_tokens(&a.moves, notation).map_err(usage)?;
    let mut end = start.clone();
    let mut steps: Vec<Direction> = Vec::new();
    for t in &tokens {
        for done in 0..t.count {
            if end.apply(t.step).is_none() {
                return Err(usage(illegal(t, done, &end, notation)));
            }
            steps.push(t.step);
        }
    }
    let reaches = end.is_goal(&goal);
    let (stm, mtm) = (length(&steps, Metric::Stm), length(&steps, Metric::Mtm));
    let written = write_moves(&steps, notation);
    if a.json {
        outln!(
            "{}",
            json!({
                "puzzle": start.to_rows(),
                "goal": goal.to_string(),
                "notation": notation.name(),
                "moves": written,
                "stm": stm,
                "mtm": mtm,
                "reaches_goal": reaches,
                "end": end.to_rows(),
                "solvable": start.is_solvable(&goal),
            })
        );
    } else {
        outln!("puzzle:  {}", start.to_rows());
        if written.is_empty() {
            outln!("moves:   none");
        } else {
            outln!("moves:   {written} ({notation} notation)");
        }
        outln!("length:  {stm} STM, {mtm} MTM");
        if reaches {
            outln!("result:  reaches the goal {goal}");
        } else {
            outln!(
                "result:  does not reach the goal {goal}: it ends at {}",
                end.to_rows()
            );
            if !start.is_solvable(&goal) {
                outln!("         (no moves can: this position cannot reach that goal)");
            }
        }
    }
    Ok(if reaches { 0 } else { 1 })
}

/// Why token `t` cannot be made after `done` of its steps, with the blank at its cell in
/// `at`: the move, where it stands, and where the blank is.
fn illegal(t: &MoveToken, done: usize, at: &Puzzle, notation: Notation) -> String {
    let b = at.board();
    let (row, col) = (b.row(at.blank()) + 1, b.col(at.blank()) + 1);
    let what = match notation {
        Notation::Tiles => format!("no tile can slide {}", word(t.step.opposite())),
        Notation::Blank => format!("the blank cannot move {}", word(t.step)),
    };
    let after = if t.count > 1 {
        format!(" after {done} of its {} steps", t.count)
    } else {
        String::new()
    };
    format!(
        "move {} {:?} (at character {}) cannot be made: {what}{after}, with the blank on row {row}, column {col} of the {b} board",
        t.token, t.text, t.column
    )
}

/// A direction in words.
fn word(d: Direction) -> &'static str {
    match d {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}
