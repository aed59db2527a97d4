//! The resolver's default in the multi-tile metric: a board's default class file (the 3x3
//! entry `8-rows-mtm` standing in for the 4x4's, through `Resolver::with_defaults`) found in
//! a search folder past files of the other metric, or built on first use through the same path
//! as the 4x4's, and searched with; the walking distance on boards without a default, when
//! asked for by name, and when the default is missing and may not be built.

use pdbformat::standard::{self, StandardDb};
use pdbformat::{Board, Goal, Metric};
use pdbsolver::locate::SearchDir;
use pdbsolver::{
    HeuristicChoice, HeuristicName, Quiet, Request, ResolveError, ResolveObserver, ResolveOptions,
    Resolver,
};
use std::path::Path;
use std::sync::Mutex;

fn goal33() -> Goal {
    Goal::blank_first(Board::new(3, 3).unwrap())
}

fn small_default() -> &'static StandardDb {
    standard::lookup("8-rows-mtm").unwrap()
}

/// An MTM request naming `heuristic` (auto when `None`).
fn mtm(heuristic: Option<HeuristicName>) -> Request {
    let mut r = Request {
        heuristic,
        ..Request::default()
    };
    r.set("metric", "mtm").unwrap();
    r
}

fn dirs(paths: &[&Path]) -> Vec<SearchDir> {
    (paths.iter())
        .map(|p| SearchDir {
            path: p.to_path_buf(),
            origin: "test",
        })
        .collect()
}

/// A resolver over `paths` that builds (when `build`) into `build_dir`, with `8-rows-mtm` as
/// the 3x3's MTM default.
fn resolver(paths: &[&Path], build: bool, build_dir: &Path) -> Resolver {
    Resolver::new(ResolveOptions {
        build,
        ..ResolveOptions::default()
    })
    .searching(dirs(paths))
    .with_defaults(vec![small_default()])
    .building_in(build_dir.to_path_buf())
}

/// Records what the resolver reports.
#[derive(Default)]
struct Log(Mutex<Vec<String>>);

