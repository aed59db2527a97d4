//! Opening a state: its folder found or made beside the output, every piece checked against
//! this build's parameters and the refused ones removed, or a fresh start.

use super::files::{remove_any, state_error};
use super::flush::Flusher;
use super::names::{state_dir, PieceName};
use super::piece::{field, read_piece, write_piece, Bad, Unflushed};
use super::policy::SavePolicy;
use super::{BuildState, Refused, ResumePoint, StateOptions};
use crate::error::BuildError;
use crate::request::BuildRequest;
use crate::symmetric::image_of;
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

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

    /// Opens the state in `dir` of the build whose parameters read `params_text`, which
    /// searches the tables `searched` says.
    pub(super) fn open_in(
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
            resume: ResumePoint {
                table: 0,
                level: None,
            },
            policy: SavePolicy::new(opts.every_level),
            flusher: Flusher::new(opts.synchronous),
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
}

/// Removes the state folder of `output` if nothing is left in it (the ranks' folders of a
/// distributed build are gone).
#[cfg(feature = "mpi")]
pub(crate) fn remove_empty_state(output: &Path) {
    // Another rank's folder still there (or none at all) leaves it: nothing to report.
    let _ = std::fs::remove_dir(state_dir(output));
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

/// Lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
