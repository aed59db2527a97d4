//! `pdbgen info`: the header in words, sizes, the value histogram and the mean (`--plot`:
//! the histograms drawn into an SVG file).

use crate::bars::BarObserver;
use crate::output::outln;
use crate::plot::histogram::{draw, Table};
use anyhow::Result;
use clap::Args;
use pdbformat::format::{Encoding, LoadOptions, PdbFile};
use pdbformat::units::bytes;
use pdbgen::{values_of, ValueStats};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `pdbgen info`.
#[derive(Args)]
pub struct InfoArgs {
    /// The file to describe.
    file: PathBuf,
    /// Skip reading the entries (no histogram, no mean).
    #[arg(long)]
    header_only: bool,
    /// For bit1 tables: restore the exact values (a BFS over the table) to show the histogram.
    #[arg(long)]
    restore: bool,
    /// Also draw the value histogram of each table into this SVG file.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "header_only")]
    plot: Option<PathBuf>,
}

/// Runs `pdbgen info`.
pub fn run(a: InfoArgs) -> Result<ExitCode> {
    if let Some(path) = &a.plot {
        crate::plot::check_path(path)?;
    }
    let file = PdbFile::open(&a.file)?;
    let mut panels = Vec::new();
    let h = file.header();
    outln!("file:        {}", a.file.display());
    outln!("format:      PDB version {}", h.version());
    outln!(
        "board:       {} ({} tiles)",
        h.board(),
        h.board().cells() - 1
    );
    outln!("goal:        {}", h.goal);
    outln!("metric:      {}", h.metric);
    outln!(
        "size:        {} on disk, {} in memory",
        bytes(file.len()),
        bytes(h.tables.iter().map(|t| t.raw_len).sum())
    );
    outln!("tables:      {}", h.tables.len());
    for (i, t) in h.tables.iter().enumerate() {
        outln!();
        outln!(
            "table {i}:     pattern {} ({} tiles)",
            t.pattern,
            t.pattern.len()
        );
        match t.classes {
            Some(labels) => outln!("  kind:      {labels} classes (index class-board)"),
            None => outln!("  kind:      {} (index {})", t.kind, t.kind.scheme().name()),
        }
        outln!(
            "  entries:   {} as {}, max value {}",
            t.entry_count,
            t.encoding,
            t.max_value
        );
        outln!(
            "  payload:   {} raw, {} stored ({}, {:.1}% of raw)",
            bytes(t.raw_len),
            bytes(t.stored_len),
            t.compression,
            100.0 * t.stored_len as f64 / t.raw_len.max(1) as f64
        );
        outln!("  entries sha256: {}", t.raw_digest);
        outln!("  stored sha256:  {}", t.stored_digest);
        if a.header_only {
            continue;
        }
        let caption = format!(
            "table {i}: tiles {} ({} entries, {})",
            t.pattern,
            pdbformat::units::thousands(t.entry_count),
            t.kind
        );
        if t.encoding == Encoding::Bit1 && !a.restore {
            outln!("  values:    bit 1 of each value only (pass --restore for the histogram)");
            panels.push(Table {
                caption,
                counts: None,
                mean: None,
                note: "bit 1 of each value only: pass --restore for the histogram".into(),
            });
            continue;
        }
        let table = file.load(i, LoadOptions::default())?;
        let values = values_of(&h.goal, &table, i, &BarObserver::without_summaries())?;
        let stats = ValueStats::of(&values);
        outln!("  mean:      {:.4}", stats.mean());
        if stats.unreached > 0 {
            outln!(
                "  unreached: {} (parity-unreachable states)",
                stats.unreached
            );
        }
        let peak = *stats.histogram.iter().max().unwrap_or(&1) as f64;
        for (v, &c) in stats.histogram.iter().enumerate() {
            let bar = "#".repeat((40.0 * c as f64 / peak).ceil() as usize);
            outln!("  {v:>3} {c:>13} {bar}");
        }
        panels.push(Table {
            caption,
            counts: Some(stats.histogram.clone()),
            mean: Some(stats.mean()),
            note: String::new(),
        });
    }
    if let Some(path) = &a.plot {
        let name = a.file.file_name().map_or_else(
            || a.file.display().to_string(),
            |f| f.to_string_lossy().into_owned(),
        );
        let title = format!("{name}: {} board, goal {}", h.board(), h.goal);
        draw(path, &title, &panels)?;
        outln!();
        outln!("figure:      {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
