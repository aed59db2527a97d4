//! Maintainers' tasks for the PDB toolchain, run as `cargo xtask …` (see `cargo xtask --help`).
//!
//! One module per task: [`artifacts`] (build, verify, record, compress and publish the
//! standard databases of [`pdbformat::standard`] against the committed [`manifest`]), [`bench`](mod@bench) (the figures of
//! `BENCHMARKS.md`, with [`bench::memory_section`]'s lookup costs, and `cargo xtask vs-pdbsearch`,
//! [`bench::pdbsearch`]), [`ci`] (what CI runs), [`dist`] (the release of the programs: tarball, wheel, sdist) and [`budgets`] (the limits CI enforces on the
//! repository's files, `cargo xtask ci --budgets`). Every task takes its folders as arguments, so
//! the tests run them on temporary folders instead of the real `artifacts/`.

pub mod artifacts;
pub mod bench;
pub mod ci;
pub mod dist;
pub mod manifest;

/// The budgets CI enforces (the `xtask-budgets` package, `cargo budgets`).
pub use xtask_budgets as budgets;

use anyhow::{Context, Result};
use pdbformat::format::Digest;
use sha2::Digest as _;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The workspace root (the parent of this crate's folder).
pub fn project_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    dir.parent().unwrap_or(dir).to_path_buf()
}

/// The cargo that runs this task (`$CARGO`, set by `cargo run`), or `cargo` from the path.
pub fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The target folder of the workspace at `root`, as cargo itself finds it (`cargo metadata`'s
/// `target_directory`: `CARGO_TARGET_DIR`, `build.target-dir` of a config file, or `target/`
/// beside the workspace). Every task finds build outputs through it.
pub fn target_dir(root: &Path) -> Result<PathBuf> {
    target_dir_with(root, &[])
}

/// [`target_dir`] with `env` set for the `cargo metadata` it runs (what a test sets instead
/// of this process's environment, which every test thread shares).
pub fn target_dir_with(root: &Path, env: &[(&str, &std::ffi::OsStr)]) -> Result<PathBuf> {
    let out = std::process::Command::new(cargo())
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .envs(env.iter().copied())
        .current_dir(root)
        .output()
        .context("cannot run `cargo metadata`")?;
    if !out.status.success() {
        anyhow::bail!(
            "`cargo metadata` failed in {}: {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).context("`cargo metadata` printed no JSON")?;
    let dir = meta["target_directory"]
        .as_str()
        .context("`cargo metadata` names no target_directory")?;
    Ok(PathBuf::from(dir))
}

/// The SHA-256 of a whole file, read in 1 MiB chunks.
pub fn file_sha256(path: &Path) -> Result<Digest> {
    let mut f =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut h = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f
            .read(&mut buf)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(Digest::from_hasher(h))
}

/// Makes a file readable by everyone (`rw-r--r--` on Unix): files written through temporary
/// files are created private, which does not suit a committed manifest or a release.
pub fn make_readable(path: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))
            .with_context(|| format!("cannot set the permissions of {}", path.display()))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// The size of a file in bytes.
pub fn file_size(path: &Path) -> Result<u64> {
    Ok(std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_and_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        std::fs::write(&p, b"abc").unwrap();
        assert_eq!(file_sha256(&p).unwrap(), Digest::of(b"abc"));
        assert!(file_sha256(&dir.path().join("none")).is_err());
        assert!(project_root().join("Cargo.toml").exists());
    }
}
