//! When a piece is worth saving: when the BFS has run long enough since the last piece that
//! saving this one costs at most about 1/[`SAVE_RATIO`] of the build (always, for tests that
//! ask for every level).

use super::BuildState;
use std::time::Instant;

/// A working table is saved after a level once the BFS has run this many times as long as
/// saving it takes since the last piece was saved: saving costs at most about 1/20 of the
/// build.
pub const SAVE_RATIO: f64 = 20.0;

/// The first guess of how fast a piece is saved (bytes per second: hashed, written into the
/// page cache and flushed to disk), until a save has been timed. Deliberately low: a working
/// table saved a few levels before its table ends protects little and costs as much as any.
const FIRST_RATE: f64 = 250e6;

/// What decides whether a piece is worth saving: the BFS time since the last piece and the
/// rate of the saves so far.
pub(super) struct SavePolicy {
    /// Save every piece, whatever it costs.
    every_level: bool,
    /// When the last piece was saved (or the build started).
    pub(super) since: Instant,
    /// Bytes per second of the saves so far (what the build waited for).
    rate: f64,
}

impl SavePolicy {
    /// A policy before any save, saving every piece with `every_level`.
    pub(super) fn new(every_level: bool) -> SavePolicy {
        SavePolicy {
            every_level,
            since: Instant::now(),
            rate: FIRST_RATE,
        }
    }

    /// Whether a piece of `bytes` bytes protects enough work: the BFS has run at least
    /// [`SAVE_RATIO`] times as long since the last piece as saving this one takes.
    fn worth(&self, bytes: u64) -> bool {
        self.since.elapsed().as_secs_f64() >= SAVE_RATIO * bytes as f64 / self.rate
    }

    /// A piece of `bytes` bytes was saved (as far as the build waits for it) in `took`
    /// seconds: the rate of the next guesses, and the clock of the work the next one protects.
    pub(super) fn saved(&mut self, bytes: usize, took: f64) {
        self.rate = bytes.max(1 << 20) as f64 / took.max(1e-6);
        self.since = Instant::now();
    }
}

impl BuildState {
    /// Whether the working table of `bytes` bytes is worth saving now (always with
    /// `every_level`).
    pub(crate) fn wants_level_save(&self, bytes: u64) -> bool {
        self.policy.every_level || self.policy.worth(bytes)
    }

    /// Whether the finished table `table`, of `bytes` encoded bytes, is to be saved: not the
    /// last one searched, whose file follows at once, and only when it is worth its save
    /// (every one with `every_level`).
    pub(crate) fn wants_finished_save(&self, table: usize, bytes: u64) -> bool {
        self.policy.every_level
            || (self.searched[table + 1..].iter().any(|&s| s) && self.policy.worth(bytes))
    }

    /// Starts timing the BFS work the next piece will protect (at the start of a build).
    pub(crate) fn restart_clock(&mut self) {
        self.policy.since = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use crate::state::{BuildState, StateOptions};

    #[test]
    fn a_piece_is_saved_only_when_it_protects_enough_work() {
        let dir = tempfile::tempdir().unwrap();
        let open = |name: &str, every_level: bool| {
            let opts = StateOptions {
                every_level,
                ..StateOptions::default()
            };
            BuildState::open_in(dir.path().join(name), "p".into(), vec![true, true], opts).unwrap()
        };
        let mut s = open("a", false);
        let piece = 100 << 20;
        // Moments after the start, 100 MiB would cost far more than a twentieth of the work.
        assert!(!s.wants_finished_save(0, piece) && !s.wants_level_save(piece));
        s.policy.since -= std::time::Duration::from_secs(60);
        assert!(s.wants_finished_save(0, piece) && s.wants_level_save(piece));
        // The last table searched is never saved: its file follows at once.
        assert!(!s.wants_finished_save(1, 1));
        let every = open("b", true);
        assert!(every.wants_finished_save(0, 1 << 40) && every.wants_level_save(1 << 40));
    }
}
