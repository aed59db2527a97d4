//! The digest check beside the search: every table's entries checked against its header's
//! SHA-256 digest on a thread of its own ([`BackgroundCheck`]), and the verdict that
//! [`Database::wait_verified`] (and so [`crate::solve`]) waits for.

use super::{Database, DbError, LoadedTable};
use pdbformat::format::{Digest, FormatError};
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

/// The first table whose entries do not match their digest: (table, expected, found).
type Mismatch = (usize, Digest, Digest);

/// A digest check of every table on a thread of its own, and its verdict once joined.
#[derive(Debug)]
pub(super) struct BackgroundCheck {
    thread: Mutex<Option<JoinHandle<Result<(), Mismatch>>>>,
    verdict: OnceLock<Result<(), Mismatch>>,
}

impl BackgroundCheck {
    /// Starts checking `tables` (in file order) against their headers' digests.
    pub(super) fn start(tables: Vec<Arc<LoadedTable>>) -> std::io::Result<BackgroundCheck> {
        let handle = std::thread::Builder::new()
            .name("pdb-verify".into())
            .spawn(move || check_digests(&tables))?;
        Ok(BackgroundCheck {
            thread: Mutex::new(Some(handle)),
            verdict: OnceLock::new(),
        })
    }

    /// The verdict, waiting for the thread if it still runs; `None` if the thread died
    /// before giving one.
    fn wait(&self) -> Option<Result<(), Mismatch>> {
        if let Some(v) = self.verdict.get() {
            return Some(*v);
        }
        let mut guard = self.thread.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(handle) = guard.take() {
            if let Ok(v) = handle.join() {
                let _ = self.verdict.set(v);
            }
        }
        self.verdict.get().copied()
    }
}

/// Checks each table's entries against its header's digest, in file order.
pub(super) fn check_digests(tables: &[Arc<LoadedTable>]) -> Result<(), Mismatch> {
    for (i, t) in tables.iter().enumerate() {
        let entries = t.entries();
        if let Err(FormatError::ChecksumMismatch {
            expected, found, ..
        }) = t.header.check_entries(i, entries)
        {
            return Err((i, expected, found));
        }
    }
    Ok(())
}

impl Database {
    /// Waits for the background digest check of [`crate::OpenOptions::verify_in_background`], if one
    /// runs, and gives its verdict: `Ok` when every table matched (or no background check was
    /// asked for), the corruption error otherwise. Cheap once the check has finished.
    pub fn wait_verified(&self) -> Result<(), DbError> {
        let Some(check) = &self.background else {
            return Ok(());
        };
        match check.wait() {
            Some(Ok(())) => Ok(()),
            Some(Err(m)) => Err(mismatch(&self.path, m)),
            None => Err(DbError::Unverified {
                path: self.path.clone(),
            }),
        }
    }
}

/// The corruption error of a digest mismatch found by the background check.
pub(super) fn mismatch(path: &Path, (table, expected, found): Mismatch) -> DbError {
    DbError::Format {
        path: path.to_path_buf(),
        source: FormatError::ChecksumMismatch {
            table,
            what: "entries",
            expected,
            found,
        },
    }
}
