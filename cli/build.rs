//! Build script: records the commit the commands are built from, for their `--version`.
//!
//! The commit is `PDBTILES_COMMIT` where the builder sets it (`cargo xtask dist` does, with
//! `-dirty` for a work tree that differs from it), else `git rev-parse HEAD` of the checkout,
//! else `unknown` (a build from a packaged crate, outside git).

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PDBTILES_COMMIT");
    let commit = std::env::var("PDBTILES_COMMIT")
        .ok()
        .filter(|c| !c.trim().is_empty())
        .or_else(|| {
            watch_head();
            git(&["rev-parse", "HEAD"])
        })
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=PDBTILES_COMMIT={}", commit.trim());
}

/// Asks cargo to run this again when the checkout's HEAD (or the branch it names) moves.
fn watch_head() {
    let mut watched = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            let path = PathBuf::from(path);
            let path = if path.is_absolute() {
                path
            } else {
                PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default()).join(path)
            };
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}

/// The trimmed output of `git ARGS` in the package's folder, if it succeeds.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (out.status.success() && !text.is_empty()).then_some(text)
}
