//! Pattern-database files loaded for searching: tables with their index, checked against the
//! board and goal they will serve.
//!
//! A [`Database`] is one PDB file: one goal and one or more tables (usually a whole partition).
//! Each table's entries are held once, in anonymous memory that asks the kernel for huge pages
//! (`madvise(MADV_HUGEPAGE)` on Linux): lookups are random accesses over tens of megabytes to
//! gigabytes, and 2 MiB pages spare most of their TLB misses. Raw payloads are read straight
//! into place, compressed ones decoded straight into place (zstd uses the table itself as its
//! window), and their digest is checked on the way, or, with
//! [`OpenOptions::verify_in_background`], by a second thread over the loaded entries while the
//! search already runs: [`Database::wait_verified`] gives its verdict, and [`crate::solve`]
//! waits for it before it returns any result, so a corrupted table is reported as such and never
//! gives an answer presented as good. With [`OpenOptions::expect_goal`] the header is checked
//! against the puzzle's board and goal before any entry is read.
//!
//! `u8` and `u4` entries hold values. `bit1` entries hold bit 1 of each value of a zero-aware
//! table and are read with *differential lookups*: a pattern move changes such a value by
//! exactly ±1, so the child's value is the one of `v - 1`, `v + 1` whose bit 1 is the stored bit
//! ([`LoadedTable::child_value`]). The value of a first position comes from a walk down to the
//! goal ([`LoadedTable::exact_value`]).

