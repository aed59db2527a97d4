//! The command-line front-ends of the pdb-tiles toolchain, on top of its libraries
//! ([`pdbformat`], [`pdbgen`], [`pdbsolver`]): the `pdbgen` command (build, verify, inspect and
//! recompress pattern databases), the `solver` command (solve, bench, compare, locate) and
//! `solver serve` (a web page and a JSON API). Everything that parses arguments, draws
//! progress bars, prints and chooses exit codes lives here, never in the libraries.
//!
//! Install both commands with `cargo install pdbtiles` (or `cargo install --path cli` from a
//! clone). The library part is what the binaries and the workspace's `xtask` share; it is not
//! meant as an API.

pub mod answer;
pub mod bars;
mod output;
mod pdbgen_cli;
pub mod plot;
mod resolve_printer;
#[cfg(feature = "serve")]
mod serve;
mod solver_cli;
pub mod summary;

pub use pdbgen_cli::run as pdbgen_main;

/// What `--version` prints after the command's name: the package version and the commit it
/// was built from (`unknown` outside git; see the build script).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("PDBTILES_COMMIT"),
    ")"
);
/// The server's reader of `POST /api/solve` bodies, for the fuzz targets.
#[cfg(feature = "serve")]
pub use serve::check_solve_body;
pub use solver_cli::run as solver_main;
