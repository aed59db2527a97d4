//! Turning the shared options into a board, a goal and a ready heuristic: the options become a
//! [`Resolver`] and its [`DbChoice`]s, and what it reports is printed on standard error (a bar
//! while a database loads, the notes of the search folders, the first-use build). Resolving
//! itself is the library's ([`pdbsolver::Resolver`]).

use super::HeuristicArgs;
use crate::output::outln;
use anyhow::{anyhow, Result};
use pdbformat::{Board, Goal, Metric};
use pdbsolver::prune::{Pruner, Pruning};
use pdbsolver::{
    locate, Database, DbChoice, HeuristicChoice, Request, ResolveError, ResolveObserver,
    ResolveOptions, Resolved, Resolver,
};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Parses `--board`.
pub fn parse_board(spec: Option<&str>) -> Result<Option<Board>> {
    spec.map(|s| s.parse::<Board>().map_err(|e| anyhow!("{e}")))
        .transpose()
}

/// Parses `--goal` for `board`.
pub fn make_goal(board: Board, spec: &str) -> Result<Goal> {
    Goal::parse(board, spec).map_err(|e| anyhow!("{e}"))
}

/// The resolver the heuristic options ask for: digests checked unless `--no-verify`, tables
/// placed as `--load` says, the default database built on first use unless `--no-build`.
pub fn resolver(args: &HeuristicArgs) -> Resolver {
    Resolver::new(ResolveOptions {
        verify: !args.no_verify,
        residence: args.load,
        build: !args.no_build,
    })
}

/// The databases `--db` names, as the resolver takes them.
pub fn db_choices(args: &HeuristicArgs) -> Vec<DbChoice> {
    (args.dbs.iter())
        .map(|p| DbChoice::Named(p.to_string_lossy().into_owned()))
        .collect()
}

/// The heuristic an algorithm runs with, and its description: none for the algorithms that
/// use none (`bfs`, `strategic`), otherwise the one `request` names, made for `goal` with the
/// databases of `args`.
pub fn heuristic_for(
    args: &HeuristicArgs,
    request: &Request,
    goal: &Goal,
) -> Result<(HeuristicChoice, String)> {
    let r = make_heuristic(args, request, goal)?;
    Ok((r.heuristic, r.description))
}

/// Resolves (and loads) the heuristic for `goal` that `request` names (`auto` when none), with
/// the databases of `args`, saying on standard error what happens on the way.
pub fn make_heuristic(args: &HeuristicArgs, request: &Request, goal: &Goal) -> Result<Resolved> {
    let observer = Printer::default();
    resolver(args)
        .resolve(request, &db_choices(args), goal, &observer)
        .map_err(cli_error)
}

/// A resolver's error in the command line's words (its option names).
pub fn cli_error(e: ResolveError) -> anyhow::Error {
    match e {
        ResolveError::DatabasesNeedPdb(n) => {
            anyhow!("--db needs --heuristic pdb (or auto), not {n}")
        }
        e @ ResolveError::NoneFits { .. } => anyhow!("{e}; give one with --db"),
        // In the source tree, xtask builds a standard database under its own name.
        ResolveError::NotFound { db, .. } => anyhow!(
            "{}",
            e.to_string().replacen(
                "build it there with ",
                &format!(
                    "build it there with `cargo xtask artifacts build {}` (in the source tree) or ",
                    db.name
                ),
                1
            )
        ),
        e => anyhow::Error::new(e),
    }
}

/// What the command line prints while a heuristic is resolved: notes, the first-use build's
/// lines and bars, a bar while a database loads (on a terminal) and a line when it is loaded.
pub struct Printer {
    /// The loading bar of the file being read, made when its size is known.
    bar: Mutex<Option<indicatif::ProgressBar>>,
    /// The build's bars, made when a build starts.
    build: crate::bars::BarObserver,
}

