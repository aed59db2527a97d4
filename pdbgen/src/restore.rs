//! Exact values from a `bit1` table: a BFS from the goal in which each neighbour of a state at
//! depth `d` is at `d - 1` or `d + 1`, and bit 1 of its value (the stored bit) tells which.

use crate::byte_table::{ByteTable, Entries};
use crate::error::{FromIndexError, RestoreError};
use crate::levels::distances;
use crate::observer::BuildObserver;
use pdbformat::format::{Encoding, EntryView};
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::{Goal, Pattern};

/// Restores one byte per entry from the `bit1` payload `bits` of a zero-aware table of
/// `pattern` towards `goal`. The result holds exact distances only if the bits were right;
/// [`crate::semantic::verify_table`] on the result tells (a wrong bit shows up as a value that
/// jumps by more than 1, or an entry never reached).
pub fn restore_from_bit1(
    goal: &Goal,
    pattern: &Pattern,
    bits: &[u8],
    table: usize,
    obs: &dyn BuildObserver,
) -> Result<Entries, RestoreError> {
    let idx = ZeroAwareIndex::new(goal.board(), pattern.len())
        .map_err(RestoreError::index_error(pattern))?;
    if bits.len() as u64 != idx.len().div_ceil(8) {
        return Err(RestoreError::Length {
            entries: idx.len(),
            expected: idx.len().div_ceil(8),
            found: bits.len() as u64,
        });
    }
    let view = EntryView::new(bits, Encoding::Bit1);
    let goal_cells: Vec<u8> = pattern.goal_cells(goal).iter().map(|&c| c as u8).collect();
    let g = idx.index(&goal_cells, goal.blank_cell()) as usize;
    if view.bit1(g as u64) != 0 {
        return Err(RestoreError::GoalBit);
    }
    let guide = |i: usize, v: u8| view.bit1(i as u64) == (v >> 1) & 1;
    let (t, _) = distances::<ByteTable, _>(goal, pattern, &idx, table, obs, &guide, None)
        .expect("a BFS without a state has nothing that can fail");
    Ok(t.into_entries())
}

/// A table's exact values, one byte per entry, however they are encoded.
pub enum Values<'a> {
    /// `u8` entries, used in place.
    Borrowed(&'a [u8]),
    /// `u4` entries, unpacked.
    Unpacked(Vec<u8>),
    /// `bit1` entries, restored by a BFS that the stored bits guide.
    Restored(Entries),
}

impl std::ops::Deref for Values<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Values::Borrowed(b) => b,
            Values::Unpacked(v) => v,
            Values::Restored(e) => e,
        }
    }
}

/// The exact values of a loaded table of a file whose goal is `goal`: `u8` entries as they
/// are, `u4` entries unpacked, `bit1` entries restored by a BFS from the goal that each stored
/// bit guides (`obs` hears of its levels as table number `table_no`). Only a `bit1` payload
/// that is not one of this table (wrong length, the goal's bit set) is an error; the restored
/// values are exact only if the bits were right, which [`crate::verify_table`] tells.
pub fn values_of<'a>(
    goal: &Goal,
    table: &'a pdbformat::format::Table,
    table_no: usize,
    obs: &dyn BuildObserver,
) -> Result<Values<'a>, RestoreError> {
    Ok(match table.header.encoding {
        Encoding::U8 => Values::Borrowed(&table.bytes),
        // `Table::values` decodes every encoding but bit1.
        Encoding::U4 => Values::Unpacked(table.values().unwrap_or_default()),
        Encoding::Bit1 => Values::Restored(restore_from_bit1(
            goal,
            &table.header.pattern,
            &table.bytes,
            table_no,
            obs,
        )?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{build_table, NoProgress};
    use pdbformat::format::{encode_entries, Encoding};
    use pdbformat::{Board, TableKind};

    #[test]
    fn bit1_round_trip_restores_every_value() {
        for (w, h, tiles, goal) in [
            (3, 3, vec![1, 2, 3, 4], "blank-first"),
            (4, 3, vec![1, 2, 5, 6], "blank-last"),
            (4, 4, vec![1, 2, 3, 4, 5], "blank-first"),
        ] {
            let b = Board::new(w, h).unwrap();
            let goal = Goal::parse(b, goal).unwrap();
            let p = Pattern::new(b, &tiles).unwrap();
            let exact =
                build_table(&goal, &p, TableKind::ZeroAware, Some(2), 0, &NoProgress).unwrap();
            let bits = encode_entries(&exact, Encoding::Bit1);
            let back = restore_from_bit1(&goal, &p, &bits, 0, &NoProgress).unwrap();
            assert_eq!(&*back, &*exact);
        }
    }

    #[test]
    fn a_flipped_bit_is_caught_by_the_semantic_check() {
        let b = Board::new(3, 3).unwrap();
        let goal = Goal::blank_first(b);
        let p = Pattern::new(b, &[1, 2, 3, 4]).unwrap();
        let exact = build_table(&goal, &p, TableKind::ZeroAware, Some(1), 0, &NoProgress).unwrap();
        let mut bits = encode_entries(&exact, Encoding::Bit1);
        let i = exact.iter().position(|&v| v == 7).unwrap();
        bits[i / 8] ^= 1 << (i % 8);
        let back = restore_from_bit1(&goal, &p, &bits, 0, &NoProgress).unwrap();
        let v =
            crate::semantic::verify_table(&goal, TableKind::ZeroAware, &p, &back, &|_| {}).unwrap();
        assert!(!v.is_empty());
    }
}
