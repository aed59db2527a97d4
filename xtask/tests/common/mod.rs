//! Helpers the artifacts tests share: the committed manifest, and quiet build options.

use xtask::artifacts::build::BuildOptions;
use xtask::artifacts::{default_dir, manifest_path};
use xtask::manifest::Manifest;

/// The manifest committed in `artifacts/`.
pub fn committed() -> Manifest {
    Manifest::load(&manifest_path(&default_dir())).expect("the committed manifest")
}

/// Build options that print nothing.
pub fn quiet() -> BuildOptions {
    BuildOptions {
        quiet: true,
        ..BuildOptions::default()
    }
}
