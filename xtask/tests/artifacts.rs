//! The artifacts pipeline on temporary folders with the small standard tables: rebuilt tables
//! reproduce the committed manifest; the manifest check catches flipped bytes, truncation and
//! files built with other parameters; the boards' pruning machines are written, checked and
//! shipped; publish → verify round trip; the command line's exit codes.

use crate::common;

use common::{committed, quiet};
use pdbformat::format::{write_pdb, LoadOptions, PdbFile, TableSource, WriteOptions};
use pdbformat::standard::{self, StandardDb};
use pdbformat::{Board, Goal};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use xtask::artifacts::build::{build_dir, BuildOptions, Outcome};
use xtask::artifacts::compress::CompressOptions;
use xtask::artifacts::machine;
use xtask::artifacts::publish::{
    check_release, parse_sums, publish_dir, PublishOptions, Release, JSON_FILE, SUMS_FILE,
};
use xtask::artifacts::record::{record_dir, Change};
use xtask::artifacts::verify::{check_file, semantic_problems, verify_dir, Status};
use xtask::artifacts::{default_dir, manifest_path, raw_path};
use xtask::manifest::{pattern_names, Manifest};

/// The small standard databases: everything but 7-8.
fn small() -> Vec<&'static StandardDb> {
    standard::STANDARD.iter().filter(|s| !s.large).collect()
}

/// One build of the small standard tables for the whole test binary, checked against the
/// committed manifest (build_dir fails when a fresh build differs from it).
fn built() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let done = build_dir(dir.path(), &committed(), &small(), &quiet())
            .expect("the small standard tables rebuild to the manifest's digests");
        assert!(done.iter().all(|(_, o)| matches!(o, Outcome::Built { .. })));
        dir
    })
    .path()
}

/// A fresh artifacts folder holding copies of `names` from [`built`], their boards' pruning
/// machines and the committed manifest.
fn folder_with(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for n in names {
        let s = standard::find(n).unwrap();
        std::fs::copy(raw_path(built(), s), raw_path(dir.path(), s)).unwrap();
        let board = s.board().unwrap();
        if let Some(from) = machine::path_for(built(), board) {
            std::fs::copy(from, machine::path_for(dir.path(), board).unwrap()).unwrap();
        }
    }
    std::fs::copy(manifest_path(&default_dir()), manifest_path(dir.path())).unwrap();
    dir
}

fn status(dir: &Path, name: &str) -> Status {
    let s = standard::find(name).unwrap();
    check_file(
        &raw_path(dir, s),
        s,
        pdbformat::format::Compression::None,
        committed().get(name),
    )
}

/// Every standard entry, the large ones included (which the tests do not build), asks for the
/// tables its manifest record describes: the same patterns, kind, encoding and entry counts
/// (`pdbgen::plan` works them out without building anything).
#[test]
fn every_standard_entry_plans_the_tables_of_its_record() {
    let m = committed();
    for s in standard::STANDARD {
        let rec = m.get(s.name).unwrap();
        if s.is_class_file() {
            // A class file: its metric, and a labelling and entry count per table.
            let req = pdbgen::ClassBuildRequest::standard(s, None).unwrap();
            let labels: Vec<String> = req.labels.iter().map(|l| l.to_string()).collect();
            let recorded: Vec<&str> = (rec.tables.iter())
                .map(|t| t.classes.as_deref().unwrap())
                .collect();
            assert_eq!(labels, recorded, "{}", s.name);
            for (t, &l) in rec.tables.iter().zip(&req.labels) {
                let n = xtask::manifest::class_entries(&req.goal, l).unwrap();
                assert_eq!(t.entries, n, "{}", s.name);
            }
            assert_eq!(rec.metric.as_deref(), Some(s.metric.name()), "{}", s.name);
            assert_eq!(rec.encoding, s.encoding.name(), "{}", s.name);
            assert!(
                rec.partition.is_empty() && rec.kind.is_empty(),
                "{}",
                s.name
            );
            continue;
        }
        let req = pdbgen::BuildRequest::standard(s, None).unwrap();
        let plan = pdbgen::plan(&req).unwrap();
        let patterns = pattern_names(&req.partition);
        let recorded: Vec<&str> = rec.tables.iter().map(|t| t.pattern.as_str()).collect();
        assert_eq!(patterns, recorded, "{}", s.name);
        let counts: Vec<u64> = rec.tables.iter().map(|t| t.entries).collect();
        assert_eq!(plan.entries, counts, "{}", s.name);
        assert_eq!(plan.entries.iter().sum::<u64>(), rec.entries, "{}", s.name);
        assert_eq!(
            (rec.kind.as_str(), rec.encoding.as_str()),
            (s.kind.name(), s.encoding.name()),
            "{}",
            s.name
        );
        assert_eq!(rec.board, format!("{}x{}", s.width, s.height));
    }
}

