//! What a resolver would do for a goal's default database, decided without loading anything:
//! [`DefaultPlan`] (found, built, or the classic heuristic instead) for `solver locate` and
//! `solver compare`, and the defaults a server starts with ([`ServedDefault`]), so that no
//! front-end searches the folders or applies a build rule of its own.

use super::default::{self, Defaults, Planned};
use super::{ResolveError, ResolveObserver, Resolver};
use crate::locate::SearchDir;
use crate::Database;
use pdbformat::standard::StandardDb;
use pdbformat::{Goal, Metric};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Where a goal's default database would come from ([`Resolver::plan_default`]).
#[derive(Clone, Debug)]
pub struct DefaultPlan {
    /// The folders searched, in order.
    pub searched: Vec<SearchDir>,
    /// The board's default database in the metric, if it has one.
    pub db: Option<&'static StandardDb>,
    /// Files of the board passed over, with why.
    pub skipped: Vec<(PathBuf, String)>,
    /// Where the database would come from.
    pub source: DefaultSource,
}

/// Where a default database would come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefaultSource {
    /// This file fits.
    Found(PathBuf),
    /// None fits: the board's default would be built at this path.
    Build(PathBuf),
    /// None fits and none would be built: the heuristic used instead (`manhattan + linear
    /// conflict`, `the walking distance`), and why (the end of a sentence).
    Fallback {
        /// The heuristic in words.
        instead: &'static str,
        /// Why no database.
        why: String,
    },
}

/// What a server starts with for one default database ([`Resolver::served_defaults`]).
#[derive(Debug)]
pub enum ServedDefault {
    /// Found (or built, when small), and loaded.
    Loaded(Arc<Database>),
    /// Not there, and not built at start: too large to build before serving, or building is
    /// turned off. `why` is the end of a sentence (`in a, b and …`).
    Missing {
        /// The database.
        db: &'static StandardDb,
        /// Whether it is large (minutes and gigabytes to build): built by a first solve of
        /// its board, never at a server's start.
        large: bool,
        /// Where it was looked for, and why it was not built.
        why: String,
    },
    /// There, but larger than the memory the server may give to databases: loaded only when
    /// asked for by name.
    TooLarge {
        /// The database.
        db: &'static StandardDb,
        /// Its file.
        path: PathBuf,
        /// The file's size.
        bytes: u64,
    },
}

/// An observer that keeps the files passed over.
#[derive(Default)]
struct Skips {
    skipped: Mutex<Vec<(PathBuf, String)>>,
}

impl ResolveObserver for Skips {
    fn skipped(&self, path: &Path, why: &str) {
        let mut s = self.skipped.lock().unwrap_or_else(|e| e.into_inner());
        s.push((path.to_path_buf(), why.to_string()));
    }
}

impl Resolver {
    /// Where the default database of `goal` in `metric` would come from: the file of the
    /// search folders that [`Resolver::resolve`] would open, the path it would build the
    /// board's default at, or the classic heuristic it would fall back to. Nothing is opened
    /// or built.
    pub fn plan_default(&self, goal: &Goal, metric: Metric) -> Result<DefaultPlan, ResolveError> {
        let searched = self.dirs();
        let db = self.default_for(goal.board(), metric);
        let instead = match metric {
            Metric::Stm => "manhattan + linear conflict",
            Metric::Mtm => "the walking distance",
        };
        if metric == Metric::Mtm && db.is_none() {
            return Ok(DefaultPlan {
                searched,
                db,
                skipped: Vec::new(),
                source: DefaultSource::Fallback {
                    instead,
                    why: "there is no default class database for this board".into(),
                },
            });
        }
        let skips = Skips::default();
        let d = Defaults {
            dirs: &searched,
            db,
            build_dir: self.build_dir.clone(),
            build: self.options.build,
        };
        let source = match default::plan(goal, metric, &d, &skips)? {
            Planned::Found(path) => DefaultSource::Found(path),
            Planned::Build(_, path) => DefaultSource::Build(path),
            Planned::Missing(why) => DefaultSource::Fallback { instead, why },
        };
        Ok(DefaultPlan {
            skipped: skips
                .skipped
                .into_inner()
                .unwrap_or_else(|e| e.into_inner()),
            searched,
            db,
            source,
        })
    }

    /// The default database of every board and metric that has one, as a server starts with
    /// them: each found and loaded when its file takes at most `max_bytes` (a larger one is
    /// loaded only when asked for by name), a missing one built first when it is small and the
    /// options allow building (a large one is built by a first solve on its board, never
    /// before a server answers).
    pub fn served_defaults(
        &self,
        max_bytes: u64,
        observer: &dyn ResolveObserver,
    ) -> Result<Vec<ServedDefault>, ResolveError> {
        let mut out = Vec::new();
        for name in pdbformat::standard::DEFAULTS {
            let Some(db) = pdbformat::standard::find(name) else {
                continue;
            };
            let goal = db.goal()?;
            let searched = self.dirs();
            let d = Defaults {
                dirs: &searched,
                db: Some(db),
                build_dir: self.build_dir.clone(),
                build: self.options.build && !db.large,
            };
            let plan = default::plan(&goal, db.metric, &d, observer)?;
            out.push(match plan {
                Planned::Found(path) => {
                    let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
                    if bytes > max_bytes {
                        ServedDefault::TooLarge { db, path, bytes }
                    } else {
                        ServedDefault::Loaded(self.open(&path, Some(&goal), observer)?)
                    }
                }
                Planned::Build(..) => match default::find_or_build(&goal, db.metric, &d, observer)?
                {
                    default::Source::Found(path) => {
                        ServedDefault::Loaded(self.open(&path, Some(&goal), observer)?)
                    }
                    default::Source::Missing(why) => ServedDefault::Missing {
                        db,
                        large: db.large,
                        why,
                    },
                },
                Planned::Missing(why) => ServedDefault::Missing {
                    db,
                    large: db.large,
                    why,
                },
            });
        }
        Ok(out)
    }
}
