//! The one resolver of every front-end: database names and paths, the default database found
//! in the search folders, the classic heuristics and the fallback, a server's named
//! databases, each file opened once, and the errors by cause.

use crate::common;

use common::write_db;
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal, Puzzle};
use pdbsolver::locate::SearchDir;
use pdbsolver::{
    DbChoice, HeuristicChoice, HeuristicName, Quiet, Request, ResolveError, ResolveObserver,
    ResolveOptions, Resolver,
};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The 3x3 blank-first goal.
fn goal33() -> Goal {
    Goal::blank_first(Board::new(3, 3).unwrap())
}

/// A folder holding a zero-aware 4-4 database of the 3x3 board, `8-44-za.pdb`.
fn folder_with_3x3() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_db(
        &dir.path().join("8-44-za.pdb"),
        &goal33(),
        &[&[1, 2, 3, 4], &[5, 6, 7, 8]],
        TableKind::ZeroAware,
    );
    dir
}

/// A resolver that searches only `dir` and never builds.
fn resolver_in(dir: &Path) -> Resolver {
    Resolver::new(ResolveOptions {
        build: false,
        ..ResolveOptions::default()
    })
    .searching(vec![SearchDir {
        path: dir.to_path_buf(),
        origin: "test",
    }])
}

/// A request naming `heuristic` (auto when `None`).
fn asking(heuristic: Option<HeuristicName>) -> Request {
    Request {
        heuristic,
        ..Request::default()
    }
}

/// Records what the resolver reports.
#[derive(Default)]
struct Log(Mutex<Vec<String>>);

impl ResolveObserver for Log {
    fn loaded(&self, db: &pdbsolver::Database) {
        self.0
            .lock()
            .unwrap()
            .push(format!("loaded {}", db.path().display()));
    }
    fn falling_back(&self, why: &str) {
        self.0.lock().unwrap().push(format!("fallback: {why}"));
    }
}

#[test]
fn auto_finds_the_fitting_file_and_solves_with_it() {
    let dir = folder_with_3x3();
    let log = Log::default();
    let r = resolver_in(dir.path())
        .resolve(&asking(None), &[], &goal33(), &log)
        .unwrap();
    let HeuristicChoice::Pdb { databases, reflect } = &r.heuristic else {
        panic!("expected a database heuristic, got {}", r.description);
    };
    assert_eq!(databases.len(), 1);
    assert!(reflect);
    assert!(
        r.description.starts_with("pdb 8-44-za.pdb [1-4/5-8]"),
        "{}",
        r.description
    );
    assert_eq!(log.0.lock().unwrap().len(), 1, "one file loaded");
    // The heuristic it made solves optimally: the length a breadth-first search over every
    // 3x3 position gives.
    let puzzle = Puzzle::parse("8 6 7 2 5 4 3 0 1", None).unwrap();
    let search = pdbsolver::Search::default();
    let s = pdbsolver::solve(&search, &r.heuristic, &puzzle, &goal33()).unwrap();
    let distances = common::all_distances(&goal33());
    assert_eq!(
        s.moves.len(),
        distances[common::distance_key(&puzzle)] as usize
    );
}

#[test]
fn a_file_named_twice_is_opened_once() {
    let dir = folder_with_3x3();
    let path = dir.path().join("8-44-za.pdb").display().to_string();
    let log = Log::default();
    let resolver = resolver_in(dir.path());
    let twice = [DbChoice::Named(path.clone()), DbChoice::Named(path)];
    let dbs = resolver.databases(&twice, Some(&goal33()), &log).unwrap();
    assert!(Arc::ptr_eq(&dbs[0], &dbs[1]));
    // A later request reuses it too.
    let again = resolver
        .resolve(&asking(None), &[], &goal33(), &log)
        .unwrap();
    let HeuristicChoice::Pdb { databases, .. } = &again.heuristic else {
        panic!("expected a database heuristic");
    };
    assert!(Arc::ptr_eq(&databases[0], &dbs[0]));
    assert_eq!(
        log.0.lock().unwrap().len(),
        1,
        "{:?}",
        log.0.lock().unwrap()
    );
}

