//! `cargo xtask`: the maintainers' tasks (artifacts, benchmarks, CI); see `cargo xtask --help`.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use xtask::artifacts::{self, build::BuildOptions, compress::CompressOptions};
use xtask::{bench, budgets, ci, dist, project_root};

/// Maintainers' tasks of the PDB toolchain.
#[derive(Parser)]
#[command(name = "xtask", bin_name = "cargo xtask", about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// The standard databases in artifacts/: build, verify, record, compress, publish.
    Artifacts(ArtifactsArgs),
    /// Run the generator, solver and memory benchmarks and write their tables into
    /// docs/figures/ (linked from BENCHMARKS.md).
    Bench(BenchArgs),
    /// Pair the 5x5 solver at its defaults with Clausecker's pdbsearch, instance by instance,
    /// and print the table (their program, tables and machine built with their tools).
    VsPdbsearch(VsArgs),
    /// What CI runs: cargo fmt --check, the budgets, clippy -D warnings, the tests.
    Ci(CiArgs),
    /// Make a release of the programs: a tarball of `solver` and `pdbgen` for x86-64 Linux,
    /// the Python wheel (abi3, manylinux) and sdist, and SHA256SUMS.
    Dist(DistArgs),
}

#[derive(Args)]
struct DistArgs {
    /// The release folder (created; must be empty unless --force).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Replace the files of a previous release in DIR.
    #[arg(long)]
    force: bool,
    /// Leave out the Python wheel and sdist.
    #[arg(long)]
    no_python: bool,
    /// The maturin to run (default: maturin on the PATH, else one pip installs into
    /// dist-tools/ of the target folder).
    #[arg(long, value_name = "FILE")]
    maturin: Option<PathBuf>,
}

#[derive(Args)]
struct CiArgs {
    /// Only the budgets (as `cargo budgets`): lines of source files and documents, the
    /// libraries' dependencies, import circles, issue numbers and machine paths in tracked
    /// files.
    #[arg(long)]
    budgets: bool,
}

#[derive(Args)]
struct VsArgs {
    /// Their cmd/pdbsearch binary.
    #[arg(long, value_name = "FILE")]
    pdbsearch: PathBuf,
    /// Their tables (pdbsearch -d). Copies on a hugetlbfs mount give them 2 MiB pages, their
    /// fastest configuration here (see BENCHMARKS.md); the peak memory then leaves them out.
    #[arg(long, value_name = "DIR")]
    pdb_dir: PathBuf,
    /// Their catalogue, such as catalogues/small-t.cat of their repository (the small catalogue
    /// with each partition's transpose as tables of its own: their fastest here, see
    /// BENCHMARKS.md; pdbsearch -j 2 -d DIR CATALOGUE, an instance on its standard input,
    /// generates the tables it lacks).
    #[arg(long, value_name = "FILE")]
    catalogue: PathBuf,
    /// Their duplicate-move machine (pdbsearch -m), made with cmd/genloops and cmd/compilefsm.
    #[arg(long, value_name = "FILE")]
    fsm: Option<PathBuf>,
    /// Instances, by number in the file, in the order to run them.
    #[arg(long, value_delimiter = ',', default_values_t = xtask::bench::pdbsearch::DEFAULT_IDS)]
    ids: Vec<u32>,
    /// The instance file (id, 25 tiles, optimal length per line).
    #[arg(long, value_name = "FILE")]
    instances: Option<PathBuf>,
    /// Rounds: each runs every instance, theirs then ours once per thread setting.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// An argument for our `solver solve` after `--board 5x5 --json` (repeatable; none: the
    /// defaults), such as --solver-arg=--prune-depth=20.
    #[arg(long = "solver-arg", value_name = "ARG", allow_hyphen_values = true)]
    solver_args: Vec<String>,
    /// Our thread settings, each paired with theirs in the same run (0: the command as it is,
    /// every core by default; N: --threads N).
    #[arg(long, value_delimiter = ',', default_values_t = [0, 1])]
    threads: Vec<usize>,
}

#[derive(Args)]
struct ArtifactsArgs {
    /// The artifacts folder (default: artifacts/ of the workspace).
    #[arg(long, global = true, value_name = "DIR")]
    dir: Option<PathBuf>,
    #[command(subcommand)]
    command: ArtifactsCommand,
}

#[derive(Subcommand)]
enum ArtifactsCommand {
    /// Build the standard databases (all, or NAMES); files already there and valid are skipped.
    Build {
        /// Databases to build (default: all): 8-full-za, 15-663-zu, ...
        names: Vec<String>,
        /// Rebuild files that are already there and valid.
        #[arg(long)]
        force: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Build even when the estimated memory exceeds what is available.
        #[arg(long)]
        ignore_memory_check: bool,
    },
    /// Check every file present against artifacts/manifest.toml and its checksums.
    Verify {
        /// Databases to check (default: all).
        names: Vec<String>,
        /// Fail when a raw file is missing (by default missing files are only reported).
        #[arg(long)]
        require_all: bool,
        /// Also check every table's values without rebuilding (slow for 7-8).
        #[arg(long)]
        semantic: bool,
    },
    /// Write the manifest records of the files present, after checking them.
    Record {
        /// Databases to record (default: every one present).
        names: Vec<String>,
        /// Skip the semantic check of the tables (checksums and parameters only).
        #[arg(long)]
        no_semantic: bool,
    },
    /// Write zstd and gzip variants (<name>.zstd.pdb, <name>.gzip.pdb) and report the ratios.
    Compress {
        /// Databases to compress (default: every one present).
        names: Vec<String>,
        /// Rewrite compressed files that are already there.
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        opts: CompressArgs,
    },
    /// Make a release folder: compressed files, manifest.json and SHA256SUMS.
    Publish {
        /// Databases to publish (default: all; every one must be built and recorded).
        names: Vec<String>,
        /// The release folder (created; must be empty unless --force).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Replace a previous release in DIR (its .pdb files, manifest.json and SHA256SUMS).
        #[arg(long)]
        force: bool,
        /// Rewrite the compressed files in the artifacts folder even when they are up to date.
        #[arg(long)]
        recompress: bool,
        #[command(flatten)]
        opts: CompressArgs,
    },
}

