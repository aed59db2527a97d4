//! The integration tests of `pdbformat`, gathered into one test binary (each linking of the library
//! costs seconds): the file format against its spec, damaged and hostile files; ranking paths;
//! symmetric payloads. Each file below is one module.

mod class_tables;
mod format_robustness;
mod format_spec;
mod load_into;
mod popcount_lookups;
mod symmetric;
mod zstd_workers;
