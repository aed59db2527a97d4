//! What the command line prints while the library's resolver finds, builds and loads a
//! heuristic ([`Printer`]: notes, the first-use build's bars, a loading bar), and the
//! resolver's errors in the command line's words ([`cli_error`]); `solve`, `bench`, `compare`,
//! `locate` and `serve` all print through them.

use anyhow::anyhow;
use pdbformat::Board;
use pdbsolver::{Database, ResolveError, ResolveObserver};
use std::path::Path;
use std::sync::Mutex;

/// A resolver's error in the command line's words (its option names).
pub fn cli_error(e: ResolveError) -> anyhow::Error {
    match e {
        ResolveError::DatabasesNeedPdb(n) => {
            anyhow!("--db needs --heuristic pdb (or auto), not {n}")
        }
        e @ ResolveError::NoneFits { .. } => anyhow!("{e}; give one with --db"),
        // Worded here from the error's data: the build command, and in the source tree
        // xtask's, which builds a standard database under its own name.
        ResolveError::NotFound {
            db,
            catalogue,
            searched,
        } => anyhow!(
            "database {}{} is not in {searched}; build it there with `cargo xtask artifacts \
             build {}` (in the source tree) or `pdbgen {}`",
            db.name,
            catalogue
                .map(|c| format!(" (in catalogue {c})"))
                .unwrap_or_default(),
            db.name,
            db.build_args().join(" ")
        ),
        e => anyhow::Error::new(e),
    }
}

/// What the command line prints while a heuristic is resolved: notes, the first-use build's
/// lines and bars, a bar while a database loads (on a terminal) and a line when it is loaded.
pub struct Printer {
    /// The loading bar of the file being read, made when its size is known.
    bar: Mutex<Option<indicatif::ProgressBar>>,
    /// The build's bars, made when a build starts.
    build: crate::bars::BarObserver,
}

impl Default for Printer {
    fn default() -> Self {
        Printer {
            bar: Mutex::new(None),
            build: crate::bars::BarObserver::new(),
        }
    }
}

impl Printer {
    /// Clears the loading bar, if one is drawn.
    fn clear_bar(&self) {
        if let Some(pb) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            pb.finish_and_clear();
        }
    }
}

impl Drop for Printer {
    fn drop(&mut self) {
        self.clear_bar();
    }
}

impl ResolveObserver for Printer {
    fn skipped(&self, path: &Path, why: &str) {
        eprintln!("note: skipping {}: {why}", path.display());
    }

    fn loading(&self, path: &Path, done: u64, total: u64) {
        let mut bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        let pb = bar.get_or_insert_with(|| {
            let pb = indicatif::ProgressBar::new(total);
            pb.set_style(
                indicatif::ProgressStyle::with_template(
                    "loading {msg} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({eta})",
                )
                .expect("valid template"),
            );
            pb.set_message(path.display().to_string());
            pb
        });
        pb.set_length(total);
        pb.set_position(done);
    }

    fn loaded(&self, db: &Database) {
        self.clear_bar();
        eprintln!("database: {}", describe_loaded(db));
    }

    fn building(&self, board: Board, path: &Path, searched: &str) {
        eprintln!(
            "no pattern database found for {board} (searched {searched}); building the default {} database once into {} ...",
            path.file_name().unwrap_or_default().to_string_lossy(),
            path.display()
        );
    }

    fn waiting(&self, lock: &Path) {
        eprintln!(
            "another solver is building it (it holds {}); waiting for it ...",
            lock.display()
        );
    }

    fn built(&self, path: &Path, seconds: f64, here: bool) {
        if here {
            eprintln!(
                "built and saved {} in {seconds:.1} s; later runs reuse it",
                path.display()
            );
        } else {
            eprintln!(
                "the other solver built {} ({seconds:.1} s of waiting); using it",
                path.display()
            );
        }
    }

    fn falling_back(&self, why: &str) {
        eprintln!("note: {why}; falling back to manhattan + linear conflict");
    }

    fn build_observer(&self) -> &dyn pdbgen::BuildObserver {
        &self.build
    }
}

/// A loaded database in one line: its file, kind (zero-aware, zero-unaware or multi-tile class
/// tables), encodings, tables, size and load time.
pub fn describe_loaded(db: &Database) -> String {
    format!(
        "{} ({} {}, {} tables: {}, {:.1} MB) loaded in {:.3} s",
        db.path().display(),
        if !db.class_tables().is_empty() {
            "multi-tile class"
        } else if db.is_zero_aware() {
            "zero-aware"
        } else {
            "zero-unaware"
        },
        db.describe_encodings(),
        db.tables().len() + db.class_tables().len(),
        db.describe_patterns(),
        db.file_bytes() as f64 / 1e6,
        db.load_seconds()
    )
}
