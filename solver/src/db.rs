//! Pattern-database files loaded for searching: tables with their index, checked against the
//! board and goal they will serve.
//!
//! A [`Database`] is one PDB file: one goal and one or more tables (usually a whole partition).
//! Each table's entries are read into anonymous memory that asks the kernel for huge pages
//! (`madvise(MADV_HUGEPAGE)` on Linux) and their digest is checked: lookups are random
//! accesses over tens of megabytes to gigabytes, and 2 MiB pages spare most of their TLB
//! misses. Raw payloads are read straight into place; compressed ones are decoded first. `u8` and `u4` entries are read
//! directly; `bit1` tables (which need differential lookups) are refused for now.

use crate::rank::FastIndex;
use pdbformat::format::{
    Compression, Digest, Encoding, FormatError, LoadOptions, PdbFile, TableHeader,
};
use pdbformat::rank::{TableIndex, TableKind};
use pdbformat::{Board, Goal, Pattern, Symmetry};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use thiserror::Error;

/// Why a database cannot be used.
#[derive(Debug, Error)]
pub enum DbError {
    /// The file could not be read, or its header or checksums are wrong.
    #[error("cannot use database {path}: {source}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What the reader found.
        #[source]
        source: FormatError,
    },
    /// An entry encoding the solver cannot read yet.
    #[error("cannot use database {path}: table {table} uses {encoding} entries, which this solver does not read yet (rebuild it with --encoding u8 or u4)")]
    UnsupportedEncoding {
        /// The file.
        path: PathBuf,
        /// Table number.
        table: usize,
        /// The encoding.
        encoding: Encoding,
    },
    /// The table's shape disagrees with what its pattern and kind imply.
    #[error("cannot use database {path}: table {table} is malformed: {why}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// Table number.
        table: usize,
        /// What is wrong.
        why: String,
    },
    /// The database is for another board.
    #[error("database {path} is for a {db_board} board, but the puzzle is on a {board} board")]
    WrongBoard {
        /// The file.
        path: PathBuf,
        /// The database's board.
        db_board: Board,
        /// The puzzle's board.
        board: Board,
    },
    /// No symmetry of the board takes the database's goal blank to the puzzle goal's blank.
    #[error("database {path} was built for goal {db_goal} (blank at row {}, column {}); no symmetry of the board takes that cell to the blank's cell of goal {goal} (row {}, column {})", .db_blank.0 + 1, .db_blank.1 + 1, .blank.0 + 1, .blank.1 + 1)]
    WrongGoal {
        /// The file.
        path: PathBuf,
        /// The database's goal, in words.
        db_goal: String,
        /// Its blank cell (row, column).
        db_blank: (usize, usize),
        /// The puzzle's goal, in words.
        goal: String,
        /// Its blank cell (row, column).
        blank: (usize, usize),
    },
    /// Too many tables and views to combine.
    #[error("too many pattern tables combined: at most {max} (table groups × views) are supported, {found} were asked for")]
    TooMany {
        /// The limit.
        max: usize,
        /// What was asked for.
        found: usize,
    },
}

/// One table ready for lookups: its pattern, kind, index and entries.
pub struct LoadedTable {
    /// The pattern (in the database goal's tile numbers).
    pub pattern: Pattern,
    /// Zero-aware or zero-unaware.
    pub kind: TableKind,
    /// The index that maps states to entries.
    pub index: TableIndex,
    /// The same numbering, prepared for fast lookups.
    fast: FastIndex,
    /// What the file's header says about the table.
    pub header: TableHeader,
    /// The encoded entries, in anonymous memory.
    entries: memmap2::Mmap,
    /// Whether entries are 4-bit (two per byte, low nibble first) rather than bytes.
    u4: bool,
}

impl LoadedTable {
    /// The entry of the state with the pattern tiles on `cells` (tile order, occupying the
    /// cells of `occ`) and the blank on `blank`.
    #[inline(always)]
    pub fn index(&self, cells: &[u8], occ: u64, blank: u8) -> u64 {
        self.fast.index(cells, occ, blank)
    }

