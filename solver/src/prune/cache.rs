//! The duplicate-move machine's cache file: a machine built once for a board and word depth,
//! written in a small checksummed little-endian file and read back in milliseconds.
//!
//! **Layout** (every integer little-endian):
//!
//! | offset | bytes | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `PRUNEFSM` |
//! | 8 | 4 | format version (1) |
//! | 12 | 2 | board width |
//! | 14 | 2 | board height |
//! | 16 | 4 | word depth |
//! | 20 | 4 | states `S` (the machine's states, numbered 1 to `S`) |
//! | 24 | 8 | forbidden words (after trimming) |
//! | 32 | 4 | bytes per table entry: 2 when `S` < 65,535, else 4 |
//! | 36 | 4 | reserved, zero |
//! | 40 | 4 × cells | the start state of each blank cell (`u32`) |
//! | … | entry × 4 × (`S` + 1) | the transition table, row 0 (all [`FORBIDDEN`]) first |
//! | end − 32 | 32 | SHA-256 of every byte before it |
//!
//! A file is trusted only after its length matches its header, its digest matches its bytes
//! and every start and transition names a state of the machine: a damaged file is an error,
//! never a wrong machine, and [`Pruner::load_or_build`] then builds the machine again and
//! replaces the file. Files are written atomically: a killed writer leaves nothing behind.

use super::{Pruner, Table, FORBIDDEN};
use pdbformat::format::Digest;
use pdbformat::Board;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"PRUNEFSM";

/// The version of the layout this module writes and reads.
pub const VERSION: u32 = 1;

/// The environment variable that moves the cache: a directory, or `off` (or empty) for none.
/// Unset: the user cache directory ([`crate::locate::cache_dir`]).
pub const ENV_VAR: &str = "PDB_PRUNE_CACHE";

/// Machines of a smaller word depth are built every time: they take milliseconds.
pub const MIN_CACHED_DEPTH: u32 = 12;

/// Bytes before the start states.
const HEADER: usize = 40;

/// Bytes of the trailing digest.
const DIGEST: usize = 32;

/// Why a cache file was not used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// The file could not be read or written.
    #[error("cannot access the pruning cache file {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a machine of this layout, or not the one asked for.
    #[error("pruning cache file {} is not usable: {what}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, in words.
        what: String,
    },
}

impl CacheError {
    fn invalid(path: &Path, what: impl Into<String>) -> CacheError {
        CacheError::Invalid {
            path: path.to_path_buf(),
            what: what.into(),
        }
    }

