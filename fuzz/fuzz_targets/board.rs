//! Fuzz target: the board parser (`WxH` or a side), and the goals made on what it accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbformat::{Board, Goal};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = text.parse::<Board>() {
        assert!(board.width() >= 1 && board.height() >= 1);
        assert_eq!(board.to_string().parse::<Board>().ok(), Some(board));
        if board.cells() <= 4096 {
            let goal = Goal::blank_first(board);
            assert_eq!(goal.tiles().len(), board.cells());
        }
    }
});
