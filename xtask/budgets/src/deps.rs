//! The dependency budget: the libraries ([`LIBRARIES`]) depend on no command-line or web crate
//! ([`FORBIDDEN`]), since they print nothing, parse no arguments and serve nothing.
//!
//! Every tracked `Cargo.toml` whose `[package]` is named as a library is read; its normal and
//! build dependencies are checked, the target-specific ones (`[target.'cfg(…)'.dependencies]`)
//! and the optional ones (those a feature turns on) included; dev-dependencies are not, since
//! tests may use anything. A dependency is known by its crate's name (`package = "…"` when it
//! is renamed), and it is forbidden when that name is one of [`FORBIDDEN`] or begins with one
//! followed by `-` or `_` (`clap_derive`, `tower-http`, `tokio-util`).

use super::Offence;
use anyhow::{Context, Result};
use std::path::Path;
use toml::{Table, Value};

/// The packages that are libraries.
pub const LIBRARIES: &[&str] = &["pdbformat", "pdbgen", "pdbsolver"];

/// The crates of command lines (arguments, progress bars, error reports, signals) and of web
/// servers and plots, which only the programs may use.
pub const FORBIDDEN: &[&str] = &[
    "clap",
    "indicatif",
    "anyhow",
    "ctrlc",
    "axum",
    "tokio",
    "hyper",
    "tower",
    "plotters",
];

/// The dependency tables that are checked.
const SECTIONS: &[&str] = &["dependencies", "build-dependencies"];

/// The offences against the dependency budget among `files` (tracked, relative to `root`),
/// sorted by path.
pub fn check(root: &Path, files: &[String]) -> Result<Vec<Offence>> {
    let mut offences = Vec::new();
    for path in files {
        if path != "Cargo.toml" && !path.ends_with("/Cargo.toml") {
            continue;
        }
        let text = std::fs::read_to_string(root.join(path))
            .with_context(|| format!("cannot read {path}"))?;
        let manifest: Table = text
            .parse()
            .with_context(|| format!("{path} is not valid TOML"))?;
        let Some(name) = manifest
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
        else {
            continue;
        };
        if !LIBRARIES.contains(&name) {
            continue;
        }
        for (section, crate_name) in dependencies(&manifest) {
            if is_forbidden(&crate_name) {
                offences.push(Offence {
                    path: path.clone(),
                    what: format!(
                        "library {name} depends on {crate_name} ([{section}]), a command-line or web crate"
                    ),
                });
            }
        }
    }
    offences.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(offences)
}

/// Whether a crate is one of [`FORBIDDEN`] or of its family (`clap_derive`, `tokio-util`).
pub fn is_forbidden(crate_name: &str) -> bool {
    FORBIDDEN.iter().any(|f| {
        crate_name
            .strip_prefix(f)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '_']))
    })
}

/// The checked dependencies of a manifest: (the table's name, the crate's name).
fn dependencies(manifest: &Table) -> Vec<(String, String)> {
    let mut tables: Vec<(String, &Table)> = SECTIONS
        .iter()
        .filter_map(|s| Some((s.to_string(), manifest.get(*s)?.as_table()?)))
        .collect();
    if let Some(targets) = manifest.get("target").and_then(Value::as_table) {
        for (cfg, target) in targets {
            for s in SECTIONS {
                if let Some(t) = target.get(*s).and_then(Value::as_table) {
                    tables.push((format!("target.'{cfg}'.{s}"), t));
                }
            }
        }
    }
    tables
        .into_iter()
        .flat_map(|(section, table)| {
            table.iter().map(move |(key, spec)| {
                let crate_name = spec
                    .get("package")
                    .and_then(Value::as_str)
                    .unwrap_or(key)
                    .to_owned();
                (section.clone(), crate_name)
            })
        })
        .collect()
}
