//! The advisor's per-position pattern distances (an A* in the pattern's space) against the
//! generated zero-aware tables, entry for entry on random positions, and its sample's views.

use pdbformat::rank::TableIndex;
use pdbformat::{Board, Goal, Pattern, TableKind};
use pdbgen::advise::distance::PatternSpace;
use pdbgen::advise::sample::{random_positions, viewed, views};
use pdbgen::{build_table, NoProgress};

/// The table's value for `tiles` equals the search's, on 200 random positions.
fn check(goal: &Goal, tiles: &[usize]) {
    let board = goal.board();
    let pattern = Pattern::new(board, tiles).unwrap();
    let table = build_table(
        goal,
        &pattern,
        TableKind::ZeroAware,
        Some(1),
        0,
        &NoProgress,
    )
    .unwrap();
    let index = TableIndex::new(board, pattern.len(), TableKind::ZeroAware).unwrap();
    let space = PatternSpace::new(goal, &pattern);
    for t in random_positions(goal, 200, 3) {
        let cells: Vec<u8> = pattern
            .tiles()
            .iter()
            .map(|&p| t.iter().position(|&x| x == p).unwrap() as u8)
            .collect();
        let blank = t.iter().position(|&x| x == 0).unwrap();
        let expected = table[index.index(&cells, blank) as usize] as u32;
        assert_eq!(
            space.distance(&t),
            expected,
            "{board} {goal} {pattern} at {t:?}"
        );
    }
}

#[test]
fn distances_equal_the_tables() {
    let b = Board::new(3, 3).unwrap();
    let centre = Goal::parse(b, "1 2 3 4 0 5 6 7 8").unwrap();
    for goal in [Goal::blank_first(b), Goal::blank_last(b), centre] {
        check(&goal, &[1, 2, 3, 4]);
        check(&goal, &[5, 7]);
        check(&goal, &[1, 2, 3, 4, 5, 6, 7, 8]);
    }
    let r = Goal::blank_first(Board::new(4, 3).unwrap());
    check(&r, &[1, 2, 3, 4, 5]);
    check(&r, &[6, 9, 11]);
}

#[test]
fn views_are_the_symmetries_fixing_the_blank() {
    let b = Board::new(3, 3).unwrap();
    assert_eq!(views(&Goal::blank_first(b), true).len(), 2);
    assert_eq!(views(&Goal::blank_first(b), false).len(), 1);
    let centre = Goal::parse(b, "1 2 3 4 0 5 6 7 8").unwrap();
    assert_eq!(views(&centre, true).len(), 8);
    // A view of a view under a reflection is the position itself.
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    for t in random_positions(&goal, 10, 5) {
        let v = views(&goal, true)[1];
        assert_eq!(viewed(&goal, &viewed(&goal, &t, v), v), t);
    }
}
