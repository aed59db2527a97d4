//! The resumable state of a build ([`BuildState`]): a folder beside the output (`OUT.partial/`)
//! holding what a build killed at any moment needs to go on from where it was, so that the
//! same command run again continues from the last piece saved and writes the same bytes.
//!
//! Its pieces ([`piece`]), each checksummed and written atomically: `params` (what is built:
//! board, goal, partition, kind, encoding, compression, ranks), `table-I` (a finished table's
//! encoded entries and figures) and `table-I-level-D` (table `I`'s working table after its
//! level `D`, with the level counts so far). A piece that does not check, or that belongs to
//! another build, is named in [`BuildState::refused`] and removed; the build resumes from the
//! last position whose pieces all check.
//!
//! What is saved: a finished table (but not the last one searched: the file, written right
//! after it, is its durable form) or a working table after a level, when the BFS has run at
//! least [`SAVE_RATIO`] times as long since the last piece as writing this one is expected to
//! take, so that saving costs at most about 1/[`SAVE_RATIO`] of the build: a table searched
//! in seconds is searched again rather than saved. Writing a piece
//! into the page cache is all the build waits for: flushing it to disk and renaming it into
//! place run on a thread of their own, one piece at a time (a distributed build waits for
//! them, then every rank removes its older pieces together).
//!
//! One concept per file: [`open`] (opening a state and checking its pieces), [`resume`]
//! (where a build resumes), `agree` (the ranks of a distributed build agreeing on it),
//! [`policy`] (when a piece is worth saving), [`flush`] (pieces flushed and renamed on a
//! thread of their own), [`tables`] (the tables' pieces saved and loaded), [`names`] (the
//! folder's and the pieces' names), [`files`] (removal and errors) and [`piece`] (one piece's
//! format).

#[cfg(feature = "mpi")]
mod agree;
mod files;
mod flush;
mod names;
mod open;
mod piece;
mod policy;
mod resume;
mod tables;

pub use policy::SAVE_RATIO;
pub use resume::ResumePoint;
pub(crate) use tables::summary_of;

#[cfg(feature = "mpi")]
pub(crate) use open::remove_empty_state;

use crate::error::BuildError;
use files::{remove_any, state_error};
use flush::Flusher;
use policy::SavePolicy;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// How a build keeps its state.
#[derive(Clone, Copy, Debug, Default)]
pub struct StateOptions {
    /// Discard any state found and start from the beginning.
    pub fresh: bool,
    /// Save after every level and every finished table, whatever it costs (for tests).
    pub every_level: bool,
    /// Wait for each piece to be flushed to disk and in place before the build goes on,
    /// instead of letting a thread of its own do that while the BFS runs: what a build
    /// stopped at a given point leaves then never depends on timing (for tests that stop
    /// builds at chosen points; slower).
    pub synchronous: bool,
}

/// A piece of a state that was refused, and why.
#[derive(Clone, Debug)]
pub struct Refused {
    /// The piece (a file in the state's folder), or the folder.
    pub piece: PathBuf,
    /// What is wrong with it.
    pub why: String,
}

/// The resumable state of one build (one rank's, in a distributed build), in a folder beside
/// its output. Open it with [`BuildState::open`] before the build and hand it to
/// [`crate::build_file_with_state`]; the build removes it once the file is in place.
pub struct BuildState {
    dir: PathBuf,
    /// The hex digest of the parameters, written in every piece.
    tag: String,
    refused: Vec<Refused>,
    discarded: bool,
    /// Tables whose finished piece checks.
    finished: BTreeSet<usize>,
    /// Per table, the levels whose working table checks.
    levels: BTreeMap<usize, BTreeSet<u8>>,
    /// Which tables the build searches (the others are derived from an earlier one).
    searched: Vec<bool>,
    resume: ResumePoint,
    /// When a piece is worth saving.
    policy: SavePolicy,
    /// The piece being flushed and renamed on its own thread.
    flusher: Flusher,
}

impl BuildState {
    /// The state's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The pieces found damaged or belonging to another build, and removed.
    pub fn refused(&self) -> &[Refused] {
        &self.refused
    }

    /// Whether a state was there and `fresh` discarded it.
    pub fn discarded(&self) -> bool {
        self.discarded
    }

    /// Where the build resumes (`table` 0 without a level: from the beginning). In a
    /// distributed build, the ranks may agree on an earlier point when the build starts.
    pub fn resume_point(&self) -> ResumePoint {
        self.resume
    }

    /// Waits until the last piece saved is on disk under its name.
    pub(crate) fn wait(&mut self) -> Result<(), BuildError> {
        self.flusher.wait().map_err(state_error(&self.dir))
    }

    /// Removes the state's folder, once the file is in place.
    pub(crate) fn finish(&mut self) -> Result<(), BuildError> {
        self.wait()?;
        remove_any(&self.dir).map_err(state_error(&self.dir))
    }
}
