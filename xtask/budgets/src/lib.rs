//! The budgets: the limits that CI enforces on the repository's files (`cargo budgets`, and
//! `cargo xtask ci --budgets`), each offender named on a line of its own.
//!
//! The budgets, one module each: [`size`] (lines of a non-test source file, of `README.md` and
//! of `BENCHMARKS.md`), [`deps`] (the libraries depend on no command-line or web crate),
//! [`circles`] (no import circle between the files of a crate) and [`words`] (no tracked file
//! names an issue number or a folder of a particular machine). They
//! read only the files that git tracks (`git ls-files`), so what is checked is what a clone
//! gets, and take the repository's root as an argument, so the tests run them on small
//! repositories of their own.

pub mod circles;
pub mod deps;
pub mod size;
pub mod words;

use anyhow::{bail, Context, Result};
use std::fmt;
use std::path::Path;
use std::process::Command;

/// A file that breaks a budget: which file, and what it breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offence {
    /// The file, relative to the repository's root, with `/` between folders (followed by
    /// `:LINE` where the budget is about one line).
    pub path: String,
    /// What the file breaks, such as `805 lines (budget 700)`.
    pub what: String,
}

impl fmt::Display for Offence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.what)
    }
}

/// The files that git tracks in the repository at `root`, relative to it (`git ls-files`),
/// less those deleted from the working tree and submodules: only files that can be read.
pub fn tracked_files(root: &Path) -> Result<Vec<String>> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .with_context(|| format!("cannot run `git ls-files` in {}", root.display()))?;
    if !out.status.success() {
        bail!(
            "`git ls-files` failed in {}: {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let list = String::from_utf8(out.stdout).context("`git ls-files` printed a non-UTF-8 path")?;
    Ok(list
        .split('\0')
        .filter(|p| !p.is_empty() && root.join(p).is_file())
        .map(str::to_owned)
        .collect())
}

/// Every offence against the budgets in the repository at `root`, in the order of
/// [`size`], [`deps`], [`circles`], [`words`], each sorted by path.
pub fn check(root: &Path) -> Result<Vec<Offence>> {
    let files = tracked_files(root)?;
    let mut offences = size::check(root, &files)?;
    offences.extend(deps::check(root, &files)?);
    offences.extend(circles::check(root, &files)?);
    offences.extend(words::check(root, &files)?);
    Ok(offences)
}

/// Checks the budgets of the repository at `root`, printing each offence on a line of its own;
/// `Ok(false)` when there is any.
pub fn run(root: &Path) -> Result<bool> {
    let offences = check(root)?;
    for o in &offences {
        println!("{o}");
    }
    if offences.is_empty() {
        println!("budgets: every budget is kept");
        Ok(true)
    } else {
        eprintln!("budgets: {} offence(s)", offences.len());
        Ok(false)
    }
}

/// A tracked file's text, or `None` for a binary file (a NUL byte, or not UTF-8).
pub(crate) fn read_text(root: &Path, path: &str) -> Result<Option<String>> {
    let bytes = std::fs::read(root.join(path)).with_context(|| format!("cannot read {path}"))?;
    if bytes.contains(&0) {
        return Ok(None);
    }
    Ok(String::from_utf8(bytes).ok())
}
