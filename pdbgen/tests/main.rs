//! The integration tests of `pdbgen`, gathered into one test binary (each linking of the library
//! costs seconds): generated tables against the brute-force oracle, derived tables, verification,
//! the observer. Each file below is one module.

mod common;

mod advise;
mod brute_force;
mod observer_points;
mod popcount_paths;
mod symmetric;
mod verify;
