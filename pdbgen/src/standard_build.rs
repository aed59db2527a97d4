//! Building the standard databases of [`pdbformat::standard`]: the [`BuildRequest`] a pattern
//! file describes, the [`ClassBuildRequest`] of a class file, and the build itself, resumable.
//! `xtask artifacts build` and the solver's first-use build both come here, so they write the
//! same bytes, and a first-use build of minutes that is killed goes on where it stopped.

use crate::build::build_file_with_state;
use crate::class_build::{build_class_file, ClassBuildRequest};
use crate::error::BuildError;
use crate::observer::{BuildObserver, TableSummary};
use crate::request::BuildRequest;
use crate::state::{BuildState, StateOptions};
use pdbformat::format::WriteOptions;
use pdbformat::standard::{StandardDb, StandardError};
use std::path::Path;

impl BuildRequest {
    /// What [`build_file`] needs to build standard pattern file `db` with `threads` workers
    /// (`None` for all cores): its goal, partition, kind and encoding, uncompressed. A class
    /// file has no partition: that is an error ([`ClassBuildRequest::standard`] builds it).
    pub fn standard(
        db: &StandardDb,
        threads: Option<usize>,
    ) -> Result<BuildRequest, StandardError> {
        Ok(BuildRequest {
            goal: db.goal()?,
            partition: db.partition()?,
            kind: db.kind,
            threads,
            encoding: db.encoding,
            write: WriteOptions::default(),
        })
    }
}

impl ClassBuildRequest {
    /// What [`build_class_file`] needs to build standard class file `db` with `threads`
    /// workers (`None` for all cores): its goal, metric, labellings and encoding,
    /// uncompressed. A pattern file has no labellings: that is an error.
    pub fn standard(
        db: &StandardDb,
        threads: Option<usize>,
    ) -> Result<ClassBuildRequest, StandardError> {
        Ok(ClassBuildRequest {
            goal: db.goal()?,
            metric: db.metric,
            labels: db.labels()?,
            threads,
            encoding: Some(db.encoding),
            write: WriteOptions::default(),
        })
    }
}

/// Builds standard database `db` at `path` (through a temporary file renamed into place) with
/// `threads` workers (`None`: all cores); `xtask` and the solver's first-use build both come
/// here, so they write the same bytes. A pattern file is built as
/// [`crate::build_file_with_state`] builds [`BuildRequest::standard`]: resumable, its state in
/// `PATH.partial/` beside the file while it is built, so that a build killed on the way goes
/// on from its last save when run again (and the same bytes come out). A class file is built
/// by [`build_class_file`] with [`ClassBuildRequest::standard`] (seconds to minutes; not
/// resumable).
pub fn build_standard(
    db: &StandardDb,
    path: &Path,
    threads: Option<usize>,
    obs: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    build_standard_with(db, path, threads, StateOptions::default(), obs)
}