impl Default for Printer {
    fn default() -> Self {
        Printer {
            bar: Mutex::new(None),
            build: crate::bars::BarObserver::new(),
        }
    }
}

impl Printer {
    /// Clears the loading bar, if one is drawn.
    fn clear_bar(&self) {
        if let Some(pb) = self.bar.lock().unwrap_or_else(|e| e.into_inner()).take() {
            pb.finish_and_clear();
        }
    }
}

impl Drop for Printer {
    fn drop(&mut self) {
        self.clear_bar();
    }
}

impl ResolveObserver for Printer {
    fn skipped(&self, path: &Path, why: &str) {
        eprintln!("note: skipping {}: {why}", path.display());
    }

    fn loading(&self, path: &Path, done: u64, total: u64) {
        let mut bar = self.bar.lock().unwrap_or_else(|e| e.into_inner());
        let pb = bar.get_or_insert_with(|| {
            let pb = indicatif::ProgressBar::new(total);
            pb.set_style(
                indicatif::ProgressStyle::with_template(
                    "loading {msg} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({eta})",
                )
                .expect("valid template"),
            );
            pb.set_message(path.display().to_string());
            pb
        });
        pb.set_length(total);
        pb.set_position(done);
    }

    fn loaded(&self, db: &Database) {
        self.clear_bar();
        eprintln!("database: {}", describe_loaded(db));
    }

    fn building(&self, board: Board, path: &Path, searched: &str) {
        eprintln!(
            "no pattern database found for {board} (searched {searched}); building the default {} database once into {} ...",
            path.file_name().unwrap_or_default().to_string_lossy(),
            path.display()
        );
    }

    fn waiting(&self, lock: &Path) {
        eprintln!(
            "another solver is building it (it holds {}); waiting for it ...",
            lock.display()
        );
    }

    fn built(&self, path: &Path, seconds: f64, here: bool) {
        if here {
            eprintln!(
                "built and saved {} in {seconds:.1} s; later runs reuse it",
                path.display()
            );
        } else {
            eprintln!(
                "the other solver built {} ({seconds:.1} s of waiting); using it",
                path.display()
            );
        }
    }

    fn falling_back(&self, why: &str) {
        eprintln!("note: {why}; falling back to manhattan + linear conflict");
    }

    fn build_observer(&self) -> &dyn pdbgen::BuildObserver {
        &self.build
    }
}

/// A loaded database in one line: its file, kind (zero-aware, zero-unaware or multi-tile class
/// tables), encodings, tables, size and load time.
pub fn describe_loaded(db: &Database) -> String {
    format!(
        "{} ({} {}, {} tables: {}, {:.1} MB) loaded in {:.3} s",
        db.path().display(),
        if !db.class_tables().is_empty() {
            "multi-tile class"
        } else if db.is_zero_aware() {
            "zero-aware"
        } else {
            "zero-unaware"
        },
        db.describe_encodings(),
        db.tables().len() + db.class_tables().len(),
        db.describe_patterns(),
        db.file_bytes() as f64 / 1e6,
        db.load_seconds()
    )
}

