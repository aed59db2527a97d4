//! Opening a database file: its header checked (against the goal, if one is given) before any
//! entry is read, then every table's entries read or decoded into huge-page memory (tables
//! shared among up to one thread per core), or mapped from the file ([`Residence`]), their
//! digests checked on the way or on a thread beside the search ([`OpenOptions`]).

use super::digest_check::{check_digests, mismatch, BackgroundCheck};
use super::shared_index::shared_index;
use super::walk::Walk;
use super::{frame, ClassTable, Database, DbError, LoadedTable};
use pdbformat::format::{Compression, Encoding, FormatError, PdbFile, TableHeader};
use pdbformat::rank::ClassIndex;
use pdbformat::rank::TableKind;
use pdbformat::Goal;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

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
    /// [`HugePages`](Self::HugePages) for boards of more than 16 cells, whose searches last
    /// seconds to hours (5×5, Korf's ten instances: 0.71-0.79 of the mapped time), and for
    /// multi-tile class tables (4×4 MTM searches of seconds, about 0.75 of the mapped time),
    /// else [`Mapped`](Self::Mapped) (4×4 searches of milliseconds, for which the copy would
    /// cost more than it saves).
    Auto,
}

impl Residence {
    /// What [`Residence::Auto`] stands for on a board of `cells` cells, for pattern tables;
    /// the others as they are.
    pub fn for_board(self, cells: usize) -> Residence {
        match self {
            Residence::Auto if cells > 16 => Residence::HugePages,
            Residence::Auto => Residence::Mapped,
            other => other,
        }
    }
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
            frame::between(&path, &header.goal, goal)?;
        }
        if header.tables.iter().any(|t| t.classes.is_some()) {
            return open_classes(&file, path, opts, progress, start);
        }
        let background = opts.verify && opts.verify_in_background;
        let board = header.board();
        let residence = opts.residence.for_board(board.cells());
        let verify_now = opts.verify && !background;
        // Tables of one shape share one copy of the index's tables (megabytes on 5×5), across
        // files too, which then stays in the cache. Making them (a tenth of a second for
        // 6-tile 5×5 tables) needs no entry: it runs on a thread of its own while the entries
        // are read.
        let mut shapes: Vec<(usize, TableKind)> = Vec::new();
        for th in &header.tables {
            if !shapes.contains(&(th.pattern.len(), th.kind)) {
                shapes.push((th.pattern.len(), th.kind));
            }
        }
        let make = || {
            shapes
                .iter()
                .map(|&(k, kind)| shared_index(board, k, kind))
                .collect::<Vec<_>>()
        };
        let (indexes, entries) = std::thread::scope(|scope| {
            let maker = std::thread::Builder::new()
                .name("table-index".into())
                .spawn_scoped(scope, make);
            let entries = read_all(&file, &path, residence, verify_now, progress);
            // No thread to be had, or it panicked: make them here.
            let indexes = maker.ok().and_then(|m| m.join().ok()).unwrap_or_else(make);
            (indexes, entries)
        });
        let mut entries = entries.map_err(format)?.into_iter();
        let mut tables = Vec::with_capacity(header.tables.len());
        for (i, th) in header.tables.iter().enumerate() {
            // `PdbFile::open` has checked the table's shape: its entry count against its
            // pattern and kind, its byte length against its encoding, and that `bit1` entries
            // belong to a zero-aware table.
            let shape = shapes
                .iter()
                .position(|&s| s == (th.pattern.len(), th.kind))
                .expect("every table's shape is listed");
            let shared = indexes[shape].clone().map_err(|e| {
                format(FormatError::InvalidField {
                    field: format!("table {i} pattern size"),
                    why: e.to_string(),
                })
            })?;
            let entries = entries.next().expect("one entry map per table");
            let fast = shared.fast.clone();
            let walk = (th.encoding == Encoding::Bit1)
                .then(|| Box::new(Walk::new(th, &header.goal, &fast)));
            let table = LoadedTable {
                pattern: th.pattern.clone(),
                kind: th.kind,
                fast,
                shared,
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
            metric: header.metric,
            tables,
            classes: Vec::new(),
            load_seconds: start.elapsed().as_secs_f64(),
            background,
        })
    }
}

