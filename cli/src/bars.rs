//! Terminal progress: for builds one indicatif bar per BFS level and a summary line per table
//! ([`BarObserver`]); for verification one bar per table and step ([`VerifyBars`]).

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use pdbformat::{Pattern, Symmetry, TableKind};
use pdbgen::{BuildObserver, TableSummary, VerifyObserver};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

/// Shows build progress on standard error: depth, entries reached, scan rate, elapsed and ETA
/// of each level. Bars are drawn only on a terminal; summary lines are always printed.
pub struct BarObserver {
    bar: Mutex<Option<ProgressBar>>,
    name: Mutex<String>,
    entries: AtomicU64,
    reached: AtomicU64,
    depth: AtomicU8,
    quiet: bool,
}

impl BarObserver {
    /// An observer that draws bars and prints summaries.
    pub fn new() -> BarObserver {
        BarObserver {
            bar: Mutex::new(None),
            name: Mutex::new(String::new()),
            entries: AtomicU64::new(0),
            reached: AtomicU64::new(0),
            depth: AtomicU8::new(0),
            quiet: false,
        }
    }

    /// An observer that draws bars but prints no summary lines.
    pub fn without_summaries() -> BarObserver {
        BarObserver {
            quiet: true,
            ..BarObserver::new()
        }
    }

    fn message(&self) -> String {
        let e = self.entries.load(Relaxed).max(1);
        let r = self.reached.load(Relaxed);
        format!(
            "depth {:>2}, reached {} ({:.1}%)",
            self.depth.load(Relaxed),
            HumanCount(r),
            100.0 * r as f64 / e as f64
        )
    }
}

impl Default for BarObserver {
    fn default() -> Self {
        BarObserver::new()
    }
}

impl BuildObserver for BarObserver {
    fn table_started(&self, table: usize, pattern: &Pattern, kind: TableKind, entries: u64) {
        *self.name.lock().expect("progress lock") = format!("table {table} [{pattern}] {kind}");
        self.entries.store(entries, Relaxed);
        self.reached.store(1, Relaxed);
        if !self.quiet {
            eprintln!(
                "table {table}: pattern {pattern}, {kind}, {} states to search",
                HumanCount(entries)
            );
        }
    }

    fn table_derived(
        &self,
        table: usize,
        pattern: &Pattern,
        source: usize,
        symmetry: Symmetry,
        entries: u64,
    ) {
        *self.name.lock().expect("progress lock") = format!("table {table} [{pattern}] derived");
        if !self.quiet {
            eprintln!(
                "table {table}: pattern {pattern}, the {} image of table {source}: {} entries \
                 derived, not searched",
                symmetry_name(symmetry),
                HumanCount(entries)
            );
        }
    }

    fn level_started(&self, _table: usize, depth: u8) {
        self.depth.store(depth, Relaxed);
        let bar = ProgressBar::with_draw_target(
            Some(self.entries.load(Relaxed)),
            ProgressDrawTarget::stderr(),
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix} {bar:25.cyan/blue} {percent:>3}% {msg} [{elapsed_precise}, {per_sec}, eta {eta}]",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(self.name.lock().expect("progress lock").clone());
        bar.set_message(self.message());
        if let Some(old) = self.bar.lock().expect("progress lock").replace(bar) {
            old.finish_and_clear();
        }
    }

    fn chunk_done(&self, _table: usize, scanned: u64) {
        if let Some(bar) = self.bar.lock().expect("progress lock").as_ref() {
            bar.set_position(scanned.max(bar.position()));
        }
    }

    fn level_done(&self, _table: usize, _depth: u8, reached: u64) {
        self.reached.store(reached, Relaxed);
        if let Some(bar) = self.bar.lock().expect("progress lock").as_ref() {
            bar.set_message(self.message());
        }
    }

    fn table_done(&self, table: usize, s: &TableSummary) {
        if let Some(bar) = self.bar.lock().expect("progress lock").take() {
            bar.finish_and_clear();
        }
        if !self.quiet {
            eprintln!(
                "table {table}: {} entries, max {}, mean {:.3}, {:.1} s",
                HumanCount(s.entries),
                s.max_value,
                s.mean_value,
                s.seconds
            );
        }
    }
}

/// Shows verification progress on standard error: a bar for each table's checksums and one
/// for its semantic check (bit1 tables also show the restoring BFS, without summaries).
pub struct VerifyBars {
    bar: Mutex<Option<ProgressBar>>,
    restore: BarObserver,
}

impl VerifyBars {
    /// Bars on standard error (drawn only on a terminal).
    pub fn new() -> VerifyBars {
        VerifyBars {
            bar: Mutex::new(None),
            restore: BarObserver::without_summaries(),
        }
    }

    fn start(&self, len: u64, prefix: String) {
        let b = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        b.set_style(
            ProgressStyle::with_template(
                "{prefix} {bar:25.cyan/blue} {percent:>3}% [{elapsed_precise}, eta {eta}]",
            )
            .expect("valid template"),
        );
        b.set_prefix(prefix);
        if let Some(old) = self.bar.lock().expect("progress lock").replace(b) {
            old.finish_and_clear();
        }
    }

    fn advance(&self, done: u64) {
        if let Some(bar) = self.bar.lock().expect("progress lock").as_ref() {
            bar.set_position(done.max(bar.position()));
        }
    }
}

impl Default for VerifyBars {
    fn default() -> Self {
        VerifyBars::new()
    }
}

impl VerifyObserver for VerifyBars {
    fn checksums_started(&self, table: usize, bytes: u64) {
        self.start(bytes, format!("table {table} checksums"));
    }

    fn checksums_progress(&self, _table: usize, done: u64) {
        self.advance(done);
    }

    fn semantics_started(&self, table: usize, pattern: &Pattern, entries: u64) {
        self.start(entries, format!("table {table} [{pattern}] semantics"));
    }

    fn semantics_progress(&self, _table: usize, done: u64) {
        self.advance(done);
    }

    fn step_done(&self, _table: usize) {
        if let Some(bar) = self.bar.lock().expect("progress lock").take() {
            bar.finish_and_clear();
        }
    }

    fn restore_observer(&self) -> &dyn BuildObserver {
        &self.restore
    }
}

/// A symmetry in words, for progress lines.
fn symmetry_name(s: Symmetry) -> &'static str {
    match s {
        Symmetry::Identity => "identical",
        Symmetry::Transpose => "transposed",
        Symmetry::Rotate180 => "180°-rotated",
        Symmetry::FlipColumns => "left-right mirrored",
        Symmetry::FlipRows => "top-bottom mirrored",
        Symmetry::Rotate90 => "90°-rotated",
        Symmetry::Rotate270 => "270°-rotated",
        Symmetry::AntiTranspose => "anti-transposed",
    }
}
