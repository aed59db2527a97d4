//! Fuzz target: the search checkpoint reader. Half the inputs are read as they are; the
//! other half get a correct checksum line first (so that the fuzzer reaches the fields
//! behind it), then the state checks a resumed search makes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdbsolver::checkpoint::Checkpoint;

/// The checkpoint's checksum (64-bit FNV-1a), as the writer computes it.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let text = if mode & 1 == 0 {
        text.to_string()
    } else {
        // Everything before the checksum line, then the right checksum.
        let body = match text.find("checksum ") {
            Some(at) => &text[..at],
            None => text,
        };
        format!("{body}checksum {:016x}\n", fnv1a(body.as_bytes()))
    };
    if let Ok(c) = Checkpoint::parse(&text) {
        let _ = c.check_state();
        let _ = c.check_same_search(&c);
        // What it writes reads back as the same checkpoint.
        let again = Checkpoint::parse(&c.to_text()).expect("a checkpoint's own text reads back");
        assert_eq!(again.to_text(), c.to_text());
    }
});
