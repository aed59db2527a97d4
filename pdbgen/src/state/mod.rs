//! The resumable state of a build ([`BuildState`]): a folder beside the output (`OUT.partial/`)
//! holding what a build killed at any moment needs to go on from where it was, so that the
//! same command run again continues from the last piece saved and writes the same bytes.
//!
//! Its pieces ([`piece`]), each checksummed and written atomically: `params` (what is built:
//! board, goal, partition, kind, encoding, compression, ranks), `table-I` (a finished table's
//! encoded entries and figures) and `table-I-level-D` (table `I`'s working table after its
//! level `D`, with the level counts so far). A piece that does not check, or that belongs to
//! another build, is named in [`BuildState::refused`] and removed; the build resumes from the
//! last position whose pieces all check.
//!
//! What is saved: a finished table (but not the last one searched: the file, written right
//! after it, is its durable form) or a working table after a level, when the BFS has run at
//! least [`SAVE_RATIO`] times as long since the last piece as writing this one is expected to
//! take, so that saving costs at most about 1/[`SAVE_RATIO`] of the build: a table searched
//! in seconds is searched again rather than saved. Writing a piece
//! into the page cache is all the build waits for: flushing it to disk and renaming it into
//! place run on a thread of their own, one piece at a time (a distributed build waits for
//! them, then every rank removes its older pieces together).

mod hook;
mod piece;

pub(crate) use hook::output as hook_output;
#[cfg(feature = "mpi")]
pub(crate) use hook::set_rank as hook_set_rank;
pub(crate) use hook::{after_level as hook_after_level, in_level as hook_in_level};

use crate::error::BuildError;
use crate::levels::Levels;
use crate::observer::TableSummary;
use crate::request::BuildRequest;
use crate::slice::LevelTable;
use crate::symmetric::image_of;
use piece::{field, list, number, numbers, read_piece, write_piece, Bad, Unflushed};
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::thread::JoinHandle;
use std::time::Instant;

/// A working table is saved after a level once the BFS has run this many times as long as
/// saving it takes since the last piece was saved: saving costs at most about 1/20 of the
/// build.
pub const SAVE_RATIO: f64 = 20.0;

/// The first guess of how fast a piece is saved (bytes per second: hashed, written into the
/// page cache and flushed to disk), until a save has been timed. Deliberately low: a working
/// table saved a few levels before its table ends protects little and costs as much as any.
const FIRST_RATE: f64 = 250e6;

/// How a build keeps its state.
#[derive(Clone, Copy, Debug, Default)]
pub struct StateOptions {
    /// Discard any state found and start from the beginning.
    pub fresh: bool,
    /// Save after every level and every finished table, whatever it costs (for tests).
    pub every_level: bool,
}

/// A piece of a state that was refused, and why.
#[derive(Clone, Debug)]
pub struct Refused {
    /// The piece (a file in the state's folder), or the folder.
    pub piece: PathBuf,
    /// What is wrong with it.
    pub why: String,
}

/// Where a build resumes: tables before `table` are finished; `table` goes on after its level
/// `level` when one is given, else starts from its goal. `table` equal to the table count:
/// every table is finished and only the file is left to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResumePoint {
    /// The first table not finished.
    pub table: usize,
    /// Its last level saved.
    pub level: Option<u8>,
}

impl ResumePoint {
    /// The position as one ordered number: tables first, then levels (0: the beginning).
    fn key(self) -> u64 {
        self.table as u64 * 512 + self.level.map_or(0, |d| d as u64 + 1)
    }

    /// The position of [`Self::key`].
    #[cfg(feature = "mpi")]
    fn from_key(key: u64) -> ResumePoint {
        let level = match key % 512 {
            0 => None,
            d => Some((d - 1) as u8),
        };
        ResumePoint {
            table: (key / 512) as usize,
            level,
        }
    }
}

