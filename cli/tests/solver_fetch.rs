//! `solver fetch` against a release folder served by a small HTTP server on loopback: it
//! installs into an empty cache and the solver then uses the database by name, an interrupted
//! download resumes with a Range request, and a file with one flipped byte is refused and leaves
//! nothing behind; a class file (the multi-tile metric's) is installed and checked the same way.

use crate::common;

use common::solver;
use pdbformat::format::{Compression, LoadOptions, PdbFile};
use predicates::prelude::*;
use sha2::{Digest as _, Sha256};
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What the server does to the next responses.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Serve files as they are.
    Plain,
    /// Send the headers of the whole file but only its first half, then close.
    Cut,
    /// Serve the database file with one byte flipped.
    Flip,
}

/// A release folder served on 127.0.0.1, with the requests it saw (`path range`).
struct Server {
    url: String,
    mode: Arc<Mutex<Mode>>,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(root: PathBuf) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let mode = Arc::new(Mutex::new(Mode::Plain));
        let log = Arc::new(Mutex::new(Vec::new()));
        let (m, l) = (mode.clone(), log.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let mode = *m.lock().unwrap();
                serve(stream, &root, mode, &l);
            }
        });
        Server { url, mode, log }
    }

    fn set(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

/// Answers one request: GET of a file in `root`, whole or from a `Range: bytes=N-` offset.
fn serve(stream: TcpStream, root: &Path, mode: Mode, log: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut from = None;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
            break;
        }
        let lower = h.to_ascii_lowercase();
        if let Some(r) = lower.strip_prefix("range: bytes=") {
            from = r.trim().trim_end_matches('-').parse::<usize>().ok();
        }
    }
    log.lock().unwrap().push(format!(
        "{path} {}",
        from.map_or("-".into(), |f| f.to_string())
    ));
    let mut out = stream;
    let file = root.join(path.trim_start_matches('/'));
    let Ok(mut body) = std::fs::read(&file) else {
        let _ = out
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return;
    };
    let is_db = path.ends_with(".pdb");
    if mode == Mode::Flip && is_db {
        let mid = body.len() / 2;
        body[mid] ^= 0x10;
    }
    let total = body.len();
    let (status, start) = match from {
        Some(f) if f < total => ("206 Partial Content", f),
        _ => ("200 OK", 0),
    };
    let part = &body[start..];
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\nConnection: close\r\n",
        part.len()
    );
    if start > 0 {
        head += &format!("Content-Range: bytes {start}-{}/{total}\r\n", total - 1);
    }
    head += "\r\n";
    let _ = out.write_all(head.as_bytes());
    let send = if mode == Mode::Cut && is_db {
        &part[..part.len() / 2]
    } else {
        part
    };
    let _ = out.write_all(send);
    let _ = out.flush();
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A release folder of the standard `15-555-za` as `cargo xtask artifacts publish` lays it
/// out: the zstd-compressed file, `manifest.json` and `SHA256SUMS`.
fn publish(dir: &Path) -> (String, Vec<String>) {
    publish_db(dir, "15-555-za")
}

/// A release folder of standard database `db`, its zstd file written as `cargo xtask artifacts
/// compress` writes it (through `pdbgen::recode`), with `manifest.json` and `SHA256SUMS`.
/// Returns the file's name and its tables' entry digests.
fn publish_db(dir: &Path, db: &str) -> (String, Vec<String>) {
    let s = pdbformat::standard::lookup(db).unwrap();
    let raw = dir.join("raw.pdb");
    pdbgen::build_standard(s, &raw, None, &pdbgen::NoProgress).unwrap();
    let file = PdbFile::open(&raw).unwrap();
    let digests: Vec<String> = (file.header().tables.iter())
        .map(|t| t.raw_digest.hex())
        .collect();
    drop(file);
    let release = dir.join("release");
    std::fs::create_dir(&release).unwrap();
    let name = format!("{db}.zstd.pdb");
    let opts = pdbgen::RecodeOptions {
        compression: Some(Compression::Zstd),
        ..pdbgen::RecodeOptions::default()
    };
    pdbgen::recode(&raw, &release.join(&name), &opts, &pdbgen::NoProgress).unwrap();
    std::fs::remove_file(&raw).unwrap();
    let bytes = std::fs::read(release.join(&name)).unwrap();
    let manifest = serde_json::json!({
        "manifest_version": 1,
        "pdb_format_version": 1,
        "databases": [{
            "name": db,
            "board": format!("{}x{}", s.width, s.height),
            "encoding": "u8",
            "tables": digests.iter().map(|d| serde_json::json!({"raw_sha256": d})).collect::<Vec<_>>(),
            "files": [{
                "file": name,
                "compression": "zstd",
                "size": bytes.len(),
                "sha256": sha256_hex(&bytes),
            }],
        }],
    });
    let json = serde_json::to_string_pretty(&manifest).unwrap();
    std::fs::write(release.join("manifest.json"), &json).unwrap();
    let sums = format!(
        "{}  {name}\n{}  manifest.json\n",
        sha256_hex(&bytes),
        sha256_hex(json.as_bytes())
    );
    std::fs::write(release.join("SHA256SUMS"), sums).unwrap();
    (name, digests)
}

