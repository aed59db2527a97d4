//! Builds one duplicate-move machine and reports its size and build time, for measuring the
//! builder: `cargo run --release -p pdbsolver --example prune_build -- 5x5 18 [OUT]` (OUT: the
//! machine's cache-file bytes are written there, to compare two builders byte for byte).
//! The cache is not used: the machine is always built.

use pdbformat::Board;
use pdbsolver::prune::{cache, Pruner};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: prune_build WxH DEPTH [OUT]";
    let (Some(size), Some(depth)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let board = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .and_then(|(w, h)| Board::new(w, h).ok());
    let (Some(board), Ok(depth)) = (board, depth.parse::<u32>()) else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let t = std::time::Instant::now();
    let p = Pruner::new(board, depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{board} depth {}: {} words, {} states, {} table bytes, {secs:.3} s",
        p.depth(),
        p.words(),
        p.states(),
        p.table_bytes()
    );
    if let Some(out) = args.get(2) {
        let path = std::path::Path::new(out);
        if let Err(e) = cache::write(path, board, &p) {
            eprintln!("{}", pdbformat::error::describe(&e));
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
