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

use crate::manifest::MANIFEST_FILE;
use pdbformat::format::Compression;
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

/// The file of `s` stored with `c` inside `dir`.
pub fn variant_path(dir: &Path, s: &StandardDb, c: Compression) -> PathBuf {
    dir.join(standard::variant_file_name(s, c))
}
