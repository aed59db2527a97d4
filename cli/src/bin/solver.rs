//! The `solver` command: optimal solutions of sliding-tile puzzles (see `solver --help`).

fn main() {
    std::process::exit(pdbtiles::solver_main());
}