/// The resumable state of one build (one rank's, in a distributed build), in a folder beside
/// its output. Open it with [`BuildState::open`] before the build and hand it to
/// [`crate::build_file_with_state`]; the build removes it once the file is in place.
pub struct BuildState {
    dir: PathBuf,
    /// The hex digest of the parameters, written in every piece.
    tag: String,
    refused: Vec<Refused>,
    discarded: bool,
    /// Tables whose finished piece checks.
    finished: BTreeSet<usize>,
    /// Per table, the levels whose working table checks.
    levels: BTreeMap<usize, BTreeSet<u8>>,
    /// Which tables the build searches (the others are derived from an earlier one).
    searched: Vec<bool>,
    every_level: bool,
    resume: ResumePoint,
    /// The piece being flushed and renamed on its own thread.
    pending: Option<JoinHandle<io::Result<()>>>,
    /// When the last piece was saved (or the build started).
    since: Instant,
    /// Bytes per second of the saves so far (what the build waited for).
    rate: f64,
}

impl BuildState {
    /// Opens the state of building `req` into `output` on one process (`OUT.partial/` beside
    /// it), or starts an empty one: every piece is checked, the refused ones removed (see
    /// [`Self::refused`]), and the build will resume from the last position whose pieces all
    /// check ([`Self::resume_point`]). With `opts.fresh` any state there is discarded.
    pub fn open(
        req: &BuildRequest,
        output: &Path,
        opts: StateOptions,
    ) -> Result<BuildState, BuildError> {
        let patterns = req.partition.patterns();
        let searched = (0..patterns.len())
            .map(|i| image_of(&req.goal, patterns, i).is_none())
            .collect();
        Self::open_in(state_dir(output), params(req, None), searched, opts)
    }

