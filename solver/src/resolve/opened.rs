//! The databases a resolver has opened, each file once: a file named again (a catalogue whose
//! partitions share tables, a second request for the same goal) is the same loaded database,
//! which the heuristic then looks up once per move for all the groups that name it.

use super::{ResolveError, ResolveObserver};
use crate::{Database, OpenOptions, Residence};
use pdbformat::Goal;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Opened databases by canonical path and residence.
#[derive(Debug, Default)]
pub(super) struct Opened {
    files: Mutex<Vec<(PathBuf, Residence, Arc<Database>)>>,
}

impl Opened {
    /// The database at `path`, opened (and its digests checked beside the caller when
    /// `verify`) the first time, the same one afterwards; `goal`, when given, is checked
    /// against the header before any entry is read.
    pub(super) fn open(
        &self,
        path: &Path,
        goal: Option<&Goal>,
        verify: bool,
        residence: Residence,
        observer: &dyn ResolveObserver,
    ) -> Result<Arc<Database>, ResolveError> {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let found = self
            .lock()
            .iter()
            .find_map(|(p, r, db)| (*p == key && *r == residence).then(|| db.clone()));
        if let Some(db) = found {
            if let Some(goal) = goal {
                db.frame_for(goal)?;
            }
            return Ok(db);
        }
        let options = OpenOptions {
            verify,
            verify_in_background: true,
            expect_goal: goal.cloned(),
            residence,
        };
        let db = Database::open_with(path, options, &mut |done, total| {
            observer.loading(path, done, total)
        })?;
        observer.loaded(&db);
        let db = Arc::new(db);
        self.lock().push((key, residence, db.clone()));
        Ok(db)
    }

    /// The list, whatever a panicking holder left.
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(PathBuf, Residence, Arc<Database>)>> {
        self.files.lock().unwrap_or_else(|e| e.into_inner())
    }
}
