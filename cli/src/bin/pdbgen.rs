//! The `pdbgen` command: build, verify, inspect and recompress pattern-database files (see
//! `pdbgen --help`).

fn main() -> std::process::ExitCode {
    pdbtiles::pdbgen_main()
}
