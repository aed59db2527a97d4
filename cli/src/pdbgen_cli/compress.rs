//! `pdbgen compress`: rewrite a file (pattern tables or class tables) with another compression
//! or entry encoding.

use super::{parse_compression, parse_encoding};
use crate::bars::BarObserver;
use crate::output::outln;
use anyhow::Result;
use clap::Args;
use pdbformat::format::WriteOptions;
use pdbformat::units::bytes;
use pdbgen::{recode, RecodeOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pdbgen compress`.
#[derive(Args)]
pub struct CompressArgs {
    /// The file to read.
    file: PathBuf,
    /// Target compression: none, zstd, gzip or zstd-sym (default: keep the input's). zstd-sym
    /// stores a zero-aware table that a board symmetry maps onto an earlier table as a
    /// reference to it, one that a symmetry maps onto itself as half its entries, and bit1
    /// entries against the tiles' Manhattan distance; other tables as zstd. For downloads: it
    /// loads slower than zstd. Class tables take none, zstd or gzip.
    #[arg(long)]
    to: Option<String>,
    /// Target entry encoding: u8, u4 or bit1 (default: keep the input's). Converting from bit1
    /// restores the exact values; bit1 needs zero-aware pattern tables (class tables take u8
    /// or u4).
    #[arg(long)]
    encoding: Option<String>,
    /// zstd level (1-22).
    #[arg(long, default_value_t = 19)]
    zstd_level: i32,
    /// gzip level (0-9).
    #[arg(long, default_value_t = 9)]
    gzip_level: u32,
    /// Output file (must differ from the input).
    #[arg(long, short)]
    output: PathBuf,
}

/// Runs `pdbgen compress`.
pub fn run(a: CompressArgs) -> Result<ExitCode> {
    let opts = RecodeOptions {
        encoding: a.encoding.as_deref().map(parse_encoding).transpose()?,
        compression: a.to.as_deref().map(parse_compression).transpose()?,
        write: WriteOptions {
            zstd_level: a.zstd_level,
            gzip_level: a.gzip_level,
            ..WriteOptions::default()
        },
        expected: None,
    };
    let header = recode(&a.file, &a.output, &opts, &BarObserver::without_summaries())?;
    let was = std::fs::metadata(&a.file)?.len();
    let size = std::fs::metadata(&a.output)?.len();
    let compression = header.tables.first().map(|t| t.compression);
    outln!(
        "wrote {} ({}, {}; was {}, {:.1}% of the input)",
        a.output.display(),
        compression.map_or_else(String::new, |c| c.to_string()),
        bytes(size),
        bytes(was),
        100.0 * size as f64 / was as f64
    );
    Ok(ExitCode::SUCCESS)
}
