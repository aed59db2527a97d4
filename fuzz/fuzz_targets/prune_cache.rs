//! Fuzz target: the reader of duplicate-move pruning machine files. Half the inputs get a
//! correct trailing digest first, so that the fuzzer reaches the checks behind it; a machine
//! that is accepted is then walked from every start state over every move slot.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbformat::format::Digest;
use pdbformat::Board;
use pdbsolver::prune::cache;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = rest.to_vec();
    if mode & 1 == 1 && bytes.len() >= 32 {
        let body = bytes.len() - 32;
        let d = Digest::of(&bytes[..body]);
        bytes[body..].copy_from_slice(&d.0);
    }
    // The board and depth the file claims (the reader checks them against what was asked).
    let u16_at = |at: usize| {
        bytes
            .get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    };
    let (w, h) = (
        u16_at(12).unwrap_or(3) as usize,
        u16_at(14).unwrap_or(3) as usize,
    );
    let depth = bytes
        .get(16..20)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .unwrap_or(12);
    let Ok(board) = Board::new(w.clamp(1, 64), h.clamp(1, 64)) else {
        return;
    };
    if let Ok(p) = cache::decode(Path::new("fuzz.fsm"), &bytes, board, depth) {
        let mut walked = 0;
        for cell in 0..board.cells().min(256) {
            let s = p.start(cell as u8);
            for slot in 0..4 {
                let t = p.step(s, slot);
                if walked < 10_000 {
                    walked += 1;
                    for slot2 in 0..4 {
                        let _ = p.step(t, slot2);
                    }
                }
            }
        }
        assert_eq!(
            cache::decode(
                Path::new("again.fsm"),
                &cache::encode(board, &p),
                board,
                depth
            )
            .map(|q| q.states())
            .ok(),
            Some(p.states())
        );
    }
});
