//! `pdbgen verify`: checksums of every file, then the semantic check of every table, through
//! [`pdbgen::verify_file`]; this module only prints its reports.

use crate::bars::VerifyBars;
use crate::output::outln;
use anyhow::Result;
use clap::Args;
use pdbgen::{verify_file, FileReport, Problem, VerifyDepth, VerifyOptions};
use std::path::PathBuf;
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

/// Runs `pdbgen verify`; exit status 0 only if every file passes every check.
pub fn run(a: VerifyArgs) -> Result<ExitCode> {
    let opts = VerifyOptions {
        depth: if a.checksums_only {
            VerifyDepth::Checksums
        } else {
            VerifyDepth::Semantic
        },
        threads: a.threads,
    };
    let mut failed = 0;
    for path in &a.files {
        match verify_file(path, opts, &VerifyBars::new()) {
            Ok(report) if report.passed() => outln!("{}: OK", path.display()),
            Ok(report) => {
                print_problems(&report);
                failed += 1;
            }
            Err(e) => {
                outln!(
                    "{}: FAILED: {}",
                    path.display(),
                    pdbformat::error::describe(&e)
                );
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

/// One line per problem: damage as `FAILED: …`, failed checks with their table and pattern.
fn print_problems(report: &FileReport) {
    let path = report.path.display();
    for (t, p) in report.problems() {
        match p {
            Problem::Damaged(e) => outln!("{path}: FAILED: {e}"),
            Problem::Unrestorable(_) => outln!("{path}: FAILED: table {}: {p}", t.table),
            Problem::Check(_) => outln!("{path}: table {} [{}]: {p}", t.table, t.pattern),
        }
    }
}
