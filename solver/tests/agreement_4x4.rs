//! The 15-puzzle: heuristics agree on optimal lengths of easy instances; one database serves
//! both goal conventions and goals in other corners; files combine additively or by maximum;
//! the reflected lookup equals a plain lookup of the transposed position.

use crate::common;

use common::{assert_replays, random_walk, relabel, write_db, Ida, Rng, COLS_4X4, ROWS_4X4};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal, Puzzle, Symmetry};
use pdbsolver::heuristic::{Heuristic, PdbHeuristic, Position};
use pdbsolver::{Database, HeuristicChoice, Limits, OpenOptions};
use std::path::Path;
use std::sync::Arc;

fn b44() -> Board {
    Board::new(4, 4).unwrap()
}

fn open(path: &Path) -> Arc<Database> {
    Arc::new(Database::open(path, OpenOptions::default()).unwrap())
}

/// The zero-aware rows database for `goal`, written to `dir/rows.pdb` and opened.
fn rows_db(dir: &Path, goal: &Goal) -> Arc<Database> {
    let path = dir.join("rows.pdb");
    write_db(&path, goal, &ROWS_4X4, TableKind::ZeroAware);
    open(&path)
}

fn pdb(dbs: &[Arc<Database>], reflect: bool) -> HeuristicChoice {
    HeuristicChoice::Pdb {
        databases: dbs.to_vec(),
        reflect,
    }
}

/// IDA* of `p` with `dbs` (reflected) and with linear conflict: the same length; the
/// databases' solution.
fn same_length_as_lc(dbs: &[Arc<Database>], p: &Puzzle, goal: &Goal) -> pdbsolver::Solution {
    let a = pdb(dbs, true).ida(p, goal, &Limits::default()).unwrap();
    let b = HeuristicChoice::LinearConflict
        .ida(p, goal, &Limits::default())
        .unwrap();
    assert_eq!(a.len(), b.len());
    a
}

fn h_of(dbs: &[Arc<Database>], goal: &Goal, reflect: bool, p: &Puzzle) -> (u32, Vec<u32>) {
    let h = PdbHeuristic::new(dbs, goal, reflect).unwrap();
    let st = h.init(&Position::from_tiles(p.tiles()).unwrap().tiles);
    (h.value(&st), h.component_values(&st))
}

#[test]
fn heuristics_agree_on_easy_instances() {
    let dir = tempfile::tempdir().unwrap();
    let first = Goal::blank_first(b44());
    let za = dir.path().join("za.pdb");
    let zu = dir.path().join("zu.pdb");
    write_db(&za, &first, &ROWS_4X4, TableKind::ZeroAware);
    write_db(&zu, &first, &ROWS_4X4, TableKind::ZeroUnaware);
    let (za, zu) = (open(&za), open(&zu));
    let solvers = [
        HeuristicChoice::Manhattan,
        HeuristicChoice::LinearConflict,
        pdb(std::slice::from_ref(&za), true),
        pdb(std::slice::from_ref(&za), false),
        pdb(std::slice::from_ref(&zu), true),
        pdb(&[zu], false),
    ];
    let mut rng = Rng::new(77);
    let last = Goal::blank_last(b44());
    for goal in [first, last] {
        for i in 0..12 {
            let p = random_walk(&goal, 24 + 2 * i, &mut rng);
            let lengths: Vec<usize> = solvers
                .iter()
                .map(|s| {
                    let sol = s.ida(&p, &goal, &Limits::default()).unwrap();
                    assert_replays(&p, &goal, &sol);
                    sol.len()
                })
                .collect();
            assert!(
                lengths.iter().all(|&l| l == lengths[0]),
                "{p:#} ({goal}): {lengths:?}"
            );
            // Zero-aware tables dominate zero-unaware ones, and both dominate nothing wrong.
            let (hz, _) = h_of(std::slice::from_ref(&za), &goal, false, &p);
            assert!(hz as usize <= lengths[0]);
        }
    }
}

