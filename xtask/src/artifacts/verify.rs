//! `cargo xtask artifacts verify`: every file present against the manifest.
//!
//! For each standard database the raw `<name>.pdb` and any compressed variant beside it are
//! opened (header checks), compared with the standard definition and the manifest (parameters,
//! entry counts, largest values, entry digests) and their checksums verified
//! ([`pdbformat::format::PdbFile::verify`]). With `--semantic` the tables' values are also
//! checked without rebuilding, bit1 tables included ([`pdbgen::verify_tables`]).

use super::{manifest_path, raw_path, variant_path};
use crate::manifest::{compare_header, DbRecord, Manifest};
use anyhow::Result;
use pdbformat::format::{Compression, PdbFile};
use pdbformat::standard::{self, StandardDb};
use pdbgen::{verify_tables, NoProgress, VerifyDepth};
use std::fmt;
use std::path::Path;

/// The outcome of checking one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// It matches the manifest and its checksums hold.
    Ok,
    /// There is no such file.
    Missing,
    /// It matches the standard definition and its checksums hold, but the manifest has no
    /// record to compare its digests with.
    Unrecorded,
    /// It opens and its checksums may hold, but it is not what the manifest records (other
    /// parameters, other entries).
    Wrong(Vec<String>),
    /// It is damaged: it does not open, or a checksum fails (flipped byte, truncated file).
    Corrupt(String),
}

impl Status {
    /// `OK`, `MISSING`, `UNRECORDED`, `WRONG` or `CORRUPT`.
    pub fn label(&self) -> &'static str {
        match self {
            Status::Ok => "OK",
            Status::Missing => "MISSING",
            Status::Unrecorded => "UNRECORDED",
            Status::Wrong(_) => "WRONG",
            Status::Corrupt(_) => "CORRUPT",
        }
    }

    /// Whether a file with this status is present and can be trusted as far as checked.
    pub fn is_ok(&self) -> bool {
        matches!(self, Status::Ok)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Wrong(why) => write!(f, "WRONG: {}", why.join("; ")),
            Status::Corrupt(why) => write!(f, "CORRUPT: {why}"),
            s => f.write_str(s.label()),
        }
    }
}

/// The check of one file.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The standard database.
    pub db: &'static StandardDb,
    /// The file name inside the folder.
    pub file: String,
    /// How it is stored (as its name says).
    pub compression: Compression,
    /// What the check found.
    pub status: Status,
}

/// Checks the file at `path`, which should hold standard database `s` stored with
/// `compression`, against `rec` (its manifest record; `None` checks parameters and checksums
/// only and yields [`Status::Unrecorded`] at best). Cheap checks come first: a file with wrong
/// parameters is not read in full.
pub fn check_file(
    path: &Path,
    s: &StandardDb,
    compression: Compression,
    rec: Option<&DbRecord>,
) -> Status {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Status::Missing,
        Err(e) => return Status::Corrupt(format!("cannot read it: {e}")),
        Ok(_) => {}
    }
    let file = match PdbFile::open(path) {
        Ok(f) => f,
        Err(e) => return Status::Corrupt(e.to_string()),
    };
    let mut wrong = compare_header(file.header(), s, rec);
    if let Some(t) = file
        .header()
        .tables
        .iter()
        .find(|t| t.compression.in_file_names() != compression)
    {
        wrong.push(format!(
            "stored with compression {}, its name says {compression}",
            t.compression
        ));
    }
    if !wrong.is_empty() {
        return Status::Wrong(wrong);
    }
    if let Err(e) = file.verify() {
        return Status::Corrupt(e.to_string());
    }
    match rec {
        Some(_) => Status::Ok,
        None => Status::Unrecorded,
    }
}

/// The semantic check of every table of an opened file, through
/// [`pdbgen::verify_tables`] (what `pdbgen verify` does: checksums, then the values;
/// bit1 tables through their restored values): one line per problem, empty when the values
/// are the exact abstract distances.
pub fn semantic_problems(file: &PdbFile) -> Result<Vec<String>> {
    let tables = verify_tables(file, VerifyDepth::Semantic, &NoProgress)?;
    Ok(tables
        .iter()
        .flat_map(|t| {
            t.problems
                .iter()
                .map(move |p| format!("table {} [{}]: {p}", t.table, t.pattern))
        })
        .collect())
}