    fn io(path: &Path, source: std::io::Error) -> CacheError {
        CacheError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// Whether the file was simply absent.
    pub fn is_missing(&self) -> bool {
        matches!(self, CacheError::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Where a machine came from (see [`Pruner::origin`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built in this process and not cached (pruning off, a shallow depth, or no cache
    /// directory).
    Built,
    /// Read from this file (beside the databases, or in the cache directory).
    Loaded(PathBuf),
    /// Built in this process and written to this cache file (`replaced`: a damaged or
    /// unreadable file was there, with the reason).
    Cached {
        /// The file written.
        path: PathBuf,
        /// Why the file that was there was not used, when one was.
        replaced: Option<String>,
    },
    /// Built in this process; the cache file could not be written (the reason).
    NotSaved(String),
}

/// The cache directory machines are read from and written to: `$PDB_PRUNE_CACHE`, or none
/// when it is `off` or empty, else the user cache directory.
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_for(std::env::var_os(ENV_VAR))
}

/// The cache directory for `value`, the variable's value if it is set ([`cache_dir`]).
pub fn cache_dir_for(value: Option<std::ffi::OsString>) -> Option<PathBuf> {
    match value {
        Some(v) if v.is_empty() || v == "off" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => crate::locate::cache_dir(),
    }
}

/// The name of the cache file of `board`'s machine at `depth`, e.g. `prune-5x5-d14.fsm`.
pub fn file_name(board: Board, depth: u32) -> String {
    format!("prune-{}x{}-d{depth}.fsm", board.width(), board.height())
}

/// Whether `board`'s machine at `depth` would be read from a file rather than built: its file
/// is beside the databases ([`published_files`]) or in the cache directory, or the depth is
/// below [`MIN_CACHED_DEPTH`] (built in milliseconds). The files are not checked here.
pub fn is_ready(board: Board, depth: u32) -> bool {
    let depth = depth.min(super::MAX_DEPTH);
    depth < MIN_CACHED_DEPTH
        || !published_files(board, depth).is_empty()
        || cache_dir().is_some_and(|d| d.join(file_name(board, depth)).is_file())
}

/// The files of `board`'s machine at `depth` in the folders databases are searched in, less
/// the user cache ([`crate::locate::search_dirs`]: `$PDB_DIR`, then `artifacts/`): machines
/// written beside the databases (`cargo xtask artifacts build`) or published with them. They
/// are only read, never replaced. The user cache is the machines' own cache ([`cache_dir`]),
/// which `$PDB_PRUNE_CACHE` moves or turns off.
pub fn published_files(board: Board, depth: u32) -> Vec<PathBuf> {
    let name = file_name(board, depth.min(super::MAX_DEPTH));
    let user_cache = crate::locate::cache_dir();
    crate::locate::search_dirs()
        .into_iter()
        .filter(|d| Some(&d.path) != user_cache.as_ref())
        .map(|d| d.path.join(&name))
        .filter(|p| p.is_file())
        .collect()
}

/// What [`read_published`] found beside the databases.
#[derive(Debug, Default)]
pub struct Published {
    /// The machine of the first file that passed every check of [`read`] (its
    /// [`Pruner::origin`] names the file), if any.
    pub machine: Option<Pruner>,
    /// The files passed over before it (damaged, or not this machine), with why; they are
    /// left as they are.
    pub skipped: Vec<(PathBuf, String)>,
}

/// The first of [`published_files`] that holds `board`'s machine at `depth` and passes every
/// check of [`read`], and the files passed over before it.
pub fn read_published(board: Board, depth: u32) -> Published {
    let depth = depth.min(super::MAX_DEPTH);
    let mut found = Published::default();
    for path in published_files(board, depth) {
        match read(&path, board, depth) {
            Ok(p) => {
                found.machine = Some(p);
                break;
            }
            Err(e) => found.skipped.push((path, pdbformat::error::describe(&e))),
        }
    }
    found
}

/// The bytes of `p`'s cache file.
pub fn encode(board: Board, p: &Pruner) -> Vec<u8> {
    let width = match &p.table {
        Table::Narrow(_) => 2u32,
        Table::Wide(_) => 4,
    };
    let mut out = Vec::with_capacity(HEADER + 4 * p.starts.len() + p.table_bytes() + DIGEST);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(board.width() as u16).to_le_bytes());
    out.extend_from_slice(&(board.height() as u16).to_le_bytes());
    out.extend_from_slice(&p.depth.to_le_bytes());
    out.extend_from_slice(&(p.states as u32).to_le_bytes());
    out.extend_from_slice(&(p.words as u64).to_le_bytes());
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    for s in &p.starts {
        out.extend_from_slice(&s.to_le_bytes());
    }
    match &p.table {
        Table::Narrow(t) => t
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes())),
        Table::Wide(t) => t
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes())),
    }
    let digest = Digest::of(&out);
    out.extend_from_slice(&digest.0);
    out
}

/// Writes `p`'s cache file at `path` ([`pdbformat::format::write_atomically`]: a killed writer
/// leaves nothing, and the file appears whole under its name; the folder is created when
/// missing).
pub fn write(path: &Path, board: Board, p: &Pruner) -> Result<(), CacheError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| CacheError::io(dir, e))?;
    pdbformat::format::write_atomically(path, &encode(board, p))
        .map_err(|e| CacheError::io(path, e))
}

/// Little-endian integers at an offset of a checked slice.
fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