#[test]
fn the_committed_manifest_is_sound_and_complete() {
    let m = committed();
    assert!(m.problems().is_empty(), "{:?}", m.problems());
    for s in standard::STANDARD {
        assert!(m.get(s.name).is_some(), "{} is not recorded", s.name);
    }
}

#[test]
fn small_standard_tables_rebuild_to_the_manifest_digests() {
    let reports = verify_dir(built(), &committed(), &small(), false);
    assert_eq!(reports.len(), small().len());
    for r in &reports {
        assert_eq!(r.status, Status::Ok, "{}", r.file);
    }
}

#[test]
fn the_manifest_check_finds_flipped_bytes_truncation_and_other_parameters() {
    let dir = folder_with(&["8-full-za"]);
    let path = raw_path(dir.path(), standard::find("8-full-za").unwrap());
    let good = std::fs::read(&path).unwrap();
    assert_eq!(status(dir.path(), "8-full-za"), Status::Ok);

    // A flipped byte in the payload (checksums), then in the header.
    for at in [good.len() - 1, 30] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        std::fs::write(&path, &bad).unwrap();
        let st = status(dir.path(), "8-full-za");
        assert!(matches!(st, Status::Corrupt(_)), "byte {at}: {st}");
    }

    // A truncated file.
    std::fs::write(&path, &good[..good.len() - 1000]).unwrap();
    let st = status(dir.path(), "8-full-za");
    assert!(
        matches!(&st, Status::Corrupt(w) if w.contains("runcated")),
        "{st}"
    );

    // Other parameters: the zero-unaware table, and a build for another goal.
    let zu = raw_path(built(), standard::find("8-full-zu").unwrap());
    std::fs::copy(&zu, &path).unwrap();
    let st = status(dir.path(), "8-full-za");
    assert!(
        matches!(&st, Status::Wrong(w) if w.iter().any(|x| x.contains("zero-unaware"))),
        "{st}"
    );
    let s = standard::find("8-full-za").unwrap();
    let mut req = pdbgen::BuildRequest::standard(s, None).unwrap();
    req.goal = Goal::blank_last(s.board().unwrap());
    pdbgen::build_file(&req, &path, &pdbgen::NoProgress).unwrap();
    let st = status(dir.path(), "8-full-za");
    assert!(
        matches!(&st, Status::Wrong(w) if w.iter().any(|x| x.contains("goal"))),
        "{st}"
    );

    // Same parameters, one entry changed, checksums recomputed: only the digest tells.
    std::fs::write(&path, &good).unwrap();
    let f = PdbFile::open(&path).unwrap();
    let t = f.load(0, LoadOptions::default()).unwrap();
    let mut entries = t.bytes.to_vec();
    let i = entries.iter().position(|&v| v > 1 && v < 30).unwrap();
    entries[i] += 2;
    let h = f.header().clone();
    drop((t, f));
    let src = TableSource {
        kind: h.tables[0].kind,
        pattern: &h.tables[0].pattern,
        encoding: h.tables[0].encoding,
        max_value: h.tables[0].max_value,
        entries: &entries,
    };
    write_pdb(&path, &h.goal, &[src], &WriteOptions::default()).unwrap();
    PdbFile::open(&path).unwrap().verify().unwrap();
    let st = status(dir.path(), "8-full-za");
    assert!(
        matches!(&st, Status::Wrong(w) if w.iter().any(|x| x.contains("SHA-256"))),
        "{st}"
    );

    // Missing.
    std::fs::remove_file(&path).unwrap();
    assert_eq!(status(dir.path(), "8-full-za"), Status::Missing);
}