use crate::position::MAX_CELLS;
use pdbformat::format::Digest;
use pdbformat::format::{Encoding, EntryView, FormatError, PdbFile, TableHeader};
use pdbformat::rank::{flood, BoardBits, FastIndex};
use pdbformat::rank::{TableIndex, TableKind};
use pdbformat::{Board, Goal, Pattern, Symmetry};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
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
    /// A `bit1` table whose bits do not describe distances: no walk from a position reaches
    /// the goal (only possible when its digest was not checked).
    #[error("cannot use database {path}: table {table} is corrupt: {why}; check the file with `pdbgen verify` (loading without --no-verify checks its digest)")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Table number.
        table: usize,
        /// What the walk found.
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
    /// The background digest check ended without a verdict (its thread died): nothing about
    /// the entries was confirmed.
    #[error("cannot use database {path}: its digest check stopped before it finished; run again, or check the file with `pdbgen verify`")]
    Unverified {
        /// The file.
        path: PathBuf,
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

/// What the walk to the goal of a `bit1` table needs: the goal in the table's frame and the
/// board's flood-fill masks.
#[derive(Clone, Debug)]
struct Walk {
    /// The goal cell of each pattern tile (tile order), in the table's frame.
    goal_cells: [u8; MAX_CELLS],
    /// The entry of the goal state (value 0).
    goal_index: u64,
    /// For each cell, the mask of its neighbours.
    neighbours: [u64; MAX_CELLS],
    /// Flood-fill masks of the board (the blank's free region).
    bits: BoardBits,
    /// The board, for Manhattan distances.
    board: Board,
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
    /// Their encoding (a copy of the header's, kept beside the entries for lookups).
    encoding: Encoding,
    /// For `bit1` tables: the walk to the goal (boxed: it is large and not needed by lookups).
    walk: Option<Box<Walk>>,
    /// The file and the table's number in it, for messages.
    path: PathBuf,
    number: usize,
}

impl LoadedTable {
    /// The entry of the state with the pattern tiles on `cells` (tile order, occupying the
    /// cells of `occ`) and the blank on `blank`.
    #[inline(always)]
    pub fn index(&self, cells: &[u8], occ: u64, blank: u8) -> u64 {
        self.fast.index(cells, occ, blank)
    }

    /// The entries seen through their encoding (`pdbformat` decodes every encoding).
    #[inline(always)]
    fn view(&self) -> EntryView<'_> {
        EntryView::new(&self.entries, self.encoding)
    }

    /// Whether the entries hold only bit 1 of each value (`bit1`): values then come from
    /// [`LoadedTable::exact_value`] and [`LoadedTable::child_value`], not from
    /// [`LoadedTable::value`].
    pub fn is_differential(&self) -> bool {
        self.view().is_differential()
    }

    /// The stored entry `i`: the value for `u8` and `u4` tables, bit 1 of the value for `bit1`
    /// tables ([`EntryView::stored`]).
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn value(&self, i: u64) -> u8 {
        self.view().stored(i)
    }

    /// The value of entry `i`, a state one move of a pattern tile away from a state of value
    /// `parent` ([`EntryView::child_value`]): the stored value for `u8` and `u4` tables, the
    /// one of `parent ± 1` that the stored bit names for `bit1` tables.
    ///
    /// # Panics
    /// If `i` is out of range.
    #[inline(always)]
    pub fn child_value(&self, i: u64, parent: u8) -> u8 {
        self.view().child_value(i, parent)
    }

    /// Asks the processor to bring entry `i` into the cache (a hint; no effect elsewhere).
    #[inline(always)]
    pub fn prefetch(&self, i: u64) {
        if let Some(p) = self.view().address_of(i) {
            pdbformat::memory::prefetch_read(p);
        }
    }

    /// Bytes of entries held in memory.
    pub fn memory_bytes(&self) -> usize {
        self.entries.len()
    }

    /// The stored entry of the state with the pattern tiles on `cells` and the blank on
    /// `blank` (see [`LoadedTable::value`]).
    #[inline(always)]
    pub fn lookup(&self, cells: &[u8], occ: u64, blank: u8) -> u8 {
        self.value(self.index(cells, occ, blank))
    }

    /// The exact value of the state with the pattern tiles on `cells` (tile order, occupying
    /// `occ`) and the blank on `blank`, in the table's frame.
    ///
    /// For `u8` and `u4` tables this is a lookup. For `bit1` tables it is a walk to the goal:
    /// the value modulo 4 is known from the stored bit and the parity (every pattern move
    /// changes both the value and the tiles' Manhattan distance by 1, so they have the same
    /// parity); from a state of value `v > 0` one pattern move leads to a state of value
    /// `v - 1`, the neighbour whose stored bit is bit 1 of `v - 1`; the walk ends at the goal
    /// after exactly `v` moves. It costs a few lookups per move, whose lines each step requests
    /// together before reading the first (one memory latency per step, not one per
    /// neighbour tried), and allocates nothing.
    ///
    /// Errors when the bits lead nowhere (no neighbour one lower, or no goal within the
    /// table's largest value): the table is corrupt.
    pub fn exact_value(&self, cells: &[u8], occ: u64, blank: u8) -> Result<u8, DbError> {
        let Some(w) = &self.walk else {
            return Ok(self.lookup(cells, occ, blank));
        };
        let corrupt = |why: String| DbError::Corrupt {
            path: self.path.clone(),
            table: self.number,
            why,
        };
        let k = cells.len();
        let mut cur = [0u8; MAX_CELLS];
        cur[..k].copy_from_slice(cells);
        let (mut occ, mut blank) = (occ, blank);
        let parity = cells
            .iter()
            .zip(&w.goal_cells)
            .map(|(&c, &g)| w.board.manhattan(c as usize, g as usize))
            .sum::<usize>()
            & 1;
        let mut i = self.index(&cur[..k], occ, blank);
        // The value modulo 4, as the walk goes down.
        let mut v4 = (2 * self.view().bit1(i) as usize + parity) as u8;
        let mut steps = 0u32;
        let bound = self.header.max_value as u32;
        while i != w.goal_index {
            if steps >= bound {
                return Err(corrupt(format!(
                    "a walk down its bits did not reach the goal within {bound} moves (its largest value)"
                )));
            }
            let want = ((v4 + 3) & 3) >> 1;
            let region = flood(&w.bits, 1u64 << blank, w.bits.all() & !occ);
            // Every neighbour's line is requested before the first is read, in batches: the
            // misses overlap instead of following each other.
            let mut batch = [Neighbour::default(); WALK_BATCH];
            let mut n = 0;
            // The first of the requested neighbours one lower, in the order requested.
            let lower = |b: &[Neighbour]| {
                b.iter()
                    .find(|nb| self.view().bit1(nb.index) == want)
                    .copied()
            };
            let mut next = None;
            'moves: for slot in 0..k {
                let c = cur[slot];
                let mut targets = w.neighbours[c as usize] & region;
                while targets != 0 {
                    let d = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    cur[slot] = d;
                    let o = occ ^ (1u64 << c) ^ (1u64 << d);
                    let j = self.index(&cur[..k], o, c);
                    cur[slot] = c;
                    self.prefetch(j);
                    batch[n] = Neighbour {
                        index: j,
                        occ: o,
                        slot: slot as u8,
                        cell: d,
                    };
                    n += 1;
                    if n == WALK_BATCH {
                        next = lower(&batch);
                        if next.is_some() {
                            break 'moves;
                        }
                        n = 0;
                    }
                }
            }
            if next.is_none() {
                next = lower(&batch[..n]);
            }
            let Some(nb) = next else {
                return Err(corrupt(format!(
                    "a state {steps} moves down a walk has no neighbour one lower"
                )));
            };
            // The tile leaves its cell to the blank.
            blank = cur[nb.slot as usize];
            cur[nb.slot as usize] = nb.cell;
            (i, occ) = (nb.index, nb.occ);
            v4 = (v4 + 3) & 3;
            steps += 1;
        }
        if v4 != 0 {
            return Err(corrupt(format!(
                "a walk reached the goal after {steps} moves, a number its bits contradict"
            )));
        }
        Ok(steps as u8)
    }

    /// The file the table comes from and its number there.
    pub fn origin(&self) -> (&Path, usize) {
        (&self.path, self.number)
    }
}

