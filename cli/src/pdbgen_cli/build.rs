//! `pdbgen build`: plan, check memory, build with progress, write, summarise.

use super::report::{create_parent, duration, print_summaries, report_state};
use super::{
    parse_board, parse_compression, parse_encoding, parse_goal, parse_kind, parse_partition,
};
use crate::bars::BarObserver;
use anyhow::{bail, Result};
use clap::Args;
use indicatif::HumanCount;
use pdbformat::format::WriteOptions;
use pdbformat::rank::ClassLabels;
use pdbformat::system::available_memory;
use pdbformat::units::bytes;
use pdbformat::Metric;
use pdbgen::{
    build_class_file, build_file, build_file_with_state, default_labels, plan, BuildRequest,
    BuildState, ClassBuildRequest, StateOptions,
};
use std::path::PathBuf;
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
    /// patterns such as 1-7/8-15. Required with --metric stm; refused with --metric mtm.
    #[arg(long, short)]
    partition: Option<String>,
    /// Move metric: stm (one tile per move: the additive pattern tables of --partition) or
    /// mtm (a move slides 1..k tiles of the blank's row or column: one table over goal-row
    /// class boards, every tile known only by its goal row, the blank exactly; plus a
    /// goal-column table unless the board is square with the blank's goal cell on the
    /// diagonal, where the row table looked up on the transposed position serves).
    #[arg(long, default_value = "stm")]
    metric: String,
    /// With --metric mtm, the class tables to build, one per use: `rows` (the goal-row
    /// tables above, the default), `columns`, `rokicki` (Rokicki's 4x4 labelling, whose
    /// classes follow neither rows nor columns), `rokicki-mirror` (the same reflected), or the
    /// tiles of each class, such as 1,2,4,5/3,6,7,10,11/8,9,12,13/14,15. The solver takes
    /// the largest lookup of every table of the file, each also transposed: on Korf's 100,
    /// rows+rokicki search 0.18 of the nodes of rows alone, rows+rokicki+rokicki-mirror 0.11.
    #[arg(long = "classes", value_name = "LABELLING")]
    classes: Vec<String>,
    /// Goal: blank-first (0 1 2 ...), blank-last (1 2 ... 0) or an explicit tile list.
    #[arg(long, default_value = "blank-first")]
    goal: String,
    /// Table kind: zero-aware (exact, per blank region) or zero-unaware (minimum over the blank).
    #[arg(long, default_value = "zero-aware")]
    kind: String,
    /// Entry encoding: u8, u4 (values up to 15) or bit1 (zero-aware only). Default: u8; with
    /// --metric mtm, u4 when every value fits and u8 otherwise.
    #[arg(long)]
    encoding: Option<String>,
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
    ignore_memory_check: bool,
    /// Build across the ranks of an MPI job: launch as `mpirun -np N pdbgen build --distributed
    /// ...` (needs pdbgen built with `--features mpi`; zero-aware tables only; `--threads` is
    /// per rank).
    #[arg(long)]
    distributed: bool,
    /// With --distributed: indices each rank sends each other rank per exchange (default
    /// 2^23 / ranks, at least 65,536); smaller holds less memory and exchanges more often.
    #[arg(long, requires = "distributed")]
    exchange_share: Option<usize>,
    /// Start from the beginning: discard the state an interrupted run of this build left
    /// beside the output (OUTPUT.partial/), which a build otherwise resumes from.
    #[arg(long)]
    fresh: bool,
    /// Keep no resumable state beside the output: no disk beyond the file, but a killed
    /// build starts over.
    #[arg(long, conflicts_with_all = ["fresh", "distributed"])]
    no_state: bool,
    /// Output file (written to a temporary file first, then renamed).
    #[arg(long, short)]
    output: PathBuf,
}

