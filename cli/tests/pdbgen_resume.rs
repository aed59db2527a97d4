//! `pdbgen build` killed and run again: SIGKILL between levels, inside a level and while the
//! file is written (at points the build's observer names, in a build this test binary runs
//! through the library in a process of its own, and at a moment chosen by a timer), then the
//! same command resumes from the state beside the output and writes the very bytes of a build
//! never stopped; a damaged or foreign state is named, refused and rebuilt; `--fresh`
//! discards it.

use crate::pdbgen_driver;

use pdbgen::{build_file, build_file_with_state, BuildState, StateOptions};
use pdbgen_driver::{driver_command, request, value, Killer, Point};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const PDBGEN: &str = env!("CARGO_BIN_EXE_pdbgen");

const THREE_BY_FOUR: &[&str] = &["--board", "3x4", "-p", "1-6/7-11"];

/// `pdbgen build ARGS -o OUT`.
fn run(out: &Path, args: &[&str]) -> Output {
    Command::new(PDBGEN)
        .args(["build", "--threads", "2", "-o"])
        .arg(out)
        .args(args)
        .output()
        .unwrap()
}

/// The environment variable that hands [`driver`] its arguments.
const DRIVER: &str = "PDBGEN_RESUME_DRIVER";

/// The build of `pdbgen build --threads 2 ARGS -o OUT` through the library in a process of its
/// own ([`driver`], this test binary run again), its state saved after every level and every
/// table, and killed at `kill` when one is given: `level:T:D` (after level `D` of table `T`,
/// its state saved), `in-level:T:D` (inside level `D` of table `T`, after its first unit of
/// work) or `output:N` (once `N` bytes of the file's tables are written). `no_state`: the
/// build keeps no state.
fn driven(out: &Path, args: &[&str], kill: Option<&str>, no_state: bool) -> Command {
    let mut spec: Vec<&str> = vec!["--threads", "2", "-o", out.to_str().unwrap()];
    spec.extend(args);
    if let Some(k) = kill {
        spec.extend(["--kill", k]);
    }
    if no_state {
        spec.push("--no-state");
    }
    driver_command("pdbgen_resume::driver", DRIVER, &spec)
}

/// Runs a build for the other tests (see [`driven`]); does nothing when they did not start it.
/// It says where its state resumes on standard error (`resume point: T LEVEL`).
#[test]
#[ignore = "run by the other tests in a process of its own"]
fn driver() {
    let Ok(spec) = std::env::var(DRIVER) else {
        return;
    };
    let args: Vec<&str> = spec.split('\n').collect();
    let kill = value(&args, "--kill").map(Point::parse);
    let (req, out) = request(&args);
    let killer = Killer::new(kill);
    if args.contains(&"--no-state") {
        build_file(&req, &out, &killer).unwrap();
        return;
    }
    let opts = StateOptions {
        every_level: true,
        // A kill at a chosen point leaves what was saved before it, whatever the timing.
        synchronous: kill.is_some(),
        ..StateOptions::default()
    };
    let state = BuildState::open(&req, &out, opts).unwrap();
    let at = state.resume_point();
    eprintln!("resume point: {} {:?}", at.table, at.level);
    build_file_with_state(&req, &out, state, &killer).unwrap();
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The state folder beside `out`.
fn state_of(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".partial");
    PathBuf::from(s)
}

/// An uninterrupted build of `args` into `dir`, as the reference bytes.
fn reference(dir: &Path, args: &[&str]) -> Vec<u8> {
    let out = dir.join("reference.pdb");
    let o = run(&out, args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!state_of(&out).exists(), "the state is removed at the end");
    std::fs::read(out).unwrap()
}