impl Log {
    fn lines(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

impl ResolveObserver for Log {
    fn skipped(&self, path: &Path, why: &str) {
        self.0
            .lock()
            .unwrap()
            .push(format!("skipped {}: {why}", path.display()));
    }
    fn building(&self, _board: Board, path: &Path, _searched: &str) {
        self.0
            .lock()
            .unwrap()
            .push(format!("building {}", path.display()));
    }
    fn built(&self, path: &Path, _seconds: f64, here: bool) {
        self.0
            .lock()
            .unwrap()
            .push(format!("built {} {here}", path.display()));
    }
    fn falling_back(&self, why: &str) {
        self.0.lock().unwrap().push(format!("fallback: {why}"));
    }
}

/// The class file the resolved heuristic searches with, by file name.
fn class_file_of(choice: &HeuristicChoice) -> String {
    match choice {
        HeuristicChoice::Pdb { databases, .. } => {
            assert_eq!(databases.len(), 1);
            assert_eq!(databases[0].metric(), Metric::Mtm);
            let name = databases[0].path().file_name().unwrap();
            name.to_string_lossy().into_owned()
        }
        other => panic!("not a database: {other:?}"),
    }
}

/// Without the generator (the `build` feature, on in the workspace's tests) nothing is built:
/// the walking distance, saying so.
#[cfg(not(feature = "build"))]
#[test]
fn without_the_generator_the_default_is_not_built() {
    let empty = tempfile::tempdir().unwrap();
    let r = resolver(&[empty.path()], true, empty.path())
        .resolve(&mtm(None), &[], &goal33(), &Quiet)
        .unwrap();
    assert!(matches!(r.heuristic, HeuristicChoice::WalkingDistance));
    assert_eq!(std::fs::read_dir(empty.path()).unwrap().count(), 0);
}

#[cfg(feature = "build")]
#[test]
fn the_default_class_file_is_built_on_first_use_then_found() {
    let search = tempfile::tempdir().unwrap();
    let build = tempfile::tempdir().unwrap();
    let log = Log::default();
    let r = resolver(&[search.path()], true, build.path())
        .resolve(&mtm(None), &[], &goal33(), &log)
        .unwrap();
    let path = build.path().join("8-rows-mtm.pdb");
    assert_eq!(class_file_of(&r.heuristic), "8-rows-mtm.pdb");
    assert_eq!(
        log.lines(),
        [
            format!("building {}", path.display()),
            format!("built {} true", path.display())
        ]
    );
    // The build is the standard entry's: one goal-row table in MTM.
    let h = pdbformat::format::PdbFile::open(&path).unwrap();
    assert_eq!(h.header().metric, Metric::Mtm);
    assert_eq!(h.header().tables.len(), 1);
    // It serves MTM searches: exact distances on a sample of positions.
    let oracle = pdbformat::testkit::PositionDistances::new(&goal33(), Metric::Mtm);
    let s = pdbsolver::Search {
        metric: Metric::Mtm,
        ..pdbsolver::Search::new(pdbsolver::AlgorithmName::Ida)
    };
    for (cells, d) in oracle.iter().step_by(4999) {
        let tiles: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
        let p = pdbformat::Puzzle::new(goal33().board(), &tiles).unwrap();
        let sol = pdbsolver::solve(&s, &r.heuristic, &p, &goal33()).unwrap();
        assert_eq!(sol.len(), d as usize, "{p:#}");
    }
    // A later resolver finds it where it was built, and builds nothing.
    let log = Log::default();
    let again = resolver(&[build.path()], true, search.path())
        .resolve(&mtm(None), &[], &goal33(), &log)
        .unwrap();
    assert_eq!(class_file_of(&again.heuristic), "8-rows-mtm.pdb");
    assert!(log.lines().is_empty(), "{:?}", log.lines());
    assert!(!search.path().join("8-rows-mtm.pdb").exists());
}

#[test]
fn the_default_is_found_past_files_of_the_other_metric() {
    let stm = tempfile::tempdir().unwrap();
    let classes = tempfile::tempdir().unwrap();
    let nowhere = tempfile::tempdir().unwrap();
    // The single-tile default of the same board, in the first folder: passed over in silence.
    let full = standard::lookup("8-full-za").unwrap();
    pdbgen::build_standard(
        full,
        &stm.path().join(full.file_name()),
        Some(1),
        &pdbgen::NoProgress,
    )
    .unwrap();
    // The MTM default under another name in the second: any fitting class file serves.
    pdbgen::build_standard(
        small_default(),
        &classes.path().join("mine.pdb"),
        Some(1),
        &pdbgen::NoProgress,
    )
    .unwrap();
    let log = Log::default();
    let r = resolver(&[stm.path(), classes.path()], false, nowhere.path())
        .resolve(&mtm(None), &[], &goal33(), &log)
        .unwrap();
    assert_eq!(class_file_of(&r.heuristic), "mine.pdb");
    assert!(log.lines().is_empty(), "{:?}", log.lines());
    // The walking distance when asked for by name, whatever the folders hold.
    let r = resolver(&[classes.path()], false, nowhere.path())
        .resolve(
            &mtm(Some(HeuristicName::WalkingDistance)),
            &[],
            &goal33(),
            &Quiet,
        )
        .unwrap();
    assert!(matches!(r.heuristic, HeuristicChoice::WalkingDistance));
    // And `pdb` finds the default too.
    let r = resolver(&[classes.path()], false, nowhere.path())
        .resolve(&mtm(Some(HeuristicName::Pdb)), &[], &goal33(), &Quiet)
        .unwrap();
    assert_eq!(class_file_of(&r.heuristic), "mine.pdb");
    // In the single-tile metric the class file is passed over and the STM file found.
    let r = resolver(&[classes.path(), stm.path()], false, nowhere.path())
        .resolve(&Request::default(), &[], &goal33(), &Quiet)
        .unwrap();
    match &r.heuristic {
        HeuristicChoice::Pdb { databases, .. } => {
            assert_eq!(databases[0].metric(), Metric::Stm);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn boards_without_a_default_use_the_walking_distance() {
    let classes = tempfile::tempdir().unwrap();
    let nowhere = tempfile::tempdir().unwrap();
    pdbgen::build_standard(
        small_default(),
        &classes.path().join(small_default().file_name()),
        Some(1),
        &pdbgen::NoProgress,
    )
    .unwrap();
    // The standard defaults: none for 3x3 in MTM, so the folder's class file is not looked
    // for, and nothing is built.
    let plain = Resolver::new(ResolveOptions::default())
        .searching(dirs(&[classes.path()]))
        .building_in(nowhere.path().to_path_buf());
    assert!(plain.default_for(goal33().board(), Metric::Mtm).is_none());
    let log = Log::default();
    let r = plain.resolve(&mtm(None), &[], &goal33(), &log).unwrap();
    assert!(matches!(r.heuristic, HeuristicChoice::WalkingDistance));
    assert_eq!(r.description, "walking distance (multi-tile)");
    assert!(log.lines().is_empty(), "{:?}", log.lines());
    assert_eq!(std::fs::read_dir(nowhere.path()).unwrap().count(), 0);
    // `pdb` without a database is then an error that says why.
    let e = plain
        .resolve(&mtm(Some(HeuristicName::Pdb)), &[], &goal33(), &Quiet)
        .unwrap_err();
    assert!(matches!(e, ResolveError::NoneFits { .. }), "{e}");
    // A board with a default that is missing and may not be built: the walking distance,
    // saying so.
    let r = resolver(&[nowhere.path()], false, nowhere.path())
        .resolve(&mtm(None), &[], &goal33(), &Quiet)
        .unwrap();
    assert!(matches!(r.heuristic, HeuristicChoice::WalkingDistance));
    assert_eq!(
        r.description,
        "walking distance (multi-tile): no class database fits"
    );
    // The 4x4's standard default is the class file of rows and Rokicki's labelling.
    let b44 = Board::new(4, 4).unwrap();
    let d = plain.default_for(b44, Metric::Mtm).unwrap();
    assert_eq!(d.name, "15-rows+rokicki+rokicki-mirror-mtm");
    assert_eq!(
        plain.default_for(b44, Metric::Stm).unwrap().name,
        "15-663-za"
    );
}

#[test]
fn a_missing_class_file_named_says_how_to_build_it() {
    let empty = tempfile::tempdir().unwrap();
    let named = [pdbsolver::DbChoice::Named(
        "15-rows+rokicki+rokicki-mirror-mtm".into(),
    )];
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let e = resolver(&[empty.path()], false, empty.path())
        .resolve(&mtm(None), &named, &goal, &Quiet)
        .unwrap_err();
    assert!(matches!(e, ResolveError::NotFound { .. }), "{e}");
    let text = e.to_string();
    assert!(
        text.contains(
            "pdbgen build --board 4x4 --metric mtm --classes rows --classes rokicki \
             --classes rokicki-mirror --encoding u8 -o 15-rows+rokicki+rokicki-mirror-mtm.pdb"
        ),
        "{text}"
    );
}
