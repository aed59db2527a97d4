//! Checkpoints of long IDA* searches: where a search stands ([`SearchState`], reported to the
//! search's observer and given back in [`crate::Ida::resume`]) and the file that keeps it with
//! what it belongs to ([`Checkpoint`], checksummed and written atomically). A resumed search
//! generates exactly the nodes of one that never stopped.

mod error;
mod file;
mod state;

pub use error::CheckpointError;
pub use file::{heuristic_identity, Checkpoint};
pub use state::SearchState;
pub(crate) use state::CUT_DEPTH;

/// An observer that keeps the latest checkpoint (an observer: made where observers are).
pub use crate::search::keep_latest;

/// The version written in the first line of a checkpoint file; other versions are refused.
pub const VERSION: u32 = 1;
