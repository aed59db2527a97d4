//! The native module `pdbtiles._native`: the pdb-tiles libraries seen from Python (solving,
//! databases, building), re-exported by the `pdbtiles` package.
//!
//! One concept per file: `errors.rs` (the exceptions and how library errors become them),
//! `inputs.rs` (puzzles, boards, goals and settings read from Python values), `solution.rs`
//! (`Solution`), `solving.rs` (`solve`, `solve_many`), `resolving.rs` (their heuristic, through
//! the library's resolver),
//! `database.rs` (`Database`), `building.rs` (`build`, `verify`), `waiting.rs` (work on other
//! threads while the interpreter keeps answering Ctrl-C) and `progress.rs` (progress bars).

mod building;
mod database;
mod errors;
mod inputs;
mod progress;
mod resolving;
mod solution;
mod solving;
mod waiting;

use pyo3::prelude::*;

/// The native part of the `pdbtiles` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("DatabaseError", py.get_type::<errors::DatabaseError>())?;
    m.add("SearchStopped", py.get_type::<errors::SearchStopped>())?;
    m.add_class::<solution::Solution>()?;
    m.add_class::<database::Database>()?;
    m.add_function(wrap_pyfunction!(solving::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solving::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(building::build, m)?)?;
    m.add_function(wrap_pyfunction!(building::verify, m)?)?;
    Ok(())
}