/// Checks that `fetch` refuses a damaged download without a panic and leaves `cache` empty.
fn refused_leaving_nothing(fetch: &mut assert_cmd::Command, cache: &Path) {
    fetch
        .assert()
        .code(1)
        .stderr(predicate::str::contains("refused"))
        .stderr(predicate::str::contains("panicked").not());
    assert!(files_in(cache).is_empty(), "{:?}", files_in(cache));
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The files of `dir` but the pruning machines a search caches there.
fn databases_in(dir: &Path) -> Vec<String> {
    let mut v = files_in(dir);
    v.retain(|f| !f.ends_with(".fsm"));
    v
}

#[test]
fn fetch_resumes_refuses_damage_and_installs_what_the_solver_uses() {
    let home = tempfile::tempdir().unwrap();
    let (name, digests) = publish(home.path());
    let server = Server::start(home.path().join("release"));
    let cache = home.path().join("cache").join("pdb-tiles");

    // One flipped byte: refused, and nothing is left in the cache.
    server.set(Mode::Flip);
    refused_leaving_nothing(
        solver(home.path()).args(["fetch", "15-555-za", "--from", &server.url]),
        &cache,
    );

    // Cut off halfway on the only attempt: the part downloaded is kept for the next run.
    server.set(Mode::Cut);
    solver(home.path())
        .args(["fetch", "15-555-za", "--attempts", "1"])
        .env("PDB_RELEASE_URL", &server.url)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("the next run resumes"));
    let part = cache.join(format!("{name}.part"));
    let kept = std::fs::metadata(&part).unwrap().len();
    let size = std::fs::metadata(home.path().join("release").join(&name))
        .unwrap()
        .len();
    assert!(kept > 0 && kept < size, "kept {kept} of {size}");
    assert!(!cache.join("15-555-za.pdb").exists());

    // The next run asks for the rest only, checks and installs.
    server.set(Mode::Plain);
    solver(home.path())
        .args(["fetch", "15-555-za", "--from", &server.url])
        .assert()
        .success()
        .stderr(predicate::str::contains("installed from"));
    assert!(
        server.requests().contains(&format!("/{name} {kept}")),
        "{:?}",
        server.requests()
    );
    assert_eq!(files_in(&cache), vec!["15-555-za.pdb".to_string()]);
    let installed = PdbFile::open(cache.join("15-555-za.pdb")).unwrap();
    installed.verify().unwrap();
    let found: Vec<String> = installed
        .header()
        .tables
        .iter()
        .map(|t| {
            assert_eq!(t.compression, Compression::None);
            t.raw_digest.hex()
        })
        .collect();
    assert_eq!(found, digests);

    // Installed once: a second fetch downloads nothing.
    let before = server.requests().len();
    solver(home.path())
        .args(["fetch", "15-555-za", "--from", &server.url])
        .assert()
        .success()
        .stderr(predicate::str::contains("already installed"));
    assert!(!server.requests()[before..]
        .iter()
        .any(|r| r.contains(".pdb")));

    // The solver finds it by name in the cache: Korf's first instance, 57 moves.
    solver(home.path())
        .args("solve --db 15-555-za".split(' '))
        .arg("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3")
        .assert()
        .success()
        .stdout(predicate::str::contains("length:     57"));

    // Installed with another encoding: bit1, under the conventional name, entries re-encoded
    // from the published values.
    solver(home.path())
        .args("fetch 15-555-za --encoding bit1 --from".split(' '))
        .arg(&server.url)
        .assert()
        .success();
    let bit1 = PdbFile::open(cache.join("15-555-za-bit1.pdb")).unwrap();
    bit1.verify().unwrap();
    for (i, t) in installed
        .load_all(LoadOptions::default())
        .unwrap()
        .iter()
        .enumerate()
    {
        let b = bit1.load(i, LoadOptions::default()).unwrap();
        assert_eq!(b.header.encoding, pdbformat::format::Encoding::Bit1);
        assert_eq!(
            &*b.bytes,
            &pdbformat::format::encode_entries(&t.bytes, pdbformat::format::Encoding::Bit1)[..]
        );
    }
    assert!(!files_in(&cache).iter().any(|f| f.ends_with(".part")));
}

