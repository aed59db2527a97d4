//! One way from what a user asks for (a heuristic by name, databases by path or name, a goal,
//! how to load and whether to build) to a ready [`HeuristicChoice`] with its description and
//! load time. The command line, the server and Python all resolve through [`Resolver`] and only
//! print what its [`ResolveObserver`] reports, so they find the same databases in the same
//! places ([`crate::locate`]), build the same defaults, load them the same way and fall back
//! to the same classic heuristic.

mod default;
mod error;
mod names;
mod observer;
mod opened;
mod plan;

pub use error::ResolveError;
pub use observer::{Quiet, ResolveObserver};
pub use plan::{DefaultPlan, DefaultSource, ServedDefault};

use crate::heuristic::MAX_CELLS;
use crate::locate::SearchDir;
use crate::{Database, HeuristicChoice, HeuristicName, Request, Residence};
use default::{Defaults, Source};
use opened::Opened;
use pdbformat::standard::StandardDb;
use pdbformat::{Board, Goal, Metric};
use std::path::PathBuf;
use std::sync::Arc;

/// One database a request names.
#[derive(Clone, Debug)]
pub enum DbChoice {
    /// A path, or a standard database or catalogue name looked for in the search folders; for
    /// a serving resolver ([`Resolver::serving`]), the name of one of its databases.
    Named(String),
    /// A database the caller has already loaded.
    Loaded(Arc<Database>),
}

/// How a [`Resolver`] opens databases, and whether it builds a missing default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolveOptions {
    /// Check every table's digest (on a thread beside the search, which waits for the verdict
    /// before it answers).
    pub verify: bool,
    /// Where uncompressed tables live while searched.
    pub residence: Residence,
    /// Build the board's default database when no file fits (4×4 and 5×5 in the single-tile
    /// metric, 4×4 in the multi-tile one; goals with the blank in a corner).
    pub build: bool,
}

impl Default for ResolveOptions {
    /// Digests checked, tables placed as [`Residence::Auto`] says, the default built on first
    /// use: what the command line does without options.
    fn default() -> Self {
        ResolveOptions {
            verify: true,
            residence: Residence::Auto,
            build: true,
        }
    }
}

/// A heuristic ready for one goal.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The heuristic, its databases loaded.
    pub heuristic: HeuristicChoice,
    /// The heuristic in the words answers use (`pdb 15-663-za.pdb [1-6/7-12/13-15], with
    /// reflection`; `manhattan + linear conflict (no database fits)`).
    pub description: String,
    /// Seconds its databases took to load when they were first opened (0 for the classic
    /// heuristics).
    pub load_seconds: f64,
}

impl Resolved {
    /// A heuristic without databases.
    fn classic(heuristic: HeuristicChoice, words: &str) -> Resolved {
        Resolved {
            heuristic,
            description: words.to_string(),
            load_seconds: 0.0,
        }
    }

    /// The databases `dbs` as the request's heuristic: refused when one was built for another
    /// metric than the request's (a single-tile table overestimates multi-tile distances; a
    /// class table is refused in STM, where it is admissible but never the better choice).
    fn from_databases(
        dbs: Vec<Arc<Database>>,
        request: &Request,
        goal: &Goal,
    ) -> Result<Resolved, ResolveError> {
        let metric = request.metric();
        if let Some(db) = dbs.iter().find(|d| d.metric() != metric) {
            db.check_metric(metric)?;
        }
        let load_seconds = dbs.iter().map(|d| d.load_seconds()).sum();
        let heuristic = HeuristicChoice::Pdb {
            databases: dbs,
            reflect: request.reflect(),
        };
        Ok(Resolved {
            description: heuristic.describe(goal)?,
            heuristic,
            load_seconds,
        })
    }
}

/// Resolves heuristics, opening each database file once for all the requests it serves.
///
/// [`Resolver::new`] looks for databases in the search folders of [`crate::locate`] and builds
/// a missing default there; [`Resolver::serving`] chooses only among the databases it is
/// given (a server's), by their names.
///
/// Each board has at most one default database per metric
/// ([`pdbformat::standard::default_for`]): in the multi-tile metric it is a file of class
/// tables (`15-rows+rokicki+rokicki-mirror-mtm` on 4×4), and boards without one use the walking distance
/// without searching.
#[derive(Debug)]
pub struct Resolver {
    options: ResolveOptions,
    /// The folders searched; `None`: [`crate::locate::search_dirs`] at each call.
    dirs: Option<Vec<SearchDir>>,
    /// The boards' defaults; `None`: [`pdbformat::standard::DEFAULTS`].
    defaults: Option<Vec<&'static StandardDb>>,
    /// Where a missing default is built; `None`: [`crate::locate::build_dir`] at each call.
    build_dir: Option<PathBuf>,
    served: Option<Vec<(String, Arc<Database>)>>,
    opened: Opened,
}

