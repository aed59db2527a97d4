//! `cargo xtask artifacts …`: the standard databases in `artifacts/`, one module per command.
//!
//! Raw files are `<name>.pdb`; `compress` adds `<name>.zstd.pdb` and `<name>.gzip.pdb` beside
//! them (the same container, compressed payloads), and `build` writes each board's duplicate-move
//! pruning machine beside its databases ([`machine`]). Every command takes the folder as a
//! parameter; the command line passes `artifacts/` of the workspace unless told otherwise.

pub mod build;
pub mod compress;
pub mod machine;
pub mod publish;
pub mod record;
pub mod verify;

use crate::manifest::{compare_header, DbRecord, MANIFEST_FILE};
use anyhow::{bail, Result};
use pdbformat::format::{Compression, Header};
use pdbformat::standard::{self, StandardDb};
use std::path::{Path, PathBuf};

/// The default artifacts folder: `artifacts/` in the workspace.
pub fn default_dir() -> PathBuf {
    crate::project_root().join("artifacts")
}

/// The manifest inside an artifacts folder.
pub fn manifest_path(dir: &Path) -> PathBuf {
    dir.join(MANIFEST_FILE)
}

/// The raw file of `s` inside `dir`.
pub fn raw_path(dir: &Path, s: &StandardDb) -> PathBuf {
    dir.join(s.file_name())
}

/// Fails unless `h`, the header of the file at `path`, is the raw standard `s`: the header the
/// standard (and `rec`, when given) expects, and uncompressed payloads (`compressed` says what is
/// wrong otherwise). `hint` ends the message.
pub(crate) fn check_raw(
    path: &Path,
    h: &Header,
    s: &StandardDb,
    rec: Option<&DbRecord>,
    compressed: &str,
    hint: &str,
) -> Result<()> {
    let mut wrong = compare_header(h, s, rec);
    if h.tables.iter().any(|t| t.compression != Compression::None) {
        wrong.push(compressed.into());
    }
    if !wrong.is_empty() {
        bail!(
            "{} is not the standard {}: {}{hint}",
            path.display(),
            s.name,
            wrong.join("; ")
        );
    }
    Ok(())
}

/// The file of `s` stored with `c` inside `dir`.
pub fn variant_path(dir: &Path, s: &StandardDb, c: Compression) -> PathBuf {
    dir.join(standard::variant_file_name(s, c))
}
