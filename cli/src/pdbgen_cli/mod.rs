//! The `pdbgen` command: build, verify, inspect and recompress pattern-database files; its
//! subcommands one module each, and the helpers they share.

mod advise;
mod build;
mod compress;
#[cfg(feature = "mpi")]
mod distributed;
mod info;
mod report;
mod verify;

use anyhow::{anyhow, Result};
use clap::{Parser, Subcommand};
use pdbformat::format::{Compression, Encoding};
use pdbformat::{Board, Goal, Partition, TableKind};
use std::process::ExitCode;

/// Build, verify, inspect and recompress additive pattern databases for sliding-tile puzzles.
#[derive(Parser)]
#[command(name = "pdbgen", version = crate::VERSION, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the tables of a partition by reverse BFS and write one PDB file.
    Build(build::BuildArgs),
    /// Predict, before building, what partitions cost and how many nodes the solver expands
    /// with them; without --partition, search the partitions that fit --max-memory.
    Advise(advise::AdviseArgs),
    /// Check files: checksums, then the rebuild-free semantic check of every table.
    Verify(verify::VerifyArgs),
    /// Describe a file: header, sizes, value histogram and mean.
    Info(info::InfoArgs),
    /// Rewrite a file with another compression or entry encoding (u8, u4, bit1).
    Compress(compress::CompressArgs),
}

/// Parses the command line of `pdbgen`, runs it, and returns the exit status.
pub fn run() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Command::Build(a) => build::run(a),
        Command::Advise(a) => advise::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Info(a) => info::run(a),
        Command::Compress(a) => compress::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", pdbformat::error::describe(&*e));
            if e.downcast_ref::<crate::solver_cli::flags::UsageError>()
                .is_some()
            {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Parses `--board`.
pub fn parse_board(s: &str) -> Result<Board> {
    s.parse::<Board>().map_err(|e| anyhow!("{e}"))
}

/// Parses `--goal` for `board`.
pub fn parse_goal(board: Board, s: &str) -> Result<Goal> {
    Goal::parse(board, s).map_err(|e| anyhow!("{e}"))
}

/// Parses a `--partition` for `goal`; a bad one is a usage error (exit status 2) that names it.
pub fn parse_partition(goal: &Goal, spec: &str) -> Result<Partition> {
    Partition::parse(goal, spec)
        .map_err(|e| crate::solver_cli::flags::usage(format!("--partition {spec}: {e}")))
}

/// Parses `--kind`.
pub fn parse_kind(s: &str) -> Result<TableKind> {
    TableKind::parse(s)
        .ok_or_else(|| anyhow!("unknown table kind {s:?}: use zero-aware or zero-unaware"))
}

/// Parses `--compress` / `--to`.
pub fn parse_compression(s: &str) -> Result<Compression> {
    Compression::parse(s)
        .ok_or_else(|| anyhow!("unknown compression {s:?}: use none, zstd, gzip or zstd-sym"))
}

/// Parses `--encoding`.
pub fn parse_encoding(s: &str) -> Result<Encoding> {
    Encoding::parse(s).ok_or_else(|| anyhow!("unknown encoding {s:?}: use u8, u4 or bit1"))
}