/// Opens a file of class tables (their digests, when asked, checked while they load): a
/// database whose [`Database::class_tables`] are set and whose pattern tables are none.
fn open_classes(
    file: &PdbFile,
    path: std::path::PathBuf,
    opts: OpenOptions,
    progress: &mut dyn FnMut(u64, u64),
    start: Instant,
) -> Result<Database, DbError> {
    let header = file.header().clone();
    let format = |source| DbError::Format {
        path: path.clone(),
        source,
    };
    if let Some(i) = header.tables.iter().position(|t| t.classes.is_none()) {
        return Err(format(FormatError::InvalidField {
            field: format!("table {i} kind"),
            why: "a pattern table beside class tables; the solver reads files of one or the other"
                .into(),
        }));
    }
    let residence = match opts.residence {
        Residence::Auto => Residence::HugePages,
        other => other,
    };
    let entries = read_all(file, &path, residence, opts.verify, progress).map_err(format)?;
    let mut classes = Vec::with_capacity(entries.len());
    for (th, entries) in header.tables.iter().zip(entries) {
        let labels = th.classes.expect("only class tables here");
        let index = ClassIndex::for_goal(&header.goal, labels).map_err(|e| {
            format(FormatError::InvalidField {
                field: "table index".into(),
                why: e.to_string(),
            })
        })?;
        classes.push(ClassTable {
            labels,
            index,
            header: th.clone(),
            entries,
            encoding: th.encoding,
        });
    }
    Ok(Database {
        bytes: file.len(),
        path,
        goal: header.goal,
        metric: header.metric,
        tables: Vec::new(),
        classes,
        load_seconds: start.elapsed().as_secs_f64(),
        background: None,
    })
}

/// The most threads that read one file's tables at once: enough to overlap the kernel's
/// zeroing of fresh huge pages and the copy from the page cache, which bound the load,
/// without crowding the memory bus.
const MAX_READERS: usize = 4;

/// Every table's entries in file order: mapped ([`Residence::Mapped`] and uncompressed) or
/// read into huge-page memory, read tables shared round-robin among up to [`MAX_READERS`]
/// threads (the calling one and helpers; one per core). `progress(done, total)` is called on
/// the calling thread with the bytes of entries loaded so far by all of them.
fn read_all(
    file: &PdbFile,
    path: &Path,
    residence: Residence,
    verify: bool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<memmap2::Mmap>, FormatError> {
    let tables = &file.header().tables;
    let total: u64 = tables.iter().map(|t| t.raw_len).sum();
    let mapped =
        |th: &TableHeader| residence == Residence::Mapped && th.compression == Compression::None;
    // Tables of a symmetry-reduced file share decoded sources through the file's one cache:
    // they are read in order on one thread.
    let symmetric = tables
        .iter()
        .any(|t| t.compression == Compression::ZstdSymmetric);
    let to_read = tables.iter().filter(|t| !mapped(t)).count();
    let readers = if symmetric {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_READERS)
            .min(to_read)
            .max(1)
    };
    let read_done = AtomicU64::new(0);
    let one = |i: usize, own: &mut dyn FnMut(u64)| -> Result<memmap2::Mmap, FormatError> {
        let th = &tables[i];
        if mapped(th) {
            map_entries(path, i, th, verify)
        } else {
            load_entries(file, i, th, verify, own)
        }
    };
    // Reader `k` takes every `readers`-th table that is read (mapped ones stay with the
    // calling thread: they cost nothing until touched, or one digest pass).
    let order: Vec<usize> = (0..tables.len()).filter(|&i| !mapped(&tables[i])).collect();
    let share = |k: usize| order.iter().copied().skip(k).step_by(readers);
    // A helper's tables, read on the helper's thread.
    let helper = |k: usize| {
        share(k)
            .map(|i| {
                let mut last = 0;
                let got = one(i, &mut |n| {
                    read_done.fetch_add(n - last, Relaxed);
                    last = n;
                })?;
                Ok((i, got))
            })
            .collect::<Result<Vec<_>, FormatError>>()
    };
    let mut read = std::thread::scope(|scope| -> Result<Vec<_>, FormatError> {
        let helpers: Vec<_> = (1..readers)
            .map(|k| {
                let helper = &helper;
                let spawned = std::thread::Builder::new()
                    .name(format!("read-tables-{k}"))
                    .spawn_scoped(scope, move || helper(k));
                (k, spawned.ok())
            })
            .collect();
        let mut mine = Vec::new();
        let mut own_done = 0u64;
        let mut own = |i: usize, mine: &mut Vec<_>| -> Result<(), FormatError> {
            let got = one(i, &mut |n| {
                progress(own_done + n + read_done.load(Relaxed), total)
            })?;
            own_done += tables[i].raw_len;
            mine.push((i, got));
            Ok(())
        };
        for i in share(0).chain((0..tables.len()).filter(|&i| mapped(&tables[i]))) {
            own(i, &mut mine)?;
        }
        for (k, handle) in helpers {
            match handle {
                Some(h) => mine.extend(h.join().map_err(|_| FormatError::Io {
                    context: "cannot read the tables".into(),
                    source: std::io::Error::other("a reading thread panicked"),
                })??),
                // No thread to be had: this thread reads that share too.
                None => {
                    for i in share(k) {
                        own(i, &mut mine)?;
                    }
                }
            }
        }
        Ok(mine)
    })?;
    if to_read > 0 {
        // The helpers' last bytes, which the calling thread's own calls may not have counted.
        progress(total, total);
    }
    // Each table was read by exactly one thread: in file order, one per table.
    read.sort_unstable_by_key(|&(i, _)| i);
    Ok(read.into_iter().map(|(_, m)| m).collect())
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
