//! `cargo xtask artifacts build [NAMES…]`: builds the standard databases into the folder.
//!
//! A file already there is skipped when it is valid (it matches the manifest and its checksums
//! hold, or, for a database the manifest does not record yet, the standard definition); a
//! missing, wrong or damaged file is (re)built, and `--force` rebuilds every selected one. After
//! a build the new file is compared with the manifest: a difference means the generator no
//! longer produces the recorded tables, and is an error. Each board's duplicate-move pruning
//! machine is then written beside its databases the same way ([`super::machine::ensure`]).

use super::verify::{check_file, Status};
use super::{manifest_path, raw_path};
use crate::file_size;
use crate::manifest::{compare_header, Manifest};
use anyhow::{bail, Context, Result};
use pdbformat::format::{Compression, PdbFile};
use pdbformat::standard::{self, StandardDb};
use pdbformat::system::available_memory;
use pdbformat::units;
use pdbgen::{
    build_file, build_standard, plan, BuildObserver, BuildRequest, ClassBuildRequest, NoProgress,
};
use pdbtiles::bars::BarObserver;
use std::path::Path;
use std::time::Instant;

/// Options of `artifacts build`.
#[derive(Clone, Debug, Default)]
pub struct BuildOptions {
    /// Rebuild files that are already valid.
    pub force: bool,
    /// Worker threads (all cores when `None`).
    pub threads: Option<usize>,
    /// Build even when the estimated peak memory exceeds what the system has available.
    pub ignore_memory_check: bool,
    /// No progress bars or per-table lines (tests).
    pub quiet: bool,
}

/// What happened to one database.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The file was there and valid.
    Skipped,
    /// The file was built, in this many seconds.
    Built {
        /// Wall-clock seconds of the build.
        seconds: f64,
    },
}

