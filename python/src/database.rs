//! `Database`: one pattern-database file loaded for lookups (its header, the solver's estimate
//! of many positions at once from a NumPy array, a table as a read-only NumPy view).

use crate::errors::db_error;
use crate::errors::resolve_error;
use crate::inputs::{goal_of, tile_list};
use numpy::ndarray::ArrayView1;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pdbformat::format::Encoding;
use pdbsolver::heuristic::PdbHeuristic;
use pdbsolver::{DbChoice, Quiet, ResolveOptions, Residence, Resolver};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::path::PathBuf;
use std::sync::Arc;

/// A pattern-database file loaded for lookups.
///
/// `Database.open(path_or_name)` reads a file (or a standard database such as
/// `"15-78-za-bit1"`, looked for where the command line looks: `$PDB_DIR`, `artifacts/`, the
/// user cache). The digests are checked on a thread beside the caller; every answer waits
/// for the verdict, so a damaged file raises `DatabaseError` instead of answering.
#[pyclass(module = "pdbtiles", frozen)]
pub struct Database {
    /// The loaded file.
    pub inner: Arc<pdbsolver::Database>,
}

#[pymethods]
impl Database {
    /// Opens the file `path_or_name` (a path, or the name of a standard database); `verify`
    /// checks every table's digest (beside the caller: answers wait for it), `load` is
    /// `"auto"` (the default, as the command line and `solve` place tables: huge pages on
    /// boards of more than 16 cells, else mapped), `"map"` (mapped from the file: no copy, the
    /// fastest start) or `"huge-pages"` (read into memory in 2 MiB pages: a copy at load, then
    /// faster random lookups, for long searches and large `heuristic` batches). Compressed tables are always decoded into
    /// memory.
    #[staticmethod]
    #[pyo3(signature = (path_or_name, verify=true, load="auto"))]
    fn open(py: Python<'_>, path_or_name: PathBuf, verify: bool, load: &str) -> PyResult<Self> {
        let residence = match load {
            "huge-pages" => Residence::HugePages,
            "map" => Residence::Mapped,
            "auto" => Residence::Auto,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown load {other:?}: use auto, huge-pages or map"
                )))
            }
        };
        let resolver = Resolver::new(ResolveOptions {
            verify,
            residence,
            build: false,
        });
        let spec = path_or_name.to_string_lossy().into_owned();
        let choice = [DbChoice::Named(spec)];
        let mut dbs = py
            .detach(|| resolver.databases(&choice, None, &Quiet))
            .map_err(|e| resolve_error(&e))?;
        if dbs.len() != 1 {
            return Err(PyValueError::new_err(format!(
                "{} is a catalogue of {} databases: open each, or pass its name as db= to solve",
                path_or_name.display(),
                dbs.len()
            )));
        }
        Ok(Database {
            inner: dbs.remove(0),
        })
    }

    /// The file's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.inner.path().to_path_buf()
    }

    /// The board, as `"4x4"`.
    #[getter]
    fn board(&self) -> String {
        self.inner.board().to_string()
    }

    /// The number of tables.
    fn __len__(&self) -> usize {
        self.inner.tables().len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Database({:?}, board={}, patterns={}, encoding={})",
            self.inner.path().display().to_string(),
            self.inner.board(),
            self.inner.describe_patterns(),
            self.inner.describe_encodings()
        )
    }

    /// The header as a dict: `path`, `board`, `width`, `height`, `goal` (the tiles, row by
    /// row), `goal_name`, `file_bytes`, `load_seconds`, and `tables`, one dict per table:
    /// `pattern` (its tiles), `kind`, `encoding`, `compression`, `entries`, `max_value`,
    /// `raw_bytes`, `stored_bytes`.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let db = &self.inner;
        let d = PyDict::new(py);
        d.set_item("path", db.path())?;
        d.set_item("board", db.board().to_string())?;
        d.set_item("width", db.board().width())?;
        d.set_item("height", db.board().height())?;
        d.set_item("goal", db.goal().tiles())?;
        d.set_item("goal_name", db.goal().name())?;
        d.set_item("file_bytes", db.file_bytes())?;
        d.set_item("load_seconds", db.load_seconds())?;
        let tables = PyList::empty(py);
        for t in db.tables() {
            let h = &t.header;
            let td = PyDict::new(py);
            td.set_item("pattern", tile_list(t.pattern.tiles()))?;
            td.set_item("kind", h.kind.name())?;
            td.set_item("encoding", h.encoding.name())?;
            td.set_item("compression", h.compression.name())?;
            td.set_item("entries", h.entry_count)?;
            td.set_item("max_value", h.max_value)?;
            td.set_item("raw_bytes", h.raw_len)?;
            td.set_item("stored_bytes", h.stored_len)?;
            tables.append(td)?;
        }
        d.set_item("tables", tables)?;
        Ok(d)
    }

    /// The solver's estimate of every position of `states`, a NumPy `uint8` array of shape
    /// `(N, cells)` (tiles row by row, 0 for the blank, each row a permutation): the value
    /// `solve` starts from (`initial_h`) for `goal`, with the symmetric lookups when `reflect`
    /// is on, as the solver makes them. Returns N values (`uint32`).
    #[pyo3(signature = (states, goal="blank-first", reflect=true))]
    fn heuristic<'py>(
        &self,
        py: Python<'py>,
        states: PyReadonlyArray2<'py, u8>,
        goal: &str,
        reflect: bool,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let goal = goal_of(self.inner.board(), goal)?;
        let h = PdbHeuristic::new(std::slice::from_ref(&self.inner), &goal, reflect)
            .map_err(|e| db_error(&e))?;
        let cells = self.inner.board().cells();
        let [rows, width] = states.shape() else {
            unreachable!("a two-dimensional array")
        };
        let (rows, width) = (*rows, *width);
        if width != cells {
            return Err(PyValueError::new_err(format!(
                "states has {width} columns; positions of the {} board have {cells} cells",
                self.inner.board()
            )));
        }
        let copy;
        let flat: &[u8] = match states.as_slice() {
            Ok(s) => s,
            Err(_) => {
                copy = states.as_array().iter().copied().collect::<Vec<u8>>();
                &copy
            }
        };
        let db = &self.inner;
        let values = py.detach(|| {
            let mut out = vec![0u32; rows];
            let done = h.estimate_many(flat, &mut out);
            db.wait_verified().map(|()| done.map(|()| out))
        });
        let values = values.map_err(|e| db_error(&e))?;
        let values = values.map_err(|r| not_a_position(r, &flat[r * cells..][..cells]))?;
        Ok(PyArray1::from_vec(py, values))
    }

    /// Table `i`'s entries as a read-only NumPy `uint8` array, a view of the loaded table
    /// (no copy; it keeps the database alive): one value per entry, in the order of the
    /// file format's index (docs/FORMAT.md). Only for `u8` tables; `encoded=True` gives the
    /// stored bytes of any encoding (`u4`, `bit1` packed as the format says).
    #[pyo3(signature = (i, encoded=false))]
    fn table<'py>(
        slf: Bound<'py, Self>,
        i: usize,
        encoded: bool,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let py = slf.py();
        let db = slf.get().inner.clone();
        let n = db.tables().len();
        let t = db.tables().get(i).ok_or_else(|| {
            PyIndexError::new_err(format!("table {i}: the database has {n} tables"))
        })?;
        if t.header.encoding != Encoding::U8 && !encoded {
            return Err(PyValueError::new_err(format!(
                "table {i} holds {} entries, not one value per byte; table({i}, encoded=True) gives its stored bytes",
                t.header.encoding
            )));
        }
        py.detach(|| db.wait_verified()).map_err(|e| db_error(&e))?;
        let view = ArrayView1::from(t.entries());
        // SAFETY: the entries live as long as the table, which `slf` (the array's base
        // object) holds through its `Arc`; they are never written or moved once loaded.
        let array = unsafe { PyArray1::borrow_from_array(&view, slf.into_any()) };
        array.readwrite().make_nonwriteable();
        Ok(array)
    }
}

/// The `ValueError` of row `r` of a states array, `row`, which is not a permutation.
fn not_a_position(r: usize, row: &[u8]) -> PyErr {
    let cells = row.len();
    let mut count = [0usize; 256];
    row.iter().for_each(|&t| count[t as usize] += 1);
    let why = match row
        .iter()
        .find(|&&t| t as usize >= cells || count[t as usize] > 1)
    {
        Some(&t) if t as usize >= cells => format!("tile {t} is out of range (0 to {})", cells - 1),
        Some(t) => format!("tile {t} appears more than once"),
        None => "not a permutation".into(),
    };
    PyValueError::new_err(format!("states row {r}: {why}"))
}
