//! Turning the shared options into a board, a goal and a ready [`HeuristicChoice`]: opening the given
//! databases, or finding (and for 4×4 and 5×5 building) the default one, or falling back.

use super::HeuristicArgs;
use crate::output::outln;
use anyhow::{anyhow, bail, Context, Result};
use pdbformat::{Board, Goal};
use pdbsolver::prune::{Pruner, Pruning};
use pdbsolver::Request;
use pdbsolver::{locate, AlgorithmName, Database, HeuristicChoice, HeuristicName, OpenOptions};
use std::path::Path;
use std::sync::Arc;

/// A heuristic ready for one goal, with what to print about it.
pub struct Setup {
    /// The heuristic (databases loaded).
    pub heuristic: HeuristicChoice,
    /// The heuristic in words.
    pub description: String,
    /// Seconds spent loading databases (0 for classic heuristics).
    pub load_seconds: f64,
}

/// Parses `--board`.
pub fn parse_board(spec: Option<&str>) -> Result<Option<Board>> {
    spec.map(|s| s.parse::<Board>().map_err(|e| anyhow!("{e}")))
        .transpose()
}

/// Parses `--goal` for `board`.
pub fn make_goal(board: Board, spec: &str) -> Result<Goal> {
    Goal::parse(board, spec).map_err(|e| anyhow!("{e}"))
}

/// Opens a database for `goal` and says so on standard error, with a progress bar (bytes of
/// entries read or decoded) while it loads, when standard error is a terminal. The header is
/// checked against the goal (when one is given) before any entry is read, and the digests are
/// checked on a thread of their own while the search runs (`pdbsolver::solve` waits for the
/// verdict). `solver serve` opens its databases without a goal: each request's goal is checked
/// against them.
pub fn open_db(path: &Path, args: &HeuristicArgs, goal: Option<&Goal>) -> Result<Arc<Database>> {
    // Hidden until the first bytes arrive, when the total is known.
    let pb =
        indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::hidden());
    pb.set_style(
        indicatif::ProgressStyle::with_template(
            "loading {msg} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({eta})",
        )
        .expect("valid template"),
    );
    pb.set_message(path.display().to_string());
    let opened = Database::open_with(
        path,
        OpenOptions {
            verify: !args.no_verify,
            verify_in_background: true,
            expect_goal: goal.cloned(),
            residence: args.load,
        },
        &mut |done, total| {
            if pb.length() != Some(total) {
                pb.set_length(total);
                pb.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            }
            pb.set_position(done);
        },
    );
    pb.finish_and_clear();
    let db = opened?;
    eprintln!(
        "database: {} ({} {}, {} tables: {}, {:.1} MB) loaded in {:.3} s",
        path.display(),
        if db.is_zero_aware() {
            "zero-aware"
        } else {
            "zero-unaware"
        },
        db.describe_encodings(),
        db.tables().len(),
        db.describe_patterns(),
        db.file_bytes() as f64 / 1e6,
        db.load_seconds()
    );
    Ok(Arc::new(db))
}

/// Opens every file of `paths` ([`open_db`]), each once: a file named again (a catalogue
/// whose partitions share tables names each shared table once per partition) is the same
/// loaded database, which the heuristic then looks up once per move for all its partitions.
pub fn open_dbs(
    paths: &[std::path::PathBuf],
    args: &HeuristicArgs,
    goal: Option<&Goal>,
) -> Result<Vec<Arc<Database>>> {
    let mut opened: Vec<(std::path::PathBuf, Arc<Database>)> = Vec::new();
    let mut out = Vec::with_capacity(paths.len());
    for p in paths {
        let key = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        let db = match opened.iter().find(|(k, _)| *k == key) {
            Some((_, db)) => db.clone(),
            None => {
                let db = open_db(p, args, goal)?;
                opened.push((key, db.clone()));
                db
            }
        };
        out.push(db);
    }
    Ok(out)
}