#[test]
fn classic_names_take_no_database() {
    let dir = folder_with_3x3();
    let resolver = resolver_in(dir.path());
    for (name, words) in [
        (HeuristicName::Manhattan, "manhattan"),
        (HeuristicName::LinearConflict, "manhattan + linear conflict"),
        (HeuristicName::Hamming, "misplaced tiles (hamming)"),
    ] {
        let r = resolver
            .resolve(&asking(Some(name)), &[], &goal33(), &Quiet)
            .unwrap();
        assert_eq!(r.heuristic.name(), name);
        assert_eq!(r.description, words);
        assert_eq!(r.load_seconds, 0.0);
        let named = [DbChoice::Named("8-44-za.pdb".into())];
        let e = resolver
            .resolve(&asking(Some(name)), &named, &goal33(), &Quiet)
            .unwrap_err();
        assert!(
            matches!(e, ResolveError::DatabasesNeedPdb(n) if n == name),
            "{e}"
        );
    }
}

#[test]
fn no_fitting_database_falls_back_unless_pdb_is_named() {
    let empty = tempfile::tempdir().unwrap();
    let resolver = resolver_in(empty.path());
    let log = Log::default();
    let r = resolver
        .resolve(&asking(None), &[], &goal33(), &log)
        .unwrap();
    assert!(matches!(r.heuristic, HeuristicChoice::LinearConflict));
    assert_eq!(
        r.description,
        "manhattan + linear conflict (no database fits)"
    );
    let lines = log.0.lock().unwrap().clone();
    assert_eq!(lines.len(), 1);
    assert!(
        lines[0].contains("no pattern database fits the 3x3 board")
            && lines[0].contains("no default database for this board"),
        "{lines:?}"
    );
    let e = resolver
        .resolve(&asking(Some(HeuristicName::Pdb)), &[], &goal33(), &Quiet)
        .unwrap_err();
    assert!(matches!(e, ResolveError::NoneFits { .. }), "{e}");
    assert!(e.is_unfit());
}

#[test]
fn a_missing_standard_database_says_how_to_build_it() {
    let empty = tempfile::tempdir().unwrap();
    let named = [DbChoice::Named("15-78-za-bit1".into())];
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let e = resolver_in(empty.path())
        .resolve(&asking(None), &named, &goal, &Quiet)
        .unwrap_err();
    let text = e.to_string();
    assert!(matches!(e, ResolveError::NotFound { .. }));
    assert!(
        text.contains("15-78-za-bit1") && text.contains("pdbgen build --board 4x4 --partition 78"),
        "{text}"
    );
    // A catalogue names the member that is missing, and itself.
    let named = [DbChoice::Named("15-78+78b-za-bit1".into())];
    let text = resolver_in(empty.path())
        .resolve(&asking(None), &named, &goal, &Quiet)
        .unwrap_err()
        .to_string();
    assert!(text.contains("(in catalogue 15-78+78b-za-bit1)"), "{text}");
}

#[test]
fn a_database_for_another_board_is_refused_as_unfit() {
    let dir = folder_with_3x3();
    let named = [DbChoice::Named(
        dir.path().join("8-44-za.pdb").display().to_string(),
    )];
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let e = resolver_in(dir.path())
        .resolve(&asking(None), &named, &goal, &Quiet)
        .unwrap_err();
    assert!(e.is_unfit(), "{e}");
    assert!(e.to_string().contains("is for a 3x3 board"), "{e}");
}

