//! The multi-tile metric's class heuristic against the exact MTM distance of every position of
//! small boards: never above it (admissible), updated move by move to the value of a fresh
//! start, and refused with the wrong metric's databases.

use crate::common;

use pdbformat::format::WriteOptions;
use pdbformat::rank::ClassLabels;
use pdbformat::testkit::{PositionDistances, XorShift};
use pdbformat::{Board, Goal, Metric, TableKind};
use pdbgen::{build_class_file, default_labels, ClassBuildRequest, NoProgress};
use pdbsolver::heuristic::{
    ClassHeuristic, Heuristic, MoveTable, PdbHeuristic, Position, MAX_CELLS,
};
use pdbsolver::{Database, DbError, OpenOptions};
use std::path::Path;
use std::sync::Arc;

fn class_db(dir: &Path, goal: &Goal, metric: Metric) -> Arc<Database> {
    class_db_of(dir, goal, metric, default_labels(goal))
}

fn class_db_of(dir: &Path, goal: &Goal, metric: Metric, labels: Vec<ClassLabels>) -> Arc<Database> {
    let path = dir.join(format!(
        "classes-{}-{metric}-{}.pdb",
        goal.blank_cell(),
        labels.len()
    ));
    let req = ClassBuildRequest {
        goal: goal.clone(),
        metric,
        labels,
        threads: Some(2),
        encoding: None,
        write: WriteOptions::default(),
    };
    build_class_file(&req, &path, &NoProgress).unwrap();
    Arc::new(Database::open(&path, OpenOptions::default()).unwrap())
}

fn tiles_of(cells: &[u8]) -> [u8; MAX_CELLS] {
    let mut t = [0u8; MAX_CELLS];
    t[..cells.len()].copy_from_slice(cells);
    t
}

/// Checks the heuristic against every position's MTM distance; returns how many it gets
/// exactly and how many positions there are.
fn check_admissible(h: &ClassHeuristic, goal: &Goal) -> (usize, usize) {
    let oracle = PositionDistances::new(goal, Metric::Mtm);
    let (mut exact, mut sum_h, mut sum_d) = (0, 0u64, 0u64);
    for (cells, d) in oracle.iter() {
        let v = h.value(&h.init(&tiles_of(cells)));
        assert!(v <= d as u32, "{cells:?}: h {v} above the MTM distance {d}");
        exact += (v == d as u32) as usize;
        sum_h += v as u64;
        sum_d += d as u64;
    }
    assert_eq!(h.value(&h.init(&tiles_of(&goal_cells(goal)))), 0);
    let n = oracle.reachable();
    eprintln!(
        "{goal}: exact on {exact} of {n} positions, mean h {:.3} against mean distance {:.3}",
        sum_h as f64 / n as f64,
        sum_d as f64 / n as f64
    );
    (exact, n)
}

fn goal_cells(goal: &Goal) -> Vec<u8> {
    goal.tiles().iter().map(|&t| t as u8).collect()
}

/// Random single-tile steps from the goal: after each, the incremental value equals a fresh
/// start's, and undo restores the parts. A third of the steps are made with limit 0 (an early
/// stop after the first lookup): the next step goes on from those parts, as the MTM search's
/// next step along a line does, and must still give a fresh start's parts.
fn check_incremental(h: &ClassHeuristic, goal: &Goal, steps: usize) {
    assert!(h.steps_after_early_stop());
    let moves = MoveTable::new(goal.board());
    let mut s = Position::from_tiles(goal.tiles()).unwrap();
    let mut parts = h.init(&s.tiles);
    let mut rng = XorShift::new(7);
    for _ in 0..steps {
        let t = moves.targets(s.blank);
        let from = t[rng.below(t.len())];
        let to = s.blank;
        let before = parts;
        let tile = s.slide(from);
        let pending = h.prepare(&parts, tile, from, to);
        let (v, undo) = h.apply(&mut parts, &s.tiles, tile, from, to, u32::MAX, &pending);
        let fresh = h.init(&s.tiles);
        assert_eq!(parts, fresh, "parts after moving {tile}");
        assert_eq!(v, h.value(&fresh));
        h.undo(&mut parts, tile, from, to, undo);
        assert_eq!(parts, before, "undo");
        let limit = if rng.below(3) == 0 { 0 } else { u32::MAX };
        let (v, _) = h.apply(&mut parts, &s.tiles, tile, from, to, limit, &pending);
        assert!(v <= h.value(&fresh), "an early stop above the value");
    }
}

