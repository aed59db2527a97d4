//! Symmetric views: every board symmetry that fixes the goal's blank cell is an extra lookup.
//! Checked against brute force: each view's value is the plain value of the position mapped
//! through that symmetry, the heuristic is their maximum and never exceeds the exact distance
//! (all 181,440 positions of the 8-puzzle with a centre blank, whose goal all eight symmetries
//! fix), and views that repeat a component are left out.

use crate::common;

use common::{every_position, random_walk, relabel, write_db, Ida, Rng, COLS_4X4, ROWS_4X4};
use pdbformat::rank::TableKind;
use pdbformat::{Board, Goal, Puzzle, Symmetry};
use pdbsolver::heuristic::pdb::reflections_for;
use pdbsolver::heuristic::{Heuristic, PdbHeuristic, Position};
use pdbsolver::{Database, HeuristicChoice, Limits, OpenOptions};
use std::path::Path;
use std::sync::Arc;

fn open(path: &Path) -> Arc<Database> {
    Arc::new(Database::open(path, OpenOptions::default()).unwrap())
}

fn heuristic_value(h: &PdbHeuristic, p: &Puzzle) -> (u32, Vec<u32>) {
    let st = h.init(&Position::from_tiles(p.tiles()).unwrap().tiles);
    (h.value(&st), h.component_values(&st))
}

