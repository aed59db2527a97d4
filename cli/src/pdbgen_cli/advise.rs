//! `pdbgen advise`: which partition to build, predicted before building (the library's
//! `pdbgen::advise`), as a table, JSON or a figure; the search's tree sizes from the solver's
//! own duplicate-move machine.

use super::{parse_board, parse_goal, parse_kind, parse_partition};
use crate::solver_cli::flags::{read_as, usage};
use anyhow::Result;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pdbformat::units::{approx_bytes, bytes};
use pdbformat::Board;
use pdbgen::advise::{
    advise, calibrate_ns_per_entry, Advice, AdviseError, AdviseObserver, AdviseRequest, Report,
    TreeSizes,
};
use pdbsolver::prune::FORBIDDEN;
use pdbsolver::Pruning;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

/// Arguments of `pdbgen advise`.
#[derive(Args)]
pub struct AdviseArgs {
    /// Board as WxH (columns x rows), e.g. 4x4, 6x6.
    #[arg(long, default_value = "4x4")]
    board: String,
    /// Goal: blank-first, blank-last or an explicit tile list.
    #[arg(long, default_value = "blank-first")]
    goal: String,
    /// Table kind: zero-aware or zero-unaware.
    #[arg(long, default_value = "zero-aware")]
    kind: String,
    /// A partition to predict, as `pdbgen build --partition` takes it (a preset such as 663,
    /// 555, 78, 6666x7, or patterns such as 1-3/4-7/8-11/12-15); repeat to compare several
    /// (ratios are to the first). Without it, partitions are searched: the tiles in one of four
    /// orders of their goal cells (rows, snaking rows, columns, snaking columns) cut into
    /// consecutive groups of the largest size whose table fits --max-memory and the two sizes
    /// below it (the largest only on boards of more than 25 cells), with one smaller group first
    /// or last, ranked by η on the sample; the best few are printed.
    #[arg(long, short)]
    partition: Vec<String>,
    /// Memory the tables may take as the solver holds them (bit1 for zero-aware tables, u8
    /// otherwise), read as `solver --max-memory` reads sizes (512M, 4G, 1.5GiB). Default: half
    /// this machine's memory.
    #[arg(long, value_name = "SIZE", value_parser = read_as("max-memory", |r| r.max_memory))]
    max_memory: Option<u64>,
    /// Random positions in the sample (default 200 with --partition; for a search 60, or 12 on
    /// boards of more than 25 cells, where each pattern's distances take longest).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    samples: Option<u64>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Partitions a search prints.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    best: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Predict without the reflected lookups (the solver's `--reflect off`).
    #[arg(long)]
    no_reflect: bool,
    /// Print one JSON array of the partitions instead of the table.
    #[arg(long)]
    json: bool,
    /// Draw predicted nodes against bytes into this SVG file, the best marked.
    #[arg(long, value_name = "FILE.svg")]
    plot: Option<PathBuf>,
}