/// Checks every file of `dbs` present in `dir` against `manifest`: the raw file (reported
/// [`Status::Missing`] when absent) and each compressed variant that exists. With `semantic`,
/// files that pass are also checked semantically (a failure makes them [`Status::Wrong`]).
pub fn verify_dir(
    dir: &Path,
    manifest: &Manifest,
    dbs: &[&'static StandardDb],
    semantic: bool,
) -> Vec<FileReport> {
    let mut out = Vec::new();
    for &s in dbs {
        let rec = manifest.get(s.name);
        for c in [Compression::None, Compression::Zstd, Compression::Gzip] {
            let path = if c == Compression::None {
                raw_path(dir, s)
            } else {
                variant_path(dir, s, c)
            };
            if c != Compression::None && !path.exists() {
                continue;
            }
            let mut status = check_file(&path, s, c, rec);
            if semantic && matches!(status, Status::Ok | Status::Unrecorded) {
                match PdbFile::open(&path)
                    .map_err(anyhow::Error::from)
                    .and_then(|f| semantic_problems(&f))
                {
                    Ok(p) if p.is_empty() => {}
                    Ok(p) => status = Status::Wrong(p),
                    Err(e) => status = Status::Corrupt(pdbformat::error::describe(&*e)),
                }
            }
            out.push(FileReport {
                db: s,
                file: standard::variant_file_name(s, c),
                compression: c,
                status,
            });
        }
    }
    out
}

/// `*.pdb` files in `dir` that are not standard names (reported, not checked).
pub fn foreign_files(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<String> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".pdb") && standard::parse_file_name(n).is_none())
        .collect();
    v.sort();
    v
}

/// Runs `cargo xtask artifacts verify`: prints one line per file and a summary. Returns
/// `Ok(false)` when the manifest is unsound, or a present file is wrong, corrupt or not
/// recorded, or a board's pruning machine is damaged, or (with `require_all`) a raw file is
/// missing.
pub fn run(dir: &Path, names: &[String], require_all: bool, semantic: bool) -> Result<bool> {
    let dbs = standard::select(names)?;
    let manifest = Manifest::load(&manifest_path(dir))?;
    let mut ok = true;
    for p in manifest.problems() {
        println!("manifest: {p}");
        ok = false;
    }
    let reports = verify_dir(dir, &manifest, &dbs, semantic);
    let width = reports.iter().map(|r| r.file.len()).max().unwrap_or(0);
    let mut count = [0usize; 5];
    for r in &reports {
        let i = match r.status {
            Status::Ok => 0,
            Status::Missing => 1,
            Status::Unrecorded => 2,
            Status::Wrong(_) => 3,
            Status::Corrupt(_) => 4,
        };
        count[i] += 1;
        let hint = match &r.status {
            Status::Missing => format!(" (cargo xtask artifacts build {})", r.db.name),
            Status::Unrecorded => " (no manifest record: cargo xtask artifacts record)".into(),
            _ => String::new(),
        };
        println!("{:<width$}  {}{hint}", r.file, r.status);
    }
    for f in foreign_files(dir) {
        println!("{f:<width$}  not a standard file, not checked");
    }
    // The boards' pruning machines: a damaged one fails, a missing one is only reported (the
    // solver builds and caches it on first use).
    for board in super::machine::boards(&dbs)? {
        let Some((depth, path)) = super::machine::file_for(dir, board) else {
            continue;
        };
        let name = pdbsolver::prune::cache::file_name(board, depth);
        match super::machine::check(&path, board, depth) {
            Ok(m) => println!("{name:<width$}  OK ({} states)", m.states()),
            Err(_) if !path.exists() => println!(
                "{name:<width$}  missing: the solver builds it on first use (cargo xtask artifacts build writes it)"
            ),
            Err(why) => {
                println!("{name:<width$}  CORRUPT: {why}");
                ok = false;
            }
        }
    }
    println!(
        "{} files checked: {} ok, {} wrong, {} corrupt, {} unrecorded; {} missing",
        reports.len() - count[1],
        count[0],
        count[3],
        count[4],
        count[2],
        count[1]
    );
    ok &= count[2] + count[3] + count[4] == 0;
    if require_all && count[1] > 0 {
        ok = false;
    }
    Ok(ok)
}
