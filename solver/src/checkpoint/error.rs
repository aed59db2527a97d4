//! Why a checkpoint cannot be used: [`CheckpointError`], for the file and for the state.

use super::VERSION;
use thiserror::Error;

/// Why a checkpoint cannot be used.
#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The failure.
        source: std::io::Error,
    },
    /// Not a checkpoint, or one of another version.
    #[error("not a version {VERSION} solver checkpoint (first line: {0:?})")]
    Version(String),
    /// The file ends before a field.
    #[error("the checkpoint is truncated: it ends before the field `{0}`")]
    Truncated(&'static str),
    /// A field's line is not what it should be.
    #[error("the checkpoint's field `{field}` is damaged: {why}")]
    Field {
        /// The field.
        field: &'static str,
        /// What is wrong.
        why: String,
    },
    /// The checksum does not match the contents.
    #[error("the checkpoint is damaged: its checksum is {stored}, its contents give {computed}")]
    Checksum {
        /// The checksum written.
        stored: String,
        /// The checksum of the contents.
        computed: String,
    },
    /// The checkpoint was written by a search that visited a node's children in another
    /// order (the move table's, or smallest estimate first), which the solver no longer has.
    #[error("the checkpoint is of a search that visited children in another order ({0}), which this solver no longer has: remove the file to start the search afresh")]
    MoveOrder(&'static str),
    /// The checkpoint belongs to another search.
    #[error(
        "the checkpoint is for another search: its {field} is {saved}, this search's is {current}"
    )]
    Mismatch {
        /// The field that differs.
        field: &'static str,
        /// The checkpoint's value.
        saved: String,
        /// This search's value.
        current: String,
    },
}
