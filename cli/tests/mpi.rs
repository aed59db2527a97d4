//! The distributed build under `mpirun` (feature `mpi`; needs Open MPI's `mpirun` on the path):
//! files identical byte for byte to the single-process build's for 1, 2 and 4 ranks, every
//! encoding and compression, the job's end when a rank dies or lacks memory, and the same
//! command resuming a job whose rank 1 was killed. What the command does not offer (offsets
//! in 8 bytes, a state saved after every level, a rank killed at a chosen point) runs through
//! the library: this test binary run under `mpirun` on its ignored test `driver`.
#![cfg(feature = "mpi")]

mod pdbgen_driver;

use mpi::traits::*;
use pdbgen::{build_file_distributed, BuildState, DistributedOptions, StateOptions};
use pdbgen_driver::{driver_command, request, value, Killer, Point};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const PDBGEN: &str = env!("CARGO_BIN_EXE_pdbgen");

/// The environment variable that hands [`driver`] its arguments.
const DRIVER: &str = "PDBGEN_MPI_DRIVER";

/// Runs this rank of a distributed build for the other tests, through the library, with the
/// arguments of `pdbgen build` and its own: `--exchange-wide` (offsets in 8 bytes),
/// `--every-level` (the state saved after every level and every table) and `--kill POINT`
/// with `--kill-rank R` (rank `R` kills itself at `POINT`; see [`Point::parse`]). Does nothing
/// when no other test started it.
#[test]
#[ignore = "run by the other tests under mpirun"]
fn driver() {
    let Ok(spec) = std::env::var(DRIVER) else {
        return;
    };
    let args: Vec<&str> = spec.split('\n').collect();
    let (req, out) = request(&args);
    let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled).unwrap();
    let world = universe.world();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let kill = value(&args, "--kill").map(Point::parse);
    let kill_rank = value(&args, "--kill-rank").map(|r| r.parse::<usize>().unwrap());
    let opts = DistributedOptions {
        per_owner: value(&args, "--exchange-share").map(|n| n.parse().unwrap()),
        wide_offsets: args.contains(&"--exchange-wide"),
    };
    let state_opts = StateOptions {
        every_level: args.contains(&"--every-level"),
        // A kill at a chosen point leaves what every rank saved before it, whatever the timing.
        synchronous: kill.is_some(),
        ..StateOptions::default()
    };
    let killer = Killer::new(kill.filter(|_| kill_rank.is_none_or(|r| r == rank)));
    let built = BuildState::open_rank(&req, &out, rank, ranks, state_opts)
        .and_then(|mut s| build_file_distributed(&req, &out, &world, opts, Some(&mut s), &killer));
    if let Err(e) = built {
        eprintln!("rank {rank}: {e}");
        world.abort(1);
    }
}

/// `mpirun -np RANKS` on this test binary's [`driver`], handed `spec`.
fn driven(ranks: usize, spec: &[&str]) -> Command {
    let driver = driver_command("driver", DRIVER, spec);
    let mut c = mpirun_of(ranks, Path::new(driver.get_program()));
    c.args(driver.get_args());
    for (k, v) in driver.get_envs() {
        c.env(k, v.unwrap());
    }
    c
}

/// `mpirun` with `ranks` ranks, allowed to run as root (CI) and to put more ranks than cores
/// on one machine, with a session folder of its own.
///
/// The tests run at once, and Open MPI keeps every job's session folder under one shared
/// `TMPDIR/ompi.HOST.UID`: a job that ends removes that shared folder and can do so just as
/// another job starts in it ("A call to mkdir was unable to create the desired directory").
/// Each `mpirun` therefore gets its own `TMPDIR`, a fresh folder in Cargo's scratch space
/// for tests; the build itself never writes there.
fn mpirun(ranks: usize) -> Command {
    mpirun_of(ranks, Path::new(PDBGEN))
}

