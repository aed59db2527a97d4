//! `pdbgen verify`: checksums of every file, then the semantic check of every table.

use super::outln;
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pdbformat::format::{encode_entries, Encoding, LoadOptions, PdbFile};
use pdbgen::progress::BarObserver;
use pdbgen::restore::values_of;
use pdbgen::semantic::verify_table;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `pdbgen verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// Files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Check checksums only (skip the semantic check).
    #[arg(long)]
    checksums_only: bool,
    /// Worker threads for the semantic check (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

fn bar(len: u64, prefix: String) -> ProgressBar {
    let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    b.set_style(
        ProgressStyle::with_template(
            "{prefix} {bar:25.cyan/blue} {percent:>3}% [{elapsed_precise}, eta {eta}]",
        )
        .expect("valid template"),
    );
    b.set_prefix(prefix);
    b
}

/// Runs `pdbgen verify`; exit status 0 only if every file passes every check.
pub fn run(a: VerifyArgs) -> Result<ExitCode> {
    let mut failed = 0;
    for path in &a.files {
        match pdbgen::build::in_pool(a.threads, || verify_file(path, a.checksums_only)) {
            Ok(true) => outln!("{}: OK", path.display()),
            Ok(false) => failed += 1,
            Err(e) => {
                outln!("{}: FAILED: {e:#}", path.display());
                failed += 1;
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} files failed verification", a.files.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Returns Ok(false) after printing the failed semantic checks, Err for format errors.
fn verify_file(path: &Path, checksums_only: bool) -> Result<bool> {
    let file = PdbFile::open(path)?;
    let h = file.header().clone();
    for (i, t) in h.tables.iter().enumerate() {
        let b = bar(t.stored_len, format!("table {i} checksums"));
        file.verify_table(i, &mut |n| b.set_position(n))?;
        b.finish_and_clear();
    }
    if checksums_only {
        return Ok(true);
    }
    let mut ok = true;
    for (i, t) in h.tables.iter().enumerate() {
        let table = file.load(i, LoadOptions::default())?;
        // bit1 tables are checked through their restored values: a wrong bit makes a value
        // jump by more than 1 or leaves an entry unreached.
        let values = values_of(&h.goal, &table, i, &BarObserver::without_summaries())?;
        let b = bar(
            t.entry_count,
            format!("table {i} [{}] semantics", t.pattern),
        );
        let violations =
            verify_table(&h.goal, t.kind, &t.pattern, &values, &|n| b.set_position(n))?;
        b.finish_and_clear();
        for v in &violations {
            ok = false;
            outln!(
                "{}: table {i} [{}]: check failed: {} (first at index {}, value {}, {} entries fail)",
                path.display(),
                t.pattern,
                v.check,
                v.index,
                v.value,
                v.count
            );
        }
        if t.encoding == Encoding::Bit1
            && violations.is_empty()
            && *encode_entries(&values, Encoding::Bit1) != *table.bytes
        {
            ok = false;
            outln!(
                "{}: table {i} [{}]: check failed: stored bits match the restored values",
                path.display(),
                t.pattern
            );
        }
    }
    Ok(ok)
}
