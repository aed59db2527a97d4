//! Finding the default database for a board and goal, and building it when it is missing.
//!
//! Search order (the first file that fits wins):
//! 1. the directory named by the environment variable [`ENV_VAR`] (`PDB_DIR`),
//! 2. `artifacts/` in the current directory,
//! 3. the user cache directory: `$XDG_CACHE_HOME/pdb-tiles`, or `$HOME/.cache/pdb-tiles`.
//!
//! Each board has at most one default per metric ([`pdbformat::standard::DEFAULTS`]): on 4×4
//! `15-663-za` in the single-tile metric and `15-rows+rokicki+rokicki-mirror-mtm`, class
//! tables, in the multi-tile one. In each directory the default file name
//! ([`default_file_name`]) is tried first, then every other `*.pdb` file in name order, the
//! uncompressed file of a name before its zstd and gzip copies. A file fits when it is for the same board and metric (a file of
//! the other metric is passed over in silence), a board symmetry takes its goal's blank cell
//! to the goal's blank cell, its tables cover every tile, and the solver reads its encoding.
//! Only headers are read while searching.

use pdbformat::format::{Compression, PdbFile};
use pdbformat::standard::{self, StandardDb};
use pdbformat::{Board, Goal, Metric, Symmetry};
use std::path::{Path, PathBuf};

/// The environment variable naming the first directory searched (and where builds go).
pub const ENV_VAR: &str = "PDB_DIR";

/// Where the cache directory lives under `$XDG_CACHE_HOME` or `~/.cache`.
pub const CACHE_SUBDIR: &str = "pdb-tiles";

/// The board's default database in `metric` in the standard set ([`standard::default_for`]):
/// on 4×4 `15-663-za` (the zero-aware 6-6-3 partition for the blank-first goal, `u8` entries,
/// uncompressed) in the single-tile metric, `15-rows+rokicki+rokicki-mirror-mtm` in the
/// multi-tile one.
pub fn default_db(board: Board, metric: Metric) -> Option<&'static StandardDb> {
    standard::default_for(board, metric)
}

/// The default database's file name (`15-663-za.pdb` on 4×4 in the single-tile metric), for
/// boards that have one in `metric`.
pub fn default_file_name(board: Board, metric: Metric) -> Option<String> {
    default_db(board, metric).map(|d| d.file_name())
}

/// Whether the default database in `metric` can be built for `goal`: a board with such a
/// default and a goal whose blank a board symmetry takes to the default's (a corner).
pub fn buildable(goal: &Goal, metric: Metric) -> bool {
    let board = goal.board();
    default_db(board, metric).is_some() && Symmetry::taking(board, 0, goal.blank_cell()).is_some()
}

/// One directory of the search order and why it is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchDir {
    /// The directory.
    pub path: PathBuf,
    /// Where it comes from (`$PDB_DIR`, `artifacts/`, `cache`).
    pub origin: &'static str,
}

/// The user cache directory for databases: `$XDG_CACHE_HOME/pdb-tiles` or
/// `$HOME/.cache/pdb-tiles`.
pub fn cache_dir() -> Option<PathBuf> {
    let nonempty = |v: &str| std::env::var_os(v).filter(|s| !s.is_empty());
    nonempty("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| nonempty("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .map(|d| d.join(CACHE_SUBDIR))
}

/// The directories searched, in order.
pub fn search_dirs() -> Vec<SearchDir> {
    let mut v = Vec::new();
    if let Some(d) = std::env::var_os(ENV_VAR).filter(|s| !s.is_empty()) {
        v.push(SearchDir {
            path: PathBuf::from(d),
            origin: "$PDB_DIR",
        });
    }
    v.push(SearchDir {
        path: PathBuf::from("artifacts"),
        origin: "artifacts/",
    });
    if let Some(d) = cache_dir() {
        v.push(SearchDir {
            path: d,
            origin: "cache",
        });
    }
    v
}

/// Where a missing default database is built: `$PDB_DIR` when set, otherwise the cache directory.
pub fn build_dir() -> Option<PathBuf> {
    std::env::var_os(ENV_VAR)
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(cache_dir)
}

/// The outcome of a search: the file found, if any, and files passed over with the reason.
#[derive(Clone, Debug, Default)]
pub struct Located {
    /// The first fitting file.
    pub path: Option<PathBuf>,
    /// Files for this board that could not be used, with why.
    pub skipped: Vec<(PathBuf, String)>,
}

/// Whether a file can serve a goal as a complete database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fit {
    /// It can.
    Fits,
    /// It is for another board (not worth mentioning).
    OtherBoard,
    /// It counts moves in another metric than the one searched for (a multi-tile class file
    /// when looking for single-tile tables, or the other way round); named with `--db` when
    /// wanted (not worth mentioning either).
    OtherMetric,
    /// It is for this board but cannot be used, with why.
    Unusable(String),
}

