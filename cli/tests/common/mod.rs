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
