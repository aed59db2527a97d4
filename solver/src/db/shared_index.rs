//! The index tables of one table shape (board, pattern size, kind), made once per process and
//! shared by every loaded table of that shape, whichever file it comes from.
//!
//! A zero-aware index tabulates every cell set's free regions: megabytes on 5×5, and its fast
//! form is read at random on every lookup. A catalogue given as one file per table (its groups
//! naming a file again where they share a table) would otherwise hold one copy per file, and
//! fourteen copies of those megabytes no longer stay in the cache. The cache keeps only weak
//! references: the tables go when the last loaded table of their shape is dropped.

use pdbformat::rank::{FastIndex, IndexError, TableIndex, TableKind};
use pdbformat::Board;
use std::sync::{Arc, Mutex, Weak};

/// The reference numbering of one shape and its fast form.
#[derive(Debug)]
pub(super) struct SharedIndex {
    /// The reference numbering (ranking, unranking, counts).
    pub(super) index: TableIndex,
    /// The same numbering, prepared for the search's lookups.
    pub(super) fast: FastIndex,
}

/// A shape: board width and height, pattern size, kind.
type Shape = (usize, usize, usize, TableKind);

/// The indexes made so far, by shape, as long as a table holds them.
static MADE: Mutex<Vec<(Shape, Weak<SharedIndex>)>> = Mutex::new(Vec::new());

/// The index of `k`-tile tables of `kind` on `board`: the one already made in this process if
/// a loaded table still holds it, else a new one (made under the lock, so that two databases
/// opened at once do not both make it).
pub(super) fn shared_index(
    board: Board,
    k: usize,
    kind: TableKind,
) -> Result<Arc<SharedIndex>, IndexError> {
    let shape = (board.width(), board.height(), k, kind);
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    made.retain(|(_, w)| w.strong_count() > 0);
    if let Some(s) = made
        .iter()
        .find(|(s, _)| *s == shape)
        .and_then(|(_, w)| w.upgrade())
    {
        return Ok(s);
    }
    let index = TableIndex::new(board, k, kind)?;
    let fast = FastIndex::new(board, &index);
    let shared = Arc::new(SharedIndex { index, fast });
    made.push((shape, Arc::downgrade(&shared)));
    Ok(shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_copy_per_shape_while_held() {
        let b = Board::new(3, 3).unwrap();
        let a = shared_index(b, 3, TableKind::ZeroAware).unwrap();
        let again = shared_index(b, 3, TableKind::ZeroAware).unwrap();
        assert!(Arc::ptr_eq(&a, &again));
        let other = shared_index(b, 4, TableKind::ZeroAware).unwrap();
        assert!(!Arc::ptr_eq(&a, &other));
        let unaware = shared_index(b, 3, TableKind::ZeroUnaware).unwrap();
        assert!(!Arc::ptr_eq(&a, &unaware));
        assert_eq!(a.index.len(), again.index.len());
        // Dropped by every holder: the next request makes it anew.
        let weak = Arc::downgrade(&a);
        drop((a, again));
        assert!(weak.upgrade().is_none());
        let fresh = shared_index(b, 3, TableKind::ZeroAware).unwrap();
        let want = TableIndex::new(b, 3, TableKind::ZeroAware).unwrap();
        assert_eq!(fresh.index.len(), want.len());
    }
}