/// The files that `--db` values stand for: a value that names an existing file (or anything
/// with a path separator or a `.pdb` ending) is that path; otherwise a standard database name
/// (`15-78-za-bit1`) or catalogue name (`15-78+78b-za-bit1`, its members in order) is looked up
/// in the search directories ([`locate::find_standard`]).
pub fn db_paths(values: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    for v in values {
        let text = v.to_string_lossy();
        let pathlike =
            v.exists() || v.components().count() > 1 || v.extension().is_some_and(|x| x == "pdb");
        let named = if pathlike {
            None
        } else {
            pdbformat::standard::expand(&text).ok()
        };
        let Some(members) = named else {
            out.push(v.clone());
            continue;
        };
        for m in members {
            let path = locate::find_standard(m).ok_or_else(|| {
                let part_of = if m.name == text {
                    String::new()
                } else {
                    format!(" (in catalogue {text})")
                };
                anyhow!(
                    "database {}{part_of} is not in {}; build it there with `cargo xtask artifacts build {}` (in the source tree) or `pdbgen build --board {}x{} --partition {} --kind {} --encoding {} -o {}`",
                    m.name,
                    searched(),
                    m.name,
                    m.width,
                    m.height,
                    m.partition,
                    m.kind.name(),
                    m.encoding.name(),
                    m.file_name()
                )
            })?;
            out.push(path);
        }
    }
    Ok(out)
}

/// The directories searched, for messages.
fn searched() -> String {
    let v: Vec<String> = locate::search_dirs()
        .iter()
        .map(|d| d.path.display().to_string())
        .collect();
    v.join(", ")
}

/// Whether the default database can be built for `goal`: a board with a default preset and a
/// goal blank in a corner.
fn buildable(goal: &Goal) -> bool {
    let board = goal.board();
    locate::default_db(board).is_some()
        && pdbformat::Symmetry::taking(board, 0, goal.blank_cell()).is_some()
}

/// The heuristic an algorithm runs with, and its description: none for the algorithms that
/// use none (`bfs`, `strategic`), otherwise the one `request` names, made for `goal` with the
/// databases of `args` (loaded once).
pub fn heuristic_for(
    args: &HeuristicArgs,
    request: &Request,
    goal: &Goal,
) -> Result<(HeuristicChoice, String)> {
    if !request.algorithm_name().uses_heuristic() {
        return Ok((HeuristicChoice::Manhattan, "none".into()));
    }
    let setup = make_heuristic(args, request, goal)?;
    Ok((setup.heuristic, setup.description))
}

/// Chooses (and loads) the heuristic for `goal` that `request` names (`auto` when none), with
/// the databases of `args` and the reflection `request` asks for.
pub fn make_heuristic(args: &HeuristicArgs, request: &Request, goal: &Goal) -> Result<Setup> {
    let name = request.heuristic;
    let board = goal.board();
    if board.cells() > pdbsolver::heuristic::MAX_CELLS {
        return Err(pdbsolver::SolveError::BoardTooLarge {
            algorithm: AlgorithmName::Ida,
            board,
            cells: board.cells(),
        }
        .into());
    }
    let reflect = request.reflect();
    let classic = |c: HeuristicChoice, what: &str| Setup {
        heuristic: c,
        description: what.to_string(),
        load_seconds: 0.0,
    };
    let dbs: Vec<Arc<Database>> = if !args.dbs.is_empty() {
        if let Some(n) = name.filter(|&n| n != HeuristicName::Pdb) {
            bail!("--db needs --heuristic pdb (or auto), not {n}");
        }
        open_dbs(&db_paths(&args.dbs)?, args, Some(goal))?
    } else {
        if let Some((choice, words)) = name.and_then(HeuristicName::classic) {
            return Ok(classic(choice, words));
        }
        let found = locate::find_default(goal);
        for (p, why) in &found.skipped {
            eprintln!("note: skipping {}: {why}", p.display());
        }
        let path = match found.path {
            Some(p) => p,
            None if buildable(goal) && !args.no_build => build_default(goal)?,
            None => {
                let why = if buildable(goal) {
                    "and --no-build was given"
                } else if locate::default_db(goal.board()).is_some() {
                    "and the default one is built only for goals with the blank in a corner"
                } else {
                    "and there is no default database for this board"
                };
                if name == Some(HeuristicName::Pdb) {
                    bail!(
                        "no pattern database fits the {} board and goal {goal} in {} {why}; give one with --db",
                        goal.board(),
                        searched()
                    );
                }
                eprintln!(
                    "note: no pattern database fits the {} board and goal {goal} ({}), {why}; falling back to manhattan + linear conflict",
                    goal.board(),
                    searched()
                );
                return Ok(classic(
                    HeuristicChoice::LinearConflict,
                    "manhattan + linear conflict (no database)",
                ));
            }
        };
        vec![open_db(&path, args, Some(goal))?]
    };
    let load_seconds = dbs.iter().map(|d| d.load_seconds()).sum();
    let heuristic = HeuristicChoice::Pdb {
        databases: dbs,
        reflect,
    };
    Ok(Setup {
        description: heuristic.describe(goal)?,
        heuristic,
        load_seconds,
    })
}

