//! A file being written that gets its name only once it is complete.
//!
//! On Linux the file is created anonymous in the target folder (`O_TMPFILE`): it has no name
//! while it is written, so no fault that ends the process (a kill, running out of memory, an
//! MPI job ended because another rank died) can leave a partial file behind. When it is
//! complete it is linked in beside the target under a fresh temporary name and renamed over
//! the target at once. Where anonymous files are not available (other systems, file systems
//! without them, no `/proc`), it is a named temporary file (`.pdb-partial-*`) beside the
//! target, removed on every error the process survives.

use std::fs::File;
use std::io;
use std::path::Path;

/// The prefix of the temporary names beside the target.
const PREFIX: &str = ".pdb-partial-";

/// A file being written in the folder of its future name.
pub(crate) enum PendingFile {
    /// An anonymous file (`O_TMPFILE`).
    #[cfg(target_os = "linux")]
    Anonymous(File),
    /// A named temporary file, removed when dropped.
    Named(tempfile::NamedTempFile),
}

impl PendingFile {
    /// A new empty file in `dir`: anonymous where the system allows it, else named.
    pub(crate) fn create_in(dir: &Path) -> io::Result<PendingFile> {
        #[cfg(target_os = "linux")]
        if let Some(f) = linux::anonymous_in(dir) {
            return Ok(PendingFile::Anonymous(f));
        }
        Ok(PendingFile::Named(
            tempfile::Builder::new().prefix(PREFIX).tempfile_in(dir)?,
        ))
    }

    /// Whether the file has no name yet (and so cannot outlive the process).
    #[cfg(test)]
    pub(crate) fn is_anonymous(&self) -> bool {
        match self {
            #[cfg(target_os = "linux")]
            PendingFile::Anonymous(_) => true,
            PendingFile::Named(_) => false,
        }
    }

    /// The open file.
    pub(crate) fn file(&mut self) -> &mut File {
        match self {
            #[cfg(target_os = "linux")]
            PendingFile::Anonymous(f) => f,
            PendingFile::Named(t) => t.as_file_mut(),
        }
    }

    /// Gives the complete file the name `path` (in the folder it was created in), replacing
    /// any file there.
    pub(crate) fn persist(self, path: &Path) -> io::Result<()> {
        match self {
            #[cfg(target_os = "linux")]
            PendingFile::Anonymous(f) => {
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                // A fresh name beside the target (removed again if the rename fails), then the
                // rename: the target is replaced at once, as with a named temporary file.
                let linked = tempfile::Builder::new()
                    .prefix(PREFIX)
                    .make_in(dir, |name| linux::link(&f, name))?;
                linked.persist(path).map(drop).map_err(|e| e.error)
            }
            PendingFile::Named(t) => t.persist(path).map(drop).map_err(|e| e.error),
        }
    }
}

/// Writes `bytes` as the file `path` so that no fault leaves a partial file: through a
/// [`PendingFile`] in the same folder (anonymous on Linux: a killed writer leaves nothing at
/// all), synced, then named over `path` at once. For the small files written beside the
/// databases (pruning machines, checkpoints).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut p = PendingFile::create_in(dir)?;
    p.file().write_all(bytes)?;
    p.file().sync_all()?;
    p.persist(path)
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::CString;
    use std::fs::{File, OpenOptions};
    use std::io;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    use std::os::unix::io::AsRawFd;
    use std::path::Path;

    /// An anonymous file in `dir`, readable and writable by its owner once named; `None` where
    /// the file system has none, or where `/proc` (through which it is named) is missing.
    pub(super) fn anonymous_in(dir: &Path) -> Option<File> {
        if !Path::new("/proc/self/fd").is_dir() {
            return None;
        }
        OpenOptions::new()
            .read(true)
            .write(true)
            .mode(0o600)
            .custom_flags(libc::O_TMPFILE)
            .open(dir)
            .ok()
    }

    /// Gives the anonymous file `f` the name `name`.
    pub(super) fn link(f: &File, name: &Path) -> io::Result<()> {
        let from = CString::new(format!("/proc/self/fd/{}", f.as_raw_fd()))?;
        let to = CString::new(name.as_os_str().as_bytes())?;
        // SAFETY: both arguments are NUL-terminated strings that outlive the call.
        let r = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                from.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if r == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_pending_file_is_named_only_once_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.pdb");
        std::fs::write(&target, b"old").unwrap();
        let mut p = PendingFile::create_in(dir.path()).unwrap();
        p.file().write_all(b"new contents").unwrap();
        let names = || std::fs::read_dir(dir.path()).unwrap().count();
        // Only the old file is there while the new one is written (a named temporary file
        // where anonymous ones are not available).
        assert_eq!(names(), if p.is_anonymous() { 1 } else { 2 });
        p.persist(&target).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new contents");
        assert_eq!(names(), 1);
    }

    #[test]
    fn a_file_written_atomically_replaces_the_old_one_and_nothing_else_stays() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("machine.fsm");
        write_atomically(&target, b"first").unwrap();
        write_atomically(&target, b"second").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"second");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // A folder that is not there: an error, and nothing written.
        assert!(write_atomically(&dir.path().join("no/such/f"), b"x").is_err());
    }

    #[test]
    fn a_dropped_pending_file_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = PendingFile::create_in(dir.path()).unwrap();
        p.file().write_all(b"partial").unwrap();
        drop(p);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
