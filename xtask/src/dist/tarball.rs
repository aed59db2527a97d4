//! The tarball of the commands: `pdbtiles-VERSION-TARGET/` holding `solver` and `pdbgen`
//! (release build, stripped, each at most [`super::MAX_BINARY_BYTES`]), `README.md`, the
//! licences and `VERSION`, packed by the system's `tar` and `gzip` with fixed owners, order
//! and times (the same tree gives the same bytes).

use super::{check_size, run_tool as run};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;

/// The target the commands are built for.
pub const TARGET: &str = "x86_64-unknown-linux-gnu";

/// The commands of the tarball.
pub const COMMANDS: &[&str] = &["solver", "pdbgen"];

/// The documents of the tarball, from the repository's root.
pub const DOCUMENTS: &[&str] = &["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

/// The name of the tarball's folder (and, with `.tar.gz`, of the tarball).
pub fn folder_name(version: &str) -> String {
    format!("pdbtiles-{version}-{TARGET}")
}

/// Packs the release build's commands (already built under `release`, the target folder's
/// `release/`) and the documents of `root` into `out`; returns the tarball's file name.
pub fn write(
    root: &Path,
    release: &Path,
    out: &Path,
    version: &str,
    commit: &str,
) -> Result<String> {
    let name = folder_name(version);
    let stage_root = tempfile::tempdir().context("cannot create a temporary folder")?;
    let stage = stage_root.path().join(&name);
    std::fs::create_dir(&stage)?;
    let mut versions = String::new();
    for command in COMMANDS {
        let built = release.join(command);
        let copy = stage.join(command);
        std::fs::copy(&built, &copy).with_context(|| format!("cannot copy {}", built.display()))?;
        run(Command::new("strip").arg("--strip-all").arg(&copy), "strip")?;
        let size = check_size(&copy)?;
        println!("dist: {command}: {size} bytes");
        let printed = Command::new(&copy)
            .arg("--version")
            .output()
            .with_context(|| format!("cannot run {command} --version"))?;
        let printed = String::from_utf8_lossy(&printed.stdout);
        if !printed.contains(&format!("(commit {commit})")) {
            bail!("{command} --version printed {printed:?}, not the commit {commit}");
        }
        versions.push_str(printed.trim());
        versions.push('\n');
    }
    versions.push_str(&format!("commit {commit}\ntarget {TARGET}\n"));
    std::fs::write(stage.join("VERSION"), versions)?;
    for doc in DOCUMENTS {
        std::fs::copy(root.join(doc), stage.join(doc))
            .with_context(|| format!("cannot copy {doc}"))?;
    }
    let tar = out.join(format!("{name}.tar"));
    run(
        Command::new("tar")
            .args([
                "--sort=name",
                "--owner=0",
                "--group=0",
                "--numeric-owner",
                "--mtime=@0",
                "--mode=u+rwX,go+rX,go-w",
                "-cf",
            ])
            .arg(&tar)
            .arg("-C")
            .arg(stage_root.path())
            .arg(&name),
        "tar",
    )?;
    run(
        Command::new("gzip").args(["-n", "-9", "-f"]).arg(&tar),
        "gzip",
    )?;
    let file = format!("{name}.tar.gz");
    crate::make_readable(&out.join(&file))?;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documents_are_in_the_repository_and_names_carry_the_target() {
        let root = crate::project_root();
        for doc in DOCUMENTS {
            assert!(root.join(doc).is_file(), "{doc}");
        }
        assert_eq!(
            folder_name("1.2.3"),
            "pdbtiles-1.2.3-x86_64-unknown-linux-gnu"
        );
    }
}