#[test]
fn one_table_serves_both_goal_conventions_and_other_corners() {
    let dir = tempfile::tempdir().unwrap();
    let first = Goal::blank_first(b44());
    let last = Goal::blank_last(b44());
    let pf = dir.path().join("first.pdb");
    let pl = dir.path().join("last.pdb");
    write_db(&pf, &first, &ROWS_4X4, TableKind::ZeroAware);
    // The same partition of goal cells written for blank-last: tile t -> 16 - t.
    let rows_last: Vec<Vec<usize>> = ROWS_4X4
        .iter()
        .map(|p| p.iter().map(|&t| 16 - t).collect())
        .collect();
    let rows_last: Vec<&[usize]> = rows_last.iter().map(|v| &v[..]).collect();
    write_db(&pl, &last, &rows_last, TableKind::ZeroAware);
    let (dbf, dbl) = (open(&pf), open(&pl));
    let top_right = Goal::parse(b44(), "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    let mut rng = Rng::new(4242);
    for _ in 0..10 {
        // A blank-last puzzle solved with the blank-first table and with the blank-last one.
        let p = random_walk(&last, 40, &mut rng);
        let a = pdb(std::slice::from_ref(&dbf), true)
            .ida(&p, &last, &Limits::default())
            .unwrap();
        let b = pdb(std::slice::from_ref(&dbl), true)
            .ida(&p, &last, &Limits::default())
            .unwrap();
        assert_eq!(a.len(), b.len());
        assert_replays(&p, &last, &a);
        // The heuristic value equals a direct lookup of the rotated, relabelled position.
        let q = relabel(&p, &last, &first, Symmetry::Rotate180);
        assert_eq!(
            h_of(std::slice::from_ref(&dbf), &last, false, &p).0,
            h_of(std::slice::from_ref(&dbl), &first, false, &q).0
        );
        assert_eq!(
            h_of(std::slice::from_ref(&dbf), &last, false, &p).0,
            h_of(std::slice::from_ref(&dbf), &first, false, &q).0
        );
        // And the other way round.
        let p = random_walk(&first, 40, &mut rng);
        assert_replays(
            &p,
            &first,
            &same_length_as_lc(std::slice::from_ref(&dbl), &p, &first),
        );
        // A goal with the blank top-right (a flip of blank-first), reflected on the anti-diagonal.
        let p = random_walk(&top_right, 40, &mut rng);
        assert_replays(
            &p,
            &top_right,
            &same_length_as_lc(std::slice::from_ref(&dbf), &p, &top_right),
        );
    }
}

#[test]
fn reflected_lookup_is_the_transposed_position() {
    let dir = tempfile::tempdir().unwrap();
    let first = Goal::blank_first(b44());
    let db = rows_db(dir.path(), &first);
    let mut rng = Rng::new(99);
    for _ in 0..50 {
        let p = random_walk(&first, 60, &mut rng);
        let (h, comps) = h_of(std::slice::from_ref(&db), &first, true, &p);
        assert_eq!(comps.len(), 2);
        let t = relabel(&p, &first, &first, Symmetry::Transpose);
        let (plain_t, _) = h_of(std::slice::from_ref(&db), &first, false, &t);
        let (plain, _) = h_of(std::slice::from_ref(&db), &first, false, &p);
        assert_eq!(comps, vec![plain, plain_t]);
        assert_eq!(h, plain.max(plain_t));
    }
}

#[test]
fn files_add_when_disjoint_and_take_the_maximum_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let first = Goal::blank_first(b44());
    let (a, b, rows, cols) = (
        dir.path().join("a.pdb"),
        dir.path().join("b.pdb"),
        dir.path().join("rows.pdb"),
        dir.path().join("cols.pdb"),
    );
    write_db(&a, &first, &ROWS_4X4[..2], TableKind::ZeroAware);
    write_db(&b, &first, &ROWS_4X4[2..], TableKind::ZeroAware);
    write_db(&rows, &first, &ROWS_4X4, TableKind::ZeroAware);
    write_db(&cols, &first, &COLS_4X4, TableKind::ZeroAware);
    let (a, b, rows, cols) = (open(&a), open(&b), open(&rows), open(&cols));
    let mut rng = Rng::new(5);
    for _ in 0..50 {
        let p = random_walk(&first, 50, &mut rng);
        let split = h_of(&[a.clone(), b.clone()], &first, false, &p);
        let whole = h_of(std::slice::from_ref(&rows), &first, false, &p);
        assert_eq!(split, whole, "two files of one partition add up");
        let (h, comps) = h_of(&[rows.clone(), cols.clone()], &first, false, &p);
        let c = h_of(std::slice::from_ref(&cols), &first, false, &p).0;
        assert_eq!(comps, vec![whole.0, c]);
        assert_eq!(h, whole.0.max(c));
    }
    let p = random_walk(&first, 50, &mut rng);
    same_length_as_lc(&[rows, cols], &p, &first);
}