/// Whether the file at `path` can serve `goal` as a complete database in `metric` (header
/// only).
pub fn check_fits(path: &Path, goal: &Goal, metric: Metric) -> Fit {
    let file = match PdbFile::open(path) {
        Ok(f) => f,
        Err(e) => return Fit::Unusable(e.to_string()),
    };
    let h = file.header();
    let board = goal.board();
    if h.board() != board {
        return Fit::OtherBoard;
    }
    if h.metric != metric {
        return Fit::OtherMetric;
    }
    if Symmetry::taking(board, goal.blank_cell(), h.goal.blank_cell()).is_none() {
        return Fit::Unusable(format!("built for goal {}, which does not fit", h.goal));
    }
    let mut covered = vec![false; board.cells()];
    for t in &h.tables {
        for &x in t.pattern.tiles() {
            covered[x as usize] = true;
        }
    }
    if !covered[1..].iter().all(|&c| c) {
        return Fit::Unusable("its tables do not cover every tile".into());
    }
    Fit::Fits
}

/// Searches [`search_dirs`] for a database that fits `goal` in `metric` (see the module
/// documentation).
pub fn find_default(goal: &Goal, metric: Metric) -> Located {
    find_in(&search_dirs(), goal, metric)
}

/// Like [`find_default`] over the given directories.
pub fn find_in(dirs: &[SearchDir], goal: &Goal, metric: Metric) -> Located {
    let name = default_file_name(goal.board(), metric);
    find_preferring(dirs, goal, metric, name.as_deref())
}

/// Like [`find_in`], trying the file called `first` (when given) first in each directory
/// instead of the board's default file name.
pub fn find_preferring(
    dirs: &[SearchDir],
    goal: &Goal,
    metric: Metric,
    first: Option<&str>,
) -> Located {
    let mut out = Located::default();
    for dir in dirs {
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(name) = first {
            let p = dir.path.join(name);
            if p.is_file() {
                candidates.push(p);
            }
        }
        let mut others: Vec<PathBuf> = std::fs::read_dir(&dir.path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "pdb") && p.is_file())
            .filter(|p| !candidates.contains(p))
            .collect();
        others.sort_by_key(|p| load_order(p));
        candidates.extend(others);
        for p in candidates {
            match check_fits(&p, goal, metric) {
                Fit::Fits => {
                    out.path = Some(p);
                    return out;
                }
                Fit::OtherBoard | Fit::OtherMetric => {}
                Fit::Unusable(why) => out.skipped.push((p, why)),
            }
        }
    }
    out
}

/// The order in which the other files of a directory are tried: by database name, and for
/// one name the uncompressed file first (it is mapped, not decompressed), then zstd, then gzip.
fn load_order(path: &Path) -> (String, u8) {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match standard::split_file_name(&file_name) {
        Some((name, compression)) => {
            let rank = match compression {
                Compression::None => 0,
                Compression::Zstd | Compression::ZstdSymmetric => 1,
                Compression::Gzip => 2,
            };
            (name.to_string(), rank)
        }
        None => (file_name, 0),
    }
}

/// Where a standard database called by name lives: the first of `<name>.pdb`,
/// `<name>.zstd.pdb` and `<name>.gzip.pdb` in the first directory of [`search_dirs`] that
/// holds one.
pub fn find_standard(db: &StandardDb) -> Option<PathBuf> {
    find_standard_in(&search_dirs(), db)
}

/// Like [`find_standard`] over the given directories.
pub fn find_standard_in(dirs: &[SearchDir], db: &StandardDb) -> Option<PathBuf> {
    dirs.iter().find_map(|d| {
        [Compression::None, Compression::Zstd, Compression::Gzip]
            .into_iter()
            .map(|c| d.path.join(standard::variant_file_name(db, c)))
            .find(|p| p.is_file())
    })
}

/// What `build_default` (with the `build` feature) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Built {
    /// It built the file.
    Here,
    /// Another process built it while this one waited for the lock: the file is ready.
    Elsewhere,
}