    /// Opens rank `rank`'s state (of `ranks`) of the distributed build of `req` into
    /// `output`: `OUT.partial/rank-R-of-N/` on that rank's file system. The ranks agree on
    /// where to resume when the build starts.
    #[cfg(feature = "mpi")]
    pub fn open_rank(
        req: &BuildRequest,
        output: &Path,
        rank: usize,
        ranks: usize,
        opts: StateOptions,
    ) -> Result<BuildState, BuildError> {
        let top = state_dir(output);
        let dir = top.join(format!("rank-{rank}-of-{ranks}"));
        let mut refused = Vec::new();
        if rank == 0 {
            // Folders of a job of another size are of no use to this one.
            if let Ok(entries) = std::fs::read_dir(&top) {
                for e in entries.flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    if !(name.starts_with("rank-") && name.ends_with(&format!("-of-{ranks}"))) {
                        refused.push(Refused {
                            piece: e.path(),
                            why: format!(
                                "belongs to a build on another number of ranks than {ranks}"
                            ),
                        });
                        remove_any(&e.path()).map_err(state_error(&e.path()))?;
                    }
                }
            }
        }
        let searched = vec![true; req.partition.patterns().len()];
        let mut s = Self::open_in(dir, params(req, Some((rank, ranks))), searched, opts)?;
        refused.append(&mut s.refused);
        s.refused = refused;
        Ok(s)
    }

    fn open_in(
        dir: PathBuf,
        params_text: String,
        searched: Vec<bool>,
        opts: StateOptions,
    ) -> Result<BuildState, BuildError> {
        let tag = hex(&sha2::Digest::finalize(sha2::Digest::chain_update(
            <sha2::Sha256 as sha2::Digest>::new(),
            params_text.as_bytes(),
        )));
        let mut s = BuildState {
            dir,
            tag,
            refused: Vec::new(),
            discarded: false,
            finished: BTreeSet::new(),
            levels: BTreeMap::new(),
            searched,
            every_level: opts.every_level,
            resume: ResumePoint {
                table: 0,
                level: None,
            },
            pending: None,
            since: Instant::now(),
            rate: FIRST_RATE,
        };
        if opts.fresh && s.dir.exists() {
            remove_any(&s.dir).map_err(state_error(&s.dir))?;
            s.discarded = true;
        }
        if s.dir.is_dir() {
            s.check_pieces(&params_text)?;
        } else if s.dir.exists() {
            s.refuse(&s.dir.clone(), "is not a folder".into())?;
        }
        std::fs::create_dir_all(&s.dir).map_err(state_error(&s.dir))?;
        s.resume = s.best_local();
        if s.resume.key() == 0 {
            // Nothing to resume from: start from a clean folder with this build's parameters.
            s.clear_pieces()?;
            let path = s.dir.join("params");
            write_piece(&path, &params_text, &[])
                .and_then(Unflushed::put_in_place)
                .map_err(state_error(&path))?;
        }
        Ok(s)
    }

    /// The state's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The pieces found damaged or belonging to another build, and removed.
    pub fn refused(&self) -> &[Refused] {
        &self.refused
    }

    /// Whether a state was there and `fresh` discarded it.
    pub fn discarded(&self) -> bool {
        self.discarded
    }

    /// Where the build resumes (`table` 0 without a level: from the beginning). In a
    /// distributed build, the ranks may agree on an earlier point when the build starts.
    pub fn resume_point(&self) -> ResumePoint {
        self.resume
    }

    /// Checks every piece in the folder against `params_text`, keeps the good ones in mind
    /// and removes the others, naming them.
    fn check_pieces(&mut self, params_text: &str) -> Result<(), BuildError> {
        let params_path = self.dir.join("params");
        match read_piece(&params_path, None) {
            Ok(found) if found == params_text => {}
            Ok(found) => {
                let what = field(&found, "build")
                    .unwrap_or("another build")
                    .to_string();
                let why = format!("belongs to another build ({what}); starting over");
                return self.refuse(&self.dir.clone(), why);
            }
            Err(Bad::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                let why = "has no parameters (not a state of this build); starting over";
                return self.refuse(&self.dir.clone(), why.into());
            }
            Err(e) => {
                return self.refuse(&params_path, format!("{e}; starting over"));
            }
        }
        let entries = std::fs::read_dir(&self.dir).map_err(state_error(&self.dir))?;
        let mut names: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            let path = self.dir.join(&name);
            if name == "params" {
                continue;
            }
            if name.ends_with(".tmp") {
                // A piece a killed build did not finish writing.
                remove_any(&path).map_err(state_error(&path))?;
                continue;
            }
            let Some(kind) = PieceName::parse(&name) else {
                self.refuse(&path, "is not a piece of a build's state".into())?;
                continue;
            };
            match read_piece(&path, None) {
                Ok(meta) if field(&meta, "params") != Some(&self.tag) => {
                    self.refuse(&path, "belongs to another build".into())?;
                }
                Ok(_) => match kind {
                    PieceName::Finished(t) if t < self.searched.len() => {
                        self.finished.insert(t);
                    }
                    PieceName::Level(t, d) if t < self.searched.len() => {
                        self.levels.entry(t).or_default().insert(d);
                    }
                    _ => self.refuse(&path, "names a table this build does not have".into())?,
                },
                Err(e) => self.refuse(&path, e.to_string())?,
            }
        }
        Ok(())
    }

    /// Names `path` as refused for `why` and removes it.
    fn refuse(&mut self, path: &Path, why: String) -> Result<(), BuildError> {
        self.refused.push(Refused {
            piece: path.to_path_buf(),
            why,
        });
        remove_any(path).map_err(state_error(path))
    }

    /// Removes every piece (a fresh start in an existing folder).
    fn clear_pieces(&mut self) -> Result<(), BuildError> {
        let entries = std::fs::read_dir(&self.dir).map_err(state_error(&self.dir))?;
        for e in entries.flatten() {
            remove_any(&e.path()).map_err(state_error(&e.path()))?;
        }
        self.finished.clear();
        self.levels.clear();
        Ok(())
    }

    /// The positions this state could resume from, in increasing order (the beginning
    /// first): each needs every searched table before it finished.
    fn candidates(&self) -> Vec<ResumePoint> {
        let mut out = vec![ResumePoint {
            table: 0,
            level: None,
        }];
        for t in 0..self.searched.len() {
            if let Some(depths) = self.levels.get(&t) {
                out.extend(depths.iter().map(|&d| ResumePoint {
                    table: t,
                    level: Some(d),
                }));
            }
            let finished = self.finished.contains(&t) || !self.searched[t];
            if !finished {
                break;
            }
            out.push(ResumePoint {
                table: t + 1,
                level: None,
            });
        }
        out
    }

    /// The last position this state alone can resume from.
    fn best_local(&self) -> ResumePoint {
        *self
            .candidates()
            .last()
            .expect("the beginning is always there")
    }

    /// Agrees with every rank of `world` on the last position all of them can resume from
    /// (each keeps its older level saves until every rank has written the newer one) and
    /// returns it. Every rank must call it; the distributed build calls it again itself.
    #[cfg(feature = "mpi")]
    pub fn agree(
        &mut self,
        world: &mpi::topology::SimpleCommunicator,
    ) -> Result<ResumePoint, BuildError> {
        use mpi::traits::*;
        const SLOTS: usize = 16;
        let mut mine = [u64::MAX; SLOTS];
        let keys: Vec<u64> = self.candidates().iter().map(|p| p.key()).collect();
        for (slot, k) in mine.iter_mut().zip(keys.iter().rev()) {
            *slot = *k;
        }
        let mut all = vec![0u64; SLOTS * world.size() as usize];
        world.all_gather_into(&mine[..], &mut all[..]);
        let common = keys
            .iter()
            .rev()
            .find(|k| all.chunks(SLOTS).all(|r| r.contains(k)))
            .copied()
            .unwrap_or(0);
        self.resume = ResumePoint::from_key(common);
        Ok(self.resume)
    }

    /// Whether table `table` is finished in the state and is to be loaded, not built.
    pub(crate) fn has_finished(&self, table: usize) -> bool {
        table < self.resume.table && self.searched[table]
    }

    /// The finished table `table`: its encoded entries (`len` bytes) and figures.
    pub(crate) fn load_finished(
        &self,
        table: usize,
        summary_of: impl FnOnce(&str) -> Option<TableSummary>,
        len: usize,
    ) -> Result<(Vec<u8>, TableSummary), BuildError> {
        let path = self.dir.join(PieceName::Finished(table).name());
        let mut bytes = vec![0u8; len];
        let meta = read_piece(&path, Some(&mut bytes[..])).map_err(bad(&path))?;
        let summary = summary_of(&meta)
            .ok_or_else(|| bad(&path)(Bad::Damaged("has unreadable figures".into())))?;
        Ok((bytes, summary))
    }

    /// The working table of `table` (its `len` entries) and its level counts, when the build
    /// resumes inside it.
    pub(crate) fn load_level<T: LevelTable>(
        &self,
        table: usize,
        len: usize,
    ) -> Result<Option<(T, Levels)>, BuildError> {
        let depth = match self.resume {
            ResumePoint {
                table: t,
                level: Some(d),
            } if t == table => d,
            _ => return Ok(None),
        };
        let path = self.dir.join(PieceName::Level(table, depth).name());
        let words_len = (len as u64 * T::BITS as u64).div_ceil(64) as usize;
        let mut words = pdbformat::memory::huge_vec(words_len, 0u64);
        let meta = read_piece(&path, Some(words_as_bytes_mut(&mut words))).map_err(bad(&path))?;
        let levels = levels_of(&meta)
            .filter(|l| l.histogram.len() == depth as usize + 1)
            .ok_or_else(|| bad(&path)(Bad::Damaged("has unreadable level counts".into())))?;
        Ok(Some((T::from_words(words, len), levels)))
    }

    /// Whether the working table of `bytes` bytes is worth saving now (always with
    /// `every_level`).
    pub(crate) fn wants_level_save(&self, bytes: u64) -> bool {
        self.every_level || self.worth(bytes)
    }

    /// Whether a piece of `bytes` bytes protects enough work: the BFS has run at least
    /// [`SAVE_RATIO`] times as long since the last piece as saving this one takes.
    fn worth(&self, bytes: u64) -> bool {
        self.since.elapsed().as_secs_f64() >= SAVE_RATIO * bytes as f64 / self.rate
    }

    /// Saves the working table `t` of table `table` after level `depth` (`levels` so far);
    /// with `drop_older`, the table's older levels are removed once it is in place.
    pub(crate) fn save_level<T: LevelTable>(
        &mut self,
        table: usize,
        t: &T,
        levels: &Levels,
        drop_older: bool,
    ) -> Result<(), BuildError> {
        let depth = (levels.histogram.len() - 1) as u8;
        let meta = format!(
            "params={}\ntable={table}\nlevel={depth}\nhistogram={}\nfrontier={}\nexpanded={}\nseconds={}",
            self.tag,
            list(&levels.histogram),
            levels.frontier,
            levels.expanded,
            levels.seconds.to_bits(),
        );
        let path = self.dir.join(PieceName::Level(table, depth).name());
        let obsolete = if drop_older {
            self.forget_levels(table, Some(depth))
        } else {
            Vec::new()
        };
        self.save(&path, &meta, words_as_bytes(t.words()), obsolete)?;
        self.levels.entry(table).or_default().insert(depth);
        Ok(())
    }

    /// Whether the finished table `table`, of `bytes` encoded bytes, is to be saved: not the
    /// last one searched, whose file follows at once, and only when it is worth its save
    /// (every one with `every_level`).
    pub(crate) fn wants_finished_save(&self, table: usize, bytes: u64) -> bool {
        self.every_level || (self.searched[table + 1..].iter().any(|&s| s) && self.worth(bytes))
    }

    /// Saves the finished table `table`: its encoded entries `bytes` and its figures; with
    /// `drop_levels`, its working tables are removed once it is in place.
    pub(crate) fn save_finished(
        &mut self,
        table: usize,
        bytes: &[u8],
        s: &TableSummary,
        drop_levels: bool,
    ) -> Result<(), BuildError> {
        let meta = format!(
            "params={}\ntable={table}\nentries={}\nunreached={}\nmax={}\nmean={}\nhistogram={}\nseconds={}",
            self.tag,
            s.entries,
            s.unreached,
            s.max_value,
            s.mean_value.to_bits(),
            list(&s.histogram),
            s.seconds.to_bits(),
        );
        let path = self.dir.join(PieceName::Finished(table).name());
        let obsolete = if drop_levels {
            self.forget_levels(table, None)
        } else {
            Vec::new()
        };
        self.save(&path, &meta, bytes, obsolete)?;
        self.finished.insert(table);
        Ok(())
    }

    /// Writes a piece into the page cache, then flushes and renames it on its own thread
    /// (after the one before it), which then removes the `obsolete` pieces.
    fn save(
        &mut self,
        path: &Path,
        meta: &str,
        payload: &[u8],
        obsolete: Vec<PathBuf>,
    ) -> Result<(), BuildError> {
        let start = Instant::now();
        self.wait()?;
        let unflushed = write_piece(path, meta, payload).map_err(state_error(path))?;
        let name = path.to_path_buf();
        self.pending = Some(
            std::thread::Builder::new()
                .name("pdbgen-state".into())
                .spawn(move || {
                    unflushed.put_in_place()?;
                    obsolete.iter().try_for_each(|p| remove_any(p))
                })
                .map_err(state_error(&name))?,
        );
        if hook::armed() {
            self.wait()?;
        }
        let took = start.elapsed().as_secs_f64().max(1e-6);
        self.rate = payload.len().max(1 << 20) as f64 / took;
        self.since = Instant::now();
        Ok(())
    }

    /// Waits until the last piece saved is on disk under its name.
    pub(crate) fn wait(&mut self) -> Result<(), BuildError> {
        if let Some(h) = self.pending.take() {
            let r = h
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("panicked")));
            r.map_err(state_error(&self.dir))?;
        }
        Ok(())
    }

    /// Forgets the working tables of `table` older than level `keep` (all of them when
    /// `keep` is `None`: the table is finished) and returns their files, to be removed.
    fn forget_levels(&mut self, table: usize, keep: Option<u8>) -> Vec<PathBuf> {
        let Some(depths) = self.levels.get_mut(&table) else {
            return Vec::new();
        };
        let old: Vec<u8> = depths
            .iter()
            .copied()
            .filter(|&d| keep.is_none_or(|k| d < k))
            .collect();
        old.into_iter()
            .map(|d| {
                depths.remove(&d);
                self.dir.join(PieceName::Level(table, d).name())
            })
            .collect()
    }

    /// Removes the working tables of `table` older than level `keep` (all of them when
    /// `keep` is `None`), once the piece saved last is in place.
    #[cfg(feature = "mpi")]
    pub(crate) fn drop_levels(&mut self, table: usize, keep: Option<u8>) -> Result<(), BuildError> {
        self.wait()?;
        for path in self.forget_levels(table, keep) {
            remove_any(&path).map_err(state_error(&path))?;
        }
        Ok(())
    }

    /// Starts timing the BFS work the next piece will protect (at the start of a build).
    pub(crate) fn restart_clock(&mut self) {
        self.since = Instant::now();
    }

    /// Removes the state's folder, once the file is in place.
    pub(crate) fn finish(&mut self) -> Result<(), BuildError> {
        self.wait()?;
        remove_any(&self.dir).map_err(state_error(&self.dir))
    }
}