#[test]
fn fetch_explains_what_it_cannot_do() {
    let home = tempfile::tempdir().unwrap();
    // No release given.
    solver(home.path())
        .env_remove("PDB_RELEASE_URL")
        .args(["fetch", "15-555-za"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--from URL"));
    // An unknown name lists the known ones.
    solver(home.path())
        .args(["fetch", "15-99-za", "--from", "http://127.0.0.1:9"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("15-78-za-bit1"));
    // Nothing listening: a clear error after the attempts, no panic.
    solver(home.path())
        .args("fetch 15-555-za --from http://127.0.0.1:9 --attempts 2".split(' '))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot download"))
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn fetch_installs_a_class_file_checked_by_its_digests() {
    let home = tempfile::tempdir().unwrap();
    let (name, digests) = publish_db(home.path(), "8-rows-mtm");
    let server = Server::start(home.path().join("release"));
    let cache = home.path().join("cache").join("pdb-tiles");
    let fetch = |extra: &[&str]| {
        let mut c = solver(home.path());
        c.args(["fetch", "8-rows-mtm", "--from", &server.url])
            .args(extra);
        c
    };

    // No bit1 form: refused before anything is downloaded.
    fetch(&["--encoding", "bit1"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("u8 or u4 entries, not bit1"));
    assert!(!server.requests().iter().any(|r| r.contains(".pdb")));

    // One flipped byte: refused, nothing left behind.
    server.set(Mode::Flip);
    refused_leaving_nothing(&mut fetch(&[]), &cache);

    // Installed uncompressed, the same class table in the same metric, with the published
    // entries.
    server.set(Mode::Plain);
    fetch(&[])
        .assert()
        .success()
        .stderr(predicate::str::contains(format!("installed from {name}")));
    assert_eq!(files_in(&cache), vec!["8-rows-mtm.pdb".to_string()]);
    let installed = PdbFile::open(cache.join("8-rows-mtm.pdb")).unwrap();
    installed.verify().unwrap();
    let h = installed.header();
    assert_eq!(h.metric, pdbformat::Metric::Mtm);
    assert_eq!(h.tables.len(), 1);
    assert_eq!(
        h.tables[0].classes,
        Some(pdbformat::rank::ClassLabels::Rows)
    );
    assert_eq!(h.tables[0].compression, Compression::None);
    assert_eq!(vec![h.tables[0].raw_digest.hex()], digests);
    fetch(&[])
        .assert()
        .success()
        .stderr(predicate::str::contains("already installed"));

    // The solver searches with it by name: the multi-tile optimum of the brute-force oracle.
    let p8 = "8 6 7 2 5 4 3 0 1";
    let out = solver(home.path())
        .args("solve --json --metric mtm --db 8-rows-mtm".split(' '))
        .arg(p8)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let goal = pdbformat::Goal::blank_first(pdbformat::Board::new(3, 3).unwrap());
    let oracle = pdbformat::testkit::PositionDistances::new(&goal, pdbformat::Metric::Mtm);
    let tiles: Vec<u8> = (p8.split(' ')).map(|t| t.parse().unwrap()).collect();
    assert_eq!(
        v["length"].as_u64(),
        oracle.distance(&tiles).map(|d| d as u64),
        "{v}"
    );
    assert!(
        v["heuristic"].as_str().unwrap().contains("8-rows-mtm.pdb"),
        "{v}"
    );

    // u4 entries cannot hold its values (up to 17): a clear error, nothing installed.
    fetch(&["--encoding", "u4"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("too large for u4"))
        .stderr(predicate::str::contains("panicked").not());
    assert_eq!(databases_in(&cache), vec!["8-rows-mtm.pdb".to_string()]);

    // Entry digests that are not the release's: refused, even though the file is intact.
    let release = home.path().join("release");
    let json = std::fs::read_to_string(release.join("manifest.json")).unwrap();
    let json = json.replace(&digests[0], &"0".repeat(64));
    std::fs::write(release.join("manifest.json"), &json).unwrap();
    let bytes = std::fs::read(release.join(&name)).unwrap();
    let sums = format!(
        "{}  {name}\n{}  manifest.json\n",
        sha256_hex(&bytes),
        sha256_hex(json.as_bytes())
    );
    std::fs::write(release.join("SHA256SUMS"), sums).unwrap();
    fetch(&["--force"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "entry digests are not those in manifest.json",
        ));
    assert_eq!(databases_in(&cache), vec!["8-rows-mtm.pdb".to_string()]);
}