/// The machine in `bytes` (a whole cache file, named `path` in errors), which must be
/// `board`'s at `depth`.
pub fn decode(path: &Path, bytes: &[u8], board: Board, depth: u32) -> Result<Pruner, CacheError> {
    let bad = |what: String| CacheError::invalid(path, what);
    if bytes.len() < HEADER + DIGEST {
        return Err(bad(format!("{} bytes, shorter than a header", bytes.len())));
    }
    if bytes[..8] != MAGIC {
        return Err(bad("not a pruning machine (wrong magic)".into()));
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(bad(format!("format version {version}, expected {VERSION}")));
    }
    let (w, h) = (u16_at(bytes, 12) as usize, u16_at(bytes, 14) as usize);
    if (w, h) != (board.width(), board.height()) {
        return Err(bad(format!("made for a {w}x{h} board, not {board}")));
    }
    let file_depth = u32_at(bytes, 16);
    if file_depth != depth {
        return Err(bad(format!("word depth {file_depth}, expected {depth}")));
    }
    let states = u32_at(bytes, 20) as u64;
    let words = u64_at(bytes, 24);
    let width = u32_at(bytes, 32) as u64;
    let canonical = if states < u16::MAX as u64 { 2 } else { 4 };
    if width != canonical || u32_at(bytes, 36) != 0 {
        return Err(bad(format!(
            "{width}-byte entries for {states} states (expected {canonical}) or reserved bytes set"
        )));
    }
    let cells = board.cells() as u64;
    let expected = HEADER as u64 + 4 * cells + width * 4 * (states + 1) + DIGEST as u64;
    if bytes.len() as u64 != expected {
        return Err(bad(format!(
            "{} bytes, the header says {expected}",
            bytes.len()
        )));
    }
    let body = bytes.len() - DIGEST;
    if Digest::of(&bytes[..body]).0[..] != bytes[body..] {
        return Err(bad("checksum mismatch (the file is damaged)".into()));
    }
    let state_ok = |v: u32| (v as u64) <= states;
    let starts: Vec<u32> = bytes[HEADER..HEADER + 4 * cells as usize]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    if starts.iter().any(|&s| s == FORBIDDEN || !state_ok(s)) {
        return Err(bad("a start state out of range".into()));
    }
    let raw = &bytes[HEADER + 4 * cells as usize..body];
    let table = if width == 2 {
        let t: Vec<u16> = raw
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        if t[..4].iter().any(|&v| v as u32 != FORBIDDEN) || t.iter().any(|&v| !state_ok(v as u32)) {
            return Err(bad("a transition out of range".into()));
        }
        Table::Narrow(t)
    } else {
        // Decoded straight into huge-page memory: tens of megabytes, copied once.
        let t = pdbformat::memory::HugeTable::<u32>::filled(raw.len() / 4, |t| {
            for (v, c) in t.iter_mut().zip(raw.chunks_exact(4)) {
                *v = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
        });
        if t[..4].iter().any(|&v| v != FORBIDDEN) || t.iter().any(|&v| !state_ok(v)) {
            return Err(bad("a transition out of range".into()));
        }
        Table::Wide(t)
    };
    Ok(Pruner {
        table,
        starts,
        states: states as usize,
        words: words as usize,
        depth,
        origin: Origin::Loaded(path.to_path_buf()),
    })
}

/// Reads the cache file at `path`, which must hold `board`'s machine at `depth`. The header is
/// checked against the file's length before the rest is read.
pub fn read(path: &Path, board: Board, depth: u32) -> Result<Pruner, CacheError> {
    let mut f = std::fs::File::open(path).map_err(|e| CacheError::io(path, e))?;
    let len = f.metadata().map_err(|e| CacheError::io(path, e))?.len();
    let mut head = [0u8; HEADER];
    if len < (HEADER + DIGEST) as u64 {
        return Err(CacheError::invalid(
            path,
            format!("{len} bytes, shorter than a header"),
        ));
    }
    f.read_exact(&mut head)
        .map_err(|e| CacheError::io(path, e))?;
    if head[..8] != MAGIC {
        return Err(CacheError::invalid(
            path,
            "not a pruning machine (wrong magic)",
        ));
    }
    // The length the header promises, checked before anything is allocated from it.
    let states = u32_at(&head, 20) as u64;
    let width = u32_at(&head, 32) as u64;
    let expected = (HEADER as u64 + 4 * board.cells() as u64)
        .saturating_add(width.saturating_mul(4).saturating_mul(states + 1))
        .saturating_add(DIGEST as u64);
    if len != expected {
        return Err(CacheError::invalid(
            path,
            format!("{len} bytes, the header says {expected}"),
        ));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    bytes.extend_from_slice(&head);
    f.take(len - HEADER as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| CacheError::io(path, e))?;
    decode(path, &bytes, board, depth)
}

impl Pruner {
    /// The machine of `board` at `depth` from the cache file in `dir`, or built and written
    /// there when the file is missing, damaged or not this machine (see [`Pruner::origin`]).
    /// A cache that cannot be written only costs the next process a build.
    pub fn load_or_build(board: Board, depth: u32, dir: &Path) -> Pruner {
        let depth = depth.min(super::MAX_DEPTH);
        let path = dir.join(file_name(board, depth));
        let replaced = match read(&path, board, depth) {
            Ok(p) => return p,
            Err(e) if e.is_missing() => None,
            Err(e) => Some(pdbformat::error::describe(&e)),
        };
        let mut p = Pruner::new(board, depth);
        p.origin = match write(&path, board, &p) {
            Ok(()) => Origin::Cached { path, replaced },
            Err(e) => Origin::NotSaved(pdbformat::error::describe(&e)),
        };
        p
    }
}
