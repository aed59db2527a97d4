//! Fuzz target: the server's reader of `POST /api/solve` bodies (JSON, the puzzle and goal
//! parsers behind it, the request layer, the choice of heuristic), as the server runs it
//! before a request takes a place in the queue.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(init: {
    // No pruning machine files are read or written while fuzzing.
    std::env::set_var("PDB_PRUNE_CACHE", "off");
}, |data: &[u8]| {
    if let Err((status, message)) = pdbtiles::check_solve_body(data) {
        assert!(matches!(status, 400 | 404 | 413 | 422), "status {status}: {message}");
        assert!(!message.is_empty());
    }
});