#[test]
fn class_heuristic_is_admissible_on_every_three_by_three_position() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(3, 3).unwrap();
    let off_diagonal = Goal::parse(board, "1 0 2 3 4 5 6 7 8").unwrap();
    for goal in [
        Goal::blank_first(board),
        Goal::blank_last(board),
        off_diagonal,
    ] {
        let db = class_db(dir.path(), &goal, Metric::Mtm);
        let tables = db.class_tables().len();
        assert_eq!(tables, if goal.blank_cell() == 1 { 2 } else { 1 });
        let h = ClassHeuristic::new(&db, &goal).unwrap();
        let (exact, all) = check_admissible(&h, &goal);
        assert_eq!(all, 181_440);
        // The maximum of both lookups is exact on part of the positions (about 7 % on the
        // blank-first goal).
        assert!(exact * 20 > all, "{goal}: exact on {exact} of {all}");
        check_incremental(&h, &goal, 3000);
    }
}

#[test]
fn labelled_tables_beside_the_rows_stay_admissible_and_prune_more() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(3, 3).unwrap();
    let goal = Goal::blank_first(board);
    let rows = ClassHeuristic::new(&class_db(dir.path(), &goal, Metric::Mtm), &goal).unwrap();
    assert_eq!(rows.lookups(), 2, "the row table and its transpose");
    let (rows_exact, _) = check_admissible(&rows, &goal);
    // A labelling that transposing changes (two lookups), and one that transposing only
    // renames (the quadrant-like {1,3,4}/{2,5,6,7,8}: one lookup).
    let odd = ClassLabels::parse(&goal, "1,2,4/3,5,6/7,8").unwrap();
    let sym = ClassLabels::parse(&goal, "1,3,4/2,5,6,7,8").unwrap();
    let labels = vec![ClassLabels::Rows, odd, sym];
    let db = class_db_of(dir.path(), &goal, Metric::Mtm, labels.clone());
    let got: Vec<ClassLabels> = db.class_tables().iter().map(|t| t.labels).collect();
    assert_eq!(got, labels, "the labellings read back from the file");
    let h = ClassHeuristic::new(&db, &goal).unwrap();
    assert_eq!(h.lookups(), 5);
    let (exact, all) = check_admissible(&h, &goal);
    assert_eq!(all, 181_440);
    assert!(
        exact > rows_exact,
        "exact on {exact} against {rows_exact} with rows alone"
    );
    check_incremental(&h, &goal, 3000);
    // A sample of positions: the maximum is at least the rows' value, and MTM IDA* with the
    // file finds the exact distance.
    let oracle = PositionDistances::new(&goal, Metric::Mtm);
    let search = pdbsolver::Search {
        metric: Metric::Mtm,
        ..pdbsolver::Search::new(pdbsolver::AlgorithmName::Ida)
    };
    let choice = pdbsolver::HeuristicChoice::Pdb {
        databases: vec![db.clone()],
        reflect: true,
    };
    for (cells, d) in oracle.iter().step_by(97) {
        let t = tiles_of(cells);
        assert!(h.value(&h.init(&t)) >= rows.value(&rows.init(&t)));
        let tiles: Vec<u16> = cells.iter().map(|&c| c as u16).collect();
        let p = pdbformat::Puzzle::new(board, &tiles).unwrap();
        let sol = pdbsolver::solve(&search, &choice, &p, &goal).unwrap();
        assert_eq!(sol.len(), d as usize, "{p:#}");
    }
}

#[test]
fn class_heuristic_is_admissible_on_a_rectangle() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(4, 2).unwrap();
    for goal in [Goal::blank_first(board), Goal::blank_last(board)] {
        let db = class_db(dir.path(), &goal, Metric::Mtm);
        assert_eq!(db.class_tables().len(), 2, "a row and a column table");
        let h = ClassHeuristic::new(&db, &goal).unwrap();
        check_admissible(&h, &goal);
        check_incremental(&h, &goal, 2000);
    }
}

