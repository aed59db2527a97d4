//! The `solver` command: optimal solutions of sliding-tile puzzles (see `solver --help`).

mod cli;

fn main() {
    std::process::exit(cli::run());
}
