//! The integration tests of `pdbtiles`, gathered into one test binary (each linking of the library
//! costs seconds): the `pdbgen` and `solver` commands, the server, plots, builds killed and
//! resumed. Each file below is one module.

mod common;
mod pdbgen_driver;
mod serve;

mod pdbgen_advise;
mod pdbgen_cli;
mod pdbgen_resume;
mod plots;
mod serve_api;
mod serve_defaults;
mod serve_load;
mod solver_algorithms;
mod solver_anytime;
mod solver_class_files;
mod solver_cli;
mod solver_errors;
mod solver_fetch;
mod solver_files;
mod solver_long_search;
mod solver_metric;
mod solver_notation;
mod solver_scramble;
