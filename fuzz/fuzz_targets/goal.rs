//! Fuzz target: the goal parser (`blank-first`, `blank-last` or a tile list). The input is a
//! board (`WxH`, 4x4 when unreadable) on its first line and the goal after it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbformat::Goal;

fuzz_target!(|data: &[u8]| {
    let Some((board, spec)) = pdb_tiles_fuzz::board_then_text(data) else {
        return;
    };
    if let Ok(goal) = Goal::parse(board, spec) {
        assert_eq!(goal.board(), board);
        for tile in 0..board.cells() {
            assert_eq!(goal.tile_at(goal.cell_of(tile)), tile);
        }
        // What it prints (a name, or the tile list in quotes) reads back as the same goal.
        let printed = goal.to_string();
        assert_eq!(
            Goal::parse(board, printed.trim_matches('"')).ok(),
            Some(goal)
        );
    }
});