/// Builds the default database for `goal`'s board into [`locate::build_dir`], saying so.
fn build_default(goal: &Goal) -> Result<std::path::PathBuf> {
    let dir = locate::build_dir().ok_or_else(|| {
        anyhow!("no place to build the default database: set PDB_DIR or HOME, or give --db")
    })?;
    let board = goal.board();
    let name = locate::default_file_name(board).expect("buildable boards have a name");
    let path = dir.join(&name);
    eprintln!(
        "no pattern database found for {board} (searched {}); building the default {} database once into {} ...",
        searched(),
        name,
        path.display()
    );
    let t0 = std::time::Instant::now();
    let built = locate::build_default(
        board,
        &path,
        &crate::bars::BarObserver::new(),
        &mut |lock| {
            eprintln!(
                "another solver is building it (it holds {}); waiting for it ...",
                lock.display()
            )
        },
    )
    .with_context(|| format!("cannot build the default database {}", path.display()))?;
    match built {
        locate::Built::Here => eprintln!(
            "built and saved {} in {:.1} s; later runs reuse it",
            path.display(),
            t0.elapsed().as_secs_f64()
        ),
        locate::Built::Elsewhere => eprintln!(
            "the other solver built {} ({:.1} s of waiting); using it",
            path.display(),
            t0.elapsed().as_secs_f64()
        ),
    }
    Ok(path)
}

/// `solver locate`: the search order, each directory's state, and the file that would be used.
pub fn locate(args: &HeuristicArgs) -> Result<i32> {
    let board = parse_board(args.board.as_deref())?.unwrap_or(Board::new(4, 4)?);
    let goal = make_goal(board, &args.goal)?;
    outln!("board {board}, goal {goal}; search order:");
    for (i, d) in locate::search_dirs().iter().enumerate() {
        let state = if d.path.is_dir() { "" } else { " (absent)" };
        outln!("  {}. {} [{}]{state}", i + 1, d.path.display(), d.origin);
    }
    if let Some(name) = locate::default_file_name(board) {
        outln!("default file name: {name}");
    }
    let found = locate::find_default(&goal);
    for (p, why) in &found.skipped {
        outln!("skipped {}: {why}", p.display());
    }
    match found.path {
        Some(p) => outln!("would use: {}", p.display()),
        None if buildable(&goal) => outln!(
            "none found: would build {}",
            locate::build_dir()
                .map(|d| d
                    .join(locate::default_file_name(board).unwrap_or_default())
                    .display()
                    .to_string())
                .unwrap_or_else(|| "nothing (no build directory)".into())
        ),
        None => outln!("none found: would fall back to manhattan + linear conflict"),
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
/// standard error when a deep machine is about to be built rather than read from the cache:
/// a 5×5 machine of depth 18 takes about 25 s, once. Returns the machine.
pub fn prepare_pruner(board: Board, pruning: Pruning, quiet: bool) -> Arc<Pruner> {
    use pdbsolver::prune::cache;
    let depth = pruning.depth(board);
    if !quiet && !cache::is_ready(board, depth) {
        match cache::cache_dir() {
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
    pruning.machine(board)
}