/// Removes the state folder of `output` if nothing is left in it (the ranks' folders of a
/// distributed build are gone).
#[cfg(feature = "mpi")]
pub(crate) fn remove_empty_state(output: &Path) {
    // Another rank's folder still there (or none at all) leaves it: nothing to report.
    let _ = std::fs::remove_dir(state_dir(output));
}

/// The state folder of the output `output`: `OUT.partial` beside it.
fn state_dir(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// What a build builds, as the text its state is checked against.
fn params(req: &BuildRequest, rank: Option<(usize, usize)>) -> String {
    let w = &req.write;
    let mut s = format!(
        "build={} {}, goal {}, partition {}, {} {}\npdbgen={}\nendian={}\nboard={}\ngoal={:?}\npartition={}\nkind={}\nencoding={}\ncompression={}\nzstd={} {} {} {}\ngzip={}",
        req.goal.board(),
        req.kind,
        req.goal,
        req.partition,
        req.encoding,
        w.compression,
        env!("CARGO_PKG_VERSION"),
        if cfg!(target_endian = "little") { "little" } else { "big" },
        req.goal.board(),
        req.goal,
        req.partition,
        req.kind,
        req.encoding,
        w.compression,
        w.zstd_level,
        w.zstd_long,
        w.zstd_workers > 0,
        w.zstd_job_size,
        w.gzip_level,
    );
    if let Some((rank, ranks)) = rank {
        s.push_str(&format!("\nrank={rank}\nranks={ranks}"));
    }
    s
}

/// The name of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PieceName {
    /// A finished table.
    Finished(usize),
    /// A working table after a level.
    Level(usize, u8),
}

