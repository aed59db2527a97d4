//! The heuristic of a `solve` call, resolved by the library's one resolver
//! (`pdbsolver::Resolver`, the command line's and the server's too): a `db=` argument becomes
//! its database choices, the resolver's notes go to `sys.stderr`, its errors become the
//! package's exceptions, and Ctrl-C stops a first-use build.

use crate::errors::resolve_error;
use crate::progress::BuildProgress;
use crate::waiting;
use pdbformat::Goal;
use pdbsolver::{DbChoice, Request, ResolveObserver, Resolved, Resolver};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};

/// The process's resolver: the command line's defaults (digests checked, tables placed by
/// board size, the default database built on first use); each file is loaded once per process.
pub fn resolver() -> &'static Resolver {
    static RESOLVER: OnceLock<Resolver> = OnceLock::new();
    RESOLVER.get_or_init(|| Resolver::new(pdbsolver::ResolveOptions::default()))
}

/// The databases a `db=` value stands for: a `Database`, a path or standard name, or a list
/// of them.
pub fn choices_of(db: &Bound<'_, PyAny>) -> PyResult<Vec<DbChoice>> {
    if let Ok(d) = db.cast::<crate::database::Database>() {
        return Ok(vec![DbChoice::Loaded(d.get().inner.clone())]);
    }
    if let Ok(path) = db.extract::<PathBuf>() {
        return Ok(vec![DbChoice::Named(path.to_string_lossy().into_owned())]);
    }
    if db.is_instance_of::<PyList>() || db.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for item in db.try_iter()? {
            out.extend(choices_of(&item?)?);
        }
        return Ok(out);
    }
    Err(PyTypeError::new_err(format!(
        "db takes a path, a standard database name, a Database or a list of them, not {}",
        db.get_type().name()?
    )))
}

/// The heuristic `request` names for `goal` with the databases `choices` (none: the default
/// database, found or built once, else linear conflicts), resolved with the GIL released;
/// Ctrl-C (through `stop`) ends a first-use build with `KeyboardInterrupt`.
pub fn resolve(
    py: Python<'_>,
    request: &Request,
    choices: &[DbChoice],
    goal: &Goal,
    stop: &AtomicBool,
) -> PyResult<Resolved> {
    let notes = Notes {
        lines: Mutex::new(Vec::new()),
        build: BuildProgress::new(0, stop),
    };
    let result = waiting::run(
        py,
        stop,
        || resolver().resolve(request, choices, goal, &notes),
        |py| notes.flush(py),
    );
    notes.flush(py);
    result?.map_err(|e| resolve_error(&e))
}

/// What the resolver reports, kept until the interpreter's thread writes it to `sys.stderr`.
struct Notes<'a> {
    lines: Mutex<Vec<String>>,
    build: BuildProgress<'a>,
}

impl Notes<'_> {
    fn say(&self, line: String) {
        self.lines.lock().unwrap_or_else(|e| e.into_inner()).push(line);
    }

    /// Writes the lines so far to `sys.stderr`.
    fn flush(&self, py: Python<'_>) {
        let lines = std::mem::take(&mut *self.lines.lock().unwrap_or_else(|e| e.into_inner()));
        if lines.is_empty() {
            return;
        }
        let _ = py
            .import("sys")
            .and_then(|s| s.getattr("stderr"))
            .and_then(|e| e.call_method1("write", (lines.join("\n") + "\n",)));
    }
}

impl ResolveObserver for Notes<'_> {
    fn skipped(&self, path: &Path, why: &str) {
        self.say(format!("note: skipping {}: {why}", path.display()));
    }

    fn building(&self, board: pdbformat::Board, path: &Path, _searched: &str) {
        self.say(format!(
            "no pattern database found for {board}; building the default one once into {} ...",
            path.display()
        ));
    }

    fn built(&self, path: &Path, seconds: f64, _here: bool) {
        self.say(format!(
            "built {} in {seconds:.1} s; later runs reuse it",
            path.display()
        ));
    }

    fn build_observer(&self) -> &dyn pdbgen::BuildObserver {
        &self.build
    }
}
