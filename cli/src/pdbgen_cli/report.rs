//! What `pdbgen build` says, on one process or from rank 0 of a distributed build: the state
//! found beside the output, where the build resumes, durations, and the table of finished
//! tables; and the output's folder made before the build.

use crate::output::outln;
use anyhow::{Context, Result};
use pdbformat::units::bytes;
use pdbgen::{BuildState, ResumePoint, TableSummary};
use std::path::Path;
use std::time::Instant;

/// Says what became of the state found beside the output (`who`: which rank, or nothing):
/// discarded, pieces refused, and where the build resumes (out of `tables`).
pub(super) fn report_state(state: &BuildState, tables: usize, who: &str) {
    let dir = state.dir().display();
    if state.discarded() {
        eprintln!("{who}--fresh: discarded the state of an earlier run in {dir}");
    }
    for r in state.refused() {
        eprintln!("{who}refused {}: it {}", r.piece.display(), r.why);
    }
    if who.is_empty() {
        report_resume(state.resume_point(), tables, &dir.to_string());
    }
}

/// Says where a build resumes from its state in `dir` (nothing when it starts afresh).
pub(super) fn report_resume(at: ResumePoint, tables: usize, dir: &str) {
    let finished = match at.table {
        0 => String::new(),
        1 => "table 0 finished, ".to_string(),
        n => format!("tables 0-{} finished, ", n - 1),
    };
    match at.level {
        _ if at.table >= tables => {
            eprintln!("resuming from {dir}: every table finished, writing the file")
        }
        Some(level) => eprintln!(
            "resuming from {dir}: {finished}table {} from level {level}",
            at.table
        ),
        None if at.table > 0 => eprintln!(
            "resuming from {dir}: {finished}table {} from the start",
            at.table
        ),
        None => {}
    }
}

/// Creates the folder the output goes into.
pub(super) fn create_parent(output: &Path) -> Result<()> {
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    Ok(())
}

/// Prints the table of finished tables and the file written.
pub(super) fn print_summaries(summaries: &[TableSummary], output: &Path, start: Instant) {
    let size = std::fs::metadata(output).map(|m| m.len()).unwrap_or(0);
    outln!(
        "{:<5} {:<22} {:>14} {:>4} {:>8} {:>9}",
        "table",
        "pattern",
        "entries",
        "max",
        "mean",
        "seconds"
    );
    for (i, s) in summaries.iter().enumerate() {
        outln!(
            "{:<5} {:<22} {:>14} {:>4} {:>8.3} {:>9.2}",
            i,
            s.pattern.to_string(),
            s.entries,
            s.max_value,
            s.mean_value,
            s.seconds
        );
    }
    outln!(
        "wrote {} ({}) in {:.2} s",
        output.display(),
        bytes(size),
        start.elapsed().as_secs_f64()
    );
}

/// A duration in the largest unit that keeps it readable.
pub(super) fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86_400.0),
    }
}