#[test]
fn a_serving_resolver_chooses_among_its_databases_by_name() {
    let dir = folder_with_3x3();
    let db = resolver_in(dir.path())
        .default_database(&goal33(), pdbformat::Metric::Stm, &Quiet)
        .unwrap()
        .unwrap();
    let served = Resolver::serving(vec![("small".into(), db.clone())]);
    assert_eq!(served.served().len(), 1);
    // Without names: every served database that fits.
    let r = served
        .resolve(&asking(None), &[], &goal33(), &Quiet)
        .unwrap();
    assert!(
        matches!(&r.heuristic, HeuristicChoice::Pdb { databases, .. } if Arc::ptr_eq(&databases[0], &db))
    );
    // By name.
    let by_name = [DbChoice::Named("small".into())];
    assert!(served
        .resolve(&asking(None), &by_name, &goal33(), &Quiet)
        .is_ok());
    // An unknown name lists what the server has.
    let unknown = [DbChoice::Named("big".into())];
    let e = served
        .resolve(&asking(None), &unknown, &goal33(), &Quiet)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown database \"big\": this server has small"
    );
    // A goal none of them serves: the fallback, or an error when pdb is named.
    let goal = Goal::blank_first(Board::new(4, 3).unwrap());
    let r = served.resolve(&asking(None), &[], &goal, &Quiet).unwrap();
    assert!(matches!(r.heuristic, HeuristicChoice::LinearConflict));
    let e = served
        .resolve(&asking(Some(HeuristicName::Pdb)), &[], &goal, &Quiet)
        .unwrap_err();
    assert!(
        e.to_string().contains("among the databases of this server"),
        "{e}"
    );
}

#[test]
fn algorithms_without_a_heuristic_load_nothing() {
    let dir = folder_with_3x3();
    let log = Log::default();
    let mut request = Request::default();
    request.set("algorithm", "bfs").unwrap();
    let r = resolver_in(dir.path())
        .resolve(&request, &[], &goal33(), &log)
        .unwrap();
    assert_eq!(r.description, "none");
    assert!(log.0.lock().unwrap().is_empty());
}

#[test]
fn boards_past_the_heuristics_limit_are_refused() {
    let goal = Goal::blank_first(Board::new(9, 9).unwrap());
    let e = Resolver::new(ResolveOptions::default())
        .resolve(&asking(None), &[], &goal, &Quiet)
        .unwrap_err();
    assert!(
        matches!(e, ResolveError::BoardTooLarge { cells: 81, .. }),
        "{e}"
    );
}

#[test]
fn a_multi_tile_class_table_in_a_search_folder_is_passed_over_in_silence() {
    // Alone in the folder, the class table is no default database (it counts moves in MTM);
    // beside a fitting file it is skipped without a word and the fitting file is found.
    let dir = tempfile::tempdir().unwrap();
    let req = pdbgen::ClassBuildRequest {
        goal: goal33(),
        metric: pdbformat::Metric::Mtm,
        labels: pdbgen::default_labels(&goal33()),
        threads: Some(1),
        encoding: None,
        write: pdbformat::format::WriteOptions::default(),
    };
    let class_file = dir.path().join("8-rows-mtm.pdb");
    pdbgen::build_class_file(&req, &class_file, &pdbgen::NoProgress).unwrap();
    let dirs = [SearchDir {
        path: dir.path().to_path_buf(),
        origin: "test",
    }];
    assert_eq!(
        pdbsolver::locate::check_fits(&class_file, &goal33(), pdbformat::Metric::Stm),
        pdbsolver::locate::Fit::OtherMetric
    );
    let found = pdbsolver::locate::find_in(&dirs, &goal33(), pdbformat::Metric::Stm);
    assert_eq!((found.path, found.skipped), (None, vec![]));
    let log = Log::default();
    let resolved = resolver_in(dir.path())
        .resolve(&asking(None), &[], &goal33(), &log)
        .unwrap();
    assert!(matches!(
        resolved.heuristic,
        HeuristicChoice::LinearConflict
    ));
    write_db(
        &dir.path().join("9-44-za.pdb"),
        &goal33(),
        &[&[1, 2, 3, 4], &[5, 6, 7, 8]],
        TableKind::ZeroAware,
    );
    let found = pdbsolver::locate::find_in(&dirs, &goal33(), pdbformat::Metric::Stm);
    assert_eq!(found.path, Some(dir.path().join("9-44-za.pdb")));
    assert!(found.skipped.is_empty(), "{:?}", found.skipped);
}