impl PieceName {
    fn name(self) -> String {
        match self {
            PieceName::Finished(t) => format!("table-{t}"),
            PieceName::Level(t, d) => format!("table-{t}-level-{d}"),
        }
    }

    fn parse(name: &str) -> Option<PieceName> {
        let rest = name.strip_prefix("table-")?;
        let p = match rest.split_once("-level-") {
            Some((t, d)) => PieceName::Level(t.parse().ok()?, d.parse().ok()?),
            None => PieceName::Finished(rest.parse().ok()?),
        };
        // Only the canonical spelling of a number.
        (p.name() == name).then_some(p)
    }
}

/// A finished table's figures from its piece's description, for `pattern` and `kind`.
pub(crate) fn summary_of(
    meta: &str,
    pattern: &pdbformat::Pattern,
    kind: pdbformat::TableKind,
) -> Option<TableSummary> {
    Some(TableSummary {
        pattern: pattern.clone(),
        kind,
        entries: number(meta, "entries")?,
        unreached: number(meta, "unreached")?,
        max_value: number(meta, "max")?,
        mean_value: f64::from_bits(number(meta, "mean")?),
        histogram: numbers(meta, "histogram")?,
        seconds: f64::from_bits(number(meta, "seconds")?),
    })
}

/// A working table's level counts from its piece's description.
fn levels_of(meta: &str) -> Option<Levels> {
    Some(Levels {
        histogram: numbers(meta, "histogram")?,
        frontier: number(meta, "frontier")?,
        expanded: number(meta, "expanded")?,
        seconds: f64::from_bits(number(meta, "seconds")?),
    })
}

