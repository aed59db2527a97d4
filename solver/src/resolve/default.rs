//! The default database of a goal: the first fitting file of the search folders, or, where
//! building is allowed and the board has a default, that database built once into
//! [`locate::build_dir`] (several processes wait for one build).

use super::names::searched;
use super::{ResolveError, ResolveObserver};
use crate::locate::{self, SearchDir};
use pdbformat::Goal;
use std::path::PathBuf;

/// Where a goal's default database comes from.
pub(super) enum Source {
    /// This file fits.
    Found(PathBuf),
    /// None fits, and none is built: why, as the end of a sentence (`in a, b, and the
    /// default one is built only for goals with the blank in a corner`).
    Missing(String),
}

/// The file that serves `goal` as its default database: found in `dirs` (the files passed
/// over reported to `observer`), else built when `build` allows (reporting to `observer`),
/// else [`Source::Missing`] with the reason.
pub(super) fn find_or_build(
    goal: &Goal,
    dirs: &[SearchDir],
    build: bool,
    observer: &dyn ResolveObserver,
) -> Result<Source, ResolveError> {
    let found = locate::find_in(dirs, goal);
    for (path, why) in &found.skipped {
        observer.skipped(path, why);
    }
    if let Some(path) = found.path {
        return Ok(Source::Found(path));
    }
    let why = if !locate::buildable(goal) {
        if locate::default_db(goal.board()).is_some() {
            "and the default one is built only for goals with the blank in a corner"
        } else {
            "and there is no default database for this board"
        }
    } else if !build {
        "and building it is turned off"
    } else {
        return build_default(goal, dirs, observer);
    };
    Ok(Source::Missing(format!("in {} {why}", searched(dirs))))
}

/// Builds the default database of `goal`'s board into [`locate::build_dir`].
#[cfg(feature = "build")]
fn build_default(
    goal: &Goal,
    dirs: &[SearchDir],
    observer: &dyn ResolveObserver,
) -> Result<Source, ResolveError> {
    let dir = locate::build_dir().ok_or(ResolveError::NoBuildFolder)?;
    let board = goal.board();
    let name = locate::default_file_name(board).ok_or(ResolveError::NoBuildFolder)?;
    let path = dir.join(name);
    observer.building(board, &path, &searched(dirs));
    let start = std::time::Instant::now();
    let built = locate::build_default(board, &path, observer.build_observer(), &mut |lock| {
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

/// Without the generator (the `build` feature) nothing is built: the default is missing.
#[cfg(not(feature = "build"))]
fn build_default(
    _goal: &Goal,
    dirs: &[SearchDir],
    _observer: &dyn ResolveObserver,
) -> Result<Source, ResolveError> {
    Ok(Source::Missing(format!(
        "in {} and this solver is built without the generator",
        searched(dirs)
    )))
}