/// [`build_standard`] with the resumable state's options `state` (tests save every level).
fn build_standard_with(
    db: &StandardDb,
    path: &Path,
    threads: Option<usize>,
    state: StateOptions,
    obs: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    if db.is_class_file() {
        build_class_file(&ClassBuildRequest::standard(db, threads)?, path, obs)
    } else {
        let req = BuildRequest::standard(db, threads)?;
        let state = BuildState::open(&req, path, state)?;
        build_file_with_state(&req, path, state, obs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NoProgress;
    use pdbformat::format::{Compression, Encoding, PdbFile};
    use pdbformat::standard::{self, STANDARD};
    use pdbformat::TableKind;

    #[test]
    fn every_entry_makes_a_request_that_matches_it() {
        for db in STANDARD {
            if db.is_class_file() {
                assert!(BuildRequest::standard(db, Some(1)).is_err(), "{}", db.name);
                let r = ClassBuildRequest::standard(db, Some(1)).unwrap();
                assert_eq!(r.goal, db.goal().unwrap());
                assert_eq!((r.metric, &r.labels), (db.metric, &db.labels().unwrap()));
                assert_eq!(r.encoding, Some(db.encoding));
                assert_eq!(r.write.compression, Compression::None);
                assert_eq!(r.threads, Some(1));
                continue;
            }
            assert!(
                ClassBuildRequest::standard(db, Some(1)).is_err(),
                "{}",
                db.name
            );
            let r = BuildRequest::standard(db, Some(1)).unwrap();
            assert_eq!(r.goal, db.goal().unwrap());
            assert_eq!(r.partition, db.partition().unwrap());
            assert_eq!((r.kind, r.encoding), (db.kind, db.encoding));
            assert_eq!(r.write.compression, Compression::None);
            assert_eq!(r.threads, Some(1));
        }
    }

    #[test]
    fn a_built_entry_is_what_it_says() {
        let dir = tempfile::tempdir().unwrap();
        let db = standard::lookup("8-full-zu").unwrap();
        let path = dir.path().join(db.file_name());
        let summaries = build_standard(db, &path, Some(2), &NoProgress).unwrap();
        assert_eq!(summaries.len(), 1);
        let f = PdbFile::open(&path).unwrap();
        let h = f.header();
        assert_eq!(h.goal, db.goal().unwrap());
        assert_eq!(h.tables.len(), 1);
        let t = &h.tables[0];
        assert_eq!(t.kind, TableKind::ZeroUnaware);
        assert_eq!(
            (t.encoding, t.compression),
            (Encoding::U8, Compression::None)
        );
        assert_eq!(t.pattern.to_string(), "1-8");
        assert_eq!(t.max_value, 31);
        f.verify().unwrap();
        // An entry that does not resolve is an error, and nothing is written.
        let bad =
            pdbformat::standard::StandardDb::square("15-99-za", 4, "99", TableKind::ZeroAware);
        let p = dir.path().join("bad.pdb");
        assert!(matches!(
            build_standard(&bad, &p, Some(1), &NoProgress),
            Err(BuildError::Standard(_))
        ));
        assert!(!p.exists());
    }

    /// Stops a build (by a panic) after a chosen level of its first table, once.
    struct StopAfter(u8, std::sync::atomic::AtomicBool);

    impl BuildObserver for StopAfter {
        fn after_level(&self, table: usize, depth: u8) {
            if table == 0
                && depth == self.0
                && !self.1.swap(true, std::sync::atomic::Ordering::SeqCst)
            {
                panic!("stopped after level {depth}");
            }
        }
    }

    /// Records the levels a build starts, by table.
    #[derive(Default)]
    struct Levels(std::sync::Mutex<Vec<(usize, u8)>>);

    impl BuildObserver for Levels {
        fn level_started(&self, table: usize, depth: u8) {
            self.0.lock().unwrap().push((table, depth));
        }
    }

    #[test]
    fn a_stopped_standard_build_goes_on_where_it_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let db = standard::lookup("15-555-za").unwrap();
        let whole = dir.path().join("whole.pdb");
        build_standard(db, &whole, Some(2), &NoProgress).unwrap();
        let path = dir.path().join(db.file_name());
        let stop = StopAfter(8, Default::default());
        // Every level saved, synchronously: where a stopped build resumes depends on nothing
        // else (a first-use build saves a level when it is worth it).
        let every_level = StateOptions {
            every_level: true,
            synchronous: true,
            ..StateOptions::default()
        };
        let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            build_standard_with(db, &path, Some(2), every_level, &stop)
        }));
        assert!(stopped.is_err(), "the build was stopped");
        assert!(!path.exists());
        assert!(
            dir.path().join("15-555-za.pdb.partial").is_dir(),
            "its state stays"
        );
        let levels = Levels::default();
        build_standard(db, &path, Some(2), &levels).unwrap();
        let started = levels.0.into_inner().unwrap();
        // It goes on after the level it stopped after, then builds the other tables.
        assert_eq!(started.first(), Some(&(0, 9)), "{started:?}");
        assert!(
            !started.iter().any(|&(t, d)| t == 0 && d <= 8),
            "{started:?}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&whole).unwrap()
        );
        assert!(
            !dir.path().join("15-555-za.pdb.partial").exists(),
            "the state is gone"
        );
    }

    #[test]
    fn a_built_class_file_is_what_it_says() {
        let dir = tempfile::tempdir().unwrap();
        let db = standard::lookup("8-rows-mtm").unwrap();
        let path = dir.path().join(db.file_name());
        let summaries = build_standard(db, &path, Some(2), &NoProgress).unwrap();
        assert_eq!(summaries.len(), 1);
        let f = PdbFile::open(&path).unwrap();
        let h = f.header();
        assert_eq!((&h.goal, h.metric), (&db.goal().unwrap(), db.metric));
        assert_eq!(h.tables.len(), 1);
        let t = &h.tables[0];
        assert_eq!(t.classes, Some(pdbformat::rank::ClassLabels::Rows));
        assert_eq!(
            (t.encoding, t.compression),
            (Encoding::U8, Compression::None)
        );
        assert_eq!(t.max_value, summaries[0].max_value);
        f.verify().unwrap();
        let opts = crate::VerifyOptions {
            threads: Some(2),
            ..crate::VerifyOptions::semantic()
        };
        let report = crate::verify_file(&path, opts, &NoProgress).unwrap();
        assert!(report.passed() && report.tables[0].semantic, "{report:?}");
    }
}
