//! `pdbgen compress`: rewrite a file's payloads with another compression.

use super::outln;
use super::{bytes, parse_compression};
use anyhow::{bail, Context, Result};
use clap::Args;
use pdbformat::format::{LoadOptions, PdbFile, TableSource, WriteOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pdbgen compress`.
#[derive(Args)]
pub struct CompressArgs {
    /// The file to read.
    file: PathBuf,
    /// Target compression: none, zstd or gzip.
    #[arg(long)]
    to: String,
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
    if a.output.canonicalize().ok().is_some()
        && a.output.canonicalize().ok() == a.file.canonicalize().ok()
    {
        bail!("the output must be another file than the input");
    }
    let compression = parse_compression(&a.to)?;
    let file = PdbFile::open(&a.file)?;
    let h = file.header().clone();
    let tables = (0..h.tables.len())
        .map(|i| {
            file.load(
                i,
                LoadOptions {
                    verify: true,
                    mmap: true,
                },
            )
        })
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("reading {}", a.file.display()))?;
    let sources: Vec<TableSource> = tables
        .iter()
        .map(|t| TableSource {
            kind: t.header.kind,
            pattern: &t.header.pattern,
            encoding: t.header.encoding,
            max_value: t.header.max_value,
            entries: &t.bytes,
        })
        .collect();
    let opts = WriteOptions {
        compression,
        zstd_level: a.zstd_level,
        gzip_level: a.gzip_level,
        ..WriteOptions::default()
    };
    let written = pdbformat::format::write_pdb(&a.output, &h.goal, &sources, &opts)?;
    for (old, new) in h.tables.iter().zip(&written.tables) {
        debug_assert_eq!(old.raw_digest, new.raw_digest);
    }
    let size = std::fs::metadata(&a.output)?.len();
    outln!(
        "wrote {} ({}, {}; was {}, {:.1}% of the input)",
        a.output.display(),
        compression,
        bytes(size),
        bytes(file.len()),
        100.0 * size as f64 / file.len() as f64
    );
    Ok(ExitCode::SUCCESS)
}
