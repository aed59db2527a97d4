//! The files a database choice stands for: a path is itself; a standard database name
//! (`15-78-za-bit1`) or a catalogue name (`15-78+78b-za-bit1`, its members in order) is looked
//! for in the search folders of [`crate::locate`].

use super::ResolveError;
use crate::locate::{self, SearchDir};
use std::path::{Path, PathBuf};

/// The files `spec` stands for, looked for in `dirs`: a value that names an existing file (or
/// has a path separator, or ends in `.pdb`) is that path; otherwise a standard database or
/// catalogue name, each member found in the first folder that holds it.
pub(super) fn files_for(spec: &str, dirs: &[SearchDir]) -> Result<Vec<PathBuf>, ResolveError> {
    let path = Path::new(spec);
    let pathlike = path.exists()
        || path.components().count() > 1
        || path.extension().is_some_and(|x| x == "pdb");
    let named = if pathlike {
        None
    } else {
        pdbformat::standard::expand(spec).ok()
    };
    let Some(members) = named else {
        return Ok(vec![path.to_path_buf()]);
    };
    members
        .into_iter()
        .map(|db| {
            locate::find_standard_in(dirs, db).ok_or_else(|| ResolveError::NotFound {
                db,
                catalogue: (db.name != spec).then(|| spec.to_string()),
                searched: searched(dirs),
            })
        })
        .collect()
}

/// The folders of `dirs`, comma-separated, for messages.
pub(super) fn searched(dirs: &[SearchDir]) -> String {
    let v: Vec<String> = dirs.iter().map(|d| d.path.display().to_string()).collect();
    v.join(", ")
}
