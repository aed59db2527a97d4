//! `solver serve`'s JSON API against a real server on 127.0.0.1:0: solutions checked against
//! exhaustive breadth-first distances and against `solver solve --json`, every kind of bad
//! and hostile request answered with JSON and the right status, the limits, the queue, and
//! cancellation when the client goes away.

use crate::common;
use crate::serve;

use common::{all_distances, distance_key, random_solvable, solver, Rng};
use pdbformat::rank::TableKind;
use pdbformat::testkit::AbstractDistances;
use pdbformat::{Board, Direction, Goal, Pattern, Puzzle};
use serde_json::{json, Value};
use serve::{hang_up, server_3x3, Server};
use std::time::{Duration, Instant};

/// A 4x4 position that takes the misplaced-tiles heuristic far longer than these tests wait.
const HARD_4X4: &str = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";

/// Plays the answer's moves from `puzzle` and checks they reach `goal` moving the answer's tiles.
fn assert_replays(puzzle: &Puzzle, goal: &Goal, v: &Value) {
    let mut p = puzzle.clone();
    let moves = v["moves"].as_str().unwrap();
    let tiles: Vec<u64> = v["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap())
        .collect();
    assert_eq!(moves.len(), tiles.len());
    for (m, &t) in moves.chars().zip(&tiles) {
        let moved = p.apply(Direction::from_letter(m).unwrap());
        assert_eq!(moved.map(|x| x as u64), Some(t), "move {m} of {v}");
    }
    assert!(p.is_goal(goal), "{v} does not reach {goal}");
}

#[test]
fn solutions_are_optimal_and_replay() {
    let (server, _dir) = server_3x3(&[]);
    let mut rng = Rng::new(15);
    for goal_name in ["blank-first", "blank-last"] {
        let goal = Goal::parse(Board::new(3, 3).unwrap(), goal_name).unwrap();
        let dist = all_distances(&goal);
        for (i, algorithm) in ["ida", "astar", "bfs", "hybrid", "parallel-ida"]
            .iter()
            .cycle()
            .take(10)
            .enumerate()
        {
            let p = random_solvable(&goal, &mut rng);
            let heuristic = ["auto", "8-44", "manhattan", "linear-conflict", "hamming"][i % 5];
            let mut req =
                json!({ "puzzle": format!("{p}"), "goal": goal_name, "algorithm": algorithm });
            if heuristic == "8-44" {
                req["databases"] = json!(["8-44"]);
            } else {
                req["heuristic"] = json!(heuristic);
            }
            let (status, v) = server.solve(&req);
            assert_eq!(status, 200, "{req} -> {v}");
            assert_eq!(
                v["length"].as_u64().unwrap(),
                dist[distance_key(&p)] as u64,
                "{req} -> {v}"
            );
            assert_eq!(v["optimal"], json!(true));
            assert_eq!(v["goal"], json!(goal_name));
            assert_replays(&p, &goal, &v);
            if *algorithm == "ida" && heuristic == "auto" {
                assert!(
                    v["heuristic"].as_str().unwrap().starts_with("pdb 8-44"),
                    "{v}"
                );
            }
        }
    }
    // Rectangular boards, a list of numbers as the puzzle.
    for (w, h) in [(3, 2), (2, 4), (4, 2)] {
        let goal = Goal::blank_last(Board::new(w, h).unwrap());
        let dist = all_distances(&goal);
        let p = random_solvable(&goal, &mut rng);
        let tiles: Vec<u16> = p.tiles().to_vec();
        let (status, v) = server.solve(&json!({
            "puzzle": tiles, "board": format!("{w}x{h}"), "goal": "blank-last"
        }));
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["length"].as_u64().unwrap(), dist[distance_key(&p)] as u64);
        assert_replays(&p, &goal, &v);
    }
}

