//! Loopback load tests of `solver serve`: 200 requests, 32 at once, valid solves mixed with
//! malformed, hostile and abandoned ones, against a server with a small queue (every answer
//! JSON with an expected status, every solution optimal, the server idle and correct
//! afterwards); a few thousand cheap solves that must all be answered while dear ones are
//! refused with Retry-After rather than wait beyond the bound; and clients that trickle
//! their requests, which must be cut off without holding the others up. Bounded in count and
//! time; the speed figures are in BENCHMARKS.md, measured with a load generator.

use crate::common;
use crate::serve;

use common::{all_distances, distance_key, random_solvable, Rng};
use pdbformat::{Board, Goal};
use serde_json::{json, Value};
use serve::{hang_up, server_3x3};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const REQUESTS: usize = 200;
const CLIENTS: usize = 32;

/// After a load: within 15 s nothing runs or waits, and the 8-puzzle is solved at once.
fn idle_and_solving(server: &serve::Server) {
    assert!(
        server.wait_idle(Duration::from_secs(15)),
        "searches still running after the load: {:?}",
        server.load()
    );
    let (s, v) = server.solve(&json!({"puzzle": "8 6 7 2 5 4 3 0 1"}));
    assert_eq!((s, v["length"].as_u64()), (200, Some(27)), "{v}");
}

#[test]
fn the_server_survives_concurrent_mixed_load() {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let (server, _dir) = server_3x3(&[
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
    idle_and_solving(&server);
    let (s, _) = server.solve(&json!({"puzzle": "{"}));
    assert_eq!(s, 400);
}

/// The wait for a slot in milliseconds, from the `server-timing` header of an answer.
fn waited_ms(a: &serve::Answer) -> Option<f64> {
    let t = a.header("server-timing")?;
    let wait = t
        .split(',')
        .find_map(|p| p.trim().strip_prefix("wait;dur="))?;
    wait.parse().ok()
}

#[test]
fn cheap_solves_are_all_answered_and_dear_ones_never_wait_beyond_the_bound() {
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let (server, _dir) =
        server_3x3(&["--searches", "1", "--max-wait", "0.5", "--max-seconds", "5"]);
    let dist = all_distances(&goal);
    // 2,000 cheap solves from 64 clients at once: every one answered, and right.
    let mut rng = Rng::new(7);
    let work: Vec<_> = (0..2000)
        .map(|_| {
            let p = random_solvable(&goal, &mut rng);
            (format!("{p}"), dist[distance_key(&p)] as u64)
        })
        .collect();
    let work = Mutex::new(work);
    std::thread::scope(|scope| {
        for _ in 0..64 {
            scope.spawn(|| loop {
                let Some((puzzle, want)) = work.lock().unwrap().pop() else {
                    break;
                };
                let (s, v) = server.solve(&json!({ "puzzle": puzzle }));
                assert_eq!(
                    (s, v["length"].as_u64()),
                    (200, Some(want)),
                    "{puzzle}: {v}"
                );
            });
        }
    });
    // 24 dear searches at once for one slot (4x4, hamming, up to 2 s each): those that would
    // wait beyond the bound of 0.5 s are refused at once, with Retry-After; none of those
    // admitted waited beyond the bound (plus the scheduler's slack) for its slot.
    let dear = json!({"puzzle": "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1", "goal": "blank-last", "heuristic": "hamming", "timeout": 2});
    let answers = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..24 {
            scope.spawn(|| {
                let a = server.request("POST", "/api/solve", dear.to_string().as_bytes());
                answers.lock().unwrap().push(a);
            });
        }
    });
    let answers = answers.into_inner().unwrap();
    let refused = answers.iter().filter(|a| a.status == 503).count();
    assert!(refused > 0, "24 searches of 2 s for one slot, none refused");
    for a in &answers {
        let v = a.json();
        match a.status {
            503 => {
                let after: u64 = a
                    .header("retry-after")
                    .unwrap_or_else(|| panic!("503 without Retry-After: {v}"))
                    .parse()
                    .unwrap();
                assert!(after >= 1);
                assert_eq!(v["retry_after"].as_u64(), Some(after), "{v}");
            }
            // Stopped by its time limit, or solved.
            422 | 200 => {
                let w = waited_ms(a).unwrap_or_else(|| panic!("no server-timing: {v}"));
                assert!(w <= 500.0 + 1000.0, "waited {w} ms for its slot");
            }
            s => panic!("status {s}: {v}"),
        }
    }
    // Cheap requests are served again at once.
    idle_and_solving(&server);
}

#[test]
fn slow_clients_are_cut_off_and_do_not_hold_the_others() {
    let (server, _dir) = server_3x3(&["--client-timeout", "1"]);
    let body = json!({"puzzle": "8 6 7 2 5 4 3 0 1"}).to_string();
    // 32 clients trickle their headers, 32 their bodies, a byte every 100 ms.
    let slow: Vec<(TcpStream, Vec<u8>)> = (0..64)
        .map(|i| {
            let s = TcpStream::connect(server.addr).unwrap();
            s.set_nodelay(true).unwrap();
            s.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
            let head = format!(
                "POST /api/solve HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            let (sent, rest) = if i % 2 == 0 {
                (String::new(), head + &body)
            } else {
                (head, body.clone())
            };
            let mut s = s;
            s.write_all(sent.as_bytes()).unwrap();
            (s, rest.into_bytes())
        })
        .collect();
    let start = Instant::now();
    let slow = Mutex::new(slow);
    let ended = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut slow = slow.lock().unwrap();
            let mut at = 0;
            while !slow.is_empty() && start.elapsed() < Duration::from_secs(30) {
                std::thread::sleep(Duration::from_millis(100));
                let mut i = 0;
                while i < slow.len() {
                    let (s, rest) = &mut slow[i];
                    let mut buf = [0u8; 4096];
                    let closed = match s.read(&mut buf) {
                        Ok(0) => Some(None),
                        Ok(n) => Some(Some(String::from_utf8_lossy(&buf[..n]).into_owned())),
                        Err(e)
                            if e.kind() == std::io::ErrorKind::WouldBlock
                                || e.kind() == std::io::ErrorKind::TimedOut =>
                        {
                            None
                        }
                        Err(_) => Some(None),
                    };
                    let gone = closed.is_some()
                        || (at < rest.len() && s.write_all(&rest[at..at + 1]).is_err());
                    if gone {
                        ended
                            .lock()
                            .unwrap()
                            .push((start.elapsed(), closed.flatten()));
                        slow.swap_remove(i);
                    } else {
                        i += 1;
                    }
                }
                at += 1;
            }
        });
        // Meanwhile other clients are served as usual.
        for _ in 0..50 {
            let (s, v) = server.solve(&json!({"puzzle": "8 6 7 2 5 4 3 0 1"}));
            assert_eq!((s, v["length"].as_u64()), (200, Some(27)), "{v}");
        }
    });
    let ended = ended.into_inner().unwrap();
    assert_eq!(ended.len(), 64, "slow connections still open after 30 s");
    for (when, answer) in &ended {
        // Cut off after the timeout of 1 s (a trickled body gets its 408 first), well before
        // the trickle would have ended.
        assert!(
            *when >= Duration::from_millis(900),
            "cut off after {when:?}"
        );
        assert!(
            *when < Duration::from_secs(20),
            "cut off only after {when:?}"
        );
        if let Some(a) = answer {
            assert!(a.starts_with("HTTP/1.1 408"), "{a}");
        }
    }
    assert!(
        ended.iter().any(|(_, a)| a.is_some()),
        "no trickled body was answered 408"
    );
}
