//! The points a build reports to its observer, where tests stop builds to check that they
//! resume: after every level but the last (the state's working table already in place when
//! the state is synchronous), inside each level, and as the file's tables are written.

use pdbformat::format::{Encoding, WriteOptions};
use pdbformat::{Board, Goal, Partition, Pattern, Symmetry, TableKind};
use pdbgen::{
    build_file_with_state, BuildObserver, BuildRequest, BuildState, StateOptions, TableSummary,
};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Records the points of a build and whether the state held what it should at each.
struct Points {
    state: PathBuf,
    /// The level running: `(table << 8 | depth) + 1`.
    running: AtomicU64,
    /// `(table, depth)` of every level inside which a chunk was reported.
    inside: Mutex<Vec<(usize, u8)>>,
    /// `(table, depth, its working table saved and in place)` of every `after_level`.
    after: Mutex<Vec<(usize, u8, bool)>>,
    derived: Mutex<Vec<usize>>,
    written: Mutex<Vec<u64>>,
}

impl BuildObserver for Points {
    fn table_derived(&self, table: usize, _: &Pattern, _: usize, _: Symmetry, _: u64) {
        self.derived.lock().unwrap().push(table);
    }

    fn level_started(&self, table: usize, depth: u8) {
        self.running
            .store(((table as u64) << 8 | depth as u64) + 1, Relaxed);
    }

    fn chunk_done(&self, _table: usize, _scanned: u64) {
        let running = self.running.load(Relaxed) - 1;
        let level = ((running >> 8) as usize, running as u8);
        let mut inside = self.inside.lock().unwrap();
        if inside.last() != Some(&level) {
            inside.push(level);
        }
    }

    fn after_level(&self, table: usize, depth: u8) {
        let piece = self
            .state
            .join(format!("table-{table}-level-{}", depth + 1));
        let older = self.state.join(format!("table-{table}-level-{depth}"));
        let in_place = piece.is_file() && !older.exists();
        self.after.lock().unwrap().push((table, depth, in_place));
    }

    fn output_written(&self, written: u64) {
        self.written.lock().unwrap().push(written);
    }
}

#[test]
fn a_build_reports_every_level_and_the_bytes_written() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let req = BuildRequest {
        partition: Partition::parse(&goal, "1-4/5-8").unwrap(),
        goal,
        kind: TableKind::ZeroAware,
        threads: Some(2),
        encoding: Encoding::U8,
        write: WriteOptions::default(),
    };
    let out = dir.path().join("points.pdb");
    let opts = StateOptions {
        every_level: true,
        synchronous: true,
        ..StateOptions::default()
    };
    let state = BuildState::open(&req, &out, opts).unwrap();
    let points = Points {
        state: state.dir().to_path_buf(),
        running: AtomicU64::new(0),
        inside: Mutex::new(Vec::new()),
        after: Mutex::new(Vec::new()),
        derived: Mutex::new(Vec::new()),
        written: Mutex::new(Vec::new()),
    };
    let summaries: Vec<TableSummary> = build_file_with_state(&req, &out, state, &points).unwrap();
    let derived = points.derived.into_inner().unwrap();
    let mut expected_after = Vec::new();
    let mut expected_inside = Vec::new();
    for (t, s) in summaries.iter().enumerate() {
        if derived.contains(&t) {
            continue;
        }
        // Every level runs (the last reaches nothing); each one but the last is followed by
        // `after_level`, its working table saved and in place, the older one gone.
        expected_inside.extend((0..=s.max_value).map(|d| (t, d)));
        expected_after.extend((0..s.max_value).map(|d| (t, d, true)));
    }
    assert!(!expected_after.is_empty());
    assert_eq!(points.after.into_inner().unwrap(), expected_after);
    assert_eq!(points.inside.into_inner().unwrap(), expected_inside);
    // The bytes written grow to every table's entries (a byte each).
    let written = points.written.into_inner().unwrap();
    assert!(written.windows(2).all(|w| w[0] < w[1]), "{written:?}");
    let entries: u64 = summaries.iter().map(|s| s.entries).sum();
    assert_eq!(written.last(), Some(&entries));
}
