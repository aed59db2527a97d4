//! The state's files on disk: removing pieces and folders, and the errors of its files.

use super::piece::Bad;
use crate::error::BuildError;
use std::io;
use std::path::Path;

/// Removes a file or a folder with everything in it; nothing there is fine.
pub(super) fn remove_any(path: &Path) -> io::Result<()> {
    let r = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    match r {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        r => r,
    }
}

/// The error of the state's file `path`.
pub(super) fn state_error(path: &Path) -> impl FnOnce(io::Error) -> BuildError + '_ {
    move |source| BuildError::State {
        path: path.to_path_buf(),
        source,
    }
}

/// The error of a piece that no longer reads back (it checked when the state was opened).
pub(super) fn bad(path: &Path) -> impl FnOnce(Bad) -> BuildError + '_ {
    move |b| BuildError::State {
        path: path.to_path_buf(),
        source: match b {
            Bad::Io(e) => e,
            Bad::Damaged(why) => io::Error::new(io::ErrorKind::InvalidData, why),
        },
    }
}
