//! Fuzz target: the move-string reader (`U2LD3R`). The input is a notation (`tiles` or
//! `blank`) on its first line and the moves after it (the whole input, in the tiles' notation,
//! when the first line names none). What it accepts must write back and read back as the same
//! steps in both notations, and its lengths must agree with the steps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbformat::notation::{
    length, read_moves, read_tokens, write_moves, Notation, MAX_COUNT, MAX_STEPS,
};
use pdbformat::{Board, Goal, Metric, Puzzle};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (notation, moves) = match text.split_once('\n') {
        Some((first, rest)) => match first.parse::<Notation>() {
            Ok(n) => (n, rest),
            Err(_) => (Notation::Tiles, text),
        },
        None => (Notation::Tiles, text),
    };
    let Ok(tokens) = read_tokens(moves, notation) else {
        assert!(read_moves(moves, notation).is_err());
        return;
    };
    let steps = read_moves(moves, notation).expect("the tokens were read");
    assert!(steps.len() <= MAX_STEPS);
    assert_eq!(steps.len(), tokens.iter().map(|t| t.count).sum::<usize>());
    for t in &tokens {
        assert!((1..=MAX_COUNT).contains(&t.count));
        assert_eq!(moves.chars().nth(t.column - 1), t.text.chars().next());
    }
    for n in Notation::ALL {
        let written = write_moves(&steps, n);
        assert_eq!(read_moves(&written, n).as_ref(), Ok(&steps));
    }
    let (stm, mtm) = (length(&steps, Metric::Stm), length(&steps, Metric::Mtm));
    assert_eq!(stm, steps.len());
    assert!(mtm <= stm && (mtm > 0) == (stm > 0));
    // Played on the 4x4's goal as `solver check` plays them: a step off the board changes
    // nothing and stops the play.
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let mut p = Puzzle::solved(&goal);
    for &s in &steps {
        if p.apply(s).is_none() {
            break;
        }
    }
    assert!(p.is_solvable(&goal));
});
