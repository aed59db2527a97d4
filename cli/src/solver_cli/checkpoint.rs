//! `solver solve --checkpoint FILE` (IDA*): the search resumes from the file when it exists
//! (the same search, else it is refused), the file is rewritten atomically at each checkpoint
//! the search reports, and removed once the puzzle is solved.

use anyhow::{Context, Result};
use pdbformat::units::thousands;
use pdbformat::{Goal, Puzzle};
use pdbsolver::checkpoint::{Checkpoint, SearchState};
use pdbsolver::{Algorithm, Event, HeuristicChoice, Observer, Search, Solution, SolveError};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A search that keeps its checkpoints in a file.
pub struct Checkpointing {
    path: PathBuf,
    /// The outcome of the last write, if any.
    written: Arc<Mutex<Option<Result<(), String>>>>,
}

/// Makes the IDA* `search` of `puzzle` towards `goal` with `heuristic` resume from `path` when
/// the file exists, and write its checkpoints there (every `every`, and when it stops); its
/// observer is kept and still told every event. Unless `quiet`, says where it resumes.
pub fn attach(
    path: &Path,
    every: Duration,
    puzzle: &Puzzle,
    goal: &Goal,
    heuristic: &HeuristicChoice,
    search: &mut Search,
    quiet: bool,
) -> Result<Checkpointing> {
    let Algorithm::Ida(ida) = &mut search.algorithm else {
        anyhow::bail!("--checkpoint works with one puzzle and the ida algorithm");
    };
    // The depth in effect: a checkpoint names it, not "the default".
    let depth = ida.pruning.depth(goal.board());
    let fresh = Checkpoint::new(puzzle, goal, heuristic, depth, placeholder());
    if path.exists() {
        let saved = Checkpoint::read(path)
            .and_then(|c| c.check_same_search(&fresh).map(|()| c))
            .and_then(|c| c.check_state().map(|()| c))
            .with_context(|| format!("cannot resume from {}", path.display()))?;
        if !quiet {
            eprintln!(
                "resuming from {}: iteration {}, bound {}, {} nodes so far",
                path.display(),
                saved.state.iteration,
                saved.state.bound,
                thousands(saved.state.nodes)
            );
        }
        ida.resume = Some(saved.state);
    }
    ida.checkpoint_every = Some(every);
    let written = Arc::new(Mutex::new(None));
    let (file, slot) = (path.to_path_buf(), written.clone());
    let then = search.observer.take();
    search.observer = Some(Observer::new(move |e: &Event| {
        if let Event::Checkpoint(st) = e {
            let c = Checkpoint {
                state: st.clone(),
                ..fresh.clone()
            };
            let r = c.write(&file).map_err(|e| e.to_string());
            *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
        }
        if let Some(t) = &then {
            t.tell(e);
        }
    }));
    Ok(Checkpointing {
        path: path.to_path_buf(),
        written,
    })
}

impl Checkpointing {
    /// After the search: removes the file once the puzzle is solved, says where a stopped
    /// search's checkpoint is, and reports a write that failed.
    pub fn finish(&self, result: &Result<Solution, SolveError>) {
        let written = self
            .written
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        match (result, written) {
            (_, Some(Err(e))) => eprintln!("error: {e}"),
            (Ok(_), _) => {
                let _ = std::fs::remove_file(&self.path);
            }
            (Err(SolveError::Stopped { .. }), Some(Ok(()))) => {
                eprintln!("checkpoint written to {}", self.path.display())
            }
            _ => {}
        }
    }
}

/// A state to fill the checkpoint template with until the search reports one.
fn placeholder() -> SearchState {
    SearchState {
        initial_h: 0,
        iteration: 0,
        bound: 0,
        next_bound: None,
        path: Vec::new(),
        nodes: 0,
        expanded: 0,
        iteration_start_nodes: 0,
    }
}