/// Kills a build of `args` at `kill` (saving its state after every level) and checks that it
/// died of SIGKILL, leaving a state and no output (a file of an earlier round is removed
/// first).
fn killed(out: &Path, args: &[&str], kill: &str) {
    if out.exists() {
        std::fs::remove_file(out).unwrap();
    }
    let o = driven(out, args, Some(kill), false).output().unwrap();
    assert_eq!(o.status.signal(), Some(9), "{kill}: {}", stderr(&o));
    assert!(!out.exists(), "{kill}: no output after a kill");
    assert!(state_of(out).is_dir(), "{kill}: a state is left");
}

/// Runs `args` again (the command, with its default saving policy), checks that it says
/// `says`, that the file is `expected` and that the state is gone; returns its standard
/// error.
fn resumed(out: &Path, args: &[&str], says: &str, expected: &[u8]) -> String {
    let o = run(out, args);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains(says), "expected {says:?} in:\n{err}");
    assert!(
        std::fs::read(out).unwrap() == expected,
        "the resumed file differs from the uninterrupted one ({says})"
    );
    assert!(!state_of(out).exists(), "the state is removed at the end");
    err
}

#[test]
fn three_by_four_killed_anywhere_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let expected = reference(dir.path(), THREE_BY_FOUR);
    for (kill, says) in [
        // Between levels: the level just finished was saved.
        ("level:0:3", "table 0 from level 4"),
        // Inside a level: the one before it was saved.
        ("in-level:0:14", "table 0 from level 14"),
        // The second table: the first one is finished in the state.
        ("level:1:5", "table 0 finished, table 1 from level 6"),
        ("in-level:1:9", "table 0 finished, table 1 from level 9"),
        // While the file is written: every table is in the state.
        ("output:1000000", "every table finished, writing the file"),
    ] {
        let out = dir.path().join(format!("{}.pdb", kill.replace(':', "-")));
        killed(&out, THREE_BY_FOUR, kill);
        resumed(&out, THREE_BY_FOUR, says, &expected);
    }
}

#[test]
fn bit1_and_zero_unaware_builds_resume_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // The two-bit working table, and the byte table reduced to zero-unaware entries.
    for extra in [
        &["--encoding", "bit1"][..],
        &["--kind", "zero-unaware", "--compress", "gzip"][..],
    ] {
        let args = [THREE_BY_FOUR, extra].concat();
        let expected = reference(dir.path(), &args);
        let out = dir.path().join("resumed.pdb");
        killed(&out, &args, "in-level:0:12");
        resumed(&out, &args, "table 0 from level 12", &expected);
        killed(&out, &args, "level:1:2");
        resumed(
            &out,
            &args,
            "table 0 finished, table 1 from level 3",
            &expected,
        );
    }
}

#[test]
fn four_by_four_663_killed_twice_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["-p", "663", "--compress", "zstd", "--zstd-level", "3"];
    let expected = reference(dir.path(), &args);
    let out = dir.path().join("663.pdb");
    // Killed in the middle of the second table, resumed and killed again while the file is
    // written, resumed again.
    killed(&out, &args, "in-level:1:20");
    let o = driven(&out, &args, Some("output:4000000"), false)
        .output()
        .unwrap();
    assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
    // Table 0 finished, table 1 from level 20.
    assert!(
        stderr(&o).contains("resume point: 1 Some(20)"),
        "{}",
        stderr(&o)
    );
    resumed(
        &out,
        &args,
        "every table finished, writing the file",
        &expected,
    );
}

/// The piece `name` of the state of `out` with one byte flipped in its middle.
fn flip_a_byte(out: &Path, name: &str) {
    let piece = state_of(out).join(name);
    let mut bytes = std::fs::read(&piece).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&piece, bytes).unwrap();
}

