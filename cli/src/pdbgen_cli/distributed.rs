//! `pdbgen build --distributed`: the build across the ranks of an MPI job, rank 0 printing
//! the plan, the progress and the summary for the whole job.

use super::report::{create_parent, duration, print_summaries, report_resume, report_state};
use crate::bars::BarObserver;
use anyhow::{anyhow, Result};
use indicatif::HumanCount;
use mpi::traits::*;
use mpi::Threading;
use pdbformat::units::bytes;
use pdbgen::{
    build_file_distributed, check_rank_memory, plan_distributed, BuildError, BuildObserver,
    BuildRequest, BuildState, DistributedOptions, NoProgress, StateOptions,
};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Runs the distributed build of `req` into `output` on this rank, its state kept as
/// `state_opts` says and its exchanges as `opts` say (`ignore_memory_check`: build even when
/// a rank seems short of memory). Errors every rank meets alike (a bad request, a
/// rank short of memory, a table that does not fit the encoding) are printed by rank 0 and end
/// every rank with a failure; an error on one rank only ends the whole job (`MPI_Abort`), so
/// that no rank waits for it forever and no file appears under the output name.
pub fn run(
    req: BuildRequest,
    output: &Path,
    ignore_memory_check: bool,
    state_opts: StateOptions,
    opts: DistributedOptions,
) -> Result<ExitCode> {
    let (universe, _) = mpi::initialize_with_threading(Threading::Funneled)
        .ok_or_else(|| anyhow!("MPI was already initialised in this process"))?;
    let world = universe.world();
    let (rank, ranks) = (world.rank(), world.size() as usize);
    // An error every rank meets alike: rank 0 says it, and no rank ends before it has (mpirun
    // ends the whole job as soon as one rank exits with a failure, which could cut rank 0 off
    // before its message).
    let fail = |e: BuildError| -> Result<ExitCode> {
        if rank == 0 {
            eprintln!("error: {}", pdbformat::error::describe(&e));
        }
        world.barrier();
        Ok(ExitCode::FAILURE)
    };
    let p = match plan_distributed(&req, ranks, opts) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    let threads = p.build.threads;
    if rank == 0 {
        let total: u64 = p.build.entries.iter().sum();
        eprintln!(
            "building {} {} tables for {}, goal {}, partition {} across {ranks} MPI ranks ({threads} threads each)",
            req.partition.patterns().len(),
            req.kind,
            req.goal.board(),
            req.goal,
            req.partition,
        );
        eprintln!(
            "{} entries ({} as {}), each rank owns 1/{ranks} of every table at {} bits per entry while building: peak memory about {} per rank ({} of it exchange buffers)",
            HumanCount(total),
            bytes(p.build.entries.iter().map(|&e| req.encoding.encoded_len(e)).sum()),
            req.encoding,
            p.build.working_bits,
            bytes(p.build.peak_bytes),
            bytes(p.exchange_bytes),
        );
        eprintln!(
            "rough time: {} of processor time, {} on {} cores",
            duration(p.build.core_seconds),
            duration(p.build.core_seconds / (threads * ranks) as f64),
            threads * ranks
        );
        eprintln!(
            "resumable state: up to about {} of disk per rank beside the output, removed at the end",
            bytes(p.build.state_bytes)
        );
    }
    if let Err(e) = check_rank_memory(&world, &p, ignore_memory_check) {
        if rank == 0 {
            eprintln!("every rank checked its memory before the BFS; pass --ignore-memory-check to build anyway");
        }
        return fail(e);
    }
    if rank == 0 {
        if let Err(e) = create_parent(output) {
            eprintln!("error: {}", pdbformat::error::describe(&*e));
            world.abort(1);
        }
    }
    // Each rank's state beside the output on its own file system: what it refused, then where
    // the ranks agree to resume.
    let mut state = match BuildState::open_rank(&req, output, rank as usize, ranks, state_opts) {
        Ok(s) => s,
        Err(e) => {
            eprintln!(
                "error (rank {rank} of {ranks}): {}; ending the job",
                pdbformat::error::describe(&e)
            );
            world.abort(1)
        }
    };
    report_state(
        &state,
        req.partition.patterns().len(),
        &format!("rank {rank}: "),
    );
    match state.agree(&world) {
        Ok(at) if rank == 0 => {
            let dir = state
                .dir()
                .parent()
                .unwrap_or(state.dir())
                .display()
                .to_string();
            report_resume(at, req.partition.patterns().len(), &dir);
        }
        Ok(_) => {}
        Err(e) => return fail(e),
    }
    let bars;
    let obs: &dyn BuildObserver = if rank == 0 {
        bars = BarObserver::new();
        &bars
    } else {
        &NoProgress
    };
    let start = Instant::now();
    match build_file_distributed(&req, output, &world, opts, Some(&mut state), obs) {
        Ok(tables) => {
            if rank == 0 {
                for (i, t) in tables.iter().enumerate() {
                    let total: u64 = t.exchanged.iter().sum();
                    let (busiest, most) = t
                        .exchanged
                        .iter()
                        .enumerate()
                        .max_by_key(|&(_, b)| *b)
                        .map_or((0, 0), |(l, &b)| (l, b));
                    eprintln!(
                        "table {i}: the ranks exchanged {} over {} levels ({} per entry; at most {} in level {busiest})",
                        bytes(total),
                        t.exchanged.len(),
                        format_args!("{:.2} B", total as f64 / t.summary.entries.max(1) as f64),
                        bytes(most),
                    );
                    eprintln!(
                        "table {i}: seconds per rank waiting for the others {}; in exchanges {}",
                        per_rank(&t.waited),
                        per_rank(&t.exchanging),
                    );
                }
                let summaries: Vec<_> = tables.into_iter().map(|t| t.summary).collect();
                print_summaries(&summaries, output, start);
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) if every_rank_alike(&e) => fail(e),
        Err(e) => {
            // Met on this rank only (a write: only rank 0 writes, and the others are waiting
            // for it; a thread pool that could not start): no other rank will meet it.
            eprintln!(
                "error (rank {rank} of {ranks}): {}; ending the job",
                pdbformat::error::describe(&e)
            );
            world.abort(1)
        }
    }
}

/// Whether every rank meets `e` alike, at the same point of the build: the request's checks and
/// the checks of a finished table against the encoding (each rank has the whole table's
/// summary), which depend only on the request ([`BuildError::same_every_time`]), and a rank
/// short of memory, which every rank learns of before the BFS.
fn every_rank_alike(e: &BuildError) -> bool {
    e.same_every_time() || matches!(e, BuildError::RankMemory { .. })
}

/// Seconds per rank, in rank order (the least and the most, with their ranks, beyond 8 ranks).
fn per_rank(seconds: &[f64]) -> String {
    if seconds.len() <= 8 {
        let all: Vec<String> = seconds.iter().map(|s| format!("{s:.2}")).collect();
        return all.join(" ");
    }
    let by = |a: &(usize, &f64), b: &(usize, &f64)| a.1.total_cmp(b.1);
    let least = seconds.iter().enumerate().min_by(by);
    let most = seconds.iter().enumerate().max_by(by);
    match (least, most) {
        (Some((l, ls)), Some((m, ms))) => format!("{ls:.2} (rank {l}) to {ms:.2} (rank {m})"),
        _ => String::new(),
    }
}