#[test]
fn answers_carry_the_cli_json_fields() {
    let (server, dir) = server_3x3(&[]);
    let db = dir.path().join("8-44.pdb");
    let p = "8 6 7 2 5 4 3 0 1";
    let home = tempfile::tempdir().unwrap();
    for algorithm in ["ida", "astar"] {
        let out = solver(home.path())
            .args("solve --json --quiet --algorithm".split(' '))
            .arg(algorithm)
            .arg(p)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert!(out.status.success());
        let cli: Value = serde_json::from_slice(&out.stdout).unwrap();
        let (status, api) = server.solve(&json!({ "puzzle": p, "algorithm": algorithm }));
        assert_eq!(status, 200);
        for (k, v) in cli.as_object().unwrap() {
            assert!(api.get(k).is_some(), "field {k} missing from {api}");
            // The search is deterministic: everything but its time agrees.
            if k != "seconds" && k != "heuristic" {
                assert_eq!(&api[k], v, "field {k}");
            }
        }
        assert_eq!(api["length"], json!(27));
    }
}

#[test]
fn bad_requests_get_json_errors_with_the_right_status() {
    let (server, _dir) = server_3x3(&["--max-body", "4096", "--max-cells", "100"]);
    let deep = format!("{}{}", "[".repeat(2_000), "]".repeat(2_000));
    let big_board: Vec<String> = (0..400).map(|t| t.to_string()).collect();
    let mut nine: Vec<u32> = (0..81).collect();
    nine.swap(0, 1);
    let cases: Vec<(&str, String, u16)> = vec![
        ("empty body", String::new(), 400),
        ("bad JSON", "{\"puzzle\": ".into(), 400),
        ("not an object", "[1,2,3]".into(), 400),
        ("deeply nested", deep, 400),
        ("not a tile", "{\"puzzle\": \"\u{fffd}\"}".into(), 400),
        ("unknown field", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "colour": 1}).to_string(), 400),
        ("no puzzle", json!({"goal": "blank-last"}).to_string(), 400),
        ("huge tile", json!({"puzzle": [1, 2, 3, 4, 5, 6, 7, 8, 1e300]}).to_string(), 400),
        ("huge number as tile", "{\"puzzle\": [99999999999999999999999999, 1, 2]}".into(), 400),
        ("negative tile", json!({"puzzle": [1, 2, 3, 4, 5, 6, 7, 8, -1]}).to_string(), 400),
        ("wrong tile count", json!({"puzzle": "1 2 3 4 5 6 7 8"}).to_string(), 400),
        ("not a square", json!({"puzzle": "1 2 3 4 5 0"}).to_string(), 400),
        ("wrong size for the board", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "board": "4x4"}).to_string(), 400),
        ("absurd board", json!({"puzzle": "1 2 3 0", "board": "99999999999999999999x2"}).to_string(), 400),
        ("duplicate tiles", json!({"puzzle": "1 1 3 4 5 6 7 8 0"}).to_string(), 400),
        ("tile out of range", json!({"puzzle": "1 2 3 4 5 6 7 8 9"}).to_string(), 400),
        ("unknown goal", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "goal": "upside-down"}).to_string(), 400),
        ("unknown algorithm", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "algorithm": "telepathy"}).to_string(), 400),
        ("unknown heuristic", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "heuristic": "oracle"}).to_string(), 400),
        ("zero nodes", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "max_nodes": 0}).to_string(), 400),
        ("negative timeout", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "timeout": -1}).to_string(), 400),
        ("timeout as text", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "timeout": "soon"}).to_string(), 400),
        ("unsolvable parity", json!({"puzzle": "2 1 3 4 5 6 7 8 0"}).to_string(), 422),
        ("unknown database", json!({"puzzle": "1 2 3 4 5 6 7 8 0", "databases": ["nope"]}).to_string(), 404),
        ("database for another board", json!({"puzzle": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", "goal": "blank-last", "databases": ["8-44"]}).to_string(), 422),
        ("pdb without a fitting database", json!({"puzzle": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", "goal": "blank-last", "heuristic": "pdb"}).to_string(), 422),
        ("board too large for ida", json!({"puzzle": nine}).to_string(), 422),
        ("board over --max-cells", json!({"puzzle": big_board.join(" "), "algorithm": "strategic"}).to_string(), 422),
    ];
    for (what, body, want) in &cases {
        let a = server.request("POST", "/api/solve", body.as_bytes());
        assert_eq!(
            a.status,
            *want,
            "{what}: {}",
            String::from_utf8_lossy(&a.body)
        );
        assert_eq!(a.header("content-type"), Some("application/json"), "{what}");
        let v = a.json();
        let msg = v["error"].as_str().unwrap_or_else(|| panic!("{what}: {v}"));
        assert!(
            !msg.is_empty() && !msg.contains("panicked"),
            "{what}: {msg}"
        );
        assert_eq!(v["status"], json!(want), "{what}");
    }
    let a = server.request("POST", "/api/solve", b"{\"puzzle\": \"\xff\xfe\"}");
    assert_eq!(a.status, 400, "invalid UTF-8");
    // The other goal is named for an unsolvable 4x4.
    let (s, v) = server.solve(&json!({"puzzle": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"}));
    assert_eq!(s, 422);
    let msg = v["error"].as_str().unwrap();
    assert!(
        msg.contains("solvable for goal blank-last") && !msg.contains("--"),
        "{v}"
    );
    // Too large: by its announced length (answered before the body is read) and by its bytes.
    let a = server.raw(b"POST /api/solve HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000\r\nConnection: close\r\n\r\n{");
    assert_eq!(a.status, 413, "{}", String::from_utf8_lossy(&a.body));
    assert!(a.json()["error"].as_str().unwrap().contains("4096"));
    let a = server.request("POST", "/api/solve", " ".repeat(5000).as_bytes());
    assert_eq!(a.status, 413);
    // Routes and methods.
    for (method, path, want) in [
        ("GET", "/nothing-here", 404),
        ("GET", "/api/solve", 405),
        ("DELETE", "/api/databases", 405),
        ("GET", "/api/databases/nope", 404),
        ("GET", "/assets/secret.txt", 404),
        ("GET", "/assets/..%2F..%2FCargo.toml", 404),
        ("POST", "/api/solve?colour=blue", 400),
    ] {
        let a = server.request(method, path, b"{\"puzzle\": \"1 2 3 4 5 6 7 8 0\"}");
        assert_eq!(a.status, want, "{method} {path}");
        assert!(a.json()["error"].is_string(), "{method} {path}");
    }
    // Raw garbage instead of HTTP gets a 400 (from the HTTP layer) or a closed connection,
    // and the server goes on answering.
    let _ = server.raw(b"\x00\x01\x02 garbage\r\n\r\n");
    let (s, v) = server.solve(&json!({"puzzle": "1 2 3 4 5 6 7 0 8", "goal": "blank-last"}));
    assert_eq!((s, v["length"].as_u64()), (200, Some(1)));
}

#[test]
fn limits_stop_searches_and_are_capped() {
    let (server, _dir) = server_3x3(&["--max-nodes", "5000", "--max-seconds", "2"]);
    // The request's own node limit.
    let (s, v) = server
        .solve(&json!({"puzzle": "8 6 7 2 5 4 3 0 1", "max_nodes": 100, "heuristic": "manhattan"}));
    assert_eq!(s, 422, "{v}");
    assert_eq!(v["stopped"], json!("node limit"));
    assert!(v["lower_bound"].as_u64().unwrap() >= 21, "{v}");
    assert!(v["nodes"].as_u64().unwrap() <= 100, "{v}");
    // A huge request is clamped to the server's cap.
    let (s, v) = server.solve(&json!({"puzzle": HARD_4X4, "goal": "blank-last", "heuristic": "hamming", "max_nodes": 1e30}));
    assert_eq!(s, 422, "{v}");
    assert_eq!(v["stopped"], json!("node limit"));
    assert!(v["nodes"].as_u64().unwrap() <= 5000, "{v}");
    // And so is time.
    let t = Instant::now();
    let (s, v) = server.solve(&json!({"puzzle": HARD_4X4, "goal": "blank-last", "heuristic": "hamming", "max_nodes": 5000, "timeout": 1e300, "algorithm": "bfs"}));
    assert_eq!(s, 422, "{v}");
    assert!(t.elapsed() < Duration::from_secs(30));
    // The server's limits are on its info page.
    let info = server.get("/api/server").json();
    assert_eq!(info["limits"]["max_nodes"], json!(5000));
    assert_eq!(info["limits"]["max_seconds"], json!(2.0));
}

/// Waits until `server` runs one search and has admitted one request; fails with `what`
/// after 20 s.
fn wait_for_one_running(server: &Server, what: &str) {
    let t = Instant::now();
    while server.load() != (1, 1) {
        assert!(t.elapsed() < Duration::from_secs(20), "{what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_full_queue_gives_503_and_a_client_that_leaves_stops_its_search() {
    let (server, _dir) = server_3x3(&["--searches", "1", "--queue", "0"]);
    let long =
        json!({"puzzle": HARD_4X4, "goal": "blank-last", "heuristic": "hamming", "timeout": 50});
    let conn = server.start_solve(&long);
    wait_for_one_running(&server, "the search never started");
    // Another dear search finds no room: 503, with when to come back.
    let a = server.request("POST", "/api/solve", long.to_string().as_bytes());
    let v = a.json();
    assert_eq!(a.status, 503, "{v}");
    assert!(v["error"].as_str().unwrap().contains("busy"));
    assert!(a.header("retry-after").is_some(), "{:?}", a.headers);
    // A cheap one has a lane of its own and is answered at once.
    let (s, v) = server.solve(&json!({"puzzle": "1 2 3 4 5 6 7 0 8", "goal": "blank-last"}));
    assert_eq!((s, v["length"].as_u64()), (200, Some(1)), "{v}");
    // The client goes away: the search stops within moments, not after its 50 s.
    let left = Instant::now();
    hang_up(conn);
    assert!(
        server.wait_idle(Duration::from_secs(10)),
        "the search went on after its client left"
    );
    assert!(left.elapsed() < Duration::from_secs(10));
    let (s, v) = server.solve(&json!({"puzzle": "1 2 3 4 5 6 7 0 8", "goal": "blank-last"}));
    assert_eq!((s, v["length"].as_u64()), (200, Some(1)));
    // The same through the streamed answer.
    let mut streamed = long.clone();
    streamed["puzzle"] = json!(HARD_4X4);
    let b = streamed.to_string();
    let mut c = std::net::TcpStream::connect(server.addr).unwrap();
    use std::io::Write;
    write!(
        c,
        "POST /api/solve?stream=1 HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n{b}",
        b.len()
    )
    .unwrap();
    wait_for_one_running(&server, "the streamed search never started");
    hang_up(c);
    assert!(
        server.wait_idle(Duration::from_secs(10)),
        "the streamed search went on"
    );
}

#[test]
fn streamed_answers_report_progress_then_the_result() {
    let (server, _dir) = server_3x3(&[]);
    let body = json!({"puzzle": "8 6 7 2 5 4 3 0 1", "heuristic": "manhattan"}).to_string();
    let a = server.request("POST", "/api/solve?stream=1", body.as_bytes());
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/x-ndjson"));
    let lines: Vec<Value> = String::from_utf8(a.body)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let iterations: Vec<&Value> = lines.iter().filter(|l| l["event"] == "iteration").collect();
    assert!(!iterations.is_empty());
    let bounds: Vec<u64> = iterations
        .iter()
        .map(|l| l["bound"].as_u64().unwrap())
        .collect();
    assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
    // The same fields as `solver solve --json` prints per iteration (one builder serves both).
    for (k, it) in iterations.iter().enumerate() {
        assert_eq!(it["iteration"], json!(k + 1), "{it}");
        assert_eq!(it["growth"].is_null(), k == 0, "{it}");
        for f in [
            "nodes",
            "total_nodes",
            "seconds",
            "total_seconds",
            "nodes_per_second",
            "next_bound",
        ] {
            assert!(it[f].is_number(), "{f} in {it}");
        }
    }
    let last = lines.last().unwrap();
    assert_eq!(last["event"], json!("done"));
    assert_eq!(last["status"], json!(200));
    assert_eq!(last["body"]["length"], json!(27));
    // An anytime search streams its improvements, and its answer carries its bound.
    let body =
        json!({"puzzle": "8 6 7 2 5 4 3 0 1", "heuristic": "manhattan", "within": 1.5}).to_string();
    let a = server.request("POST", "/api/solve?stream=1", body.as_bytes());
    let lines: Vec<Value> = String::from_utf8(a.body)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let better: Vec<&Value> = lines
        .iter()
        .filter(|l| l["event"] == "improvement")
        .collect();
    assert!(!better.is_empty(), "{lines:?}");
    let last = &lines[lines.len() - 1]["body"];
    assert_eq!(last["algorithm"], json!("anytime"), "{last}");
    assert_eq!(better[better.len() - 1]["length"], last["length"]);
    let (len, lb) = (
        last["length"].as_f64().unwrap(),
        last["lower_bound"].as_f64().unwrap(),
    );
    // 27 moves at best, as the optimal answer above says.
    assert!(lb <= 27.0 && 27.0 <= len && len <= 1.5 * lb, "{last}");
    // A failure comes in the last line with its status and error.
    let body = json!({"puzzle": "8 6 7 2 5 4 3 0 1", "max_nodes": 10, "heuristic": "manhattan"})
        .to_string();
    let a = server.request("POST", "/api/solve?stream=1", body.as_bytes());
    let text = String::from_utf8(a.body).unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["status"], json!(422));
    assert_eq!(last["body"]["stopped"], json!("node limit"));
    // Bad input is refused before any stream starts.
    let a = server.request("POST", "/api/solve?stream=1", b"{");
    assert_eq!(a.status, 400);
}

#[test]
fn database_pages_show_headers_and_exact_histograms() {
    let (server, _dir) = server_3x3(&[]);
    let list = server.get("/api/databases").json();
    let dbs = list["databases"].as_array().unwrap();
    assert_eq!(dbs.len(), 1);
    assert_eq!(dbs[0]["name"], json!("8-44"));
    assert_eq!(dbs[0]["board"], json!("3x3"));
    assert_eq!(dbs[0]["goals"], json!(["blank-first", "blank-last"]));
    let d = server.get("/api/databases/8-44").json();
    assert!(
        d["description"].as_str().unwrap().contains("zero-aware"),
        "{d}"
    );
    let goal = Goal::blank_first(Board::new(3, 3).unwrap());
    let tables = d["table_list"].as_array().unwrap();
    assert_eq!(tables.len(), 2);
    for (t, tiles) in tables.iter().zip([[1, 2, 3, 4], [5, 6, 7, 8]]) {
        // The oracle's values, counted here.
        let pattern = Pattern::new(goal.board(), &tiles).unwrap();
        let values = AbstractDistances::new(&goal, &pattern).table(TableKind::ZeroAware);
        let mut counts =
            vec![0u64; 1 + *values.iter().filter(|&&v| v != u8::MAX).max().unwrap() as usize];
        let mut unreached = 0u64;
        for &v in &values {
            if v == u8::MAX {
                unreached += 1;
            } else {
                counts[v as usize] += 1;
            }
        }
        assert_eq!(
            t["histogram"]["counts"],
            json!(counts),
            "table {}",
            t["pattern"]
        );
        assert_eq!(t["histogram"]["unreached"], json!(unreached));
        assert_eq!(t["entries"], json!(values.len()));
    }
    // The page, its assets and a database's page.
    for (path, kind, needle) in [
        ("/", "text/html", "id=\"board\""),
        ("/db/8-44", "text/html", "id=\"db-view\""),
        ("/assets/app.js", "text/javascript", "/api/solve?stream=1"),
        ("/assets/style.css", "text/css", ".board"),
    ] {
        let a = server.get(path);
        assert_eq!(a.status, 200, "{path}");
        assert!(
            a.header("content-type").unwrap().starts_with(kind),
            "{path}"
        );
        assert!(a
            .header("content-security-policy")
            .unwrap()
            .contains("default-src 'self'"));
        assert!(String::from_utf8_lossy(&a.body).contains(needle), "{path}");
    }
}

#[test]
fn without_databases_the_classic_heuristics_serve() {
    let server = Server::start(&[]);
    let info = server.get("/api/server").json();
    assert_eq!(info["databases"], json!([]));
    let (s, v) = server.solve(&json!({"puzzle": "8 6 7 2 5 4 3 0 1"}));
    assert_eq!(s, 200);
    assert_eq!(v["length"], json!(27));
    assert!(
        v["heuristic"].as_str().unwrap().contains("linear conflict"),
        "{v}"
    );
}