impl Resolver {
    /// A resolver over the search folders, opening and building as `options` say.
    pub fn new(options: ResolveOptions) -> Resolver {
        Resolver {
            options,
            dirs: None,
            defaults: None,
            build_dir: None,
            served: None,
            opened: Opened::default(),
        }
    }

    /// The same resolver looking only in `dirs`, in order, instead of the folders
    /// [`crate::locate::search_dirs`] names (a missing default is still built in
    /// [`crate::locate::build_dir`]).
    pub fn searching(mut self, dirs: Vec<SearchDir>) -> Resolver {
        self.dirs = Some(dirs);
        self
    }

    /// The same resolver taking `defaults` (at most one per board and metric; the first
    /// counts) as the boards' default databases instead of [`pdbformat::standard::DEFAULTS`]:
    /// a board and metric without one there has none.
    pub fn with_defaults(mut self, defaults: Vec<&'static StandardDb>) -> Resolver {
        self.defaults = Some(defaults);
        self
    }

    /// The same resolver building a missing default in `dir` instead of
    /// [`crate::locate::build_dir`].
    pub fn building_in(mut self, dir: PathBuf) -> Resolver {
        self.build_dir = Some(dir);
        self
    }

    /// The default database of `board` in `metric` this resolver looks for and builds.
    pub fn default_for(&self, board: Board, metric: Metric) -> Option<&'static StandardDb> {
        match &self.defaults {
            Some(list) => list
                .iter()
                .copied()
                .find(|s| (s.width, s.height, s.metric) == (board.width(), board.height(), metric)),
            None => pdbformat::standard::default_for(board, metric),
        }
    }

    /// A resolver that chooses only among `databases` (each with the name requests use):
    /// without names in a request, every one of them that fits the goal.
    pub fn serving(databases: Vec<(String, Arc<Database>)>) -> Resolver {
        Resolver {
            options: ResolveOptions {
                build: false,
                ..ResolveOptions::default()
            },
            dirs: None,
            defaults: None,
            build_dir: None,
            served: Some(databases),
            opened: Opened::default(),
        }
    }

    /// The databases a serving resolver chooses among, with their names (none otherwise).
    pub fn served(&self) -> &[(String, Arc<Database>)] {
        self.served.as_deref().unwrap_or_default()
    }

    /// The heuristic `request` names (auto when none) for `goal`, with `databases` (none: the
    /// default database of the request's metric, found or built, or for a serving resolver
    /// every database of that metric that fits; failing those, Manhattan distance with linear
    /// conflicts, or in the multi-tile metric the walking distance, unless `pdb` was named).
    /// The algorithms that use no heuristic get Manhattan distance, described as `none`.
    pub fn resolve(
        &self,
        request: &Request,
        databases: &[DbChoice],
        goal: &Goal,
        observer: &dyn ResolveObserver,
    ) -> Result<Resolved, ResolveError> {
        if !request.algorithm_name().uses_heuristic() {
            return Ok(Resolved::classic(HeuristicChoice::Manhattan, "none"));
        }
        let board = goal.board();
        if board.cells() > MAX_CELLS {
            return Err(ResolveError::BoardTooLarge {
                algorithm: request.algorithm_name(),
                board,
                cells: board.cells(),
                max: MAX_CELLS,
            });
        }
        let name = request.heuristic;
        if request.metric() == Metric::Mtm {
            // The walking distance and databases of MTM class tables are lower bounds there.
            let (walking, words) =
                (HeuristicName::WalkingDistance.classic()).expect("a classic heuristic");
            return match name {
                None | Some(HeuristicName::Pdb) if !databases.is_empty() => {
                    let dbs = self.databases(databases, Some(goal), observer)?;
                    Resolved::from_databases(dbs, request, goal)
                }
                Some(HeuristicName::WalkingDistance) if databases.is_empty() => {
                    Ok(Resolved::classic(walking, words))
                }
                None | Some(HeuristicName::Pdb) if databases.is_empty() => {
                    match self.defaults(goal, Metric::Mtm, observer)? {
                        Ok(dbs) => Resolved::from_databases(dbs, request, goal),
                        Err(why) if name == Some(HeuristicName::Pdb) => {
                            Err(ResolveError::NoneFits {
                                goal: goal.clone(),
                                why,
                            })
                        }
                        // A board without a default: the walking distance is its heuristic.
                        Err(_) if self.default_for(board, Metric::Mtm).is_none() => {
                            Ok(Resolved::classic(walking, words))
                        }
                        Err(_) => Ok(Resolved::classic(
                            walking,
                            &format!("{words}: no class database fits"),
                        )),
                    }
                }
                _ => Err(ResolveError::NotAdmissible(
                    name.unwrap_or(HeuristicName::Pdb),
                    Metric::Mtm,
                )),
            };
        }
        let dbs = if !databases.is_empty() {
            if let Some(n) = name.filter(|&n| n != HeuristicName::Pdb) {
                return Err(ResolveError::DatabasesNeedPdb(n));
            }
            self.databases(databases, Some(goal), observer)?
        } else if let Some((choice, words)) = name.and_then(HeuristicName::classic) {
            return Ok(Resolved::classic(choice, words));
        } else {
            match self.defaults(goal, Metric::Stm, observer)? {
                Ok(dbs) => dbs,
                Err(why) if name == Some(HeuristicName::Pdb) => {
                    return Err(ResolveError::NoneFits {
                        goal: goal.clone(),
                        why,
                    })
                }
                Err(why) => {
                    observer.falling_back(&format!(
                        "no pattern database fits the {board} board and goal {goal} ({why})"
                    ));
                    return Ok(Resolved::classic(
                        HeuristicChoice::LinearConflict,
                        "manhattan + linear conflict (no database fits)",
                    ));
                }
            }
        };
        Resolved::from_databases(dbs, request, goal)
    }

    /// The databases `choices` stand for, in order (a catalogue name stands for its members),
    /// each file opened once; when `goal` is given, each is checked against it before its
    /// entries are read.
    pub fn databases(
        &self,
        choices: &[DbChoice],
        goal: Option<&Goal>,
        observer: &dyn ResolveObserver,
    ) -> Result<Vec<Arc<Database>>, ResolveError> {
        if choices.is_empty() && self.served.is_some() {
            return Err(ResolveError::EmptyList);
        }
        let dirs = self.dirs();
        let mut out = Vec::with_capacity(choices.len());
        for choice in choices {
            match (choice, &self.served) {
                (DbChoice::Loaded(db), _) => {
                    if let Some(goal) = goal {
                        db.frame_for(goal)?;
                    }
                    out.push(db.clone());
                }
                (DbChoice::Named(name), Some(served)) => {
                    let (_, db) = served.iter().find(|(n, _)| n == name).ok_or_else(|| {
                        ResolveError::Unknown {
                            name: name.clone(),
                            have: served.iter().map(|(n, _)| n.clone()).collect(),
                        }
                    })?;
                    if let Some(goal) = goal {
                        db.frame_for(goal)?;
                    }
                    out.push(db.clone());
                }
                (DbChoice::Named(spec), None) => {
                    for path in names::files_for(spec, &dirs)? {
                        out.push(self.open(&path, goal, observer)?);
                    }
                }
            }
        }
        Ok(out)
    }

    /// The default database of `goal` in `metric`, opened: the first fitting file of that
    /// metric in the search folders, else the board's default built there when the options
    /// allow; `Err` when there is none (the reason reported as
    /// [`ResolveObserver::falling_back`] would word it). In the multi-tile metric a board
    /// without a default has none, whatever the folders hold: it uses the walking distance.
    pub fn default_database(
        &self,
        goal: &Goal,
        metric: Metric,
        observer: &dyn ResolveObserver,
    ) -> Result<Result<Arc<Database>, String>, ResolveError> {
        let dirs = self.dirs();
        let db = self.default_for(goal.board(), metric);
        if metric == Metric::Mtm && db.is_none() {
            return Ok(Err(
                "there is no default class database for this board".into()
            ));
        }
        let d = Defaults {
            dirs: &dirs,
            db,
            build_dir: self.build_dir.clone(),
            build: self.options.build,
        };
        match default::find_or_build(goal, metric, &d, observer)? {
            Source::Found(path) => Ok(Ok(self.open(&path, Some(goal), observer)?)),
            Source::Missing(why) => Ok(Err(why)),
        }
    }

    /// The databases used without names in `metric`: a serving resolver's of that metric that
    /// fit `goal`, or the default one; `Err` with the reason when there are none.
    fn defaults(
        &self,
        goal: &Goal,
        metric: Metric,
        observer: &dyn ResolveObserver,
    ) -> Result<Result<Vec<Arc<Database>>, String>, ResolveError> {
        if let Some(served) = &self.served {
            let fitting: Vec<Arc<Database>> = (served.iter())
                .filter(|(_, db)| db.metric() == metric && db.fits(goal))
                .map(|(_, db)| db.clone())
                .collect();
            return Ok(if fitting.is_empty() {
                Err("among the databases of this server".to_string())
            } else {
                Ok(fitting)
            });
        }
        Ok(self
            .default_database(goal, metric, observer)?
            .map(|db| vec![db]))
    }

    /// The folders searched.
    fn dirs(&self) -> Vec<SearchDir> {
        self.dirs.clone().unwrap_or_else(crate::locate::search_dirs)
    }

    /// The file at `path`, opened once with this resolver's options.
    fn open(
        &self,
        path: &std::path::Path,
        goal: Option<&Goal>,
        observer: &dyn ResolveObserver,
    ) -> Result<Arc<Database>, ResolveError> {
        (self.opened).open(
            path,
            goal,
            self.options.verify,
            self.options.residence,
            observer,
        )
    }
}
