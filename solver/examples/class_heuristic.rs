//! The multi-tile metric's class heuristic on a puzzle file: its mean value, and what one
//! single-tile step of a search costs it (prepare + apply + undo, over random walks):
//! `cargo run --release -p pdbsolver --example class_heuristic -- DB PUZZLES [GOAL]`
//! (DB: a file of `pdbgen build --metric mtm`; GOAL: `blank-first`, the default, or
//! `blank-last`, to which the puzzles are relabelled by rotating the board half a turn).

use pdbformat::testkit::XorShift;
use pdbformat::{Goal, Puzzle};
use pdbsolver::heuristic::{ClassHeuristic, Heuristic, MoveTable, Position};
use pdbsolver::{input, Database, OpenOptions};
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(db), Some(puzzles)) = (args.first(), args.get(1)) else {
        eprintln!("usage: class_heuristic DB PUZZLES [blank-first|blank-last]");
        return ExitCode::FAILURE;
    };
    match run(db, puzzles, args.get(2).map_or("blank-first", |s| s)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(db: &str, puzzles: &str, goal: &str) -> Result<(), Box<dyn std::error::Error>> {
    let db = Arc::new(Database::open(db, OpenOptions::default())?);
    let board = db.board();
    let goal = Goal::parse(board, goal)?;
    let h = ClassHeuristic::new(&db, &goal)?;
    let text = std::fs::read_to_string(puzzles)?;
    let n = board.cells() as u16;
    let (mut sum, mut count, mut lengths) = (0u64, 0u64, 0u64);
    let mut starts = Vec::new();
    for line in input::read_puzzles(&text, Some(board)) {
        let p = line.puzzle?;
        // The files' goal is blank-first; a blank-last goal is the same problem after a half
        // turn of the board and renaming tile t to N - t.
        let tiles: Vec<u16> = if goal.blank_cell() == 0 {
            p.tiles().to_vec()
        } else {
            (p.tiles().iter().rev())
                .map(|&t| if t == 0 { 0 } else { n - t })
                .collect()
        };
        Puzzle::new(board, &tiles)?;
        let s = Position::from_tiles(&tiles).ok_or("not a position")?;
        let v = h.value(&h.init(&s.tiles));
        sum += v as u64;
        lengths += line.expected.unwrap_or(0) as u64;
        count += 1;
        starts.push(s);
    }
    println!(
        "{count} puzzles: mean class heuristic {:.3} (mean STM length {:.3})",
        sum as f64 / count as f64,
        lengths as f64 / count as f64
    );
    // Per-step cost: random walks from each start, each step prepared, applied and undone,
    // then applied again (two lookups per step, as a search's node).
    let moves = MoveTable::new(board);
    let mut rng = XorShift::new(3);
    let steps_per_start = 200_000;
    let t = std::time::Instant::now();
    let mut check = 0u64;
    for s in &starts {
        let mut s = s.clone();
        let mut parts = h.init(&s.tiles);
        for _ in 0..steps_per_start {
            let targets = moves.targets(s.blank);
            let from = targets[rng.below(targets.len())];
            let to = s.blank;
            let tile = s.slide(from);
            let pending = h.prepare(&parts, tile, from, to);
            let (v, undo) = h.apply(&mut parts, &s.tiles, tile, from, to, u32::MAX, &pending);
            h.undo(&mut parts, tile, from, to, undo);
            let (w, _) = h.apply(&mut parts, &s.tiles, tile, from, to, u32::MAX, &pending);
            check += (v + w) as u64;
        }
    }
    let steps = starts.len() as f64 * steps_per_start as f64;
    println!(
        "{:.1} ns per step (prepare + apply + undo + apply; checksum {check})",
        t.elapsed().as_secs_f64() * 1e9 / steps
    );
    Ok(())
}
