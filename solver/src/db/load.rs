//! Opening a database file: its header checked (against the goal, if one is given) before any
//! entry is read, then every table's entries read or decoded into huge-page memory, or mapped
//! from the file ([`Residence`]), their digests checked on the way or on a thread beside the
//! search ([`OpenOptions`]).

use super::digest_check::{check_digests, mismatch, BackgroundCheck};
use super::shared_index::shared_index;
use super::walk::Walk;
use super::{frame, Database, DbError, LoadedTable};
use pdbformat::format::{Encoding, FormatError, PdbFile, TableHeader};
use pdbformat::Goal;
use std::path::Path;
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
    /// seconds to hours (5×5, Korf's ten instances: 0.71-0.79 of the mapped time), else
    /// [`Mapped`](Self::Mapped) (4×4 searches of milliseconds, for which the copy would cost
    /// more than it saves).
    Auto,
}

impl Residence {
    /// What [`Residence::Auto`] stands for on a board of `cells` cells; the others as they are.
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
        let background = opts.verify && opts.verify_in_background;
        let board = header.board();
        let residence = opts.residence.for_board(board.cells());
        let total: u64 = header.tables.iter().map(|t| t.raw_len).sum();
        let mut before = 0u64;
        let mut tables = Vec::with_capacity(header.tables.len());
        for (i, th) in header.tables.iter().enumerate() {
            // `PdbFile::open` has checked the table's shape: its entry count against its
            // pattern and kind, its byte length against its encoding, and that `bit1` entries
            // belong to a zero-aware table.
            // Tables of one shape share one copy of the index's tables (megabytes on 5×5),
            // across files too, which then stays in the cache.
            let shared = shared_index(board, th.pattern.len(), th.kind).map_err(|e| {
                format(FormatError::InvalidField {
                    field: format!("table {i} pattern size"),
                    why: e.to_string(),
                })
            })?;
            let entries = if residence == Residence::Mapped
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
            tables,
            load_seconds: start.elapsed().as_secs_f64(),
            background,
        })
    }
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