#[derive(Args)]
struct CompressArgs {
    /// zstd level (1-22).
    #[arg(long, default_value_t = 19)]
    zstd_level: i32,
    /// No zstd long-distance matching (by default on for tables above 8 MiB).
    #[arg(long)]
    no_long: bool,
    /// gzip level (1-9).
    #[arg(long, default_value_t = 9)]
    gzip_level: u32,
    /// zstd worker threads (default: one per core); the output is the same for any count.
    #[arg(long)]
    zstd_workers: Option<u32>,
}

impl CompressArgs {
    fn options(&self, force: bool) -> CompressOptions {
        CompressOptions {
            zstd_level: self.zstd_level,
            long: if self.no_long {
                artifacts::compress::Long::Off
            } else {
                artifacts::compress::Long::Auto
            },
            gzip_level: self.gzip_level,
            zstd_workers: self
                .zstd_workers
                .unwrap_or_else(artifacts::compress::default_zstd_workers),
            force,
        }
    }
}

#[derive(Args)]
struct BenchArgs {
    /// Databases to run (default: all standard ones).
    names: Vec<String>,
    /// Leave out the 7-8 databases.
    #[arg(long)]
    quick: bool,
    /// Only the generator section.
    #[arg(long, conflicts_with = "solver_only")]
    generator_only: bool,
    /// Only the solver section (with the databases in artifacts/).
    #[arg(long, conflicts_with = "memory_only")]
    solver_only: bool,
    /// Only the memory section: what a random table lookup costs on this machine.
    #[arg(long, conflicts_with = "generator_only")]
    memory_only: bool,
    /// Only the first N benchmark instances.
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// Generator worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// The folder the tables are written into, a Markdown file a section (default:
    /// docs/figures/).
    #[arg(long, value_name = "DIR")]
    figures: Option<PathBuf>,
    /// Benchmark instances for the solver.
    #[arg(long, value_name = "FILE")]
    instances: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = project_root();
    let result = match cli.task {
        Task::Ci(a) if a.budgets => budgets::run(&root),
        Task::Ci(_) => ci::run(&root),
        Task::Dist(a) => dist::run(
            &root,
            &a.out,
            &dist::DistOptions {
                force: a.force,
                no_python: a.no_python,
                maturin: a.maturin,
            },
        )
        .map(|_| true),
        Task::VsPdbsearch(a) => bench::vs_pdbsearch(
            &root,
            &bench::pdbsearch::PairOptions {
                pdbsearch: a.pdbsearch,
                pdb_dir: a.pdb_dir,
                catalogue: a.catalogue,
                fsm: a.fsm,
                solver_args: a.solver_args,
                threads: a.threads,
                instances: a
                    .instances
                    .unwrap_or_else(|| root.join("bench/korf50-24.txt")),
                ids: a.ids,
                rounds: a.rounds,
            },
        ),
        Task::Bench(a) => bench::run(
            &root,
            &a.names,
            &bench::BenchOptions {
                quick: a.quick,
                generator: !a.solver_only && !a.memory_only,
                solver: !a.generator_only && !a.memory_only,
                memory: !a.generator_only && !a.solver_only,
                first: a.first,
                threads: a.threads,
                figures: a
                    .figures
                    .unwrap_or_else(|| bench::figures::default_dir(&root)),
                artifacts: artifacts::default_dir(),
                instances: a
                    .instances
                    .unwrap_or_else(|| root.join("bench/korf100.txt")),
            },
        ),
        Task::Artifacts(a) => {
            let dir = a.dir.unwrap_or_else(artifacts::default_dir);
            match a.command {
                ArtifactsCommand::Build {
                    names,
                    force,
                    threads,
                    ignore_memory_check,
                } => artifacts::build::run(
                    &dir,
                    &names,
                    &BuildOptions {
                        force,
                        threads,
                        ignore_memory_check,
                        quiet: false,
                    },
                ),
                ArtifactsCommand::Verify {
                    names,
                    require_all,
                    semantic,
                } => artifacts::verify::run(&dir, &names, require_all, semantic),
                ArtifactsCommand::Record { names, no_semantic } => {
                    artifacts::record::run(&dir, &names, !no_semantic)
                }
                ArtifactsCommand::Compress { names, force, opts } => {
                    artifacts::compress::run(&dir, &names, &opts.options(force))
                }
                ArtifactsCommand::Publish {
                    names,
                    out,
                    force,
                    recompress,
                    opts,
                } => artifacts::publish::run(
                    &dir,
                    &out,
                    &names,
                    &artifacts::publish::PublishOptions {
                        compress: opts.options(recompress),
                        force,
                    },
                ),
            }
        }
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {}", pdbformat::error::describe(&*e));
            ExitCode::FAILURE
        }
    }
}
