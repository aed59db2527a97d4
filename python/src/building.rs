//! `build` and `verify`: the generator's library calls (`pdbgen::build_file`,
//! `pdbgen::verify_file`), with the command line's plan check and a progress bar, on a thread
//! of their own while the interpreter answers Ctrl-C.

use crate::errors::{database_error, os_error, value_error, DatabaseError};
use crate::inputs::{board_of, goal_of, tile_list};
use crate::progress::{bar, BuildProgress, Line};
use crate::waiting;
use pdbformat::format::{Compression, Encoding, WriteOptions};
use pdbformat::units::bytes;
use pdbformat::{Partition, Pattern, TableKind};
use pdbgen::{BuildError, BuildRequest, VerifyDepth, VerifyObserver, VerifyOptions};
use pyo3::exceptions::{PyMemoryError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Builds a pattern-database file, as `pdbgen build` does, and returns one dict per table
/// (`pattern`, `entries`, `max_value`, `mean_value`, `unreached`, `histogram`, `seconds`).
///
/// `board` is `"4x4"` (columns x rows); `partition` a preset (`"78"`, `"663"`, `"555"`,
/// `"6666"`, …) or patterns (`"1-7/8-15"`); `kind` `"zero-aware"` or `"zero-unaware"`;
/// `encoding` `"u8"`, `"u4"` or `"bit1"`; `compress` `"none"`, `"zstd"` or `"gzip"`;
/// `threads` 0 for every core. The file appears only when complete. A build larger than the
/// available memory is refused (`MemoryError`); Ctrl-C stops it and leaves nothing behind.
#[pyfunction]
#[pyo3(signature = (board, partition, path, kind="zero-aware", encoding="u8", threads=0, progress=true, goal="blank-first", compress="none"))]
#[allow(clippy::too_many_arguments)]
pub fn build<'py>(
    py: Python<'py>,
    board: &str,
    partition: &str,
    path: PathBuf,
    kind: &str,
    encoding: &str,
    threads: usize,
    progress: bool,
    goal: &str,
    compress: &str,
) -> PyResult<Bound<'py, PyList>> {
    let board = board_of(Some(board))?.expect("a board was given");
    let goal = goal_of(board, goal)?;
    let partition = Partition::parse(&goal, partition).map_err(|e| value_error(&e))?;
    let kind = TableKind::parse(kind).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown table kind {kind:?}: use zero-aware or zero-unaware"
        ))
    })?;
    let encoding = Encoding::parse(encoding).ok_or_else(|| {
        PyValueError::new_err(format!("unknown encoding {encoding:?}: use u8, u4 or bit1"))
    })?;
    let compression = Compression::parse(compress).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown compression {compress:?}: use none, zstd or gzip"
        ))
    })?;
    let req = BuildRequest {
        goal,
        partition,
        kind,
        threads: (threads > 0).then_some(threads),
        encoding,
        write: WriteOptions {
            compression,
            ..WriteOptions::default()
        },
    };
    let plan = pdbgen::plan(&req).map_err(|e| build_error(&e))?;
    if let Some(avail) = pdbformat::system::available_memory() {
        if plan.peak_bytes > avail {
            return Err(PyMemoryError::new_err(format!(
                "this build needs about {} of memory but only {} is available; free memory or choose a smaller partition",
                bytes(plan.peak_bytes),
                bytes(avail)
            )));
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| os_error(format!("cannot create {}", dir.display()), &e))?;
    }
    let stop = AtomicBool::new(false);
    let observer = BuildProgress::new(req.partition.patterns().len(), &stop);
    let mut line = Line::default();
    let built = waiting::run(
        py,
        &stop,
        || pdbgen::build_file(&req, &path, &observer),
        |py| {
            if progress {
                line.draw(py, &observer.text());
            }
        },
    );
    line.finish(py);
    let summaries = built?.map_err(|e| build_error(&e))?;
    let out = PyList::empty(py);
    for s in summaries {
        let d = PyDict::new(py);
        d.set_item("pattern", tile_list(s.pattern.tiles()))?;
        d.set_item("entries", s.entries)?;
        d.set_item("max_value", s.max_value)?;
        d.set_item("mean_value", s.mean_value)?;
        d.set_item("unreached", s.unreached)?;
        d.set_item("histogram", s.histogram)?;
        d.set_item("seconds", s.seconds)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The exception of a build that failed: a request the generator refuses is a `ValueError`,
/// a file that cannot be written an `OSError`.
fn build_error(e: &BuildError) -> PyErr {
    let msg = pdbformat::error::describe(e);
    match e {
        BuildError::Write { .. } => PyOSError::new_err(msg),
        BuildError::Threads(_) => PyRuntimeError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}

/// Checks a pattern-database file as `pdbgen verify` does: every checksum, then (with
/// `semantic`) every table's values without rebuilding it. Returns a dict (`path`, `tables`:
/// one dict per table with `pattern`, `kind`, `encoding`, `entries`, `semantic`) when every
/// check passes; raises `DatabaseError` naming each problem otherwise (or when the file does
/// not open as a pattern database).
#[pyfunction]
#[pyo3(signature = (path, semantic=true, threads=0, progress=false))]
pub fn verify<'py>(
    py: Python<'py>,
    path: PathBuf,
    semantic: bool,
    threads: usize,
    progress: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = VerifyOptions {
        depth: if semantic {
            VerifyDepth::Semantic
        } else {
            VerifyDepth::Checksums
        },
        threads: (threads > 0).then_some(threads),
    };
    let stop = AtomicBool::new(false);
    let observer = VerifyProgress::default();
    let mut line = Line::default();
    let report = waiting::run(
        py,
        &stop,
        || pdbgen::verify_file(&path, opts, &observer),
        |py| {
            if progress {
                line.draw(py, &observer.text());
            }
        },
    );
    line.finish(py);
    let report = report?.map_err(|e| database_error(&e))?;
    if !report.passed() {
        let problems: Vec<String> = report
            .problems()
            .map(|(t, p)| format!("table {} [{}]: {p}", t.table, t.pattern))
            .collect();
        return Err(DatabaseError::new_err(format!(
            "{} failed verification: {}",
            path.display(),
            problems.join("; ")
        )));
    }
    let d = PyDict::new(py);
    d.set_item("path", &report.path)?;
    let tables = PyList::empty(py);
    for t in &report.tables {
        let td = PyDict::new(py);
        td.set_item("pattern", tile_list(t.pattern.tiles()))?;
        td.set_item("kind", t.kind.name())?;
        td.set_item("encoding", t.encoding.name())?;
        td.set_item("entries", t.entries)?;
        td.set_item("semantic", t.semantic)?;
        tables.append(td)?;
    }
    d.set_item("tables", tables)?;
    Ok(d)
}

/// What a running verification has done, for its bar.
#[derive(Default)]
struct VerifyProgress {
    table: AtomicUsize,
    semantic: AtomicBool,
    total: AtomicU64,
    done: AtomicU64,
}

impl VerifyProgress {
    /// The bar's text: the table, the step and how far it has got.
    fn text(&self) -> String {
        format!(
            "table {}: {} {}",
            self.table.load(Ordering::Relaxed),
            if self.semantic.load(Ordering::Relaxed) {
                "values  "
            } else {
                "checksum"
            },
            bar(
                self.done.load(Ordering::Relaxed),
                self.total.load(Ordering::Relaxed)
            )
        )
    }

    fn start(&self, table: usize, semantic: bool, total: u64) {
        self.table.store(table, Ordering::Relaxed);
        self.semantic.store(semantic, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
    }
}

impl VerifyObserver for VerifyProgress {
    fn checksums_started(&self, table: usize, bytes: u64) {
        self.start(table, false, bytes);
    }

    fn checksums_progress(&self, _table: usize, done: u64) {
        self.done.store(done, Ordering::Relaxed);
    }

    fn semantics_started(&self, table: usize, _pattern: &Pattern, entries: u64) {
        self.start(table, true, entries);
    }

    fn semantics_progress(&self, _table: usize, done: u64) {
        self.done.fetch_max(done, Ordering::Relaxed);
    }
}
