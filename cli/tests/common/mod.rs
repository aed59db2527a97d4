//! Helpers of the command-line tests: the fixtures of the library tests (brute-force
//! databases and exhaustive distances, built independently of the generator; a table with one
//! wrong entry), and the commands isolated from the machine's databases.

#![allow(dead_code)]

#[path = "../../../solver/tests/common/mod.rs"]
mod solver_fixtures;
#[allow(unused_imports)]
pub use solver_fixtures::*;

#[path = "../../../pdbgen/tests/common/mod.rs"]
mod pdbgen_fixtures;
#[allow(unused_imports)]
pub use pdbgen_fixtures::*;

use predicates::prelude::*;
use std::path::Path;

/// The `solver` command, isolated from the machine's databases: run in `home`, with `home` as
/// its home and cache and no `PDB_DIR`.
pub fn solver(home: &Path) -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("solver").unwrap();
    c.current_dir(home)
        .env_remove("PDB_DIR")
        .env("HOME", home)
        .env("XDG_CACHE_HOME", home.join("cache"));
    c
}

/// `solver solve` in `home` (see [`solver`]) with the space-separated `args`, then `last` (a
/// puzzle or a file).
pub fn solve(home: &Path, args: &str, last: impl AsRef<std::ffi::OsStr>) -> assert_cmd::Command {
    let mut c = solver(home);
    c.arg("solve").args(args.split(' ')).arg(last);
    c
}

/// A temporary home holding the file `name` with `contents`, and that file's path.
pub fn home_with_file(name: &str, contents: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let path = home.path().join(name);
    std::fs::write(&path, contents).unwrap();
    (home, path)
}

/// Runs `cmd` and asserts that it fails with exit code 1 and names each cause once on standard
/// error; the returned assertion takes further checks.
pub fn fails(cmd: &mut assert_cmd::Command) -> assert_cmd::assert::Assert {
    cmd.assert().code(1).stderr(predicates::function::function(
        pdbformat::testkit::says_each_cause_once,
    ))
}

/// Like [`fails`], and standard error says `msg`.
pub fn fails_saying(cmd: &mut assert_cmd::Command, msg: &str) -> assert_cmd::assert::Assert {
    fails(cmd).stderr(predicates::str::contains(msg))
}

/// Runs `cmd` and asserts that it is a usage error (exit code 2, no panic) whose standard error
/// says `msg`; the returned assertion takes further checks.
pub fn usage_error(cmd: &mut assert_cmd::Command, msg: &str) -> assert_cmd::assert::Assert {
    cmd.assert()
        .code(2)
        .stderr(predicates::str::contains(msg))
        .stderr(predicates::str::contains("panicked").not())
}

/// Runs `cmd` and asserts that it succeeds and that its standard output says each of `says`;
/// the returned assertion takes further checks.
pub fn succeeds_saying(cmd: &mut assert_cmd::Command, says: &[&str]) -> assert_cmd::assert::Assert {
    let mut done = cmd.assert().success();
    for s in says {
        done = done.stdout(predicates::str::contains(*s));
    }
    done
}

/// Runs `cmd` and asserts that a limit stopped it (exit code 3) and that standard error says
/// `msg`; the returned assertion takes further checks.
pub fn stopped_saying(cmd: &mut assert_cmd::Command, msg: &str) -> assert_cmd::assert::Assert {
    cmd.assert().code(3).stderr(predicates::str::contains(msg))
}

/// Runs `cmd`, asserts that it succeeds, and returns its standard output.
pub fn success_stdout(cmd: &mut assert_cmd::Command) -> Vec<u8> {
    cmd.assert().success().get_output().stdout.clone()
}

/// The JSON values of `out`, one a line.
pub fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    std::str::from_utf8(out)
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}
