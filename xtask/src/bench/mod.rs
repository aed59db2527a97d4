//! `cargo xtask bench`: generator, solver and memory benchmarks, each written into a file of
//! the figures folder (`docs/figures/`, [`figures`]) that `BENCHMARKS.md` links.
//!
//! The release binaries of `pdbgen` and `solver` are built first and run as child processes,
//! so each figure has its own process: wall-clock seconds and peak resident memory (through
//! `/usr/bin/time` when it exists, else by polling the child's `VmHWM` in `/proc`). The
//! generator section builds every standard database into a temporary folder and reports, for
//! each build, entries per second and peak resident bytes per entry; the solver section
//! runs `solver bench` on Korf's 100 instances with each 4×4 database; the memory section
//! ([`memory_section`]) times random lookups in table-sized buffers. Each section's table is
//! written, with the machine it ran on, as a whole file of its own: `generator.md`,
//! `solver.md`, `memory.md`.

pub mod figures;
mod generator_section;
mod host;
mod measure;
pub mod memory_section;
pub mod pdbsearch;
mod solver_section;

pub use host::{load_average, machine_line, utc_date};
pub use measure::{measure, Measured};
pub use solver_section::{parse_solver_output, SolverFigures};

use crate::manifest::Manifest;
use anyhow::{bail, Context, Result};
use generator_section::generator_section;
use pdbformat::standard;
use solver_section::solver_section;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Options of `cargo xtask bench`.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Leave out the 7-8 databases (minutes and gigabytes each).
    pub quick: bool,
    /// Run the generator section.
    pub generator: bool,
    /// Run the solver section.
    pub solver: bool,
    /// Run the memory section ([`memory_section`]).
    pub memory: bool,
    /// Only the first N benchmark instances.
    pub first: Option<usize>,
    /// Generator threads (all cores when `None`).
    pub threads: Option<usize>,
    /// The figures folder the sections are written into ([`figures::default_dir`]).
    pub figures: PathBuf,
    /// Where the solver section finds databases when the generator section did not run.
    pub artifacts: PathBuf,
    /// The benchmark instances.
    pub instances: PathBuf,
}

/// Paths of the release binaries of `pdbgen` and `solver`.
fn binaries(root: &Path) -> Result<(PathBuf, PathBuf)> {
    let release = crate::target_dir(root)?.join("release");
    let exe = std::env::consts::EXE_SUFFIX;
    Ok((
        release.join(format!("pdbgen{exe}")),
        release.join(format!("solver{exe}")),
    ))
}

/// Builds the release binaries of the command-line crate and returns the paths of `pdbgen`
/// and `solver`.
fn build_release(root: &Path) -> Result<(PathBuf, PathBuf)> {
    let cmd = ["build", "--release", "-p", "pdbtiles"];
    println!("$ cargo {}", cmd.join(" "));
    let status = Command::new(crate::cargo())
        .args(cmd)
        .current_dir(root)
        .status()
        .context("cannot run cargo")?;
    if !status.success() {
        bail!("building the release binaries failed ({status})");
    }
    binaries(root)
}

/// Runs `cargo xtask vs-pdbsearch` in the workspace `root`: builds the release solver, pairs
/// it with their `pdbsearch` ([`pdbsearch::run`]) and prints the table.
pub fn vs_pdbsearch(root: &Path, opts: &pdbsearch::PairOptions) -> Result<bool> {
    pdbsearch::check_paths(opts)?;
    let (_, solver) = build_release(root)?;
    let table = pdbsearch::run(root, &solver, opts)?;
    println!("\n{table}");
    Ok(true)
}

/// Runs `cargo xtask bench` in the workspace `root`.
pub fn run(root: &Path, names: &[String], opts: &BenchOptions) -> Result<bool> {
    let mut dbs = standard::select(names)?;
    if opts.quick {
        dbs.retain(|s| !s.large);
    }
    // The sections time pattern files (`pdbgen build --partition`, single-tile solves); class
    // files of the multi-tile metric are not among them.
    dbs.retain(|s| !s.is_class_file());
    if !opts.generator && !opts.solver && !opts.memory {
        bail!("nothing to do: every section is switched off");
    }
    let write = |name: &str, title: &str, flag: &str, table: &str| -> Result<()> {
        let command = format!("cargo xtask bench {flag}");
        let path = figures::write(&opts.figures, name, title, command.trim_end(), table)?;
        println!("wrote {}", path.display());
        Ok(())
    };
    if opts.memory {
        let machine = machine_line(root, load_average().as_deref());
        let table = memory_section::section(&machine, pdbformat::system::available_memory())?;
        println!("\n{table}");
        write(
            "memory",
            "Memory: one random table lookup",
            "--memory-only",
            &table,
        )?;
    }
    if !opts.generator && !opts.solver {
        return Ok(true);
    }
    let (pdbgen, solver) = build_release(root)?;
    let manifest = Manifest::load_or_empty(&crate::artifacts::manifest_path(&opts.artifacts))?;
    let target = pdbgen
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| root.to_path_buf());
    let work = tempfile::Builder::new()
        .prefix("xtask-bench-")
        .tempdir_in(&target)
        .context("cannot create a temporary folder")?;
    let mut ok = true;
    if opts.generator {
        let (table, good) =
            generator_section(root, &pdbgen, &dbs, &manifest, work.path(), opts.threads)?;
        ok &= good;
        println!("\n{table}");
        write(
            "generator",
            "Generator: every standard database",
            "--generator-only",
            &table,
        )?;
    }
    if opts.solver {
        let mut with_db = Vec::new();
        for &s in dbs.iter().filter(|s| s.width == 4 && s.height == 4) {
            let built = work.path().join(s.file_name());
            let path = if opts.generator {
                built
            } else {
                crate::artifacts::raw_path(&opts.artifacts, s)
            };
            if path.exists() {
                with_db.push((s, path));
            } else {
                println!(
                    "bench: {} is not there, left out of the solver section (cargo xtask artifacts build {})",
                    path.display(),
                    s.name
                );
            }
        }
        if with_db.is_empty() {
            bail!("no 4x4 database to run the solver with");
        }
        let (table, good) = solver_section(root, &solver, &with_db, &opts.instances, opts.first)?;
        ok &= good;
        println!("\n{table}");
        write(
            "solver",
            "Solver: Korf's 100 with every 4x4 database",
            "--solver-only",
            &table,
        )?;
    }
    Ok(ok)
}