#[test]
fn verify_fails_on_a_wrong_file_and_passes_with_missing_ones() {
    let dir = folder_with(&["8-full-za", "8-full-zu"]);
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(xtask::artifacts::verify::run(dir.path(), &[], false, false).unwrap());
    assert!(!xtask::artifacts::verify::run(dir.path(), &[], true, false).unwrap());
    assert!(xtask::artifacts::verify::run(
        dir.path(),
        &names(&["8-full-za", "8-full-zu"]),
        true,
        true
    )
    .unwrap());
    let za = raw_path(dir.path(), standard::find("8-full-za").unwrap());
    std::fs::copy(
        raw_path(dir.path(), standard::find("8-full-zu").unwrap()),
        &za,
    )
    .unwrap();
    assert!(!xtask::artifacts::verify::run(dir.path(), &[], false, false).unwrap());
    assert!(
        xtask::artifacts::verify::run(dir.path(), &names(&["8-full-9"]), false, false).is_err()
    );
}

#[test]
fn build_skips_valid_files_and_rebuilds_damaged_ones() {
    let dir = folder_with(&["8-full-za"]);
    let s = standard::find("8-full-za").unwrap();
    let m = committed();
    let done = build_dir(dir.path(), &m, &[s], &quiet()).unwrap();
    assert_eq!(done[0].1, Outcome::Skipped);
    let path = raw_path(dir.path(), s);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let done = build_dir(dir.path(), &m, &[s], &quiet()).unwrap();
    assert!(matches!(done[0].1, Outcome::Built { .. }));
    assert_eq!(status(dir.path(), "8-full-za"), Status::Ok);
    let forced = BuildOptions {
        force: true,
        ..quiet()
    };
    let done = build_dir(dir.path(), &m, &[s], &forced).unwrap();
    assert!(matches!(done[0].1, Outcome::Built { .. }));
}

#[test]
fn a_build_that_differs_from_the_manifest_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = committed();
    let rec = m
        .databases
        .iter_mut()
        .find(|d| d.name == "8-full-za")
        .unwrap();
    rec.tables[0].raw_sha256 = "00".repeat(32);
    let s = standard::find("8-full-za").unwrap();
    let e = build_dir(dir.path(), &m, &[s], &quiet()).unwrap_err();
    assert!(
        format!("{e:#}").contains("differ from the manifest"),
        "{e:#}"
    );
}

#[test]
fn record_reproduces_the_committed_records() {
    let dir = folder_with(&["8-full-za", "15-555-zu"]);
    let mut m = Manifest::load_or_empty(&dir.path().join("none.toml")).unwrap();
    let changes = record_dir(dir.path(), &mut m, &[], true).unwrap();
    assert_eq!(changes.len(), 2);
    assert!(changes.iter().all(|(_, c)| *c == Change::New));
    let c = committed();
    for d in &m.databases {
        assert_eq!(Some(d), c.get(&d.name));
    }
    // A wrong file is not recorded.
    let za = raw_path(dir.path(), standard::find("8-full-za").unwrap());
    std::fs::copy(raw_path(built(), standard::find("8-full-zu").unwrap()), &za).unwrap();
    assert!(record_dir(dir.path(), &mut m, &["8-full-za".into()], false).is_err());
    // Naming a file that is not there is an error.
    assert!(record_dir(dir.path(), &mut m, &["15-663-za".into()], false).is_err());
}