#[test]
fn the_views_are_the_symmetries_fixing_the_blank() {
    let b33 = Board::new(3, 3).unwrap();
    let b55 = Board::new(5, 5).unwrap();
    let b44 = Board::new(4, 4).unwrap();
    let centre = Goal::parse(b33, "1 2 3 4 0 5 6 7 8").unwrap();
    assert_eq!(reflections_for(&centre).len(), 7);
    assert_eq!(
        reflections_for(&Goal::blank_first(b55)),
        [Symmetry::Transpose]
    );
    assert_eq!(
        reflections_for(&Goal::blank_last(b44)),
        [Symmetry::Transpose]
    );
    let top_right = Goal::parse(b44, "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    assert_eq!(reflections_for(&top_right), [Symmetry::AntiTranspose]);
    let edge = Goal::parse(b44, "1 0 2 3 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    assert!(reflections_for(&edge).is_empty());
    // The middle of a 5x5 edge: only the left-right flip fixes it.
    let mut t: Vec<String> = (1..25).map(|i| i.to_string()).collect();
    t.insert(2, "0".into());
    let mid = Goal::parse(b55, &t.join(" ")).unwrap();
    assert_eq!(reflections_for(&mid), [Symmetry::FlipColumns]);
    // A rectangle's middle column and row meet in a cell every flip fixes.
    let b35 = Board::new(3, 5).unwrap();
    let mut t: Vec<String> = (1..15).map(|i| i.to_string()).collect();
    t.insert(7, "0".into());
    let mid = Goal::parse(b35, &t.join(" ")).unwrap();
    assert_eq!(reflections_for(&mid).len(), 3);
}

#[test]
fn centre_blank_all_eight_views_on_every_position() {
    let dir = tempfile::tempdir().unwrap();
    let b33 = Board::new(3, 3).unwrap();
    let goal = Goal::parse(b33, "1 2 3 4 0 5 6 7 8").unwrap();
    // Tiles 1-3 (the top row) and 4-8 (the rest).
    let path = dir.path().join("centre.pdb");
    write_db(
        &path,
        &goal,
        &[&[1, 2, 3], &[4, 5, 6, 7, 8]],
        TableKind::ZeroAware,
    );
    let db = open(&path);
    let plain = PdbHeuristic::new(std::slice::from_ref(&db), &goal, false).unwrap();
    let all = PdbHeuristic::new(std::slice::from_ref(&db), &goal, true).unwrap();
    assert_eq!(plain.components(), 1);
    // Eight views of one group; the top row's images are the four sides, each of which two
    // symmetries reach (a side and its reflection across the perpendicular axis), so four
    // distinct components remain.
    assert_eq!(all.components(), 4);
    let syms = Symmetry::fixing(b33, 4);
    assert_eq!(syms.len(), 8);
    let mut raised = 0;
    for (p, d) in every_position(&goal) {
        let (h, comps) = heuristic_value(&all, &p);
        let images: Vec<u32> = syms
            .iter()
            .map(|&s| heuristic_value(&plain, &relabel(&p, &goal, &goal, s)).0)
            .collect();
        // Every component is one of the images, every image one of the components.
        for c in &comps {
            assert!(
                images.contains(c),
                "{p:#}: component {c} not an image {images:?}"
            );
        }
        for i in &images {
            assert!(
                comps.contains(i),
                "{p:#}: image {i} not a component {comps:?}"
            );
        }
        assert_eq!(h, *images.iter().max().unwrap());
        assert!(h <= d as u32, "{p:#}: inadmissible {h} > {d}");
        if h > images[0] {
            raised += 1;
        }
    }
    assert!(
        raised > 10_000,
        "the views raise the estimate ({raised} positions)"
    );
    // And IDA* with them finds optimal lengths.
    let choice = HeuristicChoice::Pdb {
        databases: vec![db],
        reflect: true,
    };
    let dist = every_position(&goal);
    let mut rng = Rng::new(77);
    for _ in 0..200 {
        let (p, d) = &dist[rng.below(dist.len())];
        let s = choice.ida(p, &goal, &Limits::default()).unwrap();
        assert_eq!(s.len(), *d as usize, "{p:#}");
    }
}

#[test]
fn views_that_repeat_a_component_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let b44 = Board::new(4, 4).unwrap();
    let first = Goal::blank_first(b44);
    // A partition that the transpose maps onto itself: its reflected view is the same sum.
    let sym: [&[usize]; 4] = [
        &[1, 4, 5],
        &[2, 8, 6, 9],
        &[3, 12, 7, 13],
        &[10, 11, 14, 15],
    ];
    let path = dir.path().join("sym.pdb");
    write_db(&path, &first, &sym, TableKind::ZeroAware);
    let db = open(&path);
    let h = PdbHeuristic::new(std::slice::from_ref(&db), &first, true).unwrap();
    assert_eq!(h.components(), 1);
    assert!(h.reflections().is_empty());
    // Rows and columns: each one's transpose is the other, so with reflection two
    // components remain, not four.
    let (rows, cols) = (ROWS_4X4, COLS_4X4);
    let (r, c) = (dir.path().join("rows.pdb"), dir.path().join("cols.pdb"));
    write_db(&r, &first, &rows, TableKind::ZeroAware);
    write_db(&c, &first, &cols, TableKind::ZeroAware);
    let both = [open(&r), open(&c)];
    let with = PdbHeuristic::new(&both, &first, true).unwrap();
    let without = PdbHeuristic::new(&both, &first, false).unwrap();
    assert_eq!(with.components(), 2);
    assert_eq!(without.components(), 2);
    let rows_alone = PdbHeuristic::new(&both[..1], &first, true).unwrap();
    assert_eq!(rows_alone.components(), 2);
    assert_eq!(rows_alone.reflections(), [Symmetry::Transpose]);
    // The same tile sets of another kind are not the same sum: kept.
    let cz = dir.path().join("cols-zu.pdb");
    write_db(&cz, &first, &cols, TableKind::ZeroUnaware);
    let mixed = PdbHeuristic::new(&[both[0].clone(), open(&cz)], &first, true).unwrap();
    assert_eq!(mixed.components(), 4);
    let mut rng = Rng::new(3);
    for _ in 0..200 {
        let p = random_walk(&first, 60, &mut rng);
        let sym_h = heuristic_value(&h, &p).0;
        let sym_plain = heuristic_value(
            &PdbHeuristic::new(std::slice::from_ref(&db), &first, false).unwrap(),
            &p,
        )
        .0;
        assert_eq!(sym_h, sym_plain);
        assert_eq!(heuristic_value(&with, &p), heuristic_value(&without, &p));
        let t = relabel(&p, &first, &first, Symmetry::Transpose);
        let (rows_t, _) =
            heuristic_value(&PdbHeuristic::new(&both[..1], &first, false).unwrap(), &t);
        let (cols_p, _) =
            heuristic_value(&PdbHeuristic::new(&both[1..], &first, false).unwrap(), &p);
        assert_eq!(
            rows_t, cols_p,
            "a table's view is the mirror pattern's plain value"
        );
    }
}
