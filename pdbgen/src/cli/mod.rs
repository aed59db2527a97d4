//! The subcommands of `pdbgen`, one module each, and the helpers they share.

pub mod build;
pub mod compress;
#[cfg(feature = "mpi")]
pub mod distributed;
pub mod info;
pub mod verify;

use anyhow::{anyhow, Result};
use pdbformat::format::{Compression, Encoding};
use pdbformat::{Board, Goal, TableKind};

/// Parses `--board`.
pub fn parse_board(s: &str) -> Result<Board> {
    s.parse::<Board>().map_err(|e| anyhow!("{e}"))
}

/// Parses `--goal` for `board`.
pub fn parse_goal(board: Board, s: &str) -> Result<Goal> {
    Goal::parse(board, s).map_err(|e| anyhow!("{e}"))
}

/// Parses `--kind`.
pub fn parse_kind(s: &str) -> Result<TableKind> {
    TableKind::parse(s)
        .ok_or_else(|| anyhow!("unknown table kind {s:?}: use zero-aware or zero-unaware"))
}

/// Parses `--compress` / `--to`.
pub fn parse_compression(s: &str) -> Result<Compression> {
    Compression::parse(s)
        .ok_or_else(|| anyhow!("unknown compression {s:?}: use none, zstd or gzip"))
}

/// Parses `--encoding`.
pub fn parse_encoding(s: &str) -> Result<Encoding> {
    Encoding::parse(s).ok_or_else(|| anyhow!("unknown encoding {s:?}: use u8, u4 or bit1"))
}

/// Writes one line to standard output; a closed pipe (`pdbgen info f | head`) ends the program
/// quietly instead of panicking.
pub fn emit(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|_| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}

/// `println!` through [`emit`].
macro_rules! outln {
    () => { $crate::cli::emit(format_args!("")) };
    ($($t:tt)*) => { $crate::cli::emit(format_args!($($t)*)) };
}
pub(crate) use outln;