#[test]
fn publish_then_verify_round_trip() {
    let names = ["8-full-za", "8-full-zu", "15-555-za", "15-555-zu"];
    let dir = folder_with(&names);
    let dbs: Vec<&StandardDb> = names.iter().map(|n| standard::find(n).unwrap()).collect();
    let out = tempfile::tempdir().unwrap();
    let rel = out.path().join("release");
    let m = committed();
    let opts = PublishOptions {
        compress: CompressOptions {
            zstd_level: 9,
            ..CompressOptions::default()
        },
        force: false,
    };
    let release = publish_dir(dir.path(), &rel, &m, &dbs, &opts).unwrap();
    assert_eq!(release.databases.len(), 4);

    // The folder: two files per database, a pruning machine per board, the JSON manifest and
    // the sums.
    let mut files: Vec<String> = std::fs::read_dir(&rel)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(files.len(), 12, "{files:?}");
    assert!(files.contains(&"prune-3x3-d12.fsm".to_string()));
    assert!(files.contains(&"prune-4x4-d12.fsm".to_string()));
    assert!(files.contains(&"15-555-za.zstd.pdb".to_string()));
    assert!(files.contains(&"8-full-zu.gzip.pdb".to_string()));
    // The full 3x3 zero-aware table is its own transpose: its zstd file keeps half of it.
    let sym = pdbformat::format::PdbFile::open(rel.join("8-full-za.zstd.pdb")).unwrap();
    assert_eq!(
        sym.header().tables[0].compression,
        pdbformat::format::Compression::ZstdSymmetric
    );
    #[cfg(unix)]
    for f in &files {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(rel.join(f)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "{f} is not readable by everyone");
    }

    // manifest.json says what the committed manifest says, and the files' digests.
    let json: Release =
        serde_json::from_str(&std::fs::read_to_string(rel.join(JSON_FILE)).unwrap()).unwrap();
    assert_eq!(json, release);
    for db in &json.databases {
        let rec = m.get(&db.name).unwrap();
        assert_eq!(
            (
                &db.board,
                &db.goal,
                &db.partition,
                &db.kind,
                &db.encoding,
                db.entries
            ),
            (
                &rec.board,
                &rec.goal,
                &rec.partition,
                &rec.kind,
                &rec.encoding,
                rec.entries
            )
        );
        for (t, r) in db.tables.iter().zip(&rec.tables) {
            assert_eq!((t.entries, &t.raw_sha256), (r.entries, &r.raw_sha256));
        }
        assert_eq!(db.files.len(), 2);
        for f in &db.files {
            let path = rel.join(&f.file);
            assert_eq!(std::fs::metadata(&path).unwrap().len(), f.size);
            assert_eq!(xtask::file_sha256(&path).unwrap().hex(), f.sha256);
        }
    }

    // Each machine is listed with its board, depth, states and digest, and is the solver's.
    assert_eq!(json.pruning.len(), 2);
    for mach in &json.pruning {
        let board: pdbformat::Board = mach.board.parse().unwrap();
        let path = rel.join(&mach.file);
        assert_eq!(Some(path.clone()), machine::path_for(&rel, board));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), mach.size);
        assert_eq!(xtask::file_sha256(&path).unwrap().hex(), mach.sha256);
        let read = machine::check(&path, board, mach.word_depth).unwrap();
        let fresh = pdbsolver::prune::Pruner::new(board, mach.word_depth);
        assert_eq!(
            (read.states(), read.words()),
            (fresh.states(), fresh.words())
        );
        assert_eq!(read.states(), mach.states);
    }

    // SHA256SUMS lists every other file, in the format sha256sum -c reads.
    let sums = parse_sums(&std::fs::read_to_string(rel.join(SUMS_FILE)).unwrap()).unwrap();
    assert_eq!(sums.len(), 11);
    if Command::new("sha256sum").arg("--version").output().is_ok() {
        let ok = Command::new("sha256sum")
            .args(["-c", "--quiet", SUMS_FILE])
            .current_dir(&rel)
            .status()
            .unwrap();
        assert!(ok.success());
    }

    // What `pdbgen verify` does: checksums, then the semantic check; and the manifest check.
    assert!(check_release(&rel, &m).unwrap().is_empty());
    for f in files.iter().filter(|f| f.ends_with(".pdb")) {
        let file = PdbFile::open(rel.join(f)).unwrap();
        file.verify().unwrap();
        assert!(semantic_problems(&file).unwrap().is_empty(), "{f}");
    }

    // The compressed variants left in the artifacts folder pass `artifacts verify` too.
    let reports = verify_dir(dir.path(), &m, &dbs, false);
    assert_eq!(reports.len(), 12);
    assert!(reports.iter().all(|r| r.status == Status::Ok));

    // A damaged release is caught; an occupied folder needs --force.
    let victim = rel.join("15-555-zu.gzip.pdb");
    let mut bytes = std::fs::read(&victim).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 4;
    std::fs::write(&victim, &bytes).unwrap();
    let problems = check_release(&rel, &m).unwrap();
    assert!(
        problems.iter().any(|p| p.contains("15-555-zu.gzip.pdb")),
        "{problems:?}"
    );
    assert!(publish_dir(dir.path(), &rel, &m, &dbs, &opts).is_err());
    let again = PublishOptions {
        force: true,
        ..opts
    };
    publish_dir(dir.path(), &rel, &m, &dbs, &again).unwrap();
    assert!(check_release(&rel, &m).unwrap().is_empty());

    // So is a damaged machine, in the release and in the artifacts folder.
    let fsm = rel.join("prune-4x4-d12.fsm");
    let mut bytes = std::fs::read(&fsm).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&fsm, &bytes).unwrap();
    let problems = check_release(&rel, &m).unwrap();
    assert!(
        problems.iter().any(|p| p.contains("prune-4x4-d12.fsm")),
        "{problems:?}"
    );
    let source = machine::path_for(dir.path(), Board::new(4, 4).unwrap()).unwrap();
    let kept = std::fs::read(&source).unwrap();
    std::fs::write(&source, &bytes).unwrap();
    let e = publish_dir(dir.path(), &rel, &m, &dbs, &again).unwrap_err();
    assert!(format!("{e:#}").contains("rebuild it"), "{e:#}");
    std::fs::write(&source, kept).unwrap();
    publish_dir(dir.path(), &rel, &m, &dbs, &again).unwrap();
    assert!(check_release(&rel, &m).unwrap().is_empty());

    // Nothing is published that the manifest does not vouch for.
    let za = raw_path(dir.path(), dbs[0]);
    std::fs::copy(raw_path(dir.path(), dbs[1]), &za).unwrap();
    let e = publish_dir(dir.path(), &out.path().join("other"), &m, &dbs, &opts).unwrap_err();
    assert!(format!("{e:#}").contains("WRONG"), "{e:#}");
}