/// How many neighbours [`LoadedTable::exact_value`]'s walk requests before it reads them.
const WALK_BATCH: usize = 16;

/// One neighbour of a state on [`LoadedTable::exact_value`]'s walk: one pattern tile (the
/// one in `slot`) moved to `cell`, the new occupied set and the new state's index.
#[derive(Clone, Copy, Debug, Default)]
struct Neighbour {
    index: u64,
    occ: u64,
    slot: u8,
    cell: u8,
}

/// Anonymous memory of `len` bytes for table `table`, in huge pages where the system offers
/// them.
fn anonymous(len: u64, table: usize) -> Result<memmap2::MmapMut, FormatError> {
    usize::try_from(len)
        .map_err(|_| std::io::Error::other("too large for this machine"))
        .and_then(|n| pdbformat::memory::anonymous(n, pdbformat::memory::Pages::Huge))
        .map_err(|e| FormatError::Io {
            context: format!("cannot allocate {len} bytes for table {table}"),
            source: e,
        })
}

/// Reads table `table`'s encoded entries into huge-page anonymous memory, checking their
/// digest when `verify` is set. Raw payloads are read and compressed ones decoded straight
/// into place by [`PdbFile::load_into`], so the entries count once in memory and nothing else
/// of their size is allocated. `progress` receives the bytes loaded so far.
fn load_entries(
    file: &PdbFile,
    table: usize,
    th: &TableHeader,
    verify: bool,
    progress: &mut dyn FnMut(u64),
) -> Result<memmap2::Mmap, FormatError> {
    let mut map = anonymous(th.raw_len, table)?;
    let len = th.raw_len as usize;
    file.load_into(table, &mut map[..len], verify, progress)?;
    map.make_read_only().map_err(|e| FormatError::Io {
        context: format!("cannot protect the entries of table {table}"),
        source: e,
    })
}

