//! `cargo budgets`: checks the budgets of the repository this crate stands in, printing each
//! offence on a line of its own; exits 1 when there is any, 2 when the check cannot run.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    // This crate's folder is `xtask/budgets/` of the repository.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    match xtask_budgets::run(&root) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
