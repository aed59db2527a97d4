//! Test helpers shared by the workspace's tests (cargo feature `testkit`, off by default; the
//! other crates enable it in their dev-dependencies): a deterministic random source, a
//! brute-force oracle of exact abstract distances and one of whole positions' distances (in
//! either metric), and a check that an error message says each
//! of its causes once.
//!
//! Nothing here is meant for production code: the oracle is slow on purpose (explicit states
//! in a hash map) so that it shares no code and no cleverness with what it checks.

mod oracle;
mod positions;
mod xorshift;

pub use oracle::AbstractDistances;
pub use positions::PositionDistances;
pub use xorshift::XorShift;

/// Whether every line of `text` (a command's standard error) says each of its causes once: no
/// part of a line between `": "` separators (of at least 6 characters) occurs twice in it.
/// Catches an error that shows its source in its own message and is then printed with its
/// chain of sources (`cannot read x: Is a directory: Is a directory`).
pub fn says_each_cause_once(text: &str) -> bool {
    text.lines().all(|line| {
        line.split(": ")
            .map(str::trim)
            .filter(|part| part.len() >= 6)
            .all(|part| line.matches(part).count() == 1)
    })
}

#[cfg(test)]
mod tests {
    use super::says_each_cause_once;

    #[test]
    fn a_repeated_cause_is_caught() {
        assert!(says_each_cause_once(
            "error: cannot use database dbs: cannot read dbs: Is a directory (os error 21)"
        ));
        assert!(!says_each_cause_once(
            "error: cannot read dbs: Is a directory (os error 21): Is a directory (os error 21)"
        ));
        assert!(says_each_cause_once(
            "first line: fine\nsecond line: fine too"
        ));
    }
}