/// Builds the databases `dbs` into `dir` as needed, and their boards' pruning machines. Returns
/// what happened to each database; fails on the first build error, and after all builds when a
/// built file differs from the manifest.
pub fn build_dir(
    dir: &Path,
    manifest: &Manifest,
    dbs: &[&'static StandardDb],
    opts: &BuildOptions,
) -> Result<Vec<(&'static StandardDb, Outcome)>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut out = Vec::new();
    let mut differ = Vec::new();
    for &s in dbs {
        let path = raw_path(dir, s);
        let rec = manifest.get(s.name);
        if !opts.force {
            match check_file(&path, s, Compression::None, rec) {
                Status::Ok => {
                    println!("{}: valid, skipped", s.file_name());
                    out.push((s, Outcome::Skipped));
                    continue;
                }
                Status::Unrecorded => {
                    println!(
                        "{}: matches the standard definition (not recorded in the manifest yet), skipped",
                        s.file_name()
                    );
                    out.push((s, Outcome::Skipped));
                    continue;
                }
                Status::Missing => {}
                other => println!("{}: {other}; rebuilding", s.file_name()),
            }
        }
        let seconds = build_one(&path, s, opts)?;
        let file =
            PdbFile::open(&path).with_context(|| format!("cannot read back {}", path.display()))?;
        let size = file_size(&path)?;
        match rec {
            None => println!(
                "{}: built in {seconds:.1} s ({}); not in the manifest yet: check it and run `cargo xtask artifacts record {}`",
                s.file_name(),
                units::bytes(size),
                s.name
            ),
            Some(r) => {
                let diff = compare_header(file.header(), s, Some(r));
                if diff.is_empty() {
                    println!(
                        "{}: built in {seconds:.1} s ({}); matches the manifest",
                        s.file_name(),
                        units::bytes(size)
                    );
                } else {
                    println!(
                        "{}: built in {seconds:.1} s, but it DIFFERS from the manifest: {}",
                        s.file_name(),
                        diff.join("; ")
                    );
                    differ.push(s.name);
                }
            }
        }
        out.push((s, Outcome::Built { seconds }));
    }
    // The boards' pruning machines, which the solver reads beside the databases.
    for board in super::machine::boards(dbs)? {
        super::machine::ensure(dir, board, opts.force, opts.quiet)?;
    }
    if !differ.is_empty() {
        bail!(
            "built tables differ from the manifest ({}): the generator no longer reproduces the recorded databases; if that change is intended, check the new files (pdbgen verify) and run `cargo xtask artifacts record {}`",
            differ.join(", "),
            differ.join(" ")
        );
    }
    Ok(out)
}

/// Builds one file through `pdbgen::build_file`, or a class file through
/// `pdbgen::build_standard` (temporary file renamed into place); returns the seconds it took.
fn build_one(path: &Path, s: &StandardDb, opts: &BuildOptions) -> Result<f64> {
    if s.is_class_file() {
        return build_class_file(path, s, opts);
    }
    let req = BuildRequest::standard(s, opts.threads)?;
    let p = plan(&req)?;
    let total: u64 = p.entries.iter().sum();
    println!(
        "{}: building {} {} tables for {}, goal {}, partition {}: {} entries, peak memory about {}",
        s.file_name(),
        req.partition.patterns().len(),
        s.kind,
        req.goal.board(),
        s.goal,
        req.partition,
        total,
        units::bytes(p.peak_bytes)
    );
    if let Some(avail) = available_memory() {
        if p.peak_bytes > avail && !opts.ignore_memory_check {
            bail!(
                "{} needs about {} of memory but only {} is available; free memory or pass --ignore-memory-check",
                s.name,
                units::bytes(p.peak_bytes),
                units::bytes(avail)
            );
        }
    }
    let start = Instant::now();
    let obs: Box<dyn BuildObserver> = if opts.quiet {
        Box::new(NoProgress)
    } else {
        Box::new(BarObserver::new())
    };
    build_file(&req, path, obs.as_ref()).with_context(|| format!("building {}", s.name))?;
    Ok(start.elapsed().as_secs_f64())
}

/// Builds standard class file `s` (its class tables in its metric, one per labelling) at
/// `path`; returns the seconds it took. Its memory is one byte per entry of the largest table,
/// left to the generator to report.
fn build_class_file(path: &Path, s: &StandardDb, opts: &BuildOptions) -> Result<f64> {
    let req = ClassBuildRequest::standard(s, opts.threads)?;
    let entries = (req.labels.iter())
        .map(|&l| crate::manifest::class_entries(&req.goal, l))
        .collect::<Result<Vec<u64>>>()?;
    println!(
        "{}: building {} class tables ({}) in {} for {}, goal {}: {} entries",
        s.file_name(),
        req.labels.len(),
        s.labellings,
        s.metric,
        req.goal.board(),
        s.goal,
        entries.iter().sum::<u64>()
    );
    let start = Instant::now();
    let obs: Box<dyn BuildObserver> = if opts.quiet {
        Box::new(NoProgress)
    } else {
        Box::new(BarObserver::new())
    };
    build_standard(s, path, opts.threads, obs.as_ref())
        .with_context(|| format!("building {}", s.name))?;
    Ok(start.elapsed().as_secs_f64())
}

/// Runs `cargo xtask artifacts build`.
pub fn run(dir: &Path, names: &[String], opts: &BuildOptions) -> Result<bool> {
    let dbs = standard::select(names)?;
    let mpath = manifest_path(dir);
    let manifest = Manifest::load_or_empty(&mpath)?;
    if !mpath.exists() {
        println!(
            "note: no manifest at {}; files are checked against the standard definitions only",
            mpath.display()
        );
    }
    let problems = manifest.problems();
    if !problems.is_empty() {
        bail!(
            "the manifest {} is unsound:\n  {}",
            mpath.display(),
            problems.join("\n  ")
        );
    }
    let start = Instant::now();
    let done = build_dir(dir, &manifest, &dbs, opts)?;
    let built = done
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Built { .. }))
        .count();
    println!(
        "{built} built, {} skipped, in {:.1} s",
        done.len() - built,
        start.elapsed().as_secs_f64()
    );
    Ok(true)
}
