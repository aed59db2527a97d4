//! `cargo xtask dist --out DIR`: the release of the programs, for users without a compiler.
//!
//! The folder holds, beside what `cargo xtask artifacts publish` writes for the databases:
//!
//! - `pdbtiles-VERSION-x86_64-unknown-linux-gnu.tar.gz`: the `solver` and `pdbgen` commands
//!   of a release build, stripped, with the README, the licences and a `VERSION` file (what
//!   their `--version` prints, and the commit they were built from) ([`tarball`]);
//! - the abi3 wheel of the Python package for CPython 3.9 and later, linked through zig for
//!   manylinux2014 (glibc 2.17) and checked by maturin's own manylinux check, and the Python
//!   package's sdist ([`python`]);
//! - `SHA256SUMS` over all of them, which `sha256sum -c SHA256SUMS` accepts.
//!
//! The build uses no target flags (the workspace sets none): the fast paths, POPCNT above
//! all, are chosen at run time (`pdbformat::rank::popcount`), so these binaries run on every
//! x86-64 processor, and as fast as a build for the machine where it has them.

pub mod python;
pub mod tarball;

use crate::artifacts::publish::SUMS_FILE;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The largest a command of the tarball may be, in bytes (15 MB).
pub const MAX_BINARY_BYTES: u64 = 15_000_000;

/// What `cargo xtask dist` makes.
#[derive(Clone, Debug, Default)]
pub struct DistOptions {
    /// Replace the files of a previous release in the folder.
    pub force: bool,
    /// Leave out the Python wheel and sdist (the tarball and `SHA256SUMS` only).
    pub no_python: bool,
    /// The maturin to run (default: `maturin` on the PATH, else one installed by pip into
    /// `dist-tools/` of the target folder).
    pub maturin: Option<PathBuf>,
}

/// The files of a release, by name in its folder.
#[derive(Clone, Debug)]
pub struct Release {
    /// The tarball of the commands.
    pub tarball: String,
    /// The wheel and the sdist (none with `no_python`).
    pub python: Vec<String>,
    /// The manylinux tag the wheel meets (from its name).
    pub manylinux: Option<String>,
}

/// Makes the release in `out` from the workspace at `root`; prints what it makes.
pub fn run(root: &Path, out: &Path, opts: &DistOptions) -> Result<Release> {
    prepare_out(out, opts.force)?;
    let version = crate_version(root)?;
    let commit = commit(root);
    println!("dist: pdbtiles {version} at {commit}: cargo build --release --locked");
    cargo_build(root, &commit)?;
    let release = crate::target_dir(root)?.join("release");
    let tarball = tarball::write(root, &release, out, &version, &commit)?;
    println!("dist: {tarball}");
    let (python, manylinux) = if opts.no_python {
        (Vec::new(), None)
    } else {
        let maturin = python::maturin(root, opts.maturin.as_deref())?;
        let wheel = python::wheel(root, out, &maturin)?;
        let tag = python::manylinux_tag(&wheel);
        println!(
            "dist: {wheel} (manylinux: {})",
            tag.as_deref().unwrap_or("none")
        );
        let sdist = python::sdist(root, out, &maturin)?;
        println!("dist: {sdist}");
        (vec![wheel, sdist], tag)
    };
    let mut files = vec![tarball.clone()];
    files.extend(python.iter().cloned());
    write_sums(out, &files)?;
    println!(
        "dist: {SUMS_FILE} over {} files in {}",
        files.len(),
        out.display()
    );
    Ok(Release {
        tarball,
        python,
        manylinux,
    })
}

/// The package version of the commands (the `pdbtiles` crate's, the workspace's).
pub fn crate_version(root: &Path) -> Result<String> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let doc: toml::Table = text
        .parse()
        .with_context(|| format!("{} is not TOML", path.display()))?;
    doc.get("workspace")
        .and_then(|w| w.get("package"))
        .and_then(|p| p.get("version"))
        .and_then(|v| v.as_str())
        .map(str::to_owned)
        .with_context(|| format!("{} has no workspace.package.version", path.display()))
}

/// The commit of the work tree (`git rev-parse HEAD`, `-dirty` where tracked files differ
/// from it), or `unknown` outside git.
pub fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(head) if !head.is_empty() => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{head}-dirty")
            } else {
                head
            }
        }
        _ => "unknown".into(),
    }
}

