//! The `pdbgen` command: build, verify, inspect and recompress pattern-database files.

#[macro_use]
mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Build, verify, inspect and recompress additive pattern databases for sliding-tile puzzles.
#[derive(Parser)]
#[command(name = "pdbgen", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the tables of a partition by reverse BFS and write one PDB file.
    Build(cli::build::BuildArgs),
    /// Check files: checksums, then the rebuild-free semantic check of every table.
    Verify(cli::verify::VerifyArgs),
    /// Describe a file: header, sizes, value histogram and mean.
    Info(cli::info::InfoArgs),
    /// Rewrite a file with another compression or entry encoding (u8, u4, bit1).
    Compress(cli::compress::CompressArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let result = match args.command {
        Command::Build(a) => cli::build::run(a),
        Command::Verify(a) => cli::verify::run(a),
        Command::Info(a) => cli::info::run(a),
        Command::Compress(a) => cli::compress::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", pdbformat::error::describe(&*e));
            ExitCode::FAILURE
        }
    }
}
