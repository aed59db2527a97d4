//! `pdbgen compress`: rewrite a file with another compression or entry encoding.

use super::{parse_compression, parse_encoding};
use crate::bars::BarObserver;
use crate::output::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use pdbformat::format::{
    encode_entries, Encoding, LoadOptions, PdbFile, TableSource, WriteOptions,
};
use pdbformat::units::bytes;
use pdbformat::TableKind;
use pdbgen::values_of;
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
    /// loads slower than zstd.
    #[arg(long)]
    to: Option<String>,
    /// Target entry encoding: u8, u4 or bit1 (default: keep the input's). Converting from bit1
    /// restores the exact values; bit1 needs zero-aware tables.
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
    if a.output.canonicalize().ok().is_some()
        && a.output.canonicalize().ok() == a.file.canonicalize().ok()
    {
        bail!("the output must be another file than the input");
    }
    let file = PdbFile::open(&a.file)?;
    let h = file.header().clone();
    let compression = match &a.to {
        Some(c) => parse_compression(c)?,
        None => h.tables[0].compression,
    };
    let target = a.encoding.as_deref().map(parse_encoding).transpose()?;
    let tables = file
        .load_all(LoadOptions {
            verify: true,
            mmap: true,
        })
        .with_context(|| format!("reading {}", a.file.display()))?;
    let mut converted: Vec<Option<Vec<u8>>> = Vec::new();
    for (i, t) in tables.iter().enumerate() {
        let to = target.unwrap_or(t.header.encoding);
        if to == t.header.encoding {
            converted.push(None);
            continue;
        }
        if to == Encoding::Bit1 && t.header.kind != TableKind::ZeroAware {
            bail!(
                "table {i} is {}: bit1 entries need zero-aware tables",
                t.header.kind
            );
        }
        if to == Encoding::U4 && t.header.max_value > 15 {
            bail!(
                "table {i} has values up to {}, too large for u4 entries",
                t.header.max_value
            );
        }
        let values = values_of(&h.goal, t, i, &BarObserver::without_summaries())?;
        if to != Encoding::U8 && values.contains(&pdbgen::UNREACHED) {
            bail!("table {i} holds parity-unreachable entries, which only u8 entries can mark");
        }
        converted.push(Some(encode_entries(&values, to)));
    }
    let sources: Vec<TableSource> = tables
        .iter()
        .zip(&converted)
        .map(|(t, c)| match (c, target) {
            (Some(entries), Some(encoding)) => TableSource {
                encoding,
                entries,
                ..t.source()
            },
            _ => t.source(),
        })
        .collect();
    let opts = WriteOptions {
        compression,
        zstd_level: a.zstd_level,
        gzip_level: a.gzip_level,
        ..WriteOptions::default()
    };
    pdbformat::format::write_pdb(&a.output, &h.goal, &sources, &opts)?;
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
