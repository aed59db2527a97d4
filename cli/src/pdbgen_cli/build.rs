//! `pdbgen build`: plan, check memory, build with progress, write, summarise.

use super::{parse_board, parse_compression, parse_encoding, parse_goal, parse_kind};
use crate::bars::BarObserver;
use crate::output::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::HumanCount;
use pdbformat::format::WriteOptions;
use pdbformat::system::available_memory;
use pdbformat::units::bytes;
use pdbformat::Partition;
use pdbgen::{
    build_file, build_file_with_state, plan, BuildRequest, BuildState, ResumePoint, StateOptions,
    TableSummary,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `pdbgen build`.
#[derive(Args)]
pub struct BuildArgs {
    /// Board as WxH (columns x rows), e.g. 4x4, 3x4.
    #[arg(long, default_value = "4x4")]
    board: String,
    /// Partition: a preset (78, 78b, 663, 555 on 4x4; 6666, 6666b, 6666c, 6666s, 7755s and the
    /// compound 6666x7, seven partitions over fourteen shared tables, on 5x5; full) or
    /// patterns such as 1-7/8-15.
    #[arg(long, short)]
    partition: String,
    /// Goal: blank-first (0 1 2 ...), blank-last (1 2 ... 0) or an explicit tile list.
    #[arg(long, default_value = "blank-first")]
    goal: String,
    /// Table kind: zero-aware (exact, per blank region) or zero-unaware (minimum over the blank).
    #[arg(long, default_value = "zero-aware")]
    kind: String,
    /// Entry encoding: u8, u4 (values up to 15) or bit1 (zero-aware only).
    #[arg(long, default_value = "u8")]
    encoding: String,
    /// Payload compression: none (memory-mappable), zstd or gzip.
    #[arg(long, default_value = "none")]
    compress: String,
    /// zstd level (1-22).
    #[arg(long, default_value_t = 19)]
    zstd_level: i32,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Build even when the estimated memory exceeds what the system (every rank's, with
    /// --distributed) has available.
    #[arg(long)]
    pub(super) ignore_memory_check: bool,
    /// Build across the ranks of an MPI job: launch as `mpirun -np N pdbgen build --distributed
    /// ...` (needs pdbgen built with `--features mpi`; zero-aware tables only; `--threads` is
    /// per rank).
    #[arg(long)]
    distributed: bool,
    /// With --distributed: indices each rank sends each other rank per exchange (default
    /// 2^23 / ranks, at least 65,536); smaller holds less memory and exchanges more often.
    #[arg(long, requires = "distributed")]
    exchange_share: Option<usize>,
    /// With --distributed: send every index in 8 bytes, as tables of more than 2^32 entries
    /// per rank do, instead of 4 (for tests).
    #[arg(long, requires = "distributed", hide = true)]
    exchange_wide: bool,
    /// Start from the beginning: discard the state an interrupted run of this build left
    /// beside the output (OUTPUT.partial/), which a build otherwise resumes from.
    #[arg(long)]
    fresh: bool,
    /// Keep no resumable state beside the output: no disk beyond the file, but a killed
    /// build starts over.
    #[arg(long, conflicts_with_all = ["fresh", "state_every_level", "distributed"])]
    no_state: bool,
    /// Save the resumable state after every level and every finished table, whatever it
    /// costs (for tests).
    #[arg(long, hide = true)]
    state_every_level: bool,
    /// Output file (written to a temporary file first, then renamed).
    #[arg(long, short)]
    pub(super) output: PathBuf,
}

/// Runs `pdbgen build`.
pub fn run(a: BuildArgs) -> Result<ExitCode> {
    let board = parse_board(&a.board)?;
    let goal = parse_goal(board, &a.goal)?;
    let partition = Partition::parse(&goal, &a.partition).map_err(|e| anyhow::anyhow!("{e}"))?;
    let req = BuildRequest {
        goal,
        partition,
        kind: parse_kind(&a.kind)?,
        threads: a.threads,
        encoding: parse_encoding(&a.encoding)?,
        write: WriteOptions {
            compression: parse_compression(&a.compress)?,
            zstd_level: a.zstd_level,
            ..WriteOptions::default()
        },
    };
    if a.distributed {
        return distributed(req, &a);
    }
    let p = plan(&req)?;
    let total: u64 = p.entries.iter().sum();
    eprintln!(
        "building {} {} tables for {board}, goal {}, partition {} ({} threads)",
        req.partition.patterns().len(),
        req.kind,
        req.goal,
        req.partition,
        p.threads
    );
    eprintln!(
        "{} entries ({} as {}), BFS working table {} bits per entry, peak memory about {}",
        HumanCount(total),
        bytes(p.entries.iter().map(|&e| req.encoding.encoded_len(e)).sum()),
        req.encoding,
        p.working_bits,
        bytes(p.peak_bytes)
    );
    if p.derived > 0 {
        eprintln!(
            "{} of the {} tables are mirror images of earlier ones: derived, not searched",
            p.derived,
            p.entries.len()
        );
    }
    let threads = p.threads;
    eprintln!(
        "rough time: {} of processor time, {} on {threads} threads",
        duration(p.core_seconds),
        duration(p.core_seconds / threads as f64)
    );
    if !a.no_state {
        eprintln!(
            "resumable state: up to about {} of disk beside the output, removed at the end",
            bytes(p.state_bytes)
        );
    }
    if let Some(avail) = available_memory() {
        if p.peak_bytes > avail && !a.ignore_memory_check {
            bail!(
                "this build needs about {} of memory but only {} is available; free memory, choose a smaller partition, or pass --ignore-memory-check",
                bytes(p.peak_bytes),
                bytes(avail)
            );
        }
    }
    create_parent(&a.output)?;
    let start;
    let summaries = if a.no_state {
        start = Instant::now();
        build_file(&req, &a.output, &BarObserver::new())?
    } else {
        let state = BuildState::open(&req, &a.output, state_options(&a))?;
        report_state(&state, req.partition.patterns().len(), "");
        start = Instant::now();
        build_file_with_state(&req, &a.output, state, &BarObserver::new())?
    };
    print_summaries(&summaries, &a.output, start);
    Ok(ExitCode::SUCCESS)
}

/// How the build keeps its state, from the arguments.
pub(super) fn state_options(a: &BuildArgs) -> StateOptions {
    StateOptions {
        fresh: a.fresh,
        every_level: a.state_every_level,
    }
}

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

/// `--distributed` in a build without MPI support.
#[cfg(not(feature = "mpi"))]
fn distributed(_req: BuildRequest, _a: &BuildArgs) -> Result<ExitCode> {
    bail!(
        "this pdbgen was built without MPI support, which --distributed needs: install Open MPI and libclang (Debian: apt-get install libopenmpi-dev openmpi-bin libclang-dev), rebuild with `cargo build --release -p pdbtiles --features mpi`, and launch it as `mpirun -np N pdbgen build --distributed ...`"
    )
}

/// `--distributed`: the build across the ranks of the MPI job this process belongs to.
#[cfg(feature = "mpi")]
fn distributed(req: BuildRequest, a: &BuildArgs) -> Result<ExitCode> {
    let opts = pdbgen::DistributedOptions {
        per_owner: a.exchange_share,
        wide_offsets: a.exchange_wide,
    };
    super::distributed::run(req, a, opts)
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
