//! Progress bars drawn through Python's `sys.stderr` (so that they show in notebooks as in
//! terminals), one line rewritten in place; and the build observer whose counters they show,
//! which is also how a build is stopped.

use crate::waiting::Cancelled;
use pdbformat::{Pattern, Symmetry, TableKind};
use pdbgen::{BuildObserver, TableSummary};
use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// One line of progress on `sys.stderr`, rewritten in place; cleared by [`Line::finish`].
#[derive(Default)]
pub struct Line {
    /// The length of the text drawn last (0: nothing drawn).
    drawn: usize,
}

impl Line {
    /// Draws `text` over the previous line.
    pub fn draw(&mut self, py: Python<'_>, text: &str) {
        let pad = self.drawn.saturating_sub(text.chars().count());
        self.write(py, &format!("\r{text}{}", " ".repeat(pad)));
        self.drawn = text.chars().count();
    }

    /// Clears the line, if one was drawn.
    pub fn finish(&mut self, py: Python<'_>) {
        if self.drawn > 0 {
            self.write(py, &format!("\r{}\r", " ".repeat(self.drawn)));
            self.drawn = 0;
        }
    }

    /// Writes to `sys.stderr` and flushes; a stream that refuses is left alone (progress is
    /// never worth an exception).
    fn write(&self, py: Python<'_>, text: &str) {
        if let Ok(err) = py.import("sys").and_then(|sys| sys.getattr("stderr")) {
            let _ = err.call_method1("write", (text,));
            let _ = err.call_method0("flush");
        }
    }
}

/// `[#####-----]  50%` for `done` of `total`.
pub fn bar(done: u64, total: u64) -> String {
    const WIDTH: u64 = 30;
    let filled = (done.min(total) * WIDTH).checked_div(total).unwrap_or(0);
    let percent = (done.min(total) * 100).checked_div(total).unwrap_or(0);
    format!(
        "[{}{}] {percent:>3}%",
        "#".repeat(filled as usize),
        "-".repeat((WIDTH - filled) as usize)
    )
}

/// What a running build has done so far, for its bar; and its way out. The generator has no
/// cancel hook, so when `stop` is set the next report unwinds out of it with [`Cancelled`]
/// (through `resume_unwind`, which prints nothing): the build ends without writing, and the
/// output file, written through an anonymous temporary file renamed at the end, never appears.
pub struct BuildProgress<'a> {
    /// Tables in the file.
    pub tables: usize,
    stop: &'a AtomicBool,
    table: AtomicUsize,
    entries: AtomicU64,
    scanned: AtomicU64,
    depth: AtomicUsize,
    pattern: Mutex<String>,
    /// Tables finished.
    finished: AtomicUsize,
}

impl<'a> BuildProgress<'a> {
    /// The counters of a build of `tables` tables, stopped when `stop` is set.
    pub fn new(tables: usize, stop: &'a AtomicBool) -> BuildProgress<'a> {
        BuildProgress {
            tables,
            stop,
            table: AtomicUsize::new(0),
            entries: AtomicU64::new(0),
            scanned: AtomicU64::new(0),
            depth: AtomicUsize::new(0),
            pattern: Mutex::new(String::new()),
            finished: AtomicUsize::new(0),
        }
    }

    /// The bar's text: the table, its pattern, the BFS level and how far the level has got.
    pub fn text(&self) -> String {
        if self.finished.load(Ordering::Relaxed) == self.tables {
            return format!("{} tables built; writing the file", self.tables);
        }
        let pattern = self.pattern.lock().map(|p| p.clone()).unwrap_or_default();
        format!(
            "table {}/{} ({pattern}): level {:>3} {}",
            self.table.load(Ordering::Relaxed) + 1,
            self.tables,
            self.depth.load(Ordering::Relaxed),
            bar(
                self.scanned.load(Ordering::Relaxed),
                self.entries.load(Ordering::Relaxed)
            )
        )
    }

    /// Unwinds out of the generator when the build was stopped.
    fn check(&self) {
        if self.stop.load(Ordering::Relaxed) {
            std::panic::resume_unwind(Box::new(Cancelled));
        }
    }

    fn start(&self, table: usize, pattern: &Pattern, entries: u64) {
        self.table.store(table, Ordering::Relaxed);
        self.entries.store(entries, Ordering::Relaxed);
        self.scanned.store(0, Ordering::Relaxed);
        if let Ok(mut p) = self.pattern.lock() {
            *p = pattern.to_string();
        }
    }
}

impl BuildObserver for BuildProgress<'_> {
    fn table_started(&self, table: usize, pattern: &Pattern, _kind: TableKind, entries: u64) {
        self.start(table, pattern, entries);
        self.check();
    }

    fn table_derived(
        &self,
        table: usize,
        pattern: &Pattern,
        _source: usize,
        _symmetry: Symmetry,
        entries: u64,
    ) {
        self.start(table, pattern, entries);
        self.check();
    }

    fn level_started(&self, _table: usize, depth: u8) {
        self.depth.store(depth as usize, Ordering::Relaxed);
        self.scanned.store(0, Ordering::Relaxed);
        self.check();
    }

    fn chunk_done(&self, _table: usize, scanned: u64) {
        self.scanned.fetch_max(scanned, Ordering::Relaxed);
        self.check();
    }

    fn table_done(&self, _table: usize, summary: &TableSummary) {
        self.scanned.store(summary.entries, Ordering::Relaxed);
        self.finished.fetch_add(1, Ordering::Relaxed);
    }
}