#[test]
fn wrong_board_and_goal_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let first = Goal::blank_first(b44());
    let db = rows_db(dir.path(), &first);
    let s = pdb(&[db], true);
    let b33 = Board::new(3, 3).unwrap();
    let e = s.check(&Goal::blank_first(b33)).unwrap_err().to_string();
    assert!(e.contains("4x4") && e.contains("3x3"), "{e}");
    let centre = Goal::parse(b44(), "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15").unwrap();
    let e = s.check(&centre).unwrap_err().to_string();
    assert!(e.contains("no symmetry"), "{e}");
    let p = Puzzle::parse_for_goal("1 2 3 4 0 5 6 7 8 9 10 11 12 13 14 15", &centre).unwrap();
    assert!(s.ida(&p, &centre, &Limits::default()).is_err());
}

#[test]
fn incremental_updates_match_fresh_lookups() {
    use pdbformat::Direction;
    let dir = tempfile::tempdir().unwrap();
    let first = Goal::blank_first(b44());
    let last = Goal::blank_last(b44());
    let (rows, cols) = (dir.path().join("rows.pdb"), dir.path().join("cols.pdb"));
    write_db(&rows, &first, &ROWS_4X4, TableKind::ZeroAware);
    write_db(&cols, &first, &COLS_4X4, TableKind::ZeroUnaware);
    let dbs = [open(&rows), open(&cols)];
    let mut rng = Rng::new(2024);
    for goal in [&first, &last] {
        let h = PdbHeuristic::new(&dbs, goal, true).unwrap();
        assert_eq!(h.groups(), 2);
        let mut p = Puzzle::solved(goal);
        let mut s = Position::from_tiles(p.tiles()).unwrap();
        let mut hs = h.init(&s.tiles);
        for step in 0..3000 {
            let d = Direction::ALL[rng.below(4)];
            let Some(to) = b44().neighbour(p.blank(), d) else {
                continue;
            };
            let before = h.value(&hs);
            let blank = s.blank;
            let pending = h.prepare(&hs, s.tiles[to], to as u8, blank);
            let tile = s.slide(to as u8);
            // Stopping early at every limit below the value, then undoing, changes nothing.
            for limit in [0, before / 2, u32::MAX] {
                let (v, u) = h.apply(&mut hs, &s.tiles, tile, to as u8, blank, limit, &pending);
                let _ = v;
                h.undo(&mut hs, tile, to as u8, blank, u);
                assert_eq!(h.value(&hs), before, "step {step}");
            }
            let (v, _) = h.apply(&mut hs, &s.tiles, tile, to as u8, blank, u32::MAX, &pending);
            p.apply(d).unwrap();
            let fresh = h.init(&s.tiles);
            assert_eq!(v, h.value(&fresh));
            assert_eq!(h.component_values(&hs), h.component_values(&fresh));
        }
    }
}
