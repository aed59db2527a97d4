//! Where a stopped IDA* search stood: [`SearchState`] (the bound, the counters and the slot
//! path of the unfinished subtree at the cut depth, in the visiting order of the bounded loop),
//! and what it must match to continue a search.

use super::CheckpointError;

/// The depth down to which a checkpoint records the path: deep enough that the unfinished
/// subtree redone after a pause or a resume is a tiny part of an iteration.
pub const CUT_DEPTH: usize = 20;

/// How far a search got: enough to start again at the same place of the same iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchState {
    /// The start's estimate.
    pub initial_h: u32,
    /// The iteration's number, from 1.
    pub iteration: u32,
    /// The iteration's bound: every solution shorter than it has been ruled out.
    pub bound: u32,
    /// The smallest `g + h` above the bound met so far in this iteration (`None`: none yet).
    pub next_bound: Option<u32>,
    /// The slot (index into the blank's targets, in the order of the move table) of each move
    /// from the start down to the unfinished subtree.
    pub path: Vec<u8>,
    /// Generated nodes, over all iterations, before that subtree.
    pub nodes: u64,
    /// Expanded nodes, likewise.
    pub expanded: u64,
    /// `nodes` when this iteration began.
    pub iteration_start_nodes: u64,
}

impl SearchState {
    /// Checks that the state can continue a search whose start has the estimate `h0` (the
    /// search refuses it otherwise): the same estimate, a bound not below it, a path within
    /// the bound.
    pub fn check_start(&self, h0: u32) -> Result<(), CheckpointError> {
        if self.initial_h != h0 {
            return Err(CheckpointError::Mismatch {
                field: "initial estimate",
                saved: self.initial_h.to_string(),
                current: h0.to_string(),
            });
        }
        if self.bound < h0 || self.iteration == 0 {
            return Err(CheckpointError::Field {
                field: "bound",
                why: format!(
                    "bound {} in iteration {} cannot follow the start's estimate {h0}",
                    self.bound, self.iteration
                ),
            });
        }
        if self.path.len() > CUT_DEPTH {
            return Err(CheckpointError::Field {
                field: "path",
                why: format!(
                    "{} moves, more than the cut depth {}",
                    self.path.len(),
                    CUT_DEPTH
                ),
            });
        }
        if self.path.len() > self.bound as usize {
            return Err(CheckpointError::Field {
                field: "path",
                why: format!("{} moves exceed the bound {}", self.path.len(), self.bound),
            });
        }
        Ok(())
    }
}
