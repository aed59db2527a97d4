//! The rebuild-free check of a class table: every class board reached, the goal's board the
//! only one at 0, no move of the file's metric changing a value by more than 1, and every
//! non-zero value with a neighbour one lower. Together they hold exactly for the table of
//! BFS distances.

use crate::byte_table::UNREACHED;
use crate::class_build::ClassBoard;
use crate::semantic::{checks, Violation};
use pdbformat::rank::{ClassIndex, ClassLabels};
use pdbformat::{Goal, Metric};
use rayon::prelude::*;

/// Entries per unit of work.
const CHUNK: usize = 1 << 16;

/// The violations of the class table `values` of `goal`'s board labelled by `labels` in `metric`
/// (its length is the index's, as the reader checked); `progress` gets the entries checked
/// so far per chunk.
pub(crate) fn check_class_table(
    goal: &Goal,
    labels: ClassLabels,
    metric: Metric,
    values: &[u8],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Violation>, pdbformat::rank::IndexError> {
    let index = ClassIndex::for_goal(goal, labels)?;
    let mut masks = [0u64; 64];
    index.goal_masks(&mut masks[..index.classes()]);
    let goal_index = index.rank(index.blank_goal(), &masks[..index.classes()]);
    let names = [
        checks::REACHED,
        checks::GOAL_ZERO,
        checks::CLASS_STEP,
        checks::DESCENT,
    ];
    let done = std::sync::atomic::AtomicU64::new(0);
    // Per check: (first failing index, its value, count).
    let found = (0..values.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut f = [(u64::MAX, 0u8, 0u64); 4];
            let mut fail = |k: usize, i: u64, v: u8| {
                if f[k].2 == 0 {
                    f[k].0 = i;
                    f[k].1 = v;
                }
                f[k].2 += 1;
            };
            let mut board = ClassBoard::new(&index);
            let range = c * CHUNK..((c + 1) * CHUNK).min(values.len());
            for i in range.clone() {
                let v = values[i];
                if v == UNREACHED {
                    fail(0, i as u64, v);
                    continue;
                }
                if (v == 0) != (i as u64 == goal_index) {
                    fail(1, i as u64, v);
                }
                board.load(i as u64);
                let (mut step, mut lower) = (false, false);
                board.any_neighbour(metric, |j| {
                    let w = values[j as usize];
                    step |= w != UNREACHED && w.abs_diff(v) > 1;
                    lower |= w.wrapping_add(1) == v;
                    false
                });
                if step {
                    fail(2, i as u64, v);
                }
                if v > 0 && !lower {
                    fail(3, i as u64, v);
                }
            }
            let n = done.fetch_add(range.len() as u64, std::sync::atomic::Ordering::Relaxed);
            progress(n + range.len() as u64);
            f
        })
        .reduce(
            || [(u64::MAX, 0u8, 0u64); 4],
            |a, b| {
                std::array::from_fn(|k| {
                    let first = if b[k].2 > 0 && (a[k].2 == 0 || b[k].0 < a[k].0) {
                        (b[k].0, b[k].1)
                    } else {
                        (a[k].0, a[k].1)
                    };
                    (first.0, first.1, a[k].2 + b[k].2)
                })
            },
        );
    Ok((0..4)
        .filter(|&k| found[k].2 > 0)
        .map(|k| Violation {
            check: names[k],
            index: found[k].0,
            value: found[k].1,
            count: found[k].2,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::class_build::build_class_table;
    use crate::observer::NoProgress;
    use pdbformat::Board;

    #[test]
    fn built_tables_pass_and_damaged_ones_fail() {
        let goal = Goal::blank_last(Board::new(3, 3).unwrap());
        for metric in Metric::ALL {
            let (entries, _) =
                build_class_table(&goal, ClassLabels::Rows, metric, Some(2), 0, &NoProgress)
                    .unwrap();
            let mut values = entries.to_vec();
            let check =
                |v: &[u8]| check_class_table(&goal, ClassLabels::Rows, metric, v, &|_| {}).unwrap();
            assert!(check(&values).is_empty());
            let i = values.iter().position(|&v| v > 3).unwrap();
            values[i] += 2;
            let found: Vec<&str> = check(&values).iter().map(|v| v.check).collect();
            assert!(found.contains(&checks::CLASS_STEP), "{found:?}");
            values[i] = UNREACHED;
            let found = check(&values);
            assert_eq!(
                (found[0].check, found[0].index),
                (checks::REACHED, i as u64)
            );
            values[i] = 0;
            let found: Vec<&str> = check(&values).iter().map(|v| v.check).collect();
            assert!(found.contains(&checks::GOAL_ZERO), "{found:?}");
        }
    }
}
