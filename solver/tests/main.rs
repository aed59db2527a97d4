//! The integration tests of `pdbsolver`, gathered into one test binary (each linking of the library
//! costs seconds): the searches and heuristics against exhaustive distances, each other and the
//! published counts. Each file below is one module.

mod common;

mod agreement_4x4;
mod algorithms;
mod anytime;
mod bit1;
mod catalogue;
mod checkpoint;
mod class_heuristic;
mod db_files;
mod estimate_many;
mod exhaustive_3x3;
mod hybrid;
mod hybrid_frontier;
mod korf;
mod mtm;
mod order;
mod parallel_ida;
mod prune;
mod prune_cache;
mod rectangular;
mod resolve;
mod resolve_mtm;
mod symmetric_views;
