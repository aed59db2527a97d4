//! The default database of a goal in a metric: the first fitting file of the search folders,
//! or, where building is allowed and the board has a default in that metric, that database
//! built once into the build folder (several processes wait for one build). [`plan`] says
//! which, without building; [`find_or_build`] does it.

use super::names::searched;
use super::{ResolveError, ResolveObserver};
use crate::locate::{self, SearchDir};
use pdbformat::standard::StandardDb;
use pdbformat::{Goal, Metric, Symmetry};
use std::path::PathBuf;

/// Where a goal's default database comes from.
pub(super) enum Source {
    /// This file fits.
    Found(PathBuf),
    /// None fits, and none is built: why, as the end of a sentence (`in a, b, and the
    /// default one is built only for goals with the blank in a corner`).
    Missing(String),
}

/// Where a goal's default database would come from, decided without building anything.
pub(super) enum Planned {
    /// This file fits.
    Found(PathBuf),
    /// None fits: the board's default would be built at this path.
    Build(&'static StandardDb, PathBuf),
    /// None fits and none would be built, for this reason (as [`Source::Missing`] words it).
    Missing(String),
}

/// Where and how a default is looked for and built.
pub(super) struct Defaults<'a> {
    /// The folders searched, in order.
    pub dirs: &'a [SearchDir],
    /// The board's default in the metric, if it has one.
    pub db: Option<&'static StandardDb>,
    /// Where a missing default is built (`None`: [`locate::build_dir`]).
    pub build_dir: Option<PathBuf>,
    /// Whether a missing default is built.
    pub build: bool,
}

/// Where the default database of `goal` in `metric` would come from: found in the folders (the
/// files passed over reported to `observer`; files of the other metric passed over in
/// silence), else the default built when allowed, else missing, with the reason.
pub(super) fn plan(
    goal: &Goal,
    metric: Metric,
    d: &Defaults<'_>,
    observer: &dyn ResolveObserver,
) -> Result<Planned, ResolveError> {
    let dirs = d.dirs;
    let first = d.db.map(|db| db.file_name());
    let found = locate::find_preferring(dirs, goal, metric, first.as_deref());
    for (path, why) in &found.skipped {
        observer.skipped(path, why);
    }
    if let Some(path) = found.path {
        return Ok(Planned::Found(path));
    }
    let corner = Symmetry::taking(goal.board(), 0, goal.blank_cell()).is_some();
    let why = match d.db {
        None => "and there is no default database for this board",
        Some(_) if !corner => {
            "and the default one is built only for goals with the blank in a corner"
        }
        Some(_) if !d.build => "and building it is turned off",
        Some(_) if !cfg!(feature = "build") => "and this solver is built without the generator",
        Some(db) => {
            let dir = (d.build_dir.clone())
                .or_else(locate::build_dir)
                .ok_or(ResolveError::NoBuildFolder)?;
            return Ok(Planned::Build(db, dir.join(db.file_name())));
        }
    };
    Ok(Planned::Missing(format!("in {} {why}", searched(dirs))))
}

/// The file that serves `goal` in `metric` as its default database ([`plan`]), built when the
/// plan says so (reporting to `observer`).
pub(super) fn find_or_build(
    goal: &Goal,
    metric: Metric,
    d: &Defaults<'_>,
    observer: &dyn ResolveObserver,
) -> Result<Source, ResolveError> {
    Ok(match plan(goal, metric, d, observer)? {
        Planned::Found(path) => Source::Found(path),
        Planned::Missing(why) => Source::Missing(why),
        Planned::Build(db, path) => build_default(goal, db, &path, d, observer)?,
    })
}

/// Builds `db`, the default database of `goal`'s board, at `path`.
#[cfg(feature = "build")]
fn build_default(
    goal: &Goal,
    db: &StandardDb,
    path: &std::path::Path,
    d: &Defaults<'_>,
    observer: &dyn ResolveObserver,
) -> Result<Source, ResolveError> {
    let path = path.to_path_buf();
    let board = goal.board();
    observer.building(board, &path, &searched(d.dirs));
    let start = std::time::Instant::now();
    let built = locate::build_default(db, &path, observer.build_observer(), &mut |lock| {
        observer.waiting(lock)
    })
    .map_err(|source| ResolveError::Build {
        path: path.clone(),
        source: Box::new(source),
    })?;
    observer.built(
        &path,
        start.elapsed().as_secs_f64(),
        built == locate::Built::Here,
    );
    Ok(Source::Found(path))
}

/// Without the generator (the `build` feature) nothing is built: [`plan`] never asks for it.
#[cfg(not(feature = "build"))]
fn build_default(
    _goal: &Goal,
    _db: &StandardDb,
    _path: &std::path::Path,
    d: &Defaults<'_>,
    _observer: &dyn ResolveObserver,
) -> Result<Source, ResolveError> {
    Ok(Source::Missing(format!(
        "in {} and this solver is built without the generator",
        searched(d.dirs)
    )))
}
