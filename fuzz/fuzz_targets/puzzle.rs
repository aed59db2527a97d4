//! Fuzz target: the puzzle parser, with and without a board, and the solvability check of
//! what it accepts against both standard goals. The input is an optional board (`WxH`) on its
//! first line and the puzzle after it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbformat::{Board, Goal, Puzzle};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (board, tiles) = match text.split_once('\n') {
        Some((first, rest)) => (first.parse::<Board>().ok(), rest),
        None => (None, text),
    };
    let _ = pdbformat::parse::parse_tiles(tiles);
    for b in [board, None] {
        let Ok(p) = Puzzle::parse(tiles, b) else {
            continue;
        };
        let board = p.board();
        assert_eq!(p.tiles().len(), board.cells());
        assert!(p.blank() < board.cells());
        for goal in [Goal::blank_first(board), Goal::blank_last(board)] {
            let solvable = p.is_solvable(&goal);
            assert_eq!(p.check_solvable(&goal).is_ok(), solvable);
            // Read for the goal, the same puzzle is accepted exactly when it is solvable.
            let again = Puzzle::parse_for_goal(tiles, &goal);
            if b.is_none() || b == Some(board) {
                assert_eq!(again.is_ok(), solvable);
            }
        }
    }
});
