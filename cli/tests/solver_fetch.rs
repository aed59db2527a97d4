//! `solver fetch` against a release folder served by a small HTTP server on loopback: it
//! installs into an empty cache and the solver then uses the database by name, an interrupted
//! download resumes with a Range request, and a file with one flipped byte is refused and leaves
//! nothing behind.

mod common;

use common::solver;
use pdbformat::format::{Compression, LoadOptions, PdbFile, TableSource, WriteOptions};
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
    let s = pdbformat::standard::lookup("15-555-za").unwrap();
    let raw = dir.join("raw.pdb");
    pdbgen::build_standard(s, &raw, None, &pdbgen::NoProgress).unwrap();
    let file = PdbFile::open(&raw).unwrap();
    let tables = file
        .load_all(LoadOptions {
            verify: true,
            mmap: false,
        })
        .unwrap();
    let sources: Vec<TableSource<'_>> = tables.iter().map(|t| t.source()).collect();
    let release = dir.join("release");
    std::fs::create_dir(&release).unwrap();
    let name = "15-555-za.zstd.pdb";
    let opts = WriteOptions {
        compression: Compression::Zstd,
        ..WriteOptions::default()
    };
    pdbformat::format::write_pdb(&release.join(name), &file.header().goal, &sources, &opts)
        .unwrap();
    std::fs::remove_file(&raw).unwrap();
    let bytes = std::fs::read(release.join(name)).unwrap();
    let digests: Vec<String> = tables.iter().map(|t| t.header.raw_digest.hex()).collect();
    let manifest = serde_json::json!({
        "manifest_version": 1,
        "pdb_format_version": 1,
        "databases": [{
            "name": "15-555-za",
            "board": "4x4",
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
    (name.to_string(), digests)
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

#[test]
fn fetch_resumes_refuses_damage_and_installs_what_the_solver_uses() {
    let home = tempfile::tempdir().unwrap();
    let (name, digests) = publish(home.path());
    let server = Server::start(home.path().join("release"));
    let cache = home.path().join("cache").join("pdb-tiles");

    // One flipped byte: refused, and nothing is left in the cache.
    server.set(Mode::Flip);
    solver(home.path())
        .args(["fetch", "15-555-za", "--from", &server.url])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("refused"))
        .stderr(predicate::str::contains("panicked").not());
    assert!(files_in(&cache).is_empty(), "{:?}", files_in(&cache));

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
        .args([
            "solve",
            "--db",
            "15-555-za",
            "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("length:     57"));

    // Installed with another encoding: bit1, under the conventional name, entries re-encoded
    // from the published values.
    solver(home.path())
        .args([
            "fetch",
            "15-555-za",
            "--encoding",
            "bit1",
            "--from",
            &server.url,
        ])
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
        .args([
            "fetch",
            "15-555-za",
            "--from",
            "http://127.0.0.1:9",
            "--attempts",
            "2",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot download"))
        .stderr(predicate::str::contains("panicked").not());
}
