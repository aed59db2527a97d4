//! Fixtures shared by pdbgen's test binaries.

use pdbformat::format::{write_pdb, Encoding, TableSource, WriteOptions};
use pdbformat::{Board, Goal, Pattern, TableKind};
use std::path::{Path, PathBuf};

/// Writes `dir/wrong.pdb`: the exact zero-aware table of tiles {1, 2, 3} on 3×3 (blank-first)
/// with one entry of value 5 raised to 7. The parity still holds and the checksums are valid,
/// so only the semantic checks (a move changing the value by 3) can catch it. Returns the
/// file and the index of the raised entry.
pub fn write_raised_entry(dir: &Path) -> (PathBuf, usize) {
    let b = Board::new(3, 3).unwrap();
    let goal = Goal::blank_first(b);
    let pattern = Pattern::new(b, &[1, 2, 3]).unwrap();
    let mut values = pdbgen::build_table(
        &goal,
        &pattern,
        TableKind::ZeroAware,
        Some(1),
        0,
        &pdbgen::NoProgress,
    )
    .unwrap()
    .to_vec();
    let i = values.iter().position(|&v| v == 5).unwrap();
    values[i] = 7;
    let f = dir.join("wrong.pdb");
    let src = TableSource {
        kind: TableKind::ZeroAware,
        pattern: &pattern,
        encoding: Encoding::U8,
        max_value: *values.iter().max().unwrap(),
        entries: &values,
    };
    write_pdb(&f, &goal, &[src], &WriteOptions::default()).unwrap();
    (f, i)
}