/// `solver locate`: the search order, each directory's state, and the file that would be used
/// as the default in `metric` (or what would be built, or used instead).
pub fn locate(args: &HeuristicArgs, metric: Metric) -> Result<i32> {
    let board = parse_board(args.board.as_deref())?.unwrap_or(Board::new(4, 4)?);
    let goal = make_goal(board, &args.goal)?;
    outln!("board {board}, goal {goal}, metric {metric}; search order:");
    for (i, d) in locate::search_dirs().iter().enumerate() {
        let state = if d.path.is_dir() { "" } else { " (absent)" };
        outln!("  {}. {} [{}]{state}", i + 1, d.path.display(), d.origin);
    }
    let fallback = match metric {
        Metric::Stm => "manhattan + linear conflict",
        Metric::Mtm => "the walking distance",
    };
    let name = locate::default_file_name(board, metric);
    match &name {
        Some(name) => outln!("default file name: {name}"),
        // In the multi-tile metric a board without a default uses no file, whatever is there.
        None if metric == Metric::Mtm => {
            outln!("no default class database for {board}: would use {fallback}")
        }
        None => {}
    }
    if name.is_some() || metric == Metric::Stm {
        let found = locate::find_default(&goal, metric);
        for (p, why) in &found.skipped {
            outln!("skipped {}: {why}", p.display());
        }
        match found.path {
            Some(p) => outln!("would use: {}", p.display()),
            None if locate::buildable(&goal, metric) => outln!(
                "none found: would build {}",
                locate::build_dir()
                    .map(|d| d.join(name.unwrap_or_default()).display().to_string())
                    .unwrap_or_else(|| "nothing (no build directory)".into())
            ),
            None => outln!("none found: would fall back to {fallback}"),
        }
    }
    for line in pruner_source(board) {
        outln!("{line}");
    }
    Ok(0)
}

/// Where the default duplicate-move machine of `board` would come from, for `solver locate`:
/// a file beside the databases (read and checked, as the search would), the cache, or a
/// build; a line per file beside the databases passed over, then the answer.
fn pruner_source(board: Board) -> Vec<String> {
    use pdbsolver::prune::{cache, default_depth, Origin, MAX_DEPTH};
    let depth = default_depth(board).min(MAX_DEPTH);
    let what = format!("pruning machine (word depth {depth})");
    if depth < cache::MIN_CACHED_DEPTH {
        return vec![format!("{what}: built at start-up (milliseconds)")];
    }
    let found = cache::read_published(board, depth);
    let mut lines: Vec<String> = (found.skipped.iter())
        .map(|(p, why)| format!("skipped {}: {why}", p.display()))
        .collect();
    let name = cache::file_name(board, depth);
    lines.push(
        match (
            found.machine.as_ref().map(|m| m.origin()),
            cache::cache_dir(),
        ) {
            (Some(Origin::Loaded(p)), _) => {
                format!("{what}: would read {} (beside the databases)", p.display())
            }
            (_, Some(dir)) if dir.join(&name).is_file() => format!(
                "{what}: would read {} (cache; rebuilt there if damaged)",
                dir.join(&name).display()
            ),
            (_, Some(dir)) => format!(
                "{what}: would build it once and keep it in {}",
                dir.join(&name).display()
            ),
            (_, None) => format!(
                "{what}: would build it ({} is off: not kept)",
                cache::ENV_VAR
            ),
        },
    );
    lines
}

/// Makes the duplicate-move machine the search will use on `board` (`pruning`: from
/// `--prune-depth` / `--no-prune`) before the search starts, and unless `quiet` says so on
/// standard error when a deep machine is built rather than read from the cache: a line before
/// the build and one when it is done. Returns the machine.
pub fn prepare_pruner(board: Board, pruning: Pruning, quiet: bool) -> Arc<Pruner> {
    use pdbsolver::prune::cache;
    let depth = pruning.depth(board);
    let building = !quiet && !cache::is_ready(board, depth);
    let kept = cache::cache_dir();
    if building {
        match &kept {
            Some(dir) => eprintln!(
                "building the {board} duplicate-move machine of depth {depth} (once: it is \
                 kept in {})",
                dir.display()
            ),
            None => eprintln!(
                "building the {board} duplicate-move machine of depth {depth} ({} is off: \
                 not cached)",
                cache::ENV_VAR
            ),
        }
    }
    let start = std::time::Instant::now();
    let machine = pruning.machine(board);
    if building {
        let seconds = start.elapsed().as_secs_f64();
        match kept.filter(|_| cache::is_ready(board, depth)) {
            Some(dir) => eprintln!(
                "built the duplicate-move machine in {seconds:.1} s; later runs read it from {}",
                dir.display()
            ),
            None => eprintln!("built the duplicate-move machine in {seconds:.1} s"),
        }
    }
    machine
}