    /// The value of entry `i`.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn value(&self, i: u64) -> u8 {
        if self.u4 {
            (self.entries[(i / 2) as usize] >> ((i & 1) * 4)) & 15
        } else {
            self.entries[i as usize]
        }
    }

    /// Asks the processor to bring entry `i` into the cache (a hint; no effect elsewhere).
    #[inline(always)]
    pub fn prefetch(&self, i: u64) {
        let offset = if self.u4 { i / 2 } else { i } as usize;
        if offset < self.entries.len() {
            prefetch_read(self.entries.as_ptr().wrapping_add(offset));
        }
    }

    /// Bytes of entries held in memory.
    pub fn memory_bytes(&self) -> usize {
        self.entries.len()
    }

    /// The value of the state with the pattern tiles on `cells` and the blank on `blank`.
    #[inline(always)]
    pub fn lookup(&self, cells: &[u8], occ: u64, blank: u8) -> u8 {
        self.value(self.index(cells, occ, blank))
    }
}

/// Anonymous memory of `len` bytes, advised to use huge pages where the system offers them.
fn anonymous(len: u64, table: usize) -> Result<memmap2::MmapMut, FormatError> {
    let map = usize::try_from(len)
        .map_err(|_| std::io::Error::other("too large for this machine"))
        .and_then(|n| memmap2::MmapOptions::new().len(n.max(1)).map_anon())
        .map_err(|e| FormatError::Io {
            context: format!("cannot allocate {len} bytes for table {table}"),
            source: e,
        })?;
    #[cfg(target_os = "linux")]
    {
        // Only a hint: without transparent huge pages everything works the same.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    Ok(map)
}

/// Reads table `table`'s encoded entries into huge-page anonymous memory, checking their
/// digest when `verify` is set. Raw payloads are read straight from the file into place (so
/// the file's pages are never mapped and count once in memory); compressed ones are decoded
/// by `pdbformat` and copied.
fn load_entries(
    file: &PdbFile,
    path: &Path,
    table: usize,
    th: &TableHeader,
    verify: bool,
) -> Result<memmap2::Mmap, FormatError> {
    let io = |e: std::io::Error| FormatError::Io {
        context: format!("cannot read {}", path.display()),
        source: e,
    };
    let mut map = anonymous(th.raw_len, table)?;
    let len = th.raw_len as usize;
    if th.compression == Compression::None {
        let mut f = std::fs::File::open(path).map_err(io)?;
        f.seek(SeekFrom::Start(th.payload_offset)).map_err(io)?;
        for chunk in map[..len].chunks_mut(8 << 20) {
            f.read_exact(chunk).map_err(io)?;
        }
        if verify {
            let found = Digest::of(&map[..len]);
            if found != th.raw_digest {
                return Err(FormatError::ChecksumMismatch {
                    table,
                    what: "entries",
                    expected: th.raw_digest,
                    found,
                });
            }
        }
    } else {
        let t = file.load(
            table,
            LoadOptions {
                verify,
                mmap: false,
            },
        )?;
        if t.bytes.len() != len {
            return Err(FormatError::Truncated {
                what: format!("entries of table {table}"),
                expected: th.raw_len,
                found: t.bytes.len() as u64,
            });
        }
        map[..len].copy_from_slice(&t.bytes);
    }
    map.make_read_only().map_err(io)
}

/// A read prefetch of the cache line holding `p`.
#[inline(always)]
fn prefetch_read(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults and never reads or writes memory
    // observably, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

impl std::fmt::Debug for LoadedTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LoadedTable({} {}, {} entries)",
            self.kind,
            self.pattern,
            self.index.len()
        )
    }
}

/// One PDB file loaded for searching.
#[derive(Debug)]
pub struct Database {
    path: PathBuf,
    goal: Goal,
    tables: Vec<Arc<LoadedTable>>,
    bytes: u64,
    load_seconds: f64,
}

/// How [`Database::open`] reads a file.
#[derive(Clone, Copy, Debug)]
pub struct OpenOptions {
    /// Check every table's SHA-256 digest while loading (reads the whole file once).
    pub verify: bool,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions { verify: true }
    }
}