/// `cargo build --release --locked -p pdbtiles --bins` in `root`, with the build script's
/// `PDBTILES_COMMIT` set to `commit`, so that `--version` names it exactly.
fn cargo_build(root: &Path, commit: &str) -> Result<()> {
    run_tool(
        without_package_env(&mut Command::new(crate::cargo()))
            .env("PDBTILES_COMMIT", commit)
            .args(["build", "--release", "--locked", "-p", "pdbtiles", "--bins"])
            .current_dir(root),
        "cargo build --release",
    )
}

/// `command` without the variables `cargo run` sets for this task (`CARGO_PKG_*`,
/// `CARGO_MANIFEST_DIR`, …): build scripts that watch them (ring's) would otherwise see them
/// change and rebuild what a plain `cargo build` built.
pub fn without_package_env(command: &mut Command) -> &mut Command {
    const SET_BY_RUN: &[&str] = &[
        "CARGO_MANIFEST_DIR",
        "CARGO_MANIFEST_PATH",
        "CARGO_MANIFEST_LINKS",
        "CARGO_CRATE_NAME",
        "CARGO_BIN_NAME",
        "CARGO_PRIMARY_PACKAGE",
    ];
    for (name, _) in std::env::vars_os() {
        let Some(name) = name.to_str() else { continue };
        if name.starts_with("CARGO_PKG_") || SET_BY_RUN.contains(&name) {
            command.env_remove(name);
        }
    }
    command
}

/// Creates `out`, which must hold no release yet unless `force` (then its files go).
fn prepare_out(out: &Path, force: bool) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let entries: Vec<PathBuf> = std::fs::read_dir(out)
        .with_context(|| format!("cannot read {}", out.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    if !entries.is_empty() && !force {
        bail!(
            "{} is not empty: give an empty folder, or --force to replace its files",
            out.display()
        );
    }
    for path in entries.iter().filter(|p| p.is_file()) {
        std::fs::remove_file(path).with_context(|| format!("cannot remove {}", path.display()))?;
    }
    Ok(())
}

/// Writes `SHA256SUMS` in `out`: one `<hex digest>  <name>` line per file of `files`, sorted.
pub fn write_sums(out: &Path, files: &[String]) -> Result<()> {
    let mut names = files.to_vec();
    names.sort();
    let mut text = String::new();
    for name in &names {
        let digest = crate::file_sha256(&out.join(name))?;
        text.push_str(&format!("{digest}  {name}\n"));
    }
    let path = out.join(SUMS_FILE);
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    crate::make_readable(&path)
}

/// Runs `command`, failing with `what`'s name when it cannot start or fails.
fn run_tool(command: &mut Command, what: &str) -> Result<()> {
    let status = command
        .status()
        .with_context(|| format!("cannot run {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// Fails when the file at `path` is over [`MAX_BINARY_BYTES`].
pub fn check_size(path: &Path) -> Result<u64> {
    let size = crate::file_size(path)?;
    if size > MAX_BINARY_BYTES {
        bail!(
            "{} is {size} bytes, over the {MAX_BINARY_BYTES} a released command may have",
            path.display()
        );
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_what_sha256sum_checks_and_the_folder_must_be_empty() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.tar.gz"), b"abc").unwrap();
        std::fs::write(dir.path().join("a.whl"), b"").unwrap();
        write_sums(dir.path(), &["b.tar.gz".into(), "a.whl".into()]).unwrap();
        let sums = std::fs::read_to_string(dir.path().join(SUMS_FILE)).unwrap();
        assert_eq!(
            sums,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.whl\n\
             ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  b.tar.gz\n"
        );
        assert!(prepare_out(dir.path(), false).is_err());
        prepare_out(dir.path(), true).unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn version_commit_and_size_limit() {
        let root = crate::project_root();
        let version = crate_version(&root).unwrap();
        assert_eq!(version.split('.').count(), 3, "{version}");
        assert!(!commit(&root).is_empty());
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        std::fs::write(&small, vec![0u8; 1000]).unwrap();
        assert_eq!(check_size(&small).unwrap(), 1000);
        let big = std::fs::File::create(dir.path().join("big")).unwrap();
        big.set_len(MAX_BINARY_BYTES + 1).unwrap();
        assert!(check_size(&dir.path().join("big")).is_err());
    }
}