/// Maps an uncompressed table's entries from the file at `path`, checking their digest when
/// `verify` is set (which reads them all once).
fn map_entries(
    path: &Path,
    table: usize,
    th: &TableHeader,
    verify: bool,
) -> Result<memmap2::Mmap, FormatError> {
    let io = |e| FormatError::Io {
        context: format!("cannot map {}", path.display()),
        source: e,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let len = usize::try_from(th.raw_len)
        .map_err(|_| io(std::io::Error::other("too large for this machine")))?;
    // SAFETY: the map is read-only and the tools never modify a database file in place (they
    // write a temporary file and rename it); a file changed by someone else while mapped is
    // the documented risk of `Residence::Mapped`. `PdbFile::open` has checked that the file
    // holds the whole payload.
    let map = unsafe {
        memmap2::MmapOptions::new()
            .offset(th.payload_offset)
            .len(len)
            .map(&file)
    }
    .map_err(io)?;
    #[cfg(unix)]
    {
        // Only a hint: lookups jump around the table.
        let _ = map.advise(memmap2::Advice::Random);
    }
    if verify {
        th.check_entries(table, &map)?;
    }
    Ok(map)
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
    /// The digest check running beside the search, when it was asked for.
    background: Option<BackgroundCheck>,
}

/// The first table whose entries do not match their digest: (table, expected, found).
type Mismatch = (usize, Digest, Digest);

/// A digest check of every table on a thread of its own, and its verdict once joined.
#[derive(Debug)]
struct BackgroundCheck {
    thread: Mutex<Option<JoinHandle<Result<(), Mismatch>>>>,
    verdict: OnceLock<Result<(), Mismatch>>,
}

/// How [`Database::open`] reads a file.
#[derive(Clone, Debug)]
pub struct OpenOptions {
    /// Check every table's SHA-256 digest (reads every entry once more).
    pub verify: bool,
    /// With `verify`: check the digests on a thread of their own after loading instead of
    /// while loading, so that a search can start at once; [`Database::wait_verified`] (which
    /// [`crate::solve`] calls before it returns) gives the verdict.
    pub verify_in_background: bool,
    /// Refuse the file, from its header alone and before any entry is read, unless it can serve
    /// this goal (same board, blank cells related by a symmetry; see [`Database::frame_for`]).
    pub expect_goal: Option<Goal>,
    /// How the entries of uncompressed tables get into memory (compressed ones are always
    /// decoded into huge-page memory).
    pub residence: Residence,
}

/// Where a table's entries live while it is searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Residence {
    /// Read into anonymous memory that asks for huge pages: a copy of the whole payload at
    /// load time (system time), then lookups with few TLB misses.
    #[default]
    HugePages,
    /// Mapped from the file (uncompressed payloads only): no copy and an instant load, pages
    /// come from the page cache on first touch; lookups pay 4 KiB-page TLB misses. The file
    /// must not change while it is mapped (the tools replace files by renaming, never in
    /// place).
    Mapped,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            verify: true,
            verify_in_background: false,
            expect_goal: None,
            residence: Residence::HugePages,
        }
    }
}

impl BackgroundCheck {
    /// Starts checking `tables` (in file order) against their headers' digests.
    fn start(tables: Vec<Arc<LoadedTable>>) -> std::io::Result<BackgroundCheck> {
        let handle = std::thread::Builder::new()
            .name("pdb-verify".into())
            .spawn(move || check_digests(&tables))?;
        Ok(BackgroundCheck {
            thread: Mutex::new(Some(handle)),
            verdict: OnceLock::new(),
        })
    }

    /// The verdict, waiting for the thread if it still runs; `None` if the thread died
    /// before giving one.
    fn wait(&self) -> Option<Result<(), Mismatch>> {
        if let Some(v) = self.verdict.get() {
            return Some(*v);
        }
        let mut guard = self.thread.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(handle) = guard.take() {
            if let Ok(v) = handle.join() {
                let _ = self.verdict.set(v);
            }
        }
        self.verdict.get().copied()
    }
}