impl Database {
    /// Opens `path`, checks its header, and reads every table into huge-page memory.
    /// With `opts.verify` (the default) every table's digest is checked, so that a corrupted
    /// payload is refused instead of giving wrong answers.
    pub fn open(path: impl AsRef<Path>, opts: OpenOptions) -> Result<Database, DbError> {
        let start = Instant::now();
        let path = path.as_ref().to_path_buf();
        let format = |source| DbError::Format {
            path: path.clone(),
            source,
        };
        let file = PdbFile::open(&path).map_err(format)?;
        let header = file.header().clone();
        let board = header.board();
        let mut tables = Vec::with_capacity(header.tables.len());
        for (i, th) in header.tables.iter().enumerate() {
            if th.encoding == Encoding::Bit1 {
                return Err(DbError::UnsupportedEncoding {
                    path,
                    table: i,
                    encoding: th.encoding,
                });
            }
            let malformed = |why: String| DbError::Malformed {
                path: path.clone(),
                table: i,
                why,
            };
            let index = TableIndex::new(board, th.pattern.len(), th.kind)
                .map_err(|e| malformed(e.to_string()))?;
            if index.len() != th.entry_count {
                return Err(malformed(format!(
                    "{} entries declared, a {} table of {} tiles on {board} has {}",
                    th.entry_count,
                    th.kind,
                    th.pattern.len(),
                    index.len()
                )));
            }
            let expected = th.encoding.encoded_len(th.entry_count);
            if th.raw_len != expected {
                return Err(malformed(format!(
                    "{} bytes of entries declared, {} {} entries take {expected}",
                    th.raw_len, th.entry_count, th.encoding
                )));
            }
            let entries = load_entries(&file, &path, i, th, opts.verify).map_err(format)?;
            tables.push(Arc::new(LoadedTable {
                pattern: th.pattern.clone(),
                kind: th.kind,
                fast: FastIndex::new(board, &index),
                index,
                header: th.clone(),
                entries,
                u4: th.encoding == Encoding::U4,
            }));
        }
        Ok(Database {
            bytes: file.len(),
            path,
            goal: header.goal,
            tables,
            load_seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The goal the tables were built for.
    pub fn goal(&self) -> &Goal {
        &self.goal
    }

    /// The board.
    pub fn board(&self) -> Board {
        self.goal.board()
    }

    /// The tables, in file order.
    pub fn tables(&self) -> &[Arc<LoadedTable>] {
        &self.tables
    }

    /// The file's size in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.bytes
    }

    /// Seconds spent opening, loading and verifying.
    pub fn load_seconds(&self) -> f64 {
        self.load_seconds
    }

    /// The patterns, `/`-separated, in the database goal's tile numbers (`1-7/8-15`).
    pub fn describe_patterns(&self) -> String {
        let v: Vec<String> = self.tables.iter().map(|t| t.pattern.to_string()).collect();
        v.join("/")
    }

    /// Whether every table is zero-aware.
    pub fn is_zero_aware(&self) -> bool {
        self.tables.iter().all(|t| t.kind == TableKind::ZeroAware)
    }

    /// Whether the tables cover every tile of the board.
    pub fn is_complete(&self) -> bool {
        let n = self.board().cells();
        let mut seen = vec![false; n];
        for t in &self.tables {
            for &x in t.pattern.tiles() {
                seen[x as usize] = true;
            }
        }
        seen[1..].iter().all(|&s| s)
    }

    /// The symmetry that carries `goal`'s frame into this database's frame: it takes the
    /// goal's blank cell to the database goal's blank cell. Errors when the board differs or
    /// no symmetry fits.
    pub fn frame_for(&self, goal: &Goal) -> Result<Symmetry, DbError> {
        let board = goal.board();
        if board != self.board() {
            return Err(DbError::WrongBoard {
                path: self.path.clone(),
                db_board: self.board(),
                board,
            });
        }
        Symmetry::taking(board, goal.blank_cell(), self.goal.blank_cell()).ok_or_else(|| {
            let rc = |c: usize| (board.row(c), board.col(c));
            DbError::WrongGoal {
                path: self.path.clone(),
                db_goal: self.goal.to_string(),
                db_blank: rc(self.goal.blank_cell()),
                goal: goal.to_string(),
                blank: rc(goal.blank_cell()),
            }
        })
    }

    /// Whether this database can serve `goal` (same board, blank cells related by a symmetry).
    pub fn fits(&self, goal: &Goal) -> bool {
        self.frame_for(goal).is_ok()
    }
}