/// Why [`build_default`] built nothing.
#[cfg(feature = "build")]
#[derive(Debug, thiserror::Error)]
pub enum BuildDefaultError {
    /// The folder or the lock file could not be made or locked.
    #[error("{context}")]
    Io {
        /// What was being done, with the path.
        context: String,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// The standard set's entry is inconsistent (a bug in `pdbformat::standard`).
    #[error(transparent)]
    Standard(#[from] standard::StandardError),
    /// The build itself failed.
    #[error("cannot build the default database")]
    Build(#[from] pdbgen::BuildError),
}

/// Builds the default database `db` (a board's [`default_db`]: a pattern file or a file of
/// class tables, built by [`pdbgen::build_standard`] either way) at `path`, reporting progress
/// to `observer`, and calling `waiting` with the lock file's path if another process holds the
/// lock (before waiting for it). Its goal is blank-first, so it serves every goal with the
/// blank in a corner. Creates the directory; the file appears only when complete (written to
/// a temporary file, then renamed). Needs the `build` feature, which brings in `pdbgen`.
///
/// Concurrent builds of one file wait for each other: the build holds an exclusive lock on
/// `.<file name>.lock` beside it (an advisory lock of the operating system, released when its
/// holder exits, so a killed build leaves nothing stale behind), and a process that obtains
/// the lock after another one built the file uses that file instead of building it again.
#[cfg(feature = "build")]
pub fn build_default(
    db: &StandardDb,
    path: &Path,
    observer: &dyn pdbgen::BuildObserver,
    waiting: &mut dyn FnMut(&Path),
) -> Result<Built, BuildDefaultError> {
    let io = |context: String| move |source| BuildDefaultError::Io { context, source };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io(format!("cannot create {}", dir.display())))?;
    let lock_path = dir.join(format!(
        ".{}.lock",
        path.file_name().unwrap_or_default().to_string_lossy()
    ));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(io(format!(
            "cannot create the lock {}",
            lock_path.display()
        )))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            waiting(&lock_path);
            lock.lock()
                .map_err(io(format!("cannot lock {}", lock_path.display())))?;
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(io(format!("cannot lock {}", lock_path.display()))(e))
        }
    }
    // Whoever held the lock before may have built the file meanwhile.
    if path.is_file() && check_fits(path, &db.goal()?, db.metric) == Fit::Fits {
        return Ok(Built::Elsewhere);
    }
    pdbgen::build_standard(db, path, None, observer)?;
    // The lock is released when `lock` is dropped (or the process ends).
    drop(lock);
    Ok(Built::Here)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_dirs() {
        let b = Board::new(4, 4).unwrap();
        assert_eq!(
            default_file_name(b, Metric::Stm).as_deref(),
            Some("15-663-za.pdb")
        );
        assert_eq!(
            default_file_name(b, Metric::Mtm).as_deref(),
            Some("15-rows+rokicki+rokicki-mirror-mtm.pdb")
        );
        let m = default_db(b, Metric::Mtm).unwrap();
        assert!(m.is_class_file() && m.metric == Metric::Mtm);
        // What the documentation and the search order promise agrees with the standard set.
        let d = default_db(b, Metric::Stm).unwrap();
        assert_eq!(d.name, "15-663-za");
        assert_eq!(standard::find("15-663-za"), Some(d));
        assert_eq!(d.goal().unwrap(), Goal::blank_first(b));
        assert_eq!(
            d.partition().unwrap(),
            pdbformat::Partition::preset(&Goal::blank_first(b), "663").unwrap()
        );
        assert_eq!(d.kind, pdbformat::TableKind::ZeroAware);
        assert_eq!(d.encoding, pdbformat::format::Encoding::U8);
        assert!(!d.large, "built on first use in seconds");
        for metric in [Metric::Stm, Metric::Mtm] {
            assert_eq!(default_file_name(Board::new(3, 3).unwrap(), metric), None);
            assert_eq!(default_file_name(Board::new(5, 4).unwrap(), metric), None);
        }
        assert!(buildable(&Goal::blank_last(b), Metric::Mtm));
        assert!(!buildable(
            &Goal::blank_first(Board::new(5, 5).unwrap()),
            Metric::Mtm
        ));
        let dirs = search_dirs();
        assert!(dirs.iter().any(|d| d.origin == "artifacts/"));
    }

    #[test]
    fn uncompressed_files_are_tried_first() {
        let mut files: Vec<PathBuf> = [
            "15-78-za-bit1.gzip.pdb",
            "15-78-za-bit1.zstd.pdb",
            "15-78-za-bit1.pdb",
            "15-78b-za-bit1.gzip.pdb",
            "15-78b-za-bit1.pdb",
            "mine.pdb",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        files.sort_by_key(|p| load_order(p));
        let names: Vec<_> = files.iter().map(|p| p.to_str().unwrap()).collect();
        assert_eq!(
            names,
            [
                "15-78-za-bit1.pdb",
                "15-78-za-bit1.zstd.pdb",
                "15-78-za-bit1.gzip.pdb",
                "15-78b-za-bit1.pdb",
                "15-78b-za-bit1.gzip.pdb",
                "mine.pdb",
            ]
        );
    }
}