/// Runs `pdbgen build`.
pub fn run(a: BuildArgs) -> Result<ExitCode> {
    let board = parse_board(&a.board)?;
    let goal = parse_goal(board, &a.goal)?;
    let metric: Metric = a.metric.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
    if metric == Metric::Mtm {
        return classes(goal, &a);
    }
    if !a.classes.is_empty() {
        bail!("--classes applies to --metric mtm only (STM databases are pattern tables: --partition)");
    }
    let Some(partition) = &a.partition else {
        bail!("--partition is required with --metric stm (a preset such as 663, or patterns such as 1-7/8-15)");
    };
    let partition = parse_partition(&goal, partition)?;
    let req = BuildRequest {
        goal,
        partition,
        kind: parse_kind(&a.kind)?,
        threads: a.threads,
        encoding: parse_encoding(a.encoding.as_deref().unwrap_or("u8"))?,
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

/// `--metric mtm`: the class tables of `--classes` (goal rows by default), built in memory
/// and written.
fn classes(goal: pdbformat::Goal, a: &BuildArgs) -> Result<ExitCode> {
    if a.partition.is_some() {
        bail!("--partition does not apply to --metric mtm: its tables cover every tile by goal row (sums of disjoint pattern tables are not admissible when one move can slide tiles of several patterns)");
    }
    if a.distributed {
        bail!("--distributed builds STM pattern tables only; an MTM class table is built on one machine");
    }
    let mut labels = Vec::new();
    for spec in (a.classes.iter().map(String::as_str)).chain(a.classes.is_empty().then_some("rows"))
    {
        let parsed = ClassLabels::parse(&goal, spec)
            .map_err(|e| anyhow::anyhow!("--classes {spec}: {e}"))?;
        let add = if parsed == ClassLabels::Rows {
            default_labels(&goal)
        } else {
            vec![parsed]
        };
        for l in add {
            if labels.contains(&l) {
                bail!("--classes: the {l} table is asked for twice");
            }
            labels.push(l);
        }
    }
    let req = ClassBuildRequest {
        goal,
        metric: Metric::Mtm,
        labels,
        threads: a.threads,
        encoding: a.encoding.as_deref().map(parse_encoding).transpose()?,
        write: WriteOptions {
            compression: parse_compression(&a.compress)?,
            zstd_level: a.zstd_level,
            ..WriteOptions::default()
        },
    };
    let mut entries = 0;
    for labels in &req.labels {
        entries += pdbformat::rank::ClassIndex::for_goal(&req.goal, *labels)?.len();
    }
    let names: Vec<String> = req.labels.iter().map(|x| x.to_string()).collect();
    // Every table is held a byte per entry until the file is written (u4 adds a packed copy).
    eprintln!(
        "building MTM class tables ({}) for {}, goal {}: {} entries, peak memory about {}",
        names.join(", "),
        req.goal.board(),
        req.goal,
        HumanCount(entries),
        bytes(entries + entries / 2)
    );
    create_parent(&a.output)?;
    let start = Instant::now();
    let summaries = build_class_file(&req, &a.output, &BarObserver::new())?;
    let size = std::fs::metadata(&a.output).map(|m| m.len()).unwrap_or(0);
    crate::output::outln!(
        "{:<8} {:>14} {:>4} {:>8} {:>9}",
        "classes",
        "entries",
        "max",
        "mean",
        "seconds"
    );
    for (labels, s) in req.labels.iter().zip(&summaries) {
        crate::output::outln!(
            "{:<8} {:>14} {:>4} {:>8.3} {:>9.2}",
            labels.name(),
            s.entries,
            s.max_value,
            s.mean_value,
            s.seconds
        );
    }
    crate::output::outln!(
        "wrote {} ({}) in {:.2} s",
        a.output.display(),
        bytes(size),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// How the build keeps its state, from the arguments.
fn state_options(a: &BuildArgs) -> StateOptions {
    StateOptions {
        fresh: a.fresh,
        ..StateOptions::default()
    }
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
        ..pdbgen::DistributedOptions::default()
    };
    super::distributed::run(
        req,
        &a.output,
        a.ignore_memory_check,
        state_options(a),
        opts,
    )
}