/// The bytes of a working table's words, read while no level runs.
fn words_as_bytes(words: &[AtomicU64]) -> &[u8] {
    // SAFETY: `AtomicU64` has the size and alignment of `u64`, and every bit pattern is a
    // valid byte. Pieces are written between levels only, when no thread writes the table
    // (every level has ended before the level loop hands the table over), so these plain
    // reads race with no atomic write.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}

/// The bytes of `words`, to read a working table into.
fn words_as_bytes_mut(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: u8 has alignment 1 and every byte pattern is a valid u64.
    unsafe {
        std::slice::from_raw_parts_mut(
            words.as_mut_ptr().cast::<u8>(),
            std::mem::size_of_val(words),
        )
    }
}

/// Removes a file or a folder with everything in it; nothing there is fine.
fn remove_any(path: &Path) -> io::Result<()> {
    let r = if path.is_dir() {
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    };
    match r {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        r => r,
    }
}

/// The error of the state's file `path`.
fn state_error(path: &Path) -> impl FnOnce(io::Error) -> BuildError + '_ {
    move |source| BuildError::State {
        path: path.to_path_buf(),
        source,
    }
}

/// The error of a piece that no longer reads back (it checked when the state was opened).
fn bad(path: &Path) -> impl FnOnce(Bad) -> BuildError + '_ {
    move |b| BuildError::State {
        path: path.to_path_buf(),
        source: match b {
            Bad::Io(e) => e,
            Bad::Damaged(why) => io::Error::new(io::ErrorKind::InvalidData, why),
        },
    }
}

/// Lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_names_read_back_and_positions_order() {
        for p in [PieceName::Finished(3), PieceName::Level(1, 17)] {
            assert_eq!(PieceName::parse(&p.name()), Some(p));
        }
        assert_eq!(PieceName::parse("table-01"), None);
        assert_eq!(PieceName::parse("table-1-level-x"), None);
        let at = |table, level| ResumePoint { table, level }.key();
        assert!(at(0, None) < at(0, Some(0)));
        assert!(at(0, Some(200)) < at(1, None));
        assert!(at(1, None) < at(1, Some(3)));
    }

    #[test]
    fn a_piece_is_saved_only_when_it_protects_enough_work() {
        let dir = tempfile::tempdir().unwrap();
        let open = |name: &str, every_level: bool| {
            let opts = StateOptions {
                every_level,
                ..StateOptions::default()
            };
            BuildState::open_in(dir.path().join(name), "p".into(), vec![true, true], opts).unwrap()
        };
        let mut s = open("a", false);
        let piece = 100 << 20;
        // Moments after the start, 100 MiB would cost far more than a twentieth of the work.
        assert!(!s.wants_finished_save(0, piece) && !s.wants_level_save(piece));
        s.since -= std::time::Duration::from_secs(60);
        assert!(s.wants_finished_save(0, piece) && s.wants_level_save(piece));
        // The last table searched is never saved: its file follows at once.
        assert!(!s.wants_finished_save(1, 1));
        let every = open("b", true);
        assert!(every.wants_finished_save(0, 1 << 40) && every.wants_level_save(1 << 40));
    }
}
