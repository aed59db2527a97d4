//! Fuzz target: the pattern and partition parsers (tiles and ranges, `/`-separated patterns,
//! presets) and the completeness check. The input is a board (`WxH`, 4x4 when unreadable)
//! on its first line and the partition after it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbformat::{Goal, Partition, Pattern};

fuzz_target!(|data: &[u8]| {
    let Some((board, spec)) = pdb_tiles_fuzz::board_then_text(data) else {
        return;
    };
    let goal = Goal::blank_first(board);
    if let Ok(p) = Pattern::parse(board, spec) {
        assert!(p.tiles().windows(2).all(|w| w[0] < w[1]));
        assert!(p.tiles().iter().all(|&t| (t as usize) < board.cells()));
        let cells = p.goal_cells(&goal);
        assert_eq!(cells.len(), p.len());
    }
    let parsed = [
        Partition::parse(&goal, spec),
        Partition::preset(&goal, spec),
    ];
    for part in parsed.into_iter().flatten() {
        let _ = part.check_complete(board);
        for p in part.patterns() {
            assert!(!p.is_empty());
        }
    }
});