/// Checks each table's entries against its header's digest, in file order.
fn check_digests(tables: &[Arc<LoadedTable>]) -> Result<(), Mismatch> {
    for (i, t) in tables.iter().enumerate() {
        let entries = &t.entries[..t.header.raw_len as usize];
        if let Err(FormatError::ChecksumMismatch {
            expected, found, ..
        }) = t.header.check_entries(i, entries)
        {
            return Err((i, expected, found));
        }
    }
    Ok(())
}

impl Database {
    /// Opens `path`, checks its header, and reads every table into huge-page memory.
    /// With `opts.verify` (the default) every table's digest is checked, so that a corrupted
    /// payload is refused instead of giving wrong answers.
    pub fn open(path: impl AsRef<Path>, opts: OpenOptions) -> Result<Database, DbError> {
        Database::open_with(path, opts, &mut |_, _| {})
    }

    /// Like [`Database::open`]; `progress(done, total)` is called as entries arrive, with the
    /// bytes of entries loaded so far and in all (over every table of the file), for a
    /// progress bar. Compressed payloads are decoded as they are read, straight into place.
    pub fn open_with(
        path: impl AsRef<Path>,
        opts: OpenOptions,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Database, DbError> {
        let start = Instant::now();
        let path = path.as_ref().to_path_buf();
        let format = |source| DbError::Format {
            path: path.clone(),
            source,
        };
        let file = PdbFile::open(&path).map_err(format)?;
        let header = file.header().clone();
        if let Some(goal) = &opts.expect_goal {
            frame_between(&path, &header.goal, goal)?;
        }
        let background = opts.verify && opts.verify_in_background;
        let board = header.board();
        let total: u64 = header.tables.iter().map(|t| t.raw_len).sum();
        let mut before = 0u64;
        let mut tables = Vec::with_capacity(header.tables.len());
        // The fast indexes made so far, by pattern size and kind: tables of one size share
        // one copy of the index's tables (megabytes on 5×5), which then stays in the cache.
        let mut fasts: Vec<(usize, TableKind, FastIndex)> = Vec::new();
        for (i, th) in header.tables.iter().enumerate() {
            // `PdbFile::open` has checked the table's shape: its entry count against its
            // pattern and kind, its byte length against its encoding, and that `bit1` entries
            // belong to a zero-aware table.
            let index = TableIndex::new(board, th.pattern.len(), th.kind).map_err(|e| {
                format(FormatError::InvalidField {
                    field: format!("table {i} pattern size"),
                    why: e.to_string(),
                })
            })?;
            let entries = if opts.residence == Residence::Mapped
                && th.compression == pdbformat::format::Compression::None
            {
                map_entries(&path, i, th, opts.verify && !background).map_err(format)?
            } else {
                load_entries(&file, i, th, opts.verify && !background, &mut |n| {
                    progress(before + n, total)
                })
                .map_err(format)?
            };
            before += th.raw_len;
            let fast = match fasts
                .iter()
                .find(|(k, kind, _)| (*k, *kind) == (th.pattern.len(), th.kind))
            {
                Some((_, _, f)) => f.clone(),
                None => {
                    let f = FastIndex::new(board, &index);
                    fasts.push((th.pattern.len(), th.kind, f.clone()));
                    f
                }
            };
            let walk = (th.encoding == Encoding::Bit1).then(|| {
                let mut goal_cells = [0u8; MAX_CELLS];
                for (g, c) in goal_cells
                    .iter_mut()
                    .zip(th.pattern.goal_cells(&header.goal))
                {
                    *g = c as u8;
                }
                let k = th.pattern.len();
                let occ = goal_cells[..k].iter().fold(0u64, |m, &c| m | 1u64 << c);
                let mut neighbours = [0u64; MAX_CELLS];
                for (c, m) in neighbours.iter_mut().enumerate().take(board.cells()) {
                    *m = board.neighbours(c).fold(0u64, |m, (_, n)| m | 1u64 << n);
                }
                Box::new(Walk {
                    goal_index: fast.index(&goal_cells[..k], occ, header.goal.blank_cell() as u8),
                    goal_cells,
                    neighbours,
                    bits: BoardBits::new(board),
                    board,
                })
            });
            let table = LoadedTable {
                pattern: th.pattern.clone(),
                kind: th.kind,
                fast,
                index,
                header: th.clone(),
                entries,
                encoding: th.encoding,
                walk,
                path: path.clone(),
                number: i,
            };
            if let Some(w) = &table.walk {
                // Cheap and catches a table of the wrong goal or a flipped first byte even
                // without the digest check.
                if table.view().bit1(w.goal_index) != 0 {
                    return Err(DbError::Corrupt {
                        path,
                        table: i,
                        why: "the goal's stored bit is 1, but its value is 0".into(),
                    });
                }
            }
            tables.push(Arc::new(table));
        }
        let background = if background {
            match BackgroundCheck::start(tables.clone()) {
                Ok(check) => Some(check),
                // No thread to be had: check here and now.
                Err(_) => {
                    check_digests(&tables).map_err(|m| mismatch(&path, m))?;
                    None
                }
            }
        } else {
            None
        };
        Ok(Database {
            bytes: file.len(),
            path,
            goal: header.goal,
            tables,
            load_seconds: start.elapsed().as_secs_f64(),
            background,
        })
    }

    /// Waits for the background digest check of [`OpenOptions::verify_in_background`], if one
    /// runs, and gives its verdict: `Ok` when every table matched (or no background check was
    /// asked for), the corruption error otherwise. Cheap once the check has finished.
    pub fn wait_verified(&self) -> Result<(), DbError> {
        let Some(check) = &self.background else {
            return Ok(());
        };
        match check.wait() {
            Some(Ok(())) => Ok(()),
            Some(Err(m)) => Err(mismatch(&self.path, m)),
            None => Err(DbError::Unverified {
                path: self.path.clone(),
            }),
        }
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

    /// The tables' encodings, `/`-separated, each run of equal ones named once (`bit1`,
    /// `u8/bit1`).
    pub fn describe_encodings(&self) -> String {
        let mut names: Vec<&str> = self
            .tables
            .iter()
            .map(|t| t.header.encoding.name())
            .collect();
        names.dedup();
        names.join("/")
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
        frame_between(&self.path, &self.goal, goal)
    }

    /// Whether this database can serve `goal` (same board, blank cells related by a symmetry).
    pub fn fits(&self, goal: &Goal) -> bool {
        self.frame_for(goal).is_ok()
    }
}

/// The corruption error of a digest mismatch found by the background check.
fn mismatch(path: &Path, (table, expected, found): Mismatch) -> DbError {
    DbError::Format {
        path: path.to_path_buf(),
        source: FormatError::ChecksumMismatch {
            table,
            what: "entries",
            expected,
            found,
        },
    }
}

/// The symmetry that carries `goal`'s frame into the frame of a database built for `db_goal`
/// (the file at `path`, for messages): it takes the goal's blank cell to the database goal's
/// blank cell. Errors when the board differs or no symmetry fits.
fn frame_between(path: &Path, db_goal: &Goal, goal: &Goal) -> Result<Symmetry, DbError> {
    let board = goal.board();
    if board != db_goal.board() {
        return Err(DbError::WrongBoard {
            path: path.to_path_buf(),
            db_board: db_goal.board(),
            board,
        });
    }
    Symmetry::taking(board, goal.blank_cell(), db_goal.blank_cell()).ok_or_else(|| {
        let rc = |c: usize| (board.row(c), board.col(c));
        DbError::WrongGoal {
            path: path.to_path_buf(),
            db_goal: db_goal.to_string(),
            db_blank: rc(db_goal.blank_cell()),
            goal: goal.to_string(),
            blank: rc(goal.blank_cell()),
        }
    })
}
