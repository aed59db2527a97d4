//! `solver serve` without `--db` finds the databases `solver solve` would use, in the same
//! places: the default built into the cache by an earlier `solver solve`, and a 5x5 database
//! there, each answering its board's requests with a pattern-database heuristic.

use crate::common;
use crate::serve;

use serde_json::json;
use serve::Server;

/// Korf's first 15-puzzle instance, 57 moves.
const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// Checks that `server` solves `puzzle` in `length` moves with the database file `db`.
fn solved_with(server: &Server, puzzle: &str, length: u64, db: &str) {
    let (status, v) = server.solve(&json!({ "puzzle": puzzle }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["length"], length, "{v}");
    let h = v["heuristic"].as_str().unwrap();
    assert!(h.starts_with(&format!("pdb {db}")), "{h}");
}

#[test]
fn serve_uses_the_default_that_solve_built_into_the_cache() {
    let home = tempfile::tempdir().unwrap();
    common::solver(home.path())
        .args(["solve", "--json", KORF_1])
        .assert()
        .success();
    let cached = home.path().join("cache/pdb-tiles/15-663-za.pdb");
    assert!(cached.is_file(), "solve built its default into the cache");
    let server = Server::start_in(home, &[]);
    solved_with(&server, KORF_1, 57, "15-663-za.pdb");
}

#[test]
fn serve_finds_a_5x5_database_where_solve_looks() {
    let home = tempfile::tempdir().unwrap();
    let cache = home.path().join("cache/pdb-tiles");
    std::fs::create_dir_all(&cache).unwrap();
    // A small 5x5 database covering every tile (eight 3-tile patterns), where `solver solve
    // --board 5x5` would find it.
    let patterns = "1-3/4-6/7-9/10-12/13-15/16-18/19-21/22-24";
    assert_cmd::Command::cargo_bin("pdbgen")
        .unwrap()
        .args("build --board 5x5 --no-state -p".split(' '))
        .arg(patterns)
        .arg("-o")
        .arg(cache.join("small-5x5.pdb"))
        .assert()
        .success();
    // Two moves from the goal.
    let puzzle = "5 1 2 3 4 10 6 7 8 9 0 11 12 13 14 15 16 17 18 19 20 21 22 23 24";
    let server = Server::start_in(home, &[]);
    solved_with(&server, puzzle, 2, "small-5x5.pdb");
    let listed = server.get("/api/databases").json();
    let names: Vec<&str> = (listed["databases"].as_array().unwrap().iter())
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"small-5x5"), "{listed}");
}
