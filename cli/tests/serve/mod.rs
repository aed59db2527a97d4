//! Test helpers for `solver serve`: a server process bound to 127.0.0.1:0 (isolated from the
//! machine's databases) and a small HTTP/1.1 client over a plain `TcpStream`, written here so
//! that the tests share no HTTP code with the server they check.

#![allow(dead_code)]

use pdbformat::{Board, Goal};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A server with a 3x3 database for blank-first (it also serves blank-last: a symmetry maps
/// the corners onto each other).
pub fn server_3x3(extra: &[&str]) -> (Server, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("8-44.pdb");
    write_3x3_db(&db, &Goal::blank_first(Board::new(3, 3).unwrap()));
    let mut args = vec!["--db", db.to_str().unwrap()];
    args.extend_from_slice(extra);
    (Server::start(&args), dir)
}

/// A running `solver serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// The address it printed.
    pub addr: SocketAddr,
    _home: tempfile::TempDir,
}

/// An answer: status, headers (lower-case names) and body.
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers.
    pub headers: Vec<(String, String)>,
    /// The body (chunked bodies decoded).
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as JSON (panics with the body when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", String::from_utf8_lossy(&self.body)))
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Server {
    /// Starts `solver serve --bind 127.0.0.1:0 --no-build` with `args`, in a fresh home.
    pub fn start(args: &[&str]) -> Server {
        Server::start_in(tempfile::tempdir().unwrap(), args)
    }

    /// Like [`Server::start`] in `home` (its working folder, home and cache).
    pub fn start_in(home: tempfile::TempDir, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
            .args(["serve", "--bind", "127.0.0.1:0", "--no-build"])
            .args(args)
            .current_dir(home.path())
            .env_remove("PDB_DIR")
            .env("HOME", home.path())
            .env("XDG_CACHE_HOME", home.path().join("cache"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|s| s.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .unwrap();
        Server {
            child,
            addr,
            _home: home,
        }
    }

    /// Sends raw bytes as a request and reads the answer.
    pub fn raw(&self, request: &[u8]) -> Answer {
        let mut s = TcpStream::connect(self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        // The server may answer (413) before reading everything: a failed write is not an
        // error here, the answer is what counts.
        let _ = s.write_all(request);
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf);
        parse_answer(&buf).unwrap_or_else(|| {
            panic!(
                "no HTTP answer: {:?}",
                String::from_utf8_lossy(&buf[..buf.len().min(500)])
            )
        })
    }

    /// A request with `method`, `path` and `body`.
    pub fn request(&self, method: &str, path: &str, body: &[u8]) -> Answer {
        let mut r = format!(
            "{method} {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        r.extend_from_slice(body);
        self.raw(&r)
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Answer {
        self.request("GET", path, b"")
    }

    /// `POST /api/solve` with a JSON body: status and JSON answer.
    pub fn solve(&self, body: &Value) -> (u16, Value) {
        let a = self.request("POST", "/api/solve", body.to_string().as_bytes());
        (a.status, a.json())
    }

    /// Starts a solve and returns its open connection without reading the answer (dropping
    /// or shutting it down is the client going away).
    pub fn start_solve(&self, body: &Value) -> TcpStream {
        let b = body.to_string();
        let mut s = TcpStream::connect(self.addr).unwrap();
        write!(
            s,
            "POST /api/solve HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
            b.len()
        )
        .unwrap();
        s
    }

    /// Searches running and requests admitted, from `GET /api/server`.
    pub fn load(&self) -> (u64, u64) {
        let v = self.get("/api/server").json();
        (
            v["running"].as_u64().unwrap(),
            v["admitted"].as_u64().unwrap(),
        )
    }

    /// Waits (at most `limit`) until no search runs or waits.
    pub fn wait_idle(&self, limit: Duration) -> bool {
        let t = Instant::now();
        while t.elapsed() < limit {
            if self.load() == (0, 0) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Closes a connection at once.
pub fn hang_up(s: TcpStream) {
    let _ = s.shutdown(Shutdown::Both);
}

/// Parses an HTTP/1.1 answer (with a `Content-Length` or a chunked body, or one that runs to
/// the end of the connection).
fn parse_answer(buf: &[u8]) -> Option<Answer> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let rest = &buf[end + 4..];
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        let mut out = Vec::new();
        let mut at = 0;
        loop {
            let nl = rest[at..].windows(2).position(|w| w == b"\r\n")? + at;
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[at..nl]).ok()?.trim(), 16).ok()?;
            if size == 0 {
                break;
            }
            out.extend_from_slice(rest.get(nl + 2..nl + 2 + size)?);
            at = nl + 2 + size + 2;
        }
        out
    } else {
        rest.to_vec()
    };
    Some(Answer {
        status,
        headers,
        body,
    })
}

/// Writes a zero-aware 3x3 database of tiles 1-4 and 5-8 (brute-force tables) for `goal`.
pub fn write_3x3_db(path: &Path, goal: &pdbformat::Goal) {
    super::common::write_db(
        path,
        goal,
        &[&[1, 2, 3, 4], &[5, 6, 7, 8]],
        pdbformat::rank::TableKind::ZeroAware,
    );
}
