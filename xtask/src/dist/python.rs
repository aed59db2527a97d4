//! The Python package's release files, made by maturin from `python/`: the abi3 wheel for
//! CPython 3.9 and later (`maturin build --release`: maturin's own manylinux check picks the
//! oldest manylinux tag the extension's symbols allow and fails on anything a manylinux
//! system lacks), and the sdist (`maturin sdist`, which carries the path dependencies, so
//! that pip builds it elsewhere).

use super::run_tool as run;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The maturin versions the release is made with (those of `python/pyproject.toml`).
pub const MATURIN: &str = "maturin>=1.9,<2";

/// The package installed beside maturin: zig, through which maturin links the extension
/// against glibc 2.17 (`--zig --compatibility manylinux2014`), so that the wheel installs on
/// every distribution manylinux2014 covers (without it the wheel needs the build machine's
/// glibc: manylinux_2_34 on Debian 12).
pub const ZIG: &str = "ziglang";

/// The folder of the tools `cargo xtask dist` installs for itself, in the target folder.
pub const TOOLS_DIR: &str = "dist-tools";

/// The maturin to run: `given`, else `maturin` on the PATH, else one installed by pip into a
/// virtual environment under [`TOOLS_DIR`] (made once, then reused).
pub fn maturin(root: &Path, given: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = given {
        return Ok(path.to_path_buf());
    }
    let on_path = Command::new("maturin").arg("--version").output();
    if on_path.is_ok_and(|o| o.status.success()) {
        return Ok("maturin".into());
    }
    let venv = crate::target_dir(root)?.join(TOOLS_DIR).join("venv");
    let installed = venv.join("bin/maturin");
    if !installed.exists() {
        println!("dist: installing {MATURIN} into {}", venv.display());
        run(
            Command::new("python3").args(["-m", "venv"]).arg(&venv),
            "python3 -m venv",
        )?;
        run(
            Command::new(venv.join("bin/python"))
                .args(["-m", "pip", "install", "--quiet", MATURIN]),
            "pip install maturin",
        )?;
    }
    if zig_python(&installed).is_none() {
        println!("dist: installing {ZIG} into {}", venv.display());
        run(
            Command::new(venv.join("bin/python")).args(["-m", "pip", "install", "--quiet", ZIG]),
            "pip install ziglang",
        )?;
    }
    Ok(installed)
}

/// The folder of a Python beside `maturin` that has zig (`python -m ziglang`), which maturin
/// then finds on the PATH; `None` where there is none.
fn zig_python(maturin: &Path) -> Option<PathBuf> {
    let dir = maturin.parent().filter(|d| d.join("python").exists())?;
    let ok = Command::new(dir.join("python"))
        .args(["-m", "ziglang", "version"])
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| dir.to_path_buf())
}

/// Builds the wheel into `out`; returns its file name. Linked through zig for manylinux2014
/// where `maturin` has zig beside it ([`ZIG`]), else against this machine's glibc.
pub fn wheel(root: &Path, out: &Path, maturin: &Path) -> Result<String> {
    let before = listing(out)?;
    let mut command = Command::new(maturin);
    super::without_package_env(&mut command)
        .args(["build", "--release", "--locked", "--strip"])
        .args(["--manifest-path", "python/Cargo.toml", "--out"])
        .arg(out)
        .current_dir(root);
    match zig_python(maturin) {
        Some(dir) => {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut dirs = vec![dir];
            dirs.extend(std::env::split_paths(&path));
            command
                .args(["--zig", "--compatibility", "manylinux2014"])
                .env("PATH", std::env::join_paths(dirs)?);
        }
        None => println!(
            "dist: no zig beside {}: the wheel needs this machine's glibc",
            maturin.display()
        ),
    }
    run(&mut command, "maturin build")?;
    one_new(out, &before, ".whl")
}

/// Makes the sdist into `out`; returns its file name.
pub fn sdist(root: &Path, out: &Path, maturin: &Path) -> Result<String> {
    let before = listing(out)?;
    run(
        super::without_package_env(&mut Command::new(maturin))
            .args(["sdist", "--manifest-path", "python/Cargo.toml", "--out"])
            .arg(out)
            .current_dir(root),
        "maturin sdist",
    )?;
    one_new(out, &before, ".tar.gz")
}

/// The manylinux tag of a wheel's name (`…-cp39-abi3-manylinux_2_17_x86_64.whl`), the first
/// where the name carries several.
pub fn manylinux_tag(wheel: &str) -> Option<String> {
    let platform = wheel.strip_suffix(".whl")?.rsplit('-').next()?;
    platform
        .split('.')
        .find(|tag| tag.starts_with("manylinux"))
        .map(str::to_owned)
}

/// The file names in `dir`.
fn listing(dir: &Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        names.push(entry?.file_name().to_string_lossy().into_owned());
    }
    Ok(names)
}

/// The one file ending in `suffix` that `dir` holds and `before` did not.
fn one_new(dir: &Path, before: &[String], suffix: &str) -> Result<String> {
    let new: Vec<String> = listing(dir)?
        .into_iter()
        .filter(|n| n.ends_with(suffix) && !before.contains(n))
        .collect();
    match new.as_slice() {
        [one] => {
            crate::make_readable(&dir.join(one))?;
            Ok(one.clone())
        }
        _ => bail!(
            "expected one new *{suffix} in {}, found {new:?}",
            dir.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manylinux_tag_comes_from_the_wheel_name() {
        assert_eq!(
            manylinux_tag(
                "pdbtiles-0.1.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
            )
            .as_deref(),
            Some("manylinux_2_17_x86_64")
        );
        assert_eq!(
            manylinux_tag("pdbtiles-0.1.0-cp39-abi3-linux_x86_64.whl"),
            None
        );
        assert_eq!(manylinux_tag("pdbtiles-0.1.0.tar.gz"), None);
    }

    #[test]
    fn the_maturin_pin_is_the_one_of_the_python_package() {
        let pyproject =
            std::fs::read_to_string(crate::project_root().join("python/pyproject.toml")).unwrap();
        assert!(pyproject.contains(&format!("\"{MATURIN}\"")), "{MATURIN}");
    }
}