fn xtask_cmd(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xtask"));
    c.arg("artifacts").arg("--dir").arg(dir);
    c
}

#[test]
fn the_command_line_reports_errors_with_exit_codes() {
    let dir = folder_with(&["8-full-za"]);
    let out = xtask_cmd(dir.path()).arg("verify").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("8-full-za.pdb") && text.contains("OK"),
        "{text}"
    );
    assert!(text.contains("MISSING"), "{text}");

    let out = xtask_cmd(dir.path())
        .args(["build", "15-999-za"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown database") && !err.contains("panicked"),
        "{err}"
    );

    let path: PathBuf = raw_path(dir.path(), standard::find("8-full-za").unwrap());
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let out = xtask_cmd(dir.path()).arg("verify").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("CORRUPT"));

    std::fs::write(
        manifest_path(dir.path()),
        "manifest_version = 1\n[[database]]\n",
    )
    .unwrap();
    let out = xtask_cmd(dir.path()).arg("verify").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("manifest") && !err.contains("panicked"),
        "{err}"
    );
}

/// `artifacts verify --semantic` checks bit1 tables too, through their restored values (it
/// reported them as uncheckable before the check moved into pdbgen's library).
#[test]
fn the_semantic_check_covers_bit1_tables() {
    use pdbformat::format::Encoding;
    use pdbformat::{Board, Partition, TableKind};
    let dir = tempfile::tempdir().unwrap();
    let b = Board::new(3, 3).unwrap();
    let goal = Goal::blank_first(b);
    let req = pdbgen::BuildRequest {
        partition: Partition::parse(&goal, "1-4/5-8").unwrap(),
        goal,
        kind: TableKind::ZeroAware,
        threads: Some(1),
        encoding: Encoding::Bit1,
        write: WriteOptions::default(),
    };
    let good = dir.path().join("bit1.pdb");
    pdbgen::build_file(&req, &good, &pdbgen::NoProgress).unwrap();
    let file = PdbFile::open(&good).unwrap();
    assert!(semantic_problems(&file).unwrap().is_empty());
    // One bit flipped in table 1, checksums recomputed: only the semantic check can tell.
    let h = file.header().clone();
    let load = |i| file.load(i, LoadOptions::default()).unwrap();
    let tables = [load(0), load(1)];
    let mut bits = tables[1].bytes.to_vec();
    bits[20] ^= 0x04;
    let mut srcs: Vec<TableSource> = tables.iter().map(|t| t.source()).collect();
    srcs[1].entries = &bits;
    let bad = dir.path().join("flipped.pdb");
    write_pdb(&bad, &h.goal, &srcs, &WriteOptions::default()).unwrap();
    let bad = PdbFile::open(&bad).unwrap();
    bad.verify().unwrap();
    let problems = semantic_problems(&bad).unwrap();
    assert!(!problems.is_empty());
    assert!(
        problems.iter().all(|p| p.starts_with("table 1 [5-8]: ")),
        "{problems:?}"
    );
}

