//! The duplicate-move pruning machine kept beside a board's databases: `artifacts build` writes
//! it, `artifacts verify` checks it, `artifacts publish` ships it, and the solver reads it
//! before its own cache (`pdbsolver::prune::cache::read_published`), so that a user of
//! the 24-puzzle tables does not spend the 25 s its depth-18 machine takes to build.
//!
//! The file is the solver's cache file (`prune-<W>x<H>-d<depth>.fsm`, layout in
//! `solver/src/prune/cache.rs`), for the word depth the solver uses by default on the
//! board; boards whose default machine is built in milliseconds (depth below
//! `cache::MIN_CACHED_DEPTH`) get none.

use anyhow::{Context, Result};
use pdbformat::standard::StandardDb;
use pdbformat::Board;
use pdbsolver::prune::{cache, default_depth, Pruner};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The word depth of `board`'s default machine when it is kept in a file, else `None`.
pub fn depth_for(board: Board) -> Option<u32> {
    let depth = default_depth(board);
    (depth >= cache::MIN_CACHED_DEPTH).then_some(depth)
}

/// The word depth and file of `board`'s default machine in `dir`, for boards that keep one.
pub fn file_for(dir: &Path, board: Board) -> Option<(u32, PathBuf)> {
    depth_for(board).map(|d| (d, dir.join(cache::file_name(board, d))))
}

/// The file of `board`'s default machine in `dir`, for boards that keep one.
pub fn path_for(dir: &Path, board: Board) -> Option<PathBuf> {
    file_for(dir, board).map(|(_, path)| path)
}

/// The boards of `dbs`, each once, in the order of `dbs`.
pub fn boards(dbs: &[&StandardDb]) -> Result<Vec<Board>> {
    let mut out: Vec<Board> = Vec::new();
    for s in dbs {
        let b = s.board()?;
        if !out.contains(&b) {
            out.push(b);
        }
    }
    Ok(out)
}

/// Reads and checks the machine file `path` of `board` at `depth` (length, digest, every state
/// named; see the solver's cache module): the machine, or why it cannot be used.
pub fn check(path: &Path, board: Board, depth: u32) -> Result<Pruner, String> {
    cache::read(path, board, depth).map_err(|e| pdbformat::error::describe(&e))
}

/// What [`ensure`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A valid file was there.
    Kept,
    /// The file was built and written (a missing, damaged or, with `force`, any file).
    Built {
        /// Seconds the build and the write took.
        seconds: f64,
    },
}

/// Makes `dir` hold `board`'s default machine, when the board keeps one: a valid file is kept
/// unless `force`; otherwise the machine is built and written to a temporary file that is
/// renamed into place. Prints a line unless `quiet`.
pub fn ensure(dir: &Path, board: Board, force: bool, quiet: bool) -> Result<Option<Outcome>> {
    let Some((depth, path)) = file_for(dir, board) else {
        return Ok(None);
    };
    let name = cache::file_name(board, depth);
    let problem = match check(&path, board, depth) {
        Ok(_) if !force => {
            if !quiet {
                println!("{name}: valid, skipped");
            }
            return Ok(Some(Outcome::Kept));
        }
        Ok(_) => None,
        Err(_) if !path.exists() => None,
        Err(why) => Some(why),
    };
    if !quiet {
        match problem {
            Some(why) => println!("{name}: {why}; rebuilding"),
            None => {
                println!("{name}: building the {board} duplicate-move machine of depth {depth}")
            }
        }
    }
    let start = Instant::now();
    let machine = Pruner::new(board, depth);
    cache::write(&path, board, &machine)
        .with_context(|| format!("writing the pruning machine {}", path.display()))?;
    let seconds = start.elapsed().as_secs_f64();
    if !quiet {
        println!(
            "{name}: {} states, {} words, built and written in {seconds:.1} s ({})",
            machine.states(),
            machine.words(),
            pdbformat::units::bytes(crate::file_size(&path)?)
        );
    }
    Ok(Some(Outcome::Built { seconds }))
}
