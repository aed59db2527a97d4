//! Writing PDB files atomically: a file in the target folder that gets the target's name only
//! once it is complete ([`super::pending`]: anonymous on Linux, so that even a killed process
//! leaves no partial file).

use super::codes::{Compression, Encoding};
use super::digest::Digest;
use super::error::FormatError;
use super::header::{align_up, Header, TableHeader, PAYLOAD_ALIGN};
use super::pending::PendingFile;
use super::symmetric;
use crate::goal::Goal;
use crate::metric::Metric;
use crate::pattern::Pattern;
use crate::rank::{entry_count, ClassIndex, ClassLabels, TableKind};
use sha2::{Digest as _, Sha256};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

/// One table to write: its shape and its encoded entries.
#[derive(Clone, Copy, Debug)]
pub struct TableSource<'a> {
    /// Zero-aware or zero-unaware.
    pub kind: TableKind,
    /// The pattern.
    pub pattern: &'a Pattern,
    /// How `entries` is packed.
    pub encoding: Encoding,
    /// The largest value in the table.
    pub max_value: u8,
    /// The encoded entries (see [`super::encode_entries`]).
    pub entries: &'a [u8],
}

/// How payloads are stored.
#[derive(Clone, Copy, Debug)]
pub struct WriteOptions {
    /// Compression of every payload.
    pub compression: Compression,
    /// zstd level (1..=22).
    pub zstd_level: i32,
    /// zstd long-distance matching (128 MiB window; decoders accept it by default).
    pub zstd_long: bool,
    /// gzip level (0..=9).
    pub gzip_level: u32,
    /// zstd worker threads (zstd's own, started inside libzstd). `0` is zstd's single-threaded
    /// mode; any `n >= 1` is its multithreaded mode, whose output depends on the level, the
    /// window and [`zstd_job_size`](Self::zstd_job_size) but not on `n` (pinned by the test
    /// `multithreaded_zstd_output_does_not_depend_on_workers`); it differs from the `0` output.
    pub zstd_workers: u32,
    /// Bytes of input per zstd job in multithreaded mode (ignored when `zstd_workers` is 0).
    /// Set explicitly because zstd's default grows with the window (4 windows, 512 MiB with
    /// long matching), which would leave a table of a few hundred MiB in one job, on one thread;
    /// fixing it also keeps the output independent of zstd's defaults.
    pub zstd_job_size: u32,
}

/// The default [`WriteOptions::zstd_job_size`]: 16 MiB, twice the level-19 window without long
/// matching, so that jobs start a few at a time even on a 200 MiB table, and large enough that
/// splitting costs little ratio (each job still sees the data before it as its window).
pub const DEFAULT_ZSTD_JOB_SIZE: u32 = 16 << 20;

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            compression: Compression::None,
            zstd_level: 19,
            zstd_long: true,
            gzip_level: 9,
            zstd_workers: 0,
            zstd_job_size: DEFAULT_ZSTD_JOB_SIZE,
        }
    }
}

/// One table to write whose entries arrive as a stream (see [`write_pdb_streamed`]): its shape
/// without the entries.
#[derive(Clone, Copy, Debug)]
pub struct TableShape<'a> {
    /// Zero-aware or zero-unaware.
    pub kind: TableKind,
    /// The pattern.
    pub pattern: &'a Pattern,
    /// How the streamed entries are packed.
    pub encoding: Encoding,
    /// The largest value in the table.
    pub max_value: u8,
}

/// One class table to write (see [`write_class_pdb`]): its labelling and its encoded entries, in
/// the order of [`ClassIndex`].
#[derive(Clone, Copy, Debug)]
pub struct ClassTableSource<'a> {
    /// Goal rows, goal columns or a class per goal cell.
    pub labels: ClassLabels,
    /// How `entries` is packed (`u8` or `u4`).
    pub encoding: Encoding,
    /// The largest value in the table.
    pub max_value: u8,
    /// The encoded entries.
    pub entries: &'a [u8],
}

