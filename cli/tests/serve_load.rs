//! A loopback load test of `solver serve`: 200 requests, 32 at once, valid solves mixed with
//! malformed, hostile and abandoned ones, against a server with a small queue. Every answer
//! must be JSON with an expected status, every solution optimal; afterwards nothing runs or
//! waits and the server still solves correctly. Bounded in count and time.

mod common;
mod serve;

use common::{all_distances, distance_key, random_solvable, Rng};
use pdbformat::{Board, Goal};
use serde_json::{json, Value};
use serve::{hang_up, write_3x3_db, Server};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const REQUESTS: usize = 200;
const CLIENTS: usize = 32;

#[test]
fn the_server_survives_concurrent_mixed_load() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let db = dir.path().join("8-44.pdb");
    write_3x3_db(&db, &goal);
    let server = Server::start(&[
        "--db",
        db.to_str().unwrap(),
        "--searches",
        "2",
        "--queue",
        "8",
        "--max-seconds",
        "5",
        "--max-body",
        "8192",
    ]);
    let dist = all_distances(&goal);
    // The work, drawn up front from a seeded source: (kind, body, expected length).
    let mut rng = Rng::new(2026);
    let mut work = Vec::new();
    for i in 0..REQUESTS {
        let p = random_solvable(&goal, &mut rng);
        let body = match i % 8 {
            0 => "{\"puzzle\": ".to_string(),
            1 => json!({"puzzle": "1 1 2 3 4 5 6 7 0"}).to_string(),
            2 => json!({"puzzle": "2 1 3 4 5 6 7 8 0"}).to_string(),
            3 => "x".repeat(10_000),
            4 => json!({"puzzle": format!("{p}"), "databases": ["missing"]}).to_string(),
            5 => json!({"puzzle": "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", "goal": "blank-last", "heuristic": "hamming"}).to_string(),
            _ => json!({"puzzle": format!("{p}"), "algorithm": (["ida", "astar", "ida"][i % 3])}).to_string(),
        };
        work.push((i % 8, body, dist[distance_key(&p)] as u64));
    }
    let work = Mutex::new(work);
    let statuses = Mutex::new(Vec::new());
    let solved = AtomicUsize::new(0);
    let start = Instant::now();
    // Scoped threads: a failing client fails the test, and the server (owned here) is still
    // stopped on the way out.
    std::thread::scope(|scope| {
        for _ in 0..CLIENTS {
            scope.spawn(|| loop {
                let Some((kind, body, want)) = work.lock().unwrap().pop() else {
                    break;
                };
                if kind == 5 {
                    // A long search whose client gives up after a moment.
                    let c = server.start_solve(&serde_json::from_str::<Value>(&body).unwrap());
                    std::thread::sleep(Duration::from_millis(100));
                    hang_up(c);
                    continue;
                }
                let a = server.request("POST", "/api/solve", body.as_bytes());
                let v = a.json();
                let expected: &[u16] = match kind {
                    0 => &[400],
                    1 => &[400],
                    2 => &[422],
                    3 => &[413],
                    4 => &[404],
                    _ => &[200, 503],
                };
                assert!(
                    expected.contains(&a.status),
                    "kind {kind}: status {} for {body}: {v}",
                    a.status
                );
                if a.status == 200 {
                    assert_eq!(v["length"].as_u64(), Some(want), "{body}: {v}");
                    solved.fetch_add(1, Ordering::SeqCst);
                } else {
                    assert!(v["error"].is_string(), "{v}");
                }
                statuses.lock().unwrap().push(a.status);
            });
        }
    });
    let took = start.elapsed();
    assert!(took < Duration::from_secs(120), "the load took {took:?}");
    let statuses = statuses.lock().unwrap();
    let busy = statuses.iter().filter(|&&s| s == 503).count();
    eprintln!(
        "{} answers in {:.1} s: {} solved, {busy} busy (503)",
        statuses.len(),
        took.as_secs_f64(),
        solved.load(Ordering::SeqCst)
    );
    assert!(solved.load(Ordering::SeqCst) > 0, "some solves got through");
    // Afterwards: nothing runs or waits (the abandoned searches stopped), and it still solves.
    assert!(
        server.wait_idle(Duration::from_secs(15)),
        "searches still running after the load: {:?}",
        server.load()
    );
    let (s, v) = server.solve(&json!({"puzzle": "8 6 7 2 5 4 3 0 1"}));
    assert_eq!((s, v["length"].as_u64()), (200, Some(27)), "{v}");
    let (s, _) = server.solve(&json!({"puzzle": "{"}));
    assert_eq!(s, 400);
}