/// [`mpirun`] on `program`.
fn mpirun_of(ranks: usize, program: &Path) -> Command {
    static JOBS: AtomicUsize = AtomicUsize::new(0);
    let session = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("mpi-sessions")
        .join(format!(
            "{}-{}",
            std::process::id(),
            JOBS.fetch_add(1, Ordering::Relaxed)
        ));
    std::fs::create_dir_all(&session).unwrap_or_else(|e| panic!("{}: {e}", session.display()));
    let mut c = Command::new("mpirun");
    c.env("TMPDIR", &session);
    c.args(["--allow-run-as-root", "--oversubscribe", "-np"])
        .arg(ranks.to_string())
        .arg(program);
    c
}

fn sha256(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    format!("{:x}", Sha256::digest(bytes))
}

fn check(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds `args` in one process and under `mpirun` with 1, 2 and 4 ranks; every file must be
/// the same bytes.
fn same_as_single_process(name: &str, args: &[&str]) {
    same_as_single_process_with(name, args, &[]);
}

/// Builds `args` in one process into `NAME.pdb` in `dir` and returns the file's path.
fn single_process_build(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let single = dir.join(format!("{name}.pdb"));
    let out = Command::new(PDBGEN)
        .args(["build", "-o"])
        .arg(&single)
        .args(args)
        .output()
        .unwrap();
    check(&out, "the single-process build");
    single
}

/// [`same_as_single_process`], with `extra` arguments given to the distributed builds only.
fn same_as_single_process_with(name: &str, args: &[&str], extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let expected = sha256(&single_process_build(dir.path(), name, args));
    for ranks in [1, 2, 4] {
        let file = dir.path().join(format!("{name}-{ranks}.pdb"));
        // One worker per rank unless `extra` says otherwise.
        let threads: &[&str] = if extra.contains(&"--threads") {
            &[]
        } else {
            &["--threads", "1"]
        };
        let out = mpirun(ranks)
            .args(["build", "--distributed"])
            .args(threads)
            .arg("-o")
            .arg(&file)
            .args(args)
            .args(extra)
            .output()
            .unwrap();
        check(&out, &format!("{name} on {ranks} ranks"));
        assert_eq!(sha256(&file), expected, "{name} on {ranks} ranks");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            stdout.matches("wrote ").count(),
            1,
            "rank 0 alone reports the file:\n{stdout}"
        );
    }
    // Nothing else was left in the folder (no temporary files).
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 4, "{names:?}");
}

#[test]
fn three_by_four_six_six_matches_the_single_process_build() {
    same_as_single_process("3x4-6-5", &["--board", "3x4", "--partition", "1-6/7-11"]);
}

#[test]
fn four_by_four_663_matches_the_single_process_build() {
    same_as_single_process("4x4-663", &["--partition", "663"]);
}

#[test]
fn tiny_exchange_pieces_give_the_same_file() {
    // 500 indices per owner and piece: every level needs many pieces, push and pull alike.
    same_as_single_process_with(
        "3x4-pieces",
        &["--board", "3x4", "--partition", "1-6/7-11"],
        &["--exchange-share", "500"],
    );
}

#[test]
fn several_workers_and_eight_byte_offsets_give_the_same_file() {
    // Three workers per rank, each filling its own outboxes, with pieces of 700 indices that
    // cut across them; offsets in 4 bytes (the default here), then in 8 (the path of slices
    // of more than 2^32 entries), push and pull, byte and two-bit slices.
    let args = ["--board", "3x4", "--partition", "1-6/7-11"];
    same_as_single_process_with(
        "3x4-workers",
        &args,
        &["--threads", "3", "--exchange-share", "700"],
    );
    same_as_single_process_driven(
        "3x4-wide",
        &args,
        &[
            "--threads",
            "3",
            "--exchange-share",
            "700",
            "--exchange-wide",
        ],
    );
    same_as_single_process_driven(
        "3x4-wide-bit1",
        &[&args[..], &["--encoding", "bit1"]].concat(),
        &["--threads", "1", "--exchange-wide"],
    );
}

