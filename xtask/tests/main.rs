//! The integration tests of `xtask`, gathered into one test binary (each linking of the library
//! costs seconds): the standard databases against the manifest, the release's packing. Each
//! file below is one module.

mod common;

mod artifacts;
mod artifacts_classes;
mod dist_target;
