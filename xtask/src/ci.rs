//! `cargo xtask ci`: what CI (`.ci/run`) runs (formatting, the budgets, lints, tests),
//! runnable by hand.
//!
//! `.ci/run` also installs what a fresh machine lacks (`.ci/setup`), times its steps, and runs
//! the browser, MPI, Python, release (`.ci/dist`) and fuzz checks and clippy over `python/`
//! and `fuzz/`; the steps below are its Rust checks, in its order and with its flags: keep the
//! two in step.

use anyhow::{Context, Result};
use std::path::Path;
use std::process::Command;

/// The budgets' step, `cargo budgets` ([`crate::budgets`], the same check as `cargo xtask ci
/// --budgets`): run in this process rather than through cargo.
pub const BUDGETS: &[&str] = &["budgets"];

/// The release step, `cargo xtask dist --out target/dist --force` ([`crate::dist`]): run in
/// this process rather than through cargo (`.ci/run` then checks the release with `.ci/dist`).
pub const DIST: &[&str] = &["xtask", "dist", "--out", "target/dist", "--force"];

/// The cargo invocations of CI, in order (those of `.ci/run`).
pub const STEPS: &[&[&str]] = &[
    &["fmt", "--all", "--", "--check"],
    BUDGETS,
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
    DIST,
];

/// Runs every step in `root`, printing each before it runs; stops at the first that fails and
/// returns `Ok(false)`.
pub fn run(root: &Path) -> Result<bool> {
    for step in STEPS {
        let line = format!("cargo {}", step.join(" "));
        println!("$ {line}");
        let passed = if *step == BUDGETS {
            crate::budgets::run(root)?
        } else if *step == DIST {
            let options = crate::dist::DistOptions {
                force: true,
                ..Default::default()
            };
            match crate::dist::run(root, &root.join(DIST[3]), &options) {
                Ok(_) => true,
                Err(e) => {
                    eprintln!("error: {}", pdbformat::error::describe(&*e));
                    false
                }
            }
        } else {
            let status = Command::new(crate::cargo())
                .args(*step)
                .current_dir(root)
                .status()
                .with_context(|| format!("cannot run `{line}`"))?;
            status.success()
        };
        if !passed {
            eprintln!("ci: `{line}` failed");
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
    fn the_steps_are_those_of_the_ci_script_in_its_order() {
        let script = std::fs::read_to_string(crate::project_root().join(".ci/run"))
            .expect(".ci/run is there");
        // A step of .ci/run is `step "NAME" COMMAND`: the command is what follows the name.
        let lines: Vec<&str> = (script.lines().map(str::trim))
            .map(|l| match l.strip_prefix("step \"") {
                Some(rest) => rest.split_once("\" ").map_or(l, |(_, command)| command),
                None => l,
            })
            .collect();
        let mut previous = None;
        for step in STEPS {
            let line = format!("cargo {}", step.join(" "));
            let at = lines.iter().position(|l| *l == line);
            assert!(
                at.is_some(),
                "`{line}` is not a line of .ci/run: keep xtask/src/ci.rs and .ci/run in step"
            );
            assert!(
                at > previous,
                "`{line}` comes earlier in .ci/run than in xtask/src/ci.rs: keep them in step"
            );
            previous = at;
        }
    }
}
