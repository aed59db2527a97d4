//! [`ResolveObserver`]: what resolving a heuristic reports while it finds, opens and builds
//! databases, for a front-end to print its own way.

use crate::Database;
use pdbformat::Board;
use std::path::Path;

/// What [`super::Resolver::resolve`] tells its caller on the way. Every method has an empty
/// default, so a caller that prints nothing passes [`Quiet`].
pub trait ResolveObserver: Sync {
    /// A file of the board that was passed over while looking for the default database.
    fn skipped(&self, path: &Path, why: &str) {
        let _ = (path, why);
    }

    /// `done` of `total` bytes of the file at `path` are read or decoded.
    fn loading(&self, path: &Path, done: u64, total: u64) {
        let _ = (path, done, total);
    }

    /// A file is opened and loaded (once per file per resolver).
    fn loaded(&self, db: &Database) {
        let _ = db;
    }

    /// No database fits, and the default one of `board` is about to be built at `path`;
    /// `searched` lists the folders looked in.
    fn building(&self, board: Board, path: &Path, searched: &str) {
        let _ = (board, path, searched);
    }

    /// Another process holds the build's lock file `lock`; the build waits for it.
    fn waiting(&self, lock: &Path) {
        let _ = lock;
    }

    /// The default database is ready at `path` after `seconds`: built by this process
    /// (`here`), or by another one it waited for.
    fn built(&self, path: &Path, seconds: f64, here: bool) {
        let _ = (path, seconds, here);
    }

    /// No database fits and none is built: the heuristic falls back to the classic one, for
    /// the reason given (a sentence without a final stop).
    fn falling_back(&self, why: &str) {
        let _ = why;
    }

    /// Where the default database's build reports its progress (and how it is stopped).
    #[cfg(feature = "build")]
    fn build_observer(&self) -> &dyn pdbgen::BuildObserver {
        &pdbgen::NoProgress
    }
}

/// The observer that reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl ResolveObserver for Quiet {}
