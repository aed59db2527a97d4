//! The `solver` command with the files beside it: standard database and catalogue names
//! resolved in the search directories (a file named twice loaded once), a corrupt bit1 file reported, and pruning machines
//! beside the databases read before the cache and never replaced.

use crate::common;

use common::{damage, small_bit1, solver};
use pdbformat::format::Compression;
use pdbformat::Board;
use pdbsolver::prune::cache::{self, file_name, write};
use pdbsolver::prune::Pruner;
use predicates::prelude::*;

#[test]
fn machines_beside_the_databases_are_read_first_and_never_replaced() {
    let home = tempfile::tempdir().unwrap();
    let list = home.path().join("b.txt");
    std::fs::write(&list, "8 6 7 2 5 4 3 0 1 27\n").unwrap();
    let (dbdir, cachedir) = (home.path().join("dbs"), home.path().join("prune-cache"));
    std::fs::create_dir_all(&dbdir).unwrap();
    // 3x3's default word depth is 12, the smallest that is kept in files.
    let board = Board::new(3, 3).unwrap();
    let name = file_name(board, 12);
    let (published, cached) = (dbdir.join(&name), cachedir.join(&name));
    write(&published, board, &Pruner::new(board, 12)).unwrap();
    let bench = |cache_setting: &std::path::Path| {
        solver(home.path())
            .env("PDB_DIR", &dbdir)
            .env(cache::ENV_VAR, cache_setting)
            .args(["bench", "--heuristic", "lc"])
            .arg(&list)
            .assert()
            .success()
    };
    let says = |what: &str, path: &std::path::Path| {
        predicate::str::contains(format!("{what} {}", path.display()))
    };
    // `solver locate` says where the machine would come from.
    let locate = |cache_setting: &std::path::Path| {
        solver(home.path())
            .env("PDB_DIR", &dbdir)
            .env(cache::ENV_VAR, cache_setting)
            .args(["locate", "--board", "3x3"])
            .assert()
            .success()
    };
    locate("off".as_ref()).stdout(says("would read", &published));
    // Read from $PDB_DIR, with the cache off and with a cache: nothing is written to the cache.
    bench("off".as_ref()).stdout(says("read from", &published));
    bench(&cachedir).stdout(says("read from", &published));
    assert!(!cached.exists());
    // A damaged machine there is passed over and left as it is; the cache serves instead.
    let mut bytes = std::fs::read(&published).unwrap();
    bytes[60] ^= 0x10;
    std::fs::write(&published, &bytes).unwrap();
    locate(&cachedir)
        .stdout(says("skipped", &published))
        .stdout(says("keep it in", &cached));
    bench(&cachedir).stdout(says("built and cached in", &cached));
    locate(&cachedir).stdout(says("would read", &cached));
    bench(&cachedir).stdout(says("read from", &cached));
    assert_eq!(std::fs::read(&published).unwrap(), bytes);
    // Without a cache the machine is built each time, and the damaged file still stays.
    bench("off".as_ref()).stdout(predicate::str::contains("states, built in"));
    assert_eq!(std::fs::read(&published).unwrap(), bytes);
    // The user cache holds databases too, but it is the machines' own cache: `off` means it
    // is not read either.
    std::fs::remove_file(&published).unwrap();
    let user_cache = home.path().join("cache").join("pdb-tiles");
    std::fs::create_dir_all(&user_cache).unwrap();
    write(&user_cache.join(&name), board, &Pruner::new(board, 12)).unwrap();
    bench("off".as_ref()).stdout(predicate::str::contains("states, built in"));
    bench(&cachedir).stdout(says("read from", &cached));
}

#[test]
fn db_names_resolve_in_the_search_directories() {
    let home = tempfile::tempdir().unwrap();
    let dbdir = home.path().join("dbs");
    std::fs::create_dir(&dbdir).unwrap();
    let s = pdbformat::standard::lookup("15-555-za").unwrap();
    pdbgen::build_standard(s, &dbdir.join(s.file_name()), None, &pdbgen::NoProgress).unwrap();
    // Two moves from the goal (the blank down twice).
    let p = "4 1 2 3 8 5 6 7 0 9 10 11 12 13 14 15";
    solver(home.path())
        .env("PDB_DIR", &dbdir)
        .args(["solve", p, "--db", "15-555-za"])
        .assert()
        .success()
        .stdout(predicate::str::contains("length:     2"))
        .stderr(predicate::str::contains("15-555-za.pdb"));
    // The same file twice (by name and by path, as a catalogue whose groups share a table
    // names it): loaded once, the same answer.
    let twice = solver(home.path())
        .env("PDB_DIR", &dbdir)
        .args(["solve", p, "--db", "15-555-za", "--db"])
        .arg(dbdir.join(s.file_name()))
        .assert()
        .success()
        .stdout(predicate::str::contains("length:     2"));
    let stderr = String::from_utf8_lossy(&twice.get_output().stderr).into_owned();
    assert_eq!(stderr.matches("database: ").count(), 1, "{stderr}");
    // A catalogue whose members are missing: which one, where it was looked for, how to build.
    solver(home.path())
        .env("PDB_DIR", &dbdir)
        .args(["solve", p, "--db", "15-78+78b-za-bit1"])
        .assert()
        .code(predicate::ne(0))
        .stderr(predicate::str::contains(
            "database 15-78-za-bit1 (in catalogue 15-78+78b-za-bit1) is not in",
        ))
        .stderr(predicate::str::contains(
            "cargo xtask artifacts build 15-78-za-bit1",
        ))
        .stderr(predicate::str::contains(
            "--partition 78 --kind zero-aware --encoding bit1",
        ))
        .stderr(predicate::str::contains("panicked").not());
    // Not a name and not a file: the file error, once.
    solver(home.path())
        .env("PDB_DIR", &dbdir)
        .args(["solve", p, "--db", "15-78+78c-za-bit1"])
        .assert()
        .code(predicate::ne(0))
        .stderr(predicate::str::contains("15-78+78c-za-bit1"));
}

#[test]
fn the_command_line_reports_a_corrupt_bit1_file() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = small_bit1(dir.path(), Compression::None);
    damage(&path, |p| p.fill(0));
    let run = |extra: &[&str]| {
        let mut cmd = assert_cmd::Command::cargo_bin("solver").unwrap();
        cmd.args(["solve", "--db"])
            .arg(&path)
            .args(extra)
            .args(["8 7 6 5 4 3 2 1 0"]);
        cmd.assert()
            .code(1)
            .stderr(predicates::str::contains("small-none.pdb"))
    };
    run(&[]).stderr(predicates::str::contains("checksum mismatch"));
    run(&["--no-verify"]).stderr(predicates::str::contains("corrupt"));
}