#[test]
fn each_heuristic_refuses_the_other_metrics_tables() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let mtm = class_db(dir.path(), &goal, Metric::Mtm);
    assert_eq!(mtm.metric(), Metric::Mtm);
    assert!(mtm.tables().is_empty());
    let e = PdbHeuristic::new(std::slice::from_ref(&mtm), &goal, true).unwrap_err();
    assert!(
        matches!(
            e,
            DbError::WrongMetric {
                db_metric: Metric::Mtm,
                metric: Metric::Stm,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .contains("MTM class tables serve MTM searches"),
        "{e}"
    );
    let path = dir.path().join("stm.pdb");
    common::write_db(
        &path,
        &goal,
        &[&[1, 2, 3, 4], &[5, 6, 7, 8]],
        TableKind::ZeroAware,
    );
    let stm = Arc::new(Database::open(&path, OpenOptions::default()).unwrap());
    assert_eq!(stm.metric(), Metric::Stm);
    let e = ClassHeuristic::new(&stm, &goal).unwrap_err();
    assert!(
        matches!(
            e,
            DbError::WrongMetric {
                db_metric: Metric::Stm,
                metric: Metric::Mtm,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("pdbgen build --metric mtm"), "{e}");
    // Class tables built in STM are for STM searches: the class heuristic refuses them too.
    let stm_classes = class_db(dir.path(), &goal, Metric::Stm);
    assert!(ClassHeuristic::new(&stm_classes, &goal).is_err());
    // Another board, another blank cell.
    let other = Goal::blank_last(Board::new(3, 3).unwrap());
    assert!(matches!(
        ClassHeuristic::new(&mtm, &other),
        Err(DbError::WrongGoal { .. })
    ));
}

/// A class-table database given to a search: in MTM the search finds the oracle's length for
/// a fixed-seed sample of 3x3 positions (those at the diameter among them); in STM it is
/// refused by the resolver and by `solve` itself.
#[test]
fn searches_use_class_databases_in_mtm_only() {
    use pdbsolver::{DbChoice, HeuristicChoice, Quiet, Request, Resolver, Search};
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let db = class_db(dir.path(), &goal, Metric::Mtm);
    let oracle = PositionDistances::new(&goal, Metric::Mtm);
    let mut rng = XorShift::new(7);
    let mut positions: Vec<(Vec<u8>, u8)> = oracle
        .iter()
        .filter(|_| rng.below(1000) == 0)
        .map(|(p, d)| (p.to_vec(), d))
        .collect();
    let max = oracle.max();
    positions.extend(
        (oracle.iter())
            .filter(|&(_, d)| d == max)
            .map(|(p, d)| (p.to_vec(), d))
            .take(3),
    );
    assert!(positions.len() > 150);
    let choice = HeuristicChoice::Pdb {
        databases: vec![db.clone()],
        reflect: true,
    };
    let mtm = Search {
        metric: Metric::Mtm,
        ..Search::default()
    };
    for (tiles, d) in &positions {
        let t: Vec<u16> = tiles.iter().map(|&x| x as u16).collect();
        let puzzle = pdbformat::Puzzle::new(goal.board(), &t).unwrap();
        let s = pdbsolver::solve(&mtm, &choice, &puzzle, &goal).unwrap();
        assert_eq!(s.len(), *d as usize, "{tiles:?}");
    }
    let t: Vec<u16> = positions[0].0.iter().map(|&x| x as u16).collect();
    let puzzle = pdbformat::Puzzle::new(goal.board(), &t).unwrap();
    assert!(pdbsolver::solve(&Search::default(), &choice, &puzzle, &goal).is_err());
    let resolver = Resolver::new(pdbsolver::ResolveOptions::default());
    let choices = [DbChoice::Loaded(db)];
    let request = Request {
        metric: Some(Metric::Mtm),
        ..Request::default()
    };
    let r = resolver.resolve(&request, &choices, &goal, &Quiet).unwrap();
    assert!(r.heuristic.admissible_in(Metric::Mtm));
    assert!(r.description.contains("class tables"), "{}", r.description);
    let e = resolver
        .resolve(&Request::default(), &choices, &goal, &Quiet)
        .unwrap_err();
    assert!(e.to_string().contains("mtm metric"), "{e}");
}