/// `artifacts build` writes each board's pruning machine beside the databases: built when
/// missing, kept when valid, rebuilt when damaged or forced; none for boards whose machine the
/// solver builds in milliseconds.
#[test]
fn build_writes_the_boards_pruning_machines() {
    for board in [Board::new(3, 3).unwrap(), Board::new(4, 4).unwrap()] {
        let path = machine::path_for(built(), board).unwrap();
        let depth = machine::depth_for(board).unwrap();
        assert!(machine::check(&path, board, depth).is_ok());
    }
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(3, 3).unwrap();
    let built_once = machine::ensure(dir.path(), board, false, true).unwrap();
    assert!(matches!(built_once, Some(machine::Outcome::Built { .. })));
    let path = machine::path_for(dir.path(), board).unwrap();
    let good = std::fs::read(&path).unwrap();
    let kept = machine::ensure(dir.path(), board, false, true).unwrap();
    assert_eq!(kept, Some(machine::Outcome::Kept));
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 8;
    std::fs::write(&path, &bad).unwrap();
    let rebuilt = machine::ensure(dir.path(), board, false, true).unwrap();
    assert!(matches!(rebuilt, Some(machine::Outcome::Built { .. })));
    assert_eq!(std::fs::read(&path).unwrap(), good);
    let forced = machine::ensure(dir.path(), board, true, true).unwrap();
    assert!(matches!(forced, Some(machine::Outcome::Built { .. })));
    // 6x6 machines are built in milliseconds at the default depth (10): no file.
    let big = Board::new(6, 6).unwrap();
    assert_eq!(machine::depth_for(big), None);
    assert_eq!(machine::ensure(dir.path(), big, false, true).unwrap(), None);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
