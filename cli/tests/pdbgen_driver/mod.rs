//! The builds that the kill-and-resume tests run through the library in a process of their
//! own (the test binary run again, its ignored test `driver` reading its arguments from an
//! environment variable): the request `pdbgen build ARGS` makes, and an observer that kills
//! its process outright at a named point of the build.

#![allow(dead_code)]

use pdbformat::format::{Compression, Encoding, WriteOptions};
use pdbformat::{Board, Goal, Partition, TableKind};
use pdbgen::{BuildObserver, BuildRequest};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// This test binary run again on its test `test` alone (the ignored driver test's path in the
/// binary, such as `pdbgen_resume::driver`), output not captured, with `spec` (arguments as
/// `pdbgen build` takes them, and the driver's own) in the environment variable `env`.
pub fn driver_command(test: &str, env: &str, spec: &[&str]) -> Command {
    let mut c = Command::new(std::env::current_exe().unwrap());
    c.arg("--exact")
        .arg(test)
        .args("--ignored --nocapture --test-threads 1".split(' '))
        .env(env, spec.join("\n"));
    c
}

/// The value after `flag` among `args`, if `flag` is there.
pub fn value<'a>(args: &[&'a str], flag: &str) -> Option<&'a str> {
    let at = args.iter().position(|a| *a == flag)?;
    Some(args[at + 1])
}

/// The request `pdbgen build ARGS` makes (with the command's defaults), and its output.
pub fn request(args: &[&str]) -> (BuildRequest, PathBuf) {
    let value = |flags: &[&str], default: &'static str| -> String {
        match args.iter().position(|a| flags.contains(a)) {
            Some(at) => args[at + 1].to_string(),
            None => default.to_string(),
        }
    };
    let board: Board = value(&["--board"], "4x4").parse().unwrap();
    let goal = Goal::parse(board, &value(&["--goal"], "blank-first")).unwrap();
    let partition = Partition::parse(&goal, &value(&["-p", "--partition"], "")).unwrap();
    let req = BuildRequest {
        goal,
        partition,
        kind: TableKind::parse(&value(&["--kind"], "zero-aware")).unwrap(),
        threads: args
            .iter()
            .position(|a| *a == "--threads")
            .map(|at| args[at + 1].parse().unwrap()),
        encoding: Encoding::parse(&value(&["--encoding"], "u8")).unwrap(),
        write: WriteOptions {
            compression: Compression::parse(&value(&["--compress"], "none")).unwrap(),
            zstd_level: value(&["--zstd-level"], "19").parse().unwrap(),
            ..WriteOptions::default()
        },
    };
    (req, PathBuf::from(value(&["-o"], "")))
}

/// Where a driven build is killed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// After a level of a table.
    Level(usize, u8),
    /// Inside a level of a table.
    InLevel(usize, u8),
    /// After this many bytes of the file's tables.
    Output(u64),
}

impl Point {
    /// The point `level:T:D`, `in-level:T:D` or `output:N`.
    pub fn parse(s: &str) -> Point {
        let parts: Vec<&str> = s.split(':').collect();
        match parts[..] {
            ["level", t, d] => Point::Level(t.parse().unwrap(), d.parse().unwrap()),
            ["in-level", t, d] => Point::InLevel(t.parse().unwrap(), d.parse().unwrap()),
            ["output", n] => Point::Output(n.parse().unwrap()),
            _ => panic!("no such point: {s}"),
        }
    }
}

/// An observer that kills its process outright (SIGKILL, as `kill -9` would) at a point.
pub struct Killer {
    point: Option<Point>,
    /// The level running: `(table << 8 | depth) + 1`, 0 before the first.
    running: AtomicU64,
}

impl Killer {
    /// Kills its process at `point`; with none, it never does.
    pub fn new(point: Option<Point>) -> Killer {
        Killer {
            point,
            running: AtomicU64::new(0),
        }
    }

    /// Kills the process if `here` is its point (or, for bytes written, beyond it).
    fn kill_at(&self, here: Point) {
        let reached = match (self.point, here) {
            (Some(Point::Output(n)), Point::Output(written)) => written >= n,
            (p, here) => p == Some(here),
        };
        if reached {
            let _ = Command::new("kill")
                .args(["-KILL", &std::process::id().to_string()])
                .status();
            // The signal is on its way; never go on.
            loop {
                std::thread::park();
            }
        }
    }
}

impl BuildObserver for Killer {
    fn level_started(&self, table: usize, depth: u8) {
        self.running
            .store(((table as u64) << 8 | depth as u64) + 1, Relaxed);
    }

    fn chunk_done(&self, table: usize, _scanned: u64) {
        let Some(running) = self.running.load(Relaxed).checked_sub(1) else {
            return;
        };
        if running >> 8 == table as u64 {
            self.kill_at(Point::InLevel(table, running as u8));
        }
    }

    fn after_level(&self, table: usize, depth: u8) {
        self.kill_at(Point::Level(table, depth));
    }

    fn output_written(&self, written: u64) {
        self.kill_at(Point::Output(written));
    }
}