/// Builds `args` in one process with the command, and through the library under `mpirun`
/// with 1, 2 and 4 ranks ([`driver`], with its own arguments `extra`); every file must be the
/// same bytes.
fn same_as_single_process_driven(name: &str, args: &[&str], extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let expected = sha256(&single_process_build(dir.path(), name, args));
    for ranks in [1, 2, 4] {
        let file = dir.path().join(format!("{name}-{ranks}.pdb"));
        let spec = [args, extra, &["-o", file.to_str().unwrap()]].concat();
        let out = driven(ranks, &spec).output().unwrap();
        check(&out, &format!("{name} on {ranks} ranks"));
        assert_eq!(sha256(&file), expected, "{name} on {ranks} ranks");
    }
    // Nothing else was left in the folder (no temporary files, no state).
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 4, "{names:?}");
}

#[test]
fn every_encoding_and_compression_matches() {
    same_as_single_process(
        "3x4-bit1-zstd",
        &[
            "--board",
            "3x4",
            "--partition",
            "1-5/6-11",
            "--goal",
            "blank-last",
            "--encoding",
            "bit1",
            "--compress",
            "zstd",
        ],
    );
    same_as_single_process(
        "3x3-u4-gzip",
        &[
            "--board",
            "3x3",
            "--partition",
            "1-3/4-6/7-8",
            "--encoding",
            "u4",
            "--compress",
            "gzip",
        ],
    );
}

#[test]
fn bit1_builds_run_the_two_bit_bfs_and_match_the_single_process_build() {
    // The single-process bit1 build runs the two-bit BFS; so does every rank on its slice.
    same_as_single_process(
        "3x4-bit1",
        &["--board", "3x4", "-p", "1-6/7-11", "--encoding", "bit1"],
    );
    same_as_single_process(
        "4x4-663-bit1",
        &["--partition", "663", "--encoding", "bit1"],
    );
    // Pull levels asking in many small pieces.
    same_as_single_process_with(
        "3x4-bit1-pieces",
        &["--board", "3x4", "-p", "1-6/7-11", "--encoding", "bit1"],
        &["--exchange-share", "500"],
    );
}

#[test]
fn the_plan_states_the_bits_each_rank_holds_per_entry() {
    let dir = tempfile::tempdir().unwrap();
    for (encoding, bits) in [("bit1", 2), ("u8", 8), ("u4", 8)] {
        let out = mpirun(2)
            .args(["build", "--distributed", "--board", "3x3", "-p", "1-4/5-8"])
            .args(["--encoding", encoding, "-o"])
            .arg(dir.path().join(format!("{encoding}.pdb")))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let says = format!("each rank owns 1/2 of every table at {bits} bits per entry");
        assert_eq!(err.matches(&says).count(), 1, "{encoding}:\n{err}");
    }
}

#[test]
fn a_full_board_pattern_keeps_its_unreached_entries() {
    // The 3x2 board filled: half the states are parity-unreachable and stay 0xFF.
    same_as_single_process("3x2-full", &["--board", "3x2", "--partition", "full"]);
}

/// Runs a two-rank build of `args` that must fail, checks that it wrote no file, and returns
/// what the ranks said.
fn refused_on_two_ranks(args: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.pdb");
    let out = mpirun(2)
        .args(format!("build --distributed {args} -o").split(' '))
        .arg(&file)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(!file.exists());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn zero_unaware_tables_are_refused_clearly() {
    let err = refused_on_two_ranks("--board 3x3 -p 1-4/5-8 --kind zero-unaware");
    assert_eq!(err.matches("zero-aware tables only").count(), 1, "{err}");
}

#[test]
fn a_rank_short_of_memory_stops_every_rank_before_the_bfs() {
    // An 8-tile 5x5 table: tens of billions of entries, beyond this machine split in two.
    let err = refused_on_two_ranks("--board 5x5 -p 1-8/9-10");
    assert!(err.contains("rank 0 on"), "{err}");
    assert!(err.contains("of memory but has only"), "{err}");
    assert!(!err.contains("states to search"), "no BFS started:\n{err}");
}

#[test]
fn a_table_too_deep_for_u4_is_refused_once_by_every_rank() {
    let err = refused_on_two_ranks("--board 3x3 -p 1-4/5-8 --encoding u4");
    let says = "has values up to 16, too large for u4 entries";
    assert_eq!(err.matches(says).count(), 1, "{err}");
}

/// The processes whose parent is `parent` and whose command is `comm`.
fn ranks_of(parent: u32, comm: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // pid (comm) state ppid ...
        let Some((head, tail)) = stat.rsplit_once(") ") else {
            continue;
        };
        let found_comm = head.split_once(" (").map_or("", |(_, c)| c);
        let ppid = tail.split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if found_comm == comm && ppid == Some(parent) {
            found.push(pid);
        }
    }
    found
}