/// Runs `pdbgen advise`.
pub fn run(a: AdviseArgs) -> Result<ExitCode> {
    let board = parse_board(&a.board).map_err(usage)?;
    if !board.fits_pdb() {
        return Err(usage(format!(
            "board {board} has {} cells: pattern databases take boards of at most 64 cells",
            board.cells()
        )));
    }
    let goal = parse_goal(board, &a.goal).map_err(usage)?;
    let kind = parse_kind(&a.kind).map_err(usage)?;
    if let Some(path) = &a.plot {
        crate::plot::check_path(path).map_err(usage)?;
    }
    let mut partitions = Vec::new();
    for spec in &a.partition {
        let p = parse_partition(&goal, spec)?;
        p.check_complete(board)
            .map_err(|e| usage(format!("--partition {spec}: {e}")))?;
        partitions.push(p);
    }
    let max_memory = a
        .max_memory
        .unwrap_or_else(|| pdbformat::system::total_memory().map_or(8 << 30, |m| m / 2));
    let searching = partitions.is_empty();
    let bars = Bars::new(!a.json);
    let threads = a.threads;
    let req = AdviseRequest {
        goal,
        kind,
        partitions,
        max_memory,
        samples: a.samples.unwrap_or(match (searching, board.cells()) {
            (false, _) => 200,
            (true, 0..=25) => 60,
            (true, _) => 12,
        }) as usize,
        seed: a.seed,
        reflect: !a.no_reflect,
        best: a.best as usize,
        threads,
        ns_per_entry: calibrate_ns_per_entry(threads),
    };
    let tree = machine_tree(board);
    let report = advise(&req, &tree, &bars).map_err(|e| match e {
        AdviseError::NoSamples | AdviseError::Partition { .. } => usage(e),
        e => e.into(),
    })?;
    bars.finish();
    if a.json {
        crate::output::outln!("{}", json(&report.advice));
    } else {
        print_table(&req, &report, searching);
    }
    if let Some(path) = &a.plot {
        crate::plot::advice::draw(
            path,
            &format!("{board} partitions: predicted nodes against bytes"),
            &points(&report.advice),
        )?;
        eprintln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Levels of the tree counted through the machine; deeper ones are extrapolated.
const COUNTED_LEVELS: usize = 48;

/// The brute-force tree of the solver's default search on `board`: nodes per depth from every
/// start cell, counted through the states of its duplicate-move machine (which fix the blank's
/// cell) to [`COUNTED_LEVELS`], extrapolated beyond.
fn machine_tree(board: Board) -> impl Fn(usize) -> TreeSizes + Sync {
    move |wanted| {
        let depth = wanted.min(COUNTED_LEVELS);
        let machine = Pruning::BoardDefault.machine(board);
        let states = machine.states() + 1;
        let neighbours: Vec<Vec<usize>> = (0..board.cells())
            .map(|c| board.neighbours(c).map(|(_, n)| n).collect())
            .collect();
        let per_cell = (0..board.cells())
            .map(|start| {
                let mut cell_of = vec![u8::MAX; states];
                let s0 = machine.start(start as u8) as usize;
                cell_of[s0] = start as u8;
                let mut count = vec![0f64; states];
                count[s0] = 1.0;
                let mut sizes = vec![1.0];
                let mut live = vec![s0];
                for _ in 0..depth {
                    let mut next = vec![0f64; states];
                    let mut next_live = Vec::new();
                    for &s in &live {
                        let cell = cell_of[s] as usize;
                        for (slot, &to) in neighbours[cell].iter().enumerate() {
                            let t = machine.step(s as u32, slot);
                            if t == FORBIDDEN {
                                continue;
                            }
                            let t = t as usize;
                            if next[t] == 0.0 {
                                next_live.push(t);
                            }
                            cell_of[t] = to as u8;
                            next[t] += count[s];
                        }
                    }
                    sizes.push(next_live.iter().map(|&s| next[s]).sum());
                    for &s in &live {
                        count[s] = 0.0;
                    }
                    for &s in &next_live {
                        count[s] = next[s];
                    }
                    live = next_live;
                }
                sizes
            })
            .collect();
        TreeSizes::from_counts(per_cell).extended(wanted)
    }
}

/// Progress on standard error, drawn only on a terminal.
struct Bars {
    bar: Mutex<Option<ProgressBar>>,
    draw: bool,
}

impl Bars {
    fn new(wanted: bool) -> Bars {
        Bars {
            bar: Mutex::new(None),
            draw: wanted && std::io::stderr().is_terminal(),
        }
    }

    fn finish(&self) {
        if let Some(b) = self.bar.lock().expect("bar").take() {
            b.finish_and_clear();
        }
    }
}

impl AdviseObserver for Bars {
    fn stage(&self, what: &str, total: u64) {
        if !self.draw {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} {elapsed} (ETA {eta})")
                .expect("template")
                .progress_chars("=> "),
        );
        bar.set_message(what.to_string());
        if let Some(old) = self.bar.lock().expect("bar").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn advanced(&self, steps: u64) {
        if let Some(b) = &*self.bar.lock().expect("bar") {
            b.inc(steps);
        }
    }
}

/// A rough count with three significant figures.
fn nodes(x: Option<f64>) -> String {
    match x {
        Some(x) if x >= 1e6 => format!("{x:.3e}"),
        Some(x) => format!("{x:.1}"),
        None => "-".into(),
    }
}

/// The table of `report` on standard output.
fn print_table(req: &AdviseRequest, report: &Report, searching: bool) {
    use crate::output::outln;
    outln!(
        "{} {}, goal {}: {} random positions (seed {}), {} views, branching factor {:.4}, mean optimal depth {:.2} ({})",
        req.goal.board(),
        req.kind,
        req.goal,
        req.samples,
        req.seed,
        if req.reflect { "reflected" } else { "no reflected" },
        report.branching_factor,
        report.mean_depth,
        if report.exact_depths { "exact" } else { "estimated from the Manhattan distance" }
    );
    if searching {
        outln!(
            "searched {} partitions fitting {}; the best {}:",
            report.evaluated,
            bytes(req.max_memory),
            report.advice.len()
        );
    }
    outln!(
        "{:<40} {:>16} {:>10} {:>6} {:>10} {:>10} {:>8} {:>12} {:>8}",
        "partition",
        "entries",
        "bytes",
        "as",
        "build s",
        "peak",
        "mean h",
        "nodes",
        "ratio"
    );
    for a in &report.advice {
        let s = &a.sizes;
        outln!(
            "{:<40} {:>16.0} {:>10} {:>6} {:>10} {:>10} {:>8} {:>12} {:>8}",
            a.partition.to_string(),
            s.entries,
            approx_bytes(s.raw_bytes),
            s.encoding.to_string(),
            s.build_seconds.map_or("-".into(), |x| format!("{x:.1}")),
            s.build_peak_bytes.map_or("-".into(), bytes),
            a.mean_h.map_or("-".into(), |h| format!("{h:.2}")),
            nodes(a.predicted_nodes),
            a.ratio.map_or("-".into(), |r| format!("{r:.3}"))
        );
        if let Some(why) = &a.too_large {
            outln!("  too large: {why}");
        }
    }
}

/// The JSON array of `advice`.
fn json(advice: &[Advice]) -> serde_json::Value {
    advice
        .iter()
        .map(|a| {
            let s = &a.sizes;
            serde_json::json!({
                "partition": a.partition.to_string(),
                "tables": s.tables,
                "entries": s.entries,
                "raw_bytes": s.raw_bytes,
                "encoding": s.encoding.to_string(),
                "encodings": s.encodings.iter().map(|e| serde_json::json!({
                    "encoding": e.encoding.to_string(),
                    "bytes": e.bytes,
                    "if_values_fit": e.if_values_fit,
                })).collect::<Vec<_>>(),
                "build_seconds": s.build_seconds,
                "build_peak_bytes": s.build_peak_bytes,
                "too_large": a.too_large,
                "mean_h": a.mean_h,
                "eta": a.eta,
                "predicted_nodes": a.predicted_nodes,
                "ratio": a.ratio,
            })
        })
        .collect()
}

/// The figure's points: (label, bytes, nodes) of every predicted partition, best first.
fn points(advice: &[Advice]) -> Vec<crate::plot::advice::Point> {
    let best = advice
        .iter()
        .filter_map(|a| a.predicted_nodes)
        .fold(f64::INFINITY, f64::min);
    advice
        .iter()
        .filter_map(|a| {
            a.predicted_nodes.map(|n| crate::plot::advice::Point {
                label: a.partition.to_string(),
                bytes: a.sizes.raw_bytes,
                nodes: n,
                best: n == best,
            })
        })
        .collect()
}
