//! A test hook, for the kill-and-resume tests only: when the environment variable
//! `PDBGEN_TEST_KILL` names a point of a build, the process sends itself SIGKILL there, so
//! that tests can end a build deterministically between levels, inside a level or while the
//! file is written. `PDBGEN_TEST_KILL_RANK` limits it to one rank of a distributed build.
//!
//! The points: `level:T:D` (after level `D` of table `T`, its state saved if it is saved),
//! `in-level:T:D` (inside level `D` of table `T`, after its first unit of work) and
//! `output:N` (once `N` bytes of the file's tables have been written, or, on a rank other than
//! 0, sent to rank 0 to be written). Unset, every check is one load of a value read once.

use std::sync::OnceLock;

/// Where a build is killed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Point {
    /// After a level of a table.
    Level(usize, u8),
    /// Inside a level of a table.
    InLevel(usize, u8),
    /// After this many bytes of the file's tables.
    Output(u64),
}

/// The point the environment names, if any, and the rank it applies to.
fn point() -> Option<(Point, Option<usize>)> {
    static POINT: OnceLock<Option<(Point, Option<usize>)>> = OnceLock::new();
    *POINT.get_or_init(|| {
        let v = std::env::var("PDBGEN_TEST_KILL").ok()?;
        let parts: Vec<&str> = v.split(':').collect();
        let p = match parts[..] {
            ["level", t, d] => Point::Level(t.parse().ok()?, d.parse().ok()?),
            ["in-level", t, d] => Point::InLevel(t.parse().ok()?, d.parse().ok()?),
            ["output", n] => Point::Output(n.parse().ok()?),
            _ => return None,
        };
        let rank = std::env::var("PDBGEN_TEST_KILL_RANK")
            .ok()
            .and_then(|r| r.parse().ok());
        Some((p, rank))
    })
}

/// Whether the hook names a point: a build under test then waits for each piece of its state
/// to be in place before it goes on, so that what a kill leaves does not depend on timing.
pub(crate) fn armed() -> bool {
    point().is_some()
}

/// The rank of this process in a distributed build (0 on one process), for the hook.
static RANK: OnceLock<usize> = OnceLock::new();

/// Tells the hook this process's rank.
#[cfg(feature = "mpi")]
pub(crate) fn set_rank(rank: usize) {
    let _ = RANK.set(rank);
}

/// Kills this process outright (SIGKILL, as `kill -9` would) if the hook names `here`.
fn check(here: impl Fn(Point) -> bool) {
    let Some((p, rank)) = point() else { return };
    if !here(p) || rank.is_some_and(|r| Some(&r) != RANK.get().or(Some(&0))) {
        return;
    }
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &std::process::id().to_string()])
        .status();
    // The signal is on its way; never go on.
    loop {
        std::thread::park();
    }
}

/// The hook's check after level `depth` of table `table`.
pub(crate) fn after_level(table: usize, depth: u8) {
    check(|p| p == Point::Level(table, depth));
}

/// The hook's check inside level `depth` of table `table`.
#[inline]
pub(crate) fn in_level(table: usize, depth: u8) {
    if armed() {
        check(|p| p == Point::InLevel(table, depth));
    }
}

/// The hook's check once `written` bytes of the file's tables are written.
pub(crate) fn output(written: u64) {
    check(|p| matches!(p, Point::Output(n) if written >= n));
}