/// Starts `pdbgen build --distributed --threads 1 ARGS -o FILE` on two ranks and waits (up to
/// 30 s) until both rank processes exist; returns the job, the ranks' process ids and when it
/// started.
fn two_ranks(args: &[&str], file: &Path) -> (std::process::Child, Vec<u32>, Instant) {
    let mut job = mpirun(2);
    job.args(["build", "--distributed", "--threads", "1"])
        .args(args)
        .arg("-o")
        .arg(file);
    started_on_two_ranks(job, "pdbgen")
}

/// Starts `job`, an `mpirun` of two ranks of the command `comm`, and waits (up to 30 s) until
/// both rank processes exist; returns the job, the ranks' process ids and when it started.
fn started_on_two_ranks(mut job: Command, comm: &str) -> (std::process::Child, Vec<u32>, Instant) {
    let job = job
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut ranks = Vec::new();
    while ranks.len() < 2 && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
        ranks = ranks_of(job.id(), comm);
    }
    assert_eq!(ranks.len(), 2, "the two ranks did not start");
    (job, ranks, start)
}

/// Kills process `pid` (a rank of `job`) outright, waits for the job, checks that it failed
/// without claiming to have written a file, and returns its standard error.
fn kill_and_fail(job: std::process::Child, pid: u32) -> String {
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = job.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "the job must fail:\n{err}");
    assert!(!err.contains("wrote "), "{err}");
    err
}

#[test]
fn a_killed_rank_ends_the_job_without_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("killed.pdb");
    // A 7-tile 4x4 table: tens of millions of entries, seconds of BFS on two ranks.
    let (job, ranks, _) = two_ranks(&["-p", "1-7/8-15"], &file);
    // Let the BFS get going, then kill one rank outright.
    std::thread::sleep(Duration::from_millis(1500));
    let err = kill_and_fail(job, ranks[1]);
    assert!(!file.exists(), "no file under the output name");
    assert!(
        err.contains("signal 9") || err.contains("Killed"),
        "mpirun names the dead rank:\n{err}"
    );
    // Every rank is gone (or a zombie not yet reaped).
    for pid in ranks {
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists()
                || std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .map(|s| s.contains(") Z "))
                    .unwrap_or(true),
            "rank {pid} still runs"
        );
    }
}

/// Rank `rank` of the job among `pids` (from the rank number Open MPI gives each process).
fn rank_pid(pids: &[u32], rank: usize) -> u32 {
    let var = format!("OMPI_COMM_WORLD_RANK={rank}");
    *pids
        .iter()
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .map(|env| env.split(|&b| b == 0).any(|v| v == var.as_bytes()))
                .unwrap_or(false)
        })
        .unwrap_or_else(|| panic!("no process of rank {rank} among {pids:?}"))
}

/// Whether process `pid` has a file open in `dir` (the file it writes there, named or not).
fn writes_in(pid: u32, dir: &Path) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten()
        .filter_map(|fd| std::fs::read_link(fd.path()).ok())
        .any(|target| target.starts_with(dir))
}

#[test]
fn a_rank_killed_while_rank_0_writes_leaves_no_file_at_all() {
    let dir = tempfile::tempdir().unwrap();
    // Canonical, as the links of open files name it.
    let path = dir.path().canonicalize().unwrap();
    let file = path.join("written.pdb");
    // 663, compressed hard enough that rank 0 spends seconds writing the file (its own slice
    // of each table first, then the other rank's), while the other rank waits to send its own.
    let (job, ranks, start) = two_ranks(
        &["-p", "663", "--compress", "zstd", "--zstd-level", "12"],
        &file,
    );
    let (writer, other) = (rank_pid(&ranks, 0), rank_pid(&ranks, 1));
    while !writes_in(writer, &path) {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "rank 0 never started writing"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    kill_and_fail(job, other);
    // Neither the output nor rank 0's temporary file: nothing but the state a run of the same
    // command resumes from.
    let left: Vec<_> = std::fs::read_dir(&path)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["written.pdb.partial"], "left behind: {left:?}");
}

