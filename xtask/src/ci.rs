//! `cargo xtask ci`: what CI (`.ci/run`) runs (formatting, lints, tests), runnable by hand.
//!
//! `.ci/run` also installs what a fresh machine lacks (toolchain components, a C compiler);
//! the steps below are its checks, in its order and with its flags: keep the two in step.

use anyhow::{Context, Result};
use std::path::Path;
use std::process::Command;

/// The cargo invocations of CI, in order (those of `.ci/run`).
pub const STEPS: &[&[&str]] = &[
    &["fmt", "--all", "--", "--check"],
    &[
        "clippy",
        "--workspace",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ],
    &["test", "--workspace", "--locked"],
];

/// The cargo that runs this task (`$CARGO`, set by `cargo run`), or `cargo` from the path.
pub fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Runs every step in `root`, printing each before it runs; stops at the first that fails and
/// returns `Ok(false)`.
pub fn run(root: &Path) -> Result<bool> {
    for step in STEPS {
        let line = format!("cargo {}", step.join(" "));
        println!("$ {line}");
        let status = Command::new(cargo())
            .args(*step)
            .current_dir(root)
            .status()
            .with_context(|| format!("cannot run `{line}`"))?;
        if !status.success() {
            eprintln!("ci: `{line}` failed ({status})");
            return Ok(false);
        }
    }
    println!("ci: all {} steps passed", STEPS.len());
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steps_are_those_of_the_ci_script() {
        let script = std::fs::read_to_string(crate::project_root().join(".ci/run"))
            .expect(".ci/run is there");
        for step in STEPS {
            let line = format!("cargo {}", step.join(" "));
            assert!(
                script.lines().any(|l| l.trim() == line),
                "`{line}` is not a line of .ci/run: keep xtask/src/ci.rs and .ci/run in step"
            );
        }
    }
}