/// Writes class tables (format version 2) for `goal` and `metric` to `path`, as
/// [`write_pdb`] writes pattern tables. `bit1` entries and `zstd-sym` payloads are refused:
/// they need zero-aware pattern tables.
pub fn write_class_pdb(
    path: &Path,
    goal: &Goal,
    metric: Metric,
    tables: &[ClassTableSource<'_>],
    opts: &WriteOptions,
) -> Result<Header, FormatError> {
    let all = Pattern::new(goal.board(), &(1..goal.board().cells()).collect::<Vec<_>>()).map_err(
        |e| FormatError::BadTable {
            table: 0,
            why: e.to_string(),
        },
    )?;
    if opts.compression == Compression::ZstdSymmetric {
        return Err(FormatError::BadTable {
            table: 0,
            why: "zstd-sym payloads need zero-aware pattern tables, not class tables".into(),
        });
    }
    let shapes: Vec<Shape<'_>> = tables
        .iter()
        .map(|t| Shape {
            kind: TableKind::ZeroAware,
            classes: Some(t.labels),
            pattern: &all,
            encoding: t.encoding,
            max_value: t.max_value,
        })
        .collect();
    write_shapes(path, goal, metric, &shapes, opts, &mut |i, w| {
        for chunk in tables[i].entries.chunks(1 << 20) {
            w.write_all(chunk)?;
        }
        Ok(())
    })
}

/// A table's shape inside the writer: a [`TableShape`], or a class table.
#[derive(Clone, Copy)]
struct Shape<'a> {
    kind: TableKind,
    classes: Option<ClassLabels>,
    pattern: &'a Pattern,
    encoding: Encoding,
    max_value: u8,
}

impl Shape<'_> {
    /// The number of entries of this table for `goal`.
    fn entries(&self, goal: &Goal) -> Result<u64, crate::rank::IndexError> {
        match self.classes {
            Some(labels) => Ok(ClassIndex::for_goal(goal, labels)?.len()),
            None => entry_count(goal.board(), self.pattern.len(), self.kind),
        }
    }
}

/// Writes `tables` for `goal` to `path`; on any error nothing is left under `path` (an existing
/// file there is untouched). Returns the header written.
///
/// A zero-unaware table of the one-tile pattern {1} on the 3×3 board (the blank moves for
/// free, so each entry is tile 1's Manhattan distance to its goal cell), written, opened,
/// verified and read back:
///
/// ```
/// use pdbformat::format::{write_pdb, Encoding, LoadOptions, PdbFile, TableSource, WriteOptions};
/// use pdbformat::{Board, Goal, Pattern, TableIndex, TableKind};
///
/// let board = Board::new(3, 3)?;
/// let goal = Goal::blank_first(board);
/// let pattern = Pattern::new(board, &[1])?;
/// let index = TableIndex::new(board, 1, TableKind::ZeroUnaware)?;
/// let entries: Vec<u8> = (0..index.len())
///     .map(|i| {
///         let mut cell = [0u8];
///         index.unrank(i, &mut cell);
///         board.manhattan(cell[0] as usize, goal.cell_of(1)) as u8
///     })
///     .collect();
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("tile1.pdb");
/// let table = TableSource {
///     kind: TableKind::ZeroUnaware,
///     pattern: &pattern,
///     encoding: Encoding::U8,
///     max_value: *entries.iter().max().unwrap(),
///     entries: &entries,
/// };
/// write_pdb(&path, &goal, &[table], &WriteOptions::default())?;
///
/// let file = PdbFile::open(&path)?; // the header, checked
/// file.verify()?; // every payload's digest
/// let loaded = file.load(0, LoadOptions::default())?;
/// assert_eq!(loaded.values(), Some(entries));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_pdb(
    path: &Path,
    goal: &Goal,
    tables: &[TableSource<'_>],
    opts: &WriteOptions,
) -> Result<Header, FormatError> {
    let shapes: Vec<TableShape<'_>> = tables
        .iter()
        .map(|t| TableShape {
            kind: t.kind,
            pattern: t.pattern,
            encoding: t.encoding,
            max_value: t.max_value,
        })
        .collect();
    write_pdb_streamed(path, goal, &shapes, opts, &mut |i, w| {
        for chunk in tables[i].entries.chunks(1 << 20) {
            w.write_all(chunk)?;
        }
        Ok(())
    })
}