#[test]
fn a_flipped_byte_is_refused_by_name_and_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let expected = reference(dir.path(), THREE_BY_FOUR);
    let out = dir.path().join("flipped.pdb");
    // A damaged working table: the finished first table still checks.
    killed(&out, THREE_BY_FOUR, "level:1:5");
    flip_a_byte(&out, "table-1-level-6");
    let err = resumed(
        &out,
        THREE_BY_FOUR,
        "table 0 finished, table 1 from the start",
        &expected,
    );
    assert!(
        err.contains("table-1-level-6: it does not match its checksum (damaged)"),
        "{err}"
    );
    // A damaged finished table: nothing after it can be used either.
    killed(&out, THREE_BY_FOUR, "level:1:5");
    flip_a_byte(&out, "table-0");
    let o = run(&out, THREE_BY_FOUR);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("table-0: it does not match its checksum"),
        "{err}"
    );
    assert!(!err.contains("resuming"), "{err}");
    assert!(std::fs::read(&out).unwrap() == expected);
    // Damaged parameters: the whole state is refused.
    killed(&out, THREE_BY_FOUR, "level:0:5");
    flip_a_byte(&out, "params");
    let o = run(&out, THREE_BY_FOUR);
    let err = stderr(&o);
    assert!(
        err.contains("params: it does not match its checksum"),
        "{err}"
    );
    assert!(std::fs::read(&out).unwrap() == expected);
}

#[test]
fn a_state_of_another_build_is_refused_and_fresh_discards_one() {
    let dir = tempfile::tempdir().unwrap();
    let other = ["--board", "3x4", "-p", "1-5/6-11"];
    let expected = reference(dir.path(), &other);
    let out = dir.path().join("other.pdb");
    killed(&out, THREE_BY_FOUR, "level:1:2");
    let o = run(&out, &other);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(
            "belongs to another build (3x4 zero-aware, goal blank-first, partition 1-6/7-11"
        ),
        "{err}"
    );
    assert!(!err.contains("resuming"), "{err}");
    assert!(std::fs::read(&out).unwrap() == expected);
    // --fresh: the state of the same build is discarded, not resumed.
    std::fs::remove_file(&out).unwrap();
    killed(&out, &other, "level:0:4");
    let o = run(&out, &[&other[..], &["--fresh"]].concat());
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("--fresh: discarded the state"), "{err}");
    assert!(!err.contains("resuming"), "{err}");
    assert!(std::fs::read(&out).unwrap() == expected);
    assert!(!state_of(&out).exists());
}

#[test]
fn a_timed_sigkill_at_any_moment_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["-p", "663"];
    let expected = reference(dir.path(), &args);
    let out = dir.path().join("timed.pdb");
    // Killed from outside at moments no hook chooses, run again each time: every run goes on
    // from what the last one saved, whatever it was doing when it died.
    for delay_ms in [150u64, 400, 250] {
        let mut child = driven(&out, &args, None, false)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let status = Command::new("kill")
            .args(["-KILL", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let ended = child.wait().unwrap();
        if ended.success() {
            // It finished before the kill: nothing left to resume.
            break;
        }
        assert_eq!(ended.signal(), Some(9));
    }
    let o = run(&out, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&out).unwrap() == expected);
    assert!(!state_of(&out).exists());
}

#[test]
fn the_plan_counts_the_state_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&dir.path().join("p.pdb"), THREE_BY_FOUR);
    let err = stderr(&o);
    // Two saves of the first table's working table, 1,542,240 bytes each.
    assert!(
        err.contains("resumable state: up to about 2.9 MiB of disk beside the output"),
        "{err}"
    );
}

#[test]
fn no_state_keeps_nothing_beside_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plain.pdb");
    let args = [THREE_BY_FOUR, &["--no-state"]].concat();
    let o = driven(&out, THREE_BY_FOUR, Some("level:0:5"), true)
        .output()
        .unwrap();
    assert_eq!(o.status.signal(), Some(9), "{}", stderr(&o));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    let o = run(&out, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    // The plan counts no state on disk, and there is none to resume from.
    assert!(!stderr(&o).contains("resumable state"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("resuming"));
    assert!(!state_of(&out).exists());
}
