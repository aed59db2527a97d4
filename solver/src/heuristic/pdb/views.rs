//! The views: the board symmetries that fix the goal's blank cell, under which a position is
//! looked up a second time in the same tables (see "Frames and views" in [`super`]).

use pdbformat::{Goal, Symmetry};

/// The board symmetries other than the identity that fix `goal`'s blank cell, each usable as
/// an extra view: the transposition for a blank on the main diagonal (or the
/// anti-transposition on the anti-diagonal) first, then the others in [`Symmetry::of_board`]
/// order. A corner blank has one (the diagonal through it), the centre of an odd square has
/// seven, a cell off every axis and diagonal none.
pub fn reflections_for(goal: &Goal) -> Vec<Symmetry> {
    let mut syms = Symmetry::fixing(goal.board(), goal.blank_cell());
    syms.retain(|&s| s != Symmetry::Identity);
    // Stable: the diagonal reflection first, as before there were more views.
    syms.sort_by_key(|s| !matches!(s, Symmetry::Transpose | Symmetry::AntiTranspose));
    syms
}

/// The first of [`reflections_for`], if any: the diagonal reflection for a blank on a
/// diagonal of a square board.
pub fn reflection_for(goal: &Goal) -> Option<Symmetry> {
    reflections_for(goal).first().copied()
}
