//! Building the standard databases of [`pdbformat::standard`]: the [`BuildRequest`] a pattern
//! file describes, the [`ClassBuildRequest`] of a class file, and the build itself. `xtask
//! artifacts build` and the solver's first-use build both come here, so they write the same
//! bytes.

use crate::build::build_file;
use crate::class_build::{build_class_file, ClassBuildRequest};
use crate::error::BuildError;
use crate::observer::{BuildObserver, TableSummary};
use crate::request::BuildRequest;
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
/// `threads` workers (`None`: all cores), as [`build_file`] does with
/// [`BuildRequest::standard`] or, for a class file, [`build_class_file`] with
/// [`ClassBuildRequest::standard`]; `xtask` and the solver's first-use build both come here, so
/// they write the same bytes.
pub fn build_standard(
    db: &StandardDb,
    path: &Path,
    threads: Option<usize>,
    obs: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    if db.is_class_file() {
        build_class_file(&ClassBuildRequest::standard(db, threads)?, path, obs)
    } else {
        build_file(&BuildRequest::standard(db, threads)?, path, obs)
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
