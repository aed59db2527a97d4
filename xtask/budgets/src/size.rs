//! The size budgets: no non-test Rust source file over [`SOURCE_LINES`] lines, and the
//! repository's documents within [`DOCUMENTS`].
//!
//! A *source file* is a tracked `.rs` file under the `src/` folder of a package: of any folder
//! holding a tracked `Cargo.toml`, so the main workspace's crates, `python/` and `fuzz/` alike.
//! Test files are not counted, and a file is a test file when
//!
//! - a folder between the package's `src/` and the file is named `tests`, or the file is named
//!   `tests.rs` (a test module split out of its parent, `#[cfg(test)] mod tests;`);
//! - or its whole content is test code: after its leading comments and blank lines, either an
//!   inner `#![cfg(test)]`, or one `#[cfg(test)]` module (its attributes, a `mod NAME {` line,
//!   only indented lines, comments and blank lines, then the closing `}`), as `rustfmt` lays it
//!   out.
//!
//! A source file with a test module at its end counts whole: move the tests into a file of
//! their own when the file outgrows its budget. Files outside `src/` (integration tests,
//! benchmarks, examples, build scripts, fuzz targets) have no line budget.

use super::{read_text, Offence};
use anyhow::Result;
use std::path::Path;

/// The most lines a non-test source file may have.
pub const SOURCE_LINES: usize = 700;

/// The documents at the repository's root and the most lines each may have.
pub const DOCUMENTS: &[(&str, usize)] = &[("BENCHMARKS.md", 400), ("README.md", 200)];

/// The offences against the size budgets among `files` (tracked, relative to `root`), sorted by
/// path.
pub fn check(root: &Path, files: &[String]) -> Result<Vec<Offence>> {
    let packages = package_dirs(files);
    let mut offences = Vec::new();
    for path in files {
        if let Some(&(_, budget)) = DOCUMENTS.iter().find(|(doc, _)| doc == path) {
            if let Some(text) = read_text(root, path)? {
                let lines = text.lines().count();
                if lines > budget {
                    offences.push(over(path, lines, budget));
                }
            }
        } else if let Some(rel) = in_src(&packages, path) {
            let Some(text) = read_text(root, path)? else {
                continue;
            };
            let lines = text.lines().count();
            if lines > SOURCE_LINES && !is_test_file(rel, &text) {
                offences.push(over(path, lines, SOURCE_LINES));
            }
        }
    }
    offences.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(offences)
}

fn over(path: &str, lines: usize, budget: usize) -> Offence {
    Offence {
        path: path.to_owned(),
        what: format!("{lines} lines (budget {budget})"),
    }
}

/// The folders of the tracked `Cargo.toml` files, each with a trailing `/` (empty for the
/// root).
fn package_dirs(files: &[String]) -> Vec<String> {
    files
        .iter()
        .filter_map(|f| {
            if f == "Cargo.toml" {
                Some(String::new())
            } else {
                f.strip_suffix("/Cargo.toml").map(|d| format!("{d}/"))
            }
        })
        .collect()
}

/// The path of a `.rs` file below its package's `src/` folder, or `None` when `path` is no
/// such file.
fn in_src<'a>(packages: &[String], path: &'a str) -> Option<&'a str> {
    if !path.ends_with(".rs") {
        return None;
    }
    packages
        .iter()
        .find_map(|dir| path.strip_prefix(dir.as_str())?.strip_prefix("src/"))
}

/// Whether a source file is a test file by the rule of this module's documentation; `rel` is
/// its path below `src/`.
pub fn is_test_file(rel: &str, text: &str) -> bool {
    let mut parts: Vec<&str> = rel.split('/').collect();
    let name = parts.pop().unwrap_or_default();
    name == "tests.rs" || parts.contains(&"tests") || is_test_module(text)
}

/// Whether a file's whole content is an inner `#![cfg(test)]` or one `#[cfg(test)]` module.
fn is_test_module(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(str::trim_end)
        .skip_while(|l| l.is_empty() || l.trim_start().starts_with("//"));
    let mut line = lines.next();
    while let Some(l) = line.filter(|l| l.starts_with("#![")) {
        if l.replace(' ', "") == "#![cfg(test)]" {
            return true;
        }
        line = lines.next();
    }
    if line.map(|l| l.replace(' ', "")) != Some("#[cfg(test)]".to_owned()) {
        return false;
    }
    let mut line = lines.next();
    while line.is_some_and(|l| l.starts_with("#[")) {
        line = lines.next();
    }
    let Some(open) = line else {
        return false;
    };
    let head = open
        .strip_prefix("pub(crate) ")
        .or_else(|| open.strip_prefix("pub "))
        .unwrap_or(open);
    if !(head.starts_with("mod ") && head.ends_with('{')) {
        return false;
    }
    let body: Vec<&str> = lines.collect();
    let Some(last) = body.iter().rposition(|l| !l.is_empty()) else {
        return false;
    };
    body[last] == "}"
        && body[..last]
            .iter()
            .all(|l| l.is_empty() || l.starts_with([' ', '\t']) || l.starts_with("//"))
}