/// The state folder a build of `file` keeps beside it.
fn state_of(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".partial");
    s.into()
}

/// `pdbgen build --distributed --threads 1 ARGS -o FILE` on two ranks; its output.
fn two_rank_build(args: &[&str], file: &Path) -> Output {
    mpirun(2)
        .args(["build", "--distributed", "--threads", "1"])
        .args(args)
        .arg("-o")
        .arg(file)
        .output()
        .unwrap()
}

/// The arguments of [`driver`] for the build of `pdbgen build --distributed --threads 1 ARGS
/// -o FILE` saving its state after every level, and `extra`.
fn every_level_spec<'a>(args: &[&'a str], file: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let head = [
        "--threads",
        "1",
        "--every-level",
        "-o",
        file.to_str().unwrap(),
    ];
    [&head[..], args, extra].concat()
}

/// The command name of this test binary's processes (at most 15 bytes of its file name).
fn this_comm() -> String {
    let exe = std::env::current_exe().unwrap();
    let name = exe.file_name().unwrap().to_string_lossy().into_owned();
    name.chars().take(15).collect()
}

#[test]
fn a_two_rank_build_whose_rank_1_is_killed_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--board", "3x4", "-p", "1-6/7-11"];
    let single = single_process_build(dir.path(), "single", &args);
    let expected = sha256(&single);
    let file = dir.path().join("resumed.pdb");
    for (kill, says) in [
        // Rank 1 alone dies inside a level of the first table, then after a level of the
        // second; the ranks resume from the last level both of them saved.
        ("in-level:0:15", "table 0 from level 15"),
        ("level:1:6", "table 0 finished, table 1 from level 7"),
        // Rank 1 dies while rank 0 writes the file, once it has sent its slice of the first
        // table and before it sends the second.
        ("output:1", "every table finished, writing the file"),
    ] {
        let spec = every_level_spec(&args, &file, &["--kill", kill, "--kill-rank", "1"]);
        let out = driven(2, &spec).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{kill}: the job must fail:\n{err}");
        assert!(!file.exists(), "{kill}: no file under the output name");
        assert!(state_of(&file).join("rank-1-of-2").is_dir(), "{kill}");
        let out = two_rank_build(&args, &file);
        check(&out, &format!("the build resumed after {kill}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.matches(says).count(),
            1,
            "{kill}: rank 0 says it once:\n{err}"
        );
        assert_eq!(sha256(&file), expected, "{kill}");
        assert!(!state_of(&file).exists(), "{kill}: the state is removed");
        std::fs::remove_file(&file).unwrap();
    }
}

#[test]
fn a_two_rank_build_whose_rank_1_is_killed_by_a_timer_resumes_to_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["-p", "663"];
    let single = single_process_build(dir.path(), "single", &args);
    let file = dir.path().join("timed.pdb");
    let spec = every_level_spec(&args, &file, &[]);
    let (mut job, ranks, start) = started_on_two_ranks(driven(2, &spec), &this_comm());
    // Let the BFS get going until rank 1 has saved a level (a fixed sleep outlived the whole
    // build on a fast machine), then a little longer, and kill rank 1 outright.
    let rank1 = state_of(&file).join("rank-1-of-2");
    let saved = |dir: &Path| {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains("-level-"))
    };
    while !saved(&rank1) {
        assert!(
            job.try_wait().unwrap().is_none(),
            "the job ended before rank 1 saved a level"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "no level saved");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(150));
    kill_and_fail(job, rank_pid(&ranks, 1));
    assert!(!file.exists());
    let out = two_rank_build(&args, &file);
    check(&out, "the build run again");
    assert_eq!(sha256(&file), sha256(&single));
    assert!(!state_of(&file).exists());
}
