//! Turning the shared options into a board, a goal and a ready heuristic: the options become a
//! [`Resolver`] and its [`DbChoice`]s, and what it reports is printed on standard error
//! ([`crate::resolve_printer`]). Resolving itself is the library's ([`pdbsolver::Resolver`]);
//! and the duplicate-move machine made before a search.

use super::HeuristicArgs;
use crate::resolve_printer::{cli_error, Printer};
use anyhow::{anyhow, Result};
use pdbformat::{Board, Goal};
use pdbsolver::prune::{Pruner, Pruning};
use pdbsolver::{DbChoice, HeuristicChoice, Request, ResolveOptions, Resolved, Resolver};
use std::sync::Arc;

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
