//! Pieces flushed and renamed on a thread of their own: writing a piece into the page cache is
//! all the build waits for, while the flush to disk, the rename into place and the removal of
//! the pieces it makes obsolete run beside the BFS, one piece at a time (or before the build
//! goes on, with [`super::StateOptions::synchronous`]).

use super::files::{remove_any, state_error};
use super::piece::{write_piece, Unflushed};
use super::BuildState;
use crate::error::BuildError;
use std::io;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::Instant;

/// The piece being flushed and renamed on its own thread, if any.
pub(super) struct Flusher {
    pending: Option<JoinHandle<io::Result<()>>>,
    /// Wait for every piece before the build goes on.
    synchronous: bool,
}

impl Flusher {
    /// No piece on its way; with `synchronous`, every piece is waited for.
    pub(super) fn new(synchronous: bool) -> Flusher {
        Flusher {
            pending: None,
            synchronous,
        }
    }

    /// Flushes and renames `piece` on a thread of its own, which then removes the `obsolete`
    /// pieces. The piece before it must have been waited for.
    fn start(&mut self, piece: Unflushed, obsolete: Vec<PathBuf>) -> io::Result<()> {
        debug_assert!(self.pending.is_none());
        self.pending = Some(
            std::thread::Builder::new()
                .name("pdbgen-state".into())
                .spawn(move || {
                    piece.put_in_place()?;
                    obsolete.iter().try_for_each(|p| remove_any(p))
                })?,
        );
        Ok(())
    }

    /// Waits until the last piece started is on disk under its name.
    pub(super) fn wait(&mut self) -> io::Result<()> {
        match self.pending.take() {
            Some(h) => h
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("panicked"))),
            None => Ok(()),
        }
    }
}

impl BuildState {
    /// Writes a piece into the page cache, then flushes and renames it on its own thread
    /// (after the one before it), which then removes the `obsolete` pieces.
    pub(super) fn save(
        &mut self,
        path: &Path,
        meta: &str,
        payload: &[u8],
        obsolete: Vec<PathBuf>,
    ) -> Result<(), BuildError> {
        let start = Instant::now();
        self.wait()?;
        let unflushed = write_piece(path, meta, payload).map_err(state_error(path))?;
        self.flusher
            .start(unflushed, obsolete)
            .map_err(state_error(path))?;
        if self.flusher.synchronous {
            self.wait()?;
        }
        self.policy
            .saved(payload.len(), start.elapsed().as_secs_f64());
        Ok(())
    }
}
