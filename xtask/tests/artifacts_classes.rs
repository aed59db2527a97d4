//! The artifacts pipeline on a standard class file (`8-rows-mtm`, milliseconds to build): built
//! to the committed manifest's digests, recorded as the manifest records it (a metric and a
//! labelling per table instead of patterns), checked by the manifest and `pdbgen verify`'s
//! class check, and found wrong when damaged or built with another labelling or metric;
//! compressed (plain zstd and gzip), published and verified like a pattern file.

use crate::common;

use common::{committed, quiet};
use pdbformat::format::Compression;
use pdbformat::format::{write_class_pdb, ClassTableSource, LoadOptions, PdbFile, WriteOptions};
use pdbformat::rank::ClassLabels;
use pdbformat::standard::{self, StandardDb};
use pdbformat::Metric;
use xtask::artifacts::build::{build_dir, Outcome};
use xtask::artifacts::compress::CompressOptions;
use xtask::artifacts::publish::{check_release, publish_dir, PublishOptions, Release, JSON_FILE};
use xtask::artifacts::record::{record_dir, Change};
use xtask::artifacts::verify::{check_file, semantic_problems, verify_dir, Status};
use xtask::artifacts::{raw_path, variant_path};
use xtask::manifest::{DbRecord, Manifest};

fn entry() -> &'static StandardDb {
    standard::lookup("8-rows-mtm").unwrap()
}

fn status(dir: &std::path::Path) -> Status {
    check_file(
        &raw_path(dir, entry()),
        entry(),
        pdbformat::format::Compression::None,
        committed().get(entry().name),
    )
}

#[test]
fn a_class_file_builds_records_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let m = committed();
    let done = build_dir(dir.path(), &m, &[entry()], &quiet())
        .expect("the class file rebuilds to the manifest's digests");
    assert!(matches!(done[0].1, Outcome::Built { .. }));
    assert_eq!(status(dir.path()), Status::Ok);
    let reports = verify_dir(dir.path(), &m, &[entry()], true);
    assert_eq!(reports.len(), 1, "no compressed variants");
    assert_eq!(reports[0].status, Status::Ok);
    let f = PdbFile::open(raw_path(dir.path(), entry())).unwrap();
    assert_eq!(semantic_problems(&f).unwrap(), Vec::<String>::new());

    // The record: the metric and a labelling per table, no partition, kind or patterns; the
    // same as the committed one.
    let rec = DbRecord::from_header(entry().name, f.header()).unwrap();
    assert_eq!(rec.metric.as_deref(), Some("mtm"));
    assert!(rec.partition.is_empty() && rec.kind.is_empty());
    assert_eq!(rec.tables.len(), 1);
    assert_eq!(rec.tables[0].classes.as_deref(), Some("goal-rows"));
    assert!(rec.tables[0].pattern.is_empty());
    assert_eq!(Some(&rec), m.get(entry().name));
    assert!(rec.differences_from_standard(entry()).is_empty());
    let text = Manifest {
        databases: vec![rec.clone()],
        ..Manifest::default()
    }
    .to_toml()
    .unwrap();
    assert!(
        text.contains("metric = \"mtm\"") && text.contains("classes = \"goal-rows\""),
        "{text}"
    );
    let record = text.split_once("[[database]]").unwrap().1;
    assert!(
        !record.contains("partition") && !record.contains("pattern"),
        "{record}"
    );
    let mut fresh = Manifest::default();
    let changes = record_dir(dir.path(), &mut fresh, &[entry().name.into()], true).unwrap();
    assert_eq!(changes, vec![(entry().name, Change::New)]);
    assert_eq!(fresh.get(entry().name), Some(&rec));
    drop(f);

    // A record that names a pattern partition or another labelling is not sound.
    let mut wrong = rec.clone();
    wrong.tables[0].classes = Some("goal-columns".into());
    wrong.kind = "zero-aware".into();
    let p = wrong.differences_from_standard(entry()).join("\n");
    assert!(p.contains("goal-columns") && p.contains("kind"), "{p}");
    let mut stm = rec.clone();
    stm.metric = None;
    let p = stm.differences_from_standard(entry()).join("\n");
    assert!(p.contains("metric"), "{p}");
}

