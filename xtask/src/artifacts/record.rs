//! `cargo xtask artifacts record [NAMES…]`: writes the manifest records of the raw files
//! present (all selected ones must be present when names are given).
//!
//! This is how the committed manifest is made and updated. A file is recorded only after it
//! passed every check there is: the standard definition, its checksums and (unless
//! `--no-semantic`) the semantic check of every table, so a digest in the manifest always
//! belongs to a correct table.

use super::verify::semantic_problems;
use super::{check_raw, manifest_path, raw_path};
use crate::manifest::{DbRecord, Manifest};
use anyhow::{bail, Context, Result};
use pdbformat::format::PdbFile;
use pdbformat::standard;
use std::path::Path;
use std::time::Instant;

/// What recording did to one database's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// It had no record.
    New,
    /// Its record is the same as before.
    Unchanged,
    /// Its record changed; what changed.
    Changed(Vec<String>),
}

/// Records the raw files of `names` (all present ones when empty) found in `dir` into
/// `manifest` after checking them. Returns the change to each record.
pub fn record_dir(
    dir: &Path,
    manifest: &mut Manifest,
    names: &[String],
    semantic: bool,
) -> Result<Vec<(&'static str, Change)>> {
    let dbs = standard::select(names)?;
    let mut out = Vec::new();
    for s in dbs {
        let path = raw_path(dir, s);
        if !path.exists() {
            if names.is_empty() {
                continue;
            }
            bail!(
                "{} is not there: build it first (cargo xtask artifacts build {})",
                path.display(),
                s.name
            );
        }
        let start = Instant::now();
        let file = PdbFile::open(&path)?;
        let compressed = "compressed: record the raw file";
        check_raw(&path, file.header(), s, None, compressed, "")?;
        file.verify()
            .with_context(|| format!("checksums of {}", path.display()))?;
        if semantic {
            let p = semantic_problems(&file)
                .with_context(|| format!("semantic check of {}", path.display()))?;
            if !p.is_empty() {
                bail!(
                    "{} fails the semantic check:\n  {}",
                    path.display(),
                    p.join("\n  ")
                );
            }
        }
        let rec = DbRecord::from_header(s.name, file.header())?;
        let change = match manifest.get(s.name) {
            None => Change::New,
            Some(old) if *old == rec => Change::Unchanged,
            Some(old) => Change::Changed(describe_change(old, &rec)),
        };
        println!(
            "{}: checked in {:.1} s; {}",
            s.file_name(),
            start.elapsed().as_secs_f64(),
            match &change {
                Change::New => "new record".to_string(),
                Change::Unchanged => "record unchanged".to_string(),
                Change::Changed(w) => format!("record CHANGED: {}", w.join("; ")),
            }
        );
        manifest.upsert(rec);
        out.push((s.name, change));
    }
    if out.is_empty() {
        bail!(
            "no standard file in {}: build them first (cargo xtask artifacts build)",
            dir.display()
        );
    }
    Ok(out)
}

fn describe_change(old: &DbRecord, new: &DbRecord) -> Vec<String> {
    let mut v = Vec::new();
    if old.tables.len() != new.tables.len() {
        v.push(format!(
            "{} tables, were {}",
            new.tables.len(),
            old.tables.len()
        ));
    }
    for (i, (o, n)) in old.tables.iter().zip(&new.tables).enumerate() {
        if o.raw_sha256 != n.raw_sha256 {
            v.push(format!(
                "table {i} entries SHA-256 {} (was {})",
                n.raw_sha256, o.raw_sha256
            ));
        }
        if o.max_value != n.max_value {
            v.push(format!(
                "table {i} largest value {} (was {})",
                n.max_value, o.max_value
            ));
        }
    }
    if v.is_empty() {
        v.push("parameters".into());
    }
    v
}

/// Runs `cargo xtask artifacts record`.
pub fn run(dir: &Path, names: &[String], semantic: bool) -> Result<bool> {
    let path = manifest_path(dir);
    let mut manifest = Manifest::load_or_empty(&path)?;
    let changes = record_dir(dir, &mut manifest, names, semantic)?;
    let problems = manifest.problems();
    if !problems.is_empty() {
        bail!(
            "the manifest would be unsound, not written:\n  {}",
            problems.join("\n  ")
        );
    }
    manifest.save(&path)?;
    let changed = changes
        .iter()
        .filter(|(_, c)| *c != Change::Unchanged)
        .count();
    println!(
        "wrote {}: {} records, {changed} new or changed",
        path.display(),
        manifest.databases.len()
    );
    Ok(true)
}
