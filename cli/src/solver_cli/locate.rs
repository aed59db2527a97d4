//! `solver locate`: where the default database would come from (the search order, each
//! folder's state, the file found, what would be built or used instead) and the pruning
//! machine's source.

use super::setup::{make_goal, parse_board, resolver};
use super::HeuristicArgs;
use crate::output::outln;
use crate::resolve_printer::cli_error;
use anyhow::Result;
use pdbformat::{Board, Metric};
use pdbsolver::DefaultSource;

/// `solver locate`: the search order, each folder's state, and where the default database
/// of `metric` would come from (the file found, what would be built, or the heuristic used
/// instead), as the resolver of `solver solve` with these options plans it.
pub fn locate(args: &HeuristicArgs, metric: Metric) -> Result<i32> {
    let board = parse_board(args.board.as_deref())?.unwrap_or(Board::new(4, 4)?);
    let goal = make_goal(board, &args.goal)?;
    let plan = resolver(args)
        .plan_default(&goal, metric)
        .map_err(cli_error)?;
    outln!("board {board}, goal {goal}, metric {metric}; search order:");
    for (i, d) in plan.searched.iter().enumerate() {
        let state = if d.path.is_dir() { "" } else { " (absent)" };
        outln!("  {}. {} [{}]{state}", i + 1, d.path.display(), d.origin);
    }
    if let Some(db) = plan.db {
        outln!("default file name: {}", db.file_name());
    }
    for (p, why) in &plan.skipped {
        outln!("skipped {}: {why}", p.display());
    }
    match &plan.source {
        DefaultSource::Found(p) => outln!("would use: {}", p.display()),
        DefaultSource::Build(p) => outln!("none found: would build {}", p.display()),
        // In the multi-tile metric a board without a default uses no file, whatever is there.
        DefaultSource::Fallback { instead, .. } if plan.db.is_none() && metric == Metric::Mtm => {
            outln!("no default class database for {board}: would use {instead}")
        }
        DefaultSource::Fallback { instead, why } => {
            outln!("none found: would fall back to {instead} (nothing {why})")
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