#[test]
fn the_manifest_check_finds_damaged_and_other_class_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = raw_path(dir.path(), entry());
    pdbgen::build_standard(entry(), &path, Some(1), &pdbgen::NoProgress).unwrap();
    let good = std::fs::read(&path).unwrap();
    assert_eq!(status(dir.path()), Status::Ok);

    // A flipped byte in the payload.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    assert!(matches!(status(dir.path()), Status::Corrupt(_)));

    // Another labelling, then the single-tile metric.
    for (labels, metric, word) in [
        (ClassLabels::Columns, Metric::Mtm, "goal-columns"),
        (ClassLabels::Rows, Metric::Stm, "metric"),
    ] {
        let req = pdbgen::ClassBuildRequest {
            labels: vec![labels],
            metric,
            ..pdbgen::ClassBuildRequest::standard(entry(), Some(1)).unwrap()
        };
        pdbgen::build_class_file(&req, &path, &pdbgen::NoProgress).unwrap();
        let st = status(dir.path());
        assert!(
            matches!(&st, Status::Wrong(w) if w.iter().any(|x| x.contains(word))),
            "{st}"
        );
    }

    // Same parameters, one entry changed, checksums recomputed: the digest tells, and so does
    // the class check of `pdbgen verify`.
    std::fs::write(&path, &good).unwrap();
    let f = PdbFile::open(&path).unwrap();
    let t = f.load(0, LoadOptions::default()).unwrap();
    let mut entries = t.bytes.to_vec();
    let i = entries.iter().position(|&v| v > 2).unwrap();
    entries[i] += 2;
    let h = f.header().clone();
    drop((t, f));
    let src = ClassTableSource {
        labels: h.tables[0].classes.unwrap(),
        encoding: h.tables[0].encoding,
        max_value: h.tables[0].max_value.max(entries[i]),
        entries: &entries,
    };
    write_class_pdb(&path, &h.goal, h.metric, &[src], &WriteOptions::default()).unwrap();
    PdbFile::open(&path).unwrap().verify().unwrap();
    let st = status(dir.path());
    assert!(
        matches!(&st, Status::Wrong(w) if w.iter().any(|x| x.contains("SHA-256"))),
        "{st}"
    );
    let f = PdbFile::open(&path).unwrap();
    assert!(!semantic_problems(&f).unwrap().is_empty());
}

#[test]
fn a_class_file_is_compressed_published_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    let m = committed();
    build_dir(dir.path(), &m, &[entry()], &quiet()).unwrap();
    let rel = dir.path().join("release");
    let opts = PublishOptions {
        compress: CompressOptions {
            zstd_level: 9,
            zstd_workers: 1,
            ..CompressOptions::default()
        },
        force: false,
    };
    let release = publish_dir(dir.path(), &rel, &m, &[entry()], &opts).unwrap();
    assert_eq!(release.databases.len(), 1);
    let db = &release.databases[0];
    let rec = m.get(entry().name).unwrap();
    assert_eq!(db.metric.as_deref(), Some("mtm"));
    assert!(db.partition.is_empty() && db.kind.is_empty());
    assert_eq!(db.tables.len(), 1);
    assert_eq!(db.tables[0].classes.as_deref(), Some("goal-rows"));
    assert_eq!(db.tables[0].tiles, (1..=8).collect::<Vec<u8>>());
    assert_eq!(db.tables[0].raw_sha256, rec.tables[0].raw_sha256);
    let json: Release =
        serde_json::from_str(&std::fs::read_to_string(rel.join(JSON_FILE)).unwrap()).unwrap();
    assert_eq!(&json, &release);
    // Both variants: class tables in the multi-tile metric, the raw file's entries, the zstd
    // one plain zstd (zstd-sym is for zero-aware pattern tables).
    let names: Vec<&str> = db.files.iter().map(|f| f.file.as_str()).collect();
    assert_eq!(names, ["8-rows-mtm.zstd.pdb", "8-rows-mtm.gzip.pdb"]);
    for (file, c) in [
        ("8-rows-mtm.zstd.pdb", Compression::Zstd),
        ("8-rows-mtm.gzip.pdb", Compression::Gzip),
    ] {
        let f = PdbFile::open(rel.join(file)).unwrap();
        f.verify().unwrap();
        let h = f.header();
        assert_eq!(h.metric, Metric::Mtm);
        assert_eq!(h.tables[0].classes, Some(ClassLabels::Rows));
        assert_eq!(h.tables[0].compression, c);
        assert_eq!(h.tables[0].raw_digest.hex(), rec.tables[0].raw_sha256);
        assert_eq!(semantic_problems(&f).unwrap(), Vec::<String>::new());
        assert!(variant_path(dir.path(), entry(), c).exists());
    }
    assert_eq!(check_release(&rel, &m).unwrap(), Vec::<String>::new());
    // The variants left beside the raw file pass `artifacts verify`.
    let reports = verify_dir(dir.path(), &m, &[entry()], true);
    assert_eq!(reports.len(), 3);
    assert!(
        reports.iter().all(|r| r.status == Status::Ok),
        "{reports:?}"
    );
    // A damaged variant in the release is caught.
    let victim = rel.join("8-rows-mtm.gzip.pdb");
    let mut bytes = std::fs::read(&victim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 4;
    std::fs::write(&victim, &bytes).unwrap();
    let problems = check_release(&rel, &m).unwrap();
    assert!(
        problems.iter().any(|p| p.contains("8-rows-mtm.gzip.pdb")),
        "{problems:?}"
    );
}