/// Writes `tables` for `goal` to `path`, the encoded entries of table `i` written by
/// `fill(i, writer)` (tables in order, each exactly its encoded length; they are compressed
/// and hashed as they pass, so no table need be whole in memory: the distributed build streams
/// every process's slice through it). On any error, `fill`'s included, nothing is left under
/// `path`. Returns the header written.
pub fn write_pdb_streamed(
    path: &Path,
    goal: &Goal,
    tables: &[TableShape<'_>],
    opts: &WriteOptions,
    fill: &mut dyn FnMut(usize, &mut dyn Write) -> io::Result<()>,
) -> Result<Header, FormatError> {
    let shapes: Vec<Shape<'_>> = tables
        .iter()
        .map(|t| Shape {
            kind: t.kind,
            classes: None,
            pattern: t.pattern,
            encoding: t.encoding,
            max_value: t.max_value,
        })
        .collect();
    write_shapes(path, goal, Metric::Stm, &shapes, opts, fill)
}

/// The one writer behind [`write_pdb_streamed`] and [`write_class_pdb`].
fn write_shapes(
    path: &Path,
    goal: &Goal,
    metric: Metric,
    tables: &[Shape<'_>],
    opts: &WriteOptions,
    fill: &mut dyn FnMut(usize, &mut dyn Write) -> io::Result<()>,
) -> Result<Header, FormatError> {
    let board = goal.board();
    if tables.is_empty() || tables.len() > super::header::MAX_TABLES {
        return Err(FormatError::BadTable {
            table: 0,
            why: format!(
                "a file holds 1 to {} tables, not {}",
                super::header::MAX_TABLES,
                tables.len()
            ),
        });
    }
    for (i, t) in tables.iter().enumerate() {
        let bad = |why: String| FormatError::BadTable { table: i, why };
        t.entries(goal).map_err(|e| bad(e.to_string()))?;
        if t.encoding == Encoding::Bit1 && (t.kind != TableKind::ZeroAware || t.classes.is_some()) {
            return Err(bad("bit1 entries need a zero-aware pattern table".into()));
        }
        if t.encoding == Encoding::U4 && t.max_value > 15 {
            return Err(bad(format!(
                "max value {} does not fit u4 entries",
                t.max_value
            )));
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let ctx = |what: &str| format!("cannot {what} {}", path.display());
    let mut tmp = PendingFile::create_in(dir)
        .map_err(|e| FormatError::io(ctx("create a temporary file beside"), e))?;
    let header_len =
        Header::encoded_len(board.cells(), tables.iter().map(|t| t.pattern.len())) as u64;
    let mut headers = Vec::with_capacity(tables.len());
    let mut earlier_raw: Vec<Vec<u8>> = Vec::new();
    {
        let f = tmp.file();
        let mut w = io::BufWriter::with_capacity(1 << 20, f);
        let mut pos = 0u64;
        write_zeros(&mut w, align_up(header_len, PAYLOAD_ALIGN))
            .map_err(|e| FormatError::io(ctx("write"), e))?;
        pos += align_up(header_len, PAYLOAD_ALIGN);
        for (i, t) in tables.iter().enumerate() {
            if i > 0 {
                let aligned = align_up(pos, PAYLOAD_ALIGN);
                write_zeros(&mut w, aligned - pos).map_err(|e| FormatError::io(ctx("write"), e))?;
                pos = aligned;
            }
            let entries = t.entries(goal).expect("checked above");
            let raw_len = t.encoding.encoded_len(entries);
            let mut counting = CountingWriter {
                inner: &mut w,
                hasher: Some(Sha256::new()),
                count: 0,
            };
            let too_short = |given: u64| FormatError::BadTable {
                table: i,
                why: format!(
                    "{given} bytes given, {entries} {} entries take {raw_len}",
                    t.encoding
                ),
            };
            let (compression, raw) = if opts.compression == Compression::ZstdSymmetric {
                // Whole tables: a table's stored form depends on its entries' images, and a
                // later table may be the image of this one.
                let mut raw = Vec::with_capacity(raw_len as usize);
                fill(i, &mut raw).map_err(|e| FormatError::io(ctx("write"), e))?;
                if raw.len() as u64 != raw_len {
                    return Err(too_short(raw.len() as u64));
                }
                let digest = Sha256::new().chain_update(&raw);
                let compression =
                    write_symmetric(goal, tables, &earlier_raw, i, &raw, &mut counting, opts)
                        .map_err(|e| FormatError::io(ctx("write"), e))?;
                earlier_raw.push(raw);
                (compression, (raw_len, Some(digest)))
            } else {
                let compression = opts.compression;
                // Uncompressed, the raw bytes are the stored bytes: hashed once, below.
                let mut raw = CountingWriter {
                    inner: &mut Compressor::new(&mut counting, raw_len, compression, opts)
                        .map_err(|e| FormatError::io(ctx("write"), e))?,
                    hasher: (compression != Compression::None).then(Sha256::new),
                    count: 0,
                };
                fill(i, &mut raw).map_err(|e| FormatError::io(ctx("write"), e))?;
                let (count, hasher) = (raw.count, raw.hasher);
                raw.inner
                    .finish()
                    .map_err(|e| FormatError::io(ctx("write"), e))?;
                (compression, (count, hasher))
            };
            if raw.0 != raw_len {
                return Err(too_short(raw.0));
            }
            let stored_digest =
                Digest::from_hasher(counting.hasher.expect("the stored bytes are hashed"));
            let stored_len = counting.count;
            let raw_digest = raw.1.map_or(stored_digest, Digest::from_hasher);
            headers.push(TableHeader {
                kind: t.kind,
                classes: t.classes,
                encoding: t.encoding,
                compression,
                pattern: t.pattern.clone(),
                max_value: t.max_value,
                entry_count: entries,
                raw_len,
                payload_offset: pos,
                stored_len,
                stored_digest,
                raw_digest,
            });
            pos += stored_len;
        }
        w.flush().map_err(|e| FormatError::io(ctx("write"), e))?;
    }
    let header = Header {
        goal: goal.clone(),
        metric,
        tables: headers,
    };
    let f = tmp.file();
    f.seek(SeekFrom::Start(0))
        .and_then(|_| f.write_all(&header.encode()))
        .and_then(|_| f.sync_all())
        .map_err(|e| FormatError::io(ctx("write"), e))?;
    tmp.persist(path)
        .map_err(|e| FormatError::io(ctx("rename the finished file to"), e))?;
    Ok(header)
}

/// Writes the stored payload of table `i` of a `ZstdSymmetric` file (its raw entries `raw`,
/// the earlier tables' in `earlier`) and returns its compression: `ZstdSymmetric` when a
/// symmetry links it to an earlier table or to itself, `Zstd` otherwise.
fn write_symmetric(
    goal: &Goal,
    tables: &[Shape<'_>],
    earlier: &[Vec<u8>],
    i: usize,
    raw: &[u8],
    out: &mut dyn Write,
    opts: &WriteOptions,
) -> io::Result<Compression> {
    let shapes: Vec<symmetric::Shape<'_>> = tables
        .iter()
        .map(|t| symmetric::Shape {
            pattern: t.pattern,
            encoding: t.encoding,
            zero_aware: t.kind == TableKind::ZeroAware,
        })
        .collect();
    let kept = symmetric::find_link(goal, &shapes, i).and_then(|link| {
        let pattern = tables[link.source].pattern;
        let tau = symmetric::tile_map(goal, link.symmetry, pattern, tables[i].pattern)?;
        let source = (link.source < i).then(|| &earlier[link.source][..]);
        let goals = tables[i].pattern.goal_cells(goal);
        let maps = (&tau[..], &goals[..]);
        let kept = symmetric::encode(goal.board(), link, maps, tables[i].encoding, raw, source);
        // Entries that are not the image the patterns promise (a table built for another
        // goal, say) are stored whole.
        kept.ok().map(|kept| (link, kept))
    });
    let Some((link, kept)) = kept else {
        zstd_into(out, raw, opts)?;
        return Ok(Compression::Zstd);
    };
    out.write_all(&link.preamble())?;
    if link.source == i {
        zstd_into(out, &kept, opts)?;
    }
    Ok(Compression::ZstdSymmetric)
}

/// `bytes` as one zstd frame into `out`, as `opts` asks.
fn zstd_into(out: &mut dyn Write, bytes: &[u8], opts: &WriteOptions) -> io::Result<()> {
    let mut z = Compressor::new(out, bytes.len() as u64, Compression::Zstd, opts)?;
    z.write_all(bytes)?;
    z.finish()
}

/// A payload's compressor: entries in, stored bytes out to the inner writer.
enum Compressor<'w> {
    None(&'w mut dyn Write),
    Zstd(zstd::stream::write::Encoder<'static, &'w mut dyn Write>),
    Gzip(flate2::write::GzEncoder<&'w mut dyn Write>),
}

impl<'w> Compressor<'w> {
    /// A compressor of `raw_len` bytes of entries into `w`, as `opts` asks.
    fn new(
        w: &'w mut dyn Write,
        raw_len: u64,
        compression: Compression,
        opts: &WriteOptions,
    ) -> io::Result<Self> {
        Ok(match compression {
            Compression::None => Compressor::None(w),
            Compression::Zstd | Compression::ZstdSymmetric => {
                let mut enc = zstd::stream::write::Encoder::new(w, opts.zstd_level)?;
                enc.include_checksum(false)?;
                if opts.zstd_workers > 0 {
                    enc.multithread(opts.zstd_workers)?;
                    enc.set_parameter(zstd::stream::raw::CParameter::JobSize(opts.zstd_job_size))?;
                }
                enc.set_pledged_src_size(Some(raw_len))?;
                if opts.zstd_long {
                    enc.long_distance_matching(true)?;
                    enc.window_log(27)?;
                }
                Compressor::Zstd(enc)
            }
            Compression::Gzip => Compressor::Gzip(
                flate2::GzBuilder::new()
                    .mtime(0)
                    .write(w, flate2::Compression::new(opts.gzip_level)),
            ),
        })
    }

    /// Ends the stream (the compressor's trailer).
    fn finish(&mut self) -> io::Result<()> {
        match self {
            Compressor::None(w) => w.flush(),
            Compressor::Zstd(enc) => enc.do_finish(),
            Compressor::Gzip(enc) => enc.try_finish(),
        }
    }
}

impl Write for Compressor<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Compressor::None(w) => w.write(buf),
            Compressor::Zstd(enc) => enc.write(buf),
            Compressor::Gzip(enc) => enc.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Compressor::None(w) => w.flush(),
            Compressor::Zstd(enc) => enc.flush(),
            Compressor::Gzip(enc) => enc.flush(),
        }
    }
}

fn write_zeros(w: &mut dyn Write, n: u64) -> io::Result<()> {
    io::copy(&mut io::Read::take(io::repeat(0), n), w).map(|_| ())
}

/// Counts and hashes the bytes that pass through it.
struct CountingWriter<'a, W: Write + ?Sized> {
    inner: &'a mut W,
    /// `None` when these bytes need no digest of their own.
    hasher: Option<Sha256>,
    count: u64,
}

impl<W: Write + ?Sized> Write for CountingWriter<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        if let Some(h) = &mut self.hasher {
            h.update(&buf[..n]);
        }
        self.count += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
