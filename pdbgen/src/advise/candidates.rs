//! The partitions the advisor searches when none is given: the tiles read in one of four
//! orders of their goal cells (row by row, rows snaking, column by column, columns snaking),
//! cut into consecutive groups, so that every pattern is a band of whole or partial rows (or
//! columns). Group sizes are the largest whose tables fit the memory and the two below it,
//! with one group of any smaller size first or last to make up the count; partitions whose
//! tables together exceed the memory are not generated.

use pdbformat::{Goal, Partition, Pattern};

/// The most partitions generated per order of the tiles.
pub const MAX_PER_ORDER: usize = 400;

/// The four orders of the tiles: each the non-blank tiles by their goal cells, with its name.
pub fn orders(goal: &Goal) -> Vec<(&'static str, Vec<usize>)> {
    let board = goal.board();
    let (w, h) = (board.width(), board.height());
    let rows: Vec<usize> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .map(|(r, c)| board.cell(r, c))
        .collect();
    let snake_rows: Vec<usize> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, if r % 2 == 0 { c } else { w - 1 - c })))
        .map(|(r, c)| board.cell(r, c))
        .collect();
    let columns: Vec<usize> = (0..w)
        .flat_map(|c| (0..h).map(move |r| (r, c)))
        .map(|(r, c)| board.cell(r, c))
        .collect();
    let snake_columns: Vec<usize> = (0..w)
        .flat_map(|c| (0..h).map(move |r| (if c % 2 == 0 { r } else { h - 1 - r }, c)))
        .map(|(r, c)| board.cell(r, c))
        .collect();
    let tiles = |cells: Vec<usize>| -> Vec<usize> {
        cells
            .into_iter()
            .map(|c| goal.tile_at(c))
            .filter(|&t| t != 0)
            .collect()
    };
    let mut v = vec![("rows", tiles(rows)), ("snake-rows", tiles(snake_rows))];
    if w > 1 && h > 1 {
        v.push(("columns", tiles(columns)));
        v.push(("snake-columns", tiles(snake_columns)));
    }
    v
}

/// Partitions of `goal`'s tiles into consecutive groups of each order of [`orders`]: groups of
/// `sizes` (largest first), with at most one group of another size, first or last;
/// `bytes(k)` the bytes of a table of `k` tiles (`None` when too large), at most `budget` in
/// all. Duplicates (the same patterns from two orders) are left out.
pub fn partitions(
    goal: &Goal,
    sizes: &[usize],
    bytes: &dyn Fn(usize) -> Option<u64>,
    budget: u64,
) -> Vec<Partition> {
    let board = goal.board();
    let mut out: Vec<Partition> = Vec::new();
    for (_, order) in orders(goal) {
        let n = order.len();
        let mut found: Vec<Vec<usize>> = Vec::new();
        // Sizes of the groups; a smaller remainder may come first or last.
        let smallest = sizes.iter().copied().min().unwrap_or(1);
        let mut firsts: Vec<usize> = vec![0];
        firsts.extend(1..smallest);
        for first in firsts {
            let mut cuts = Vec::new();
            if first > 0 {
                cuts.push(first);
            }
            compose(n - first.min(n), sizes, first == 0, &mut cuts, &mut found);
        }
        let mut made = 0;
        for groups in found {
            if made >= MAX_PER_ORDER {
                break;
            }
            let total: Option<u64> = groups.iter().map(|&k| bytes(k)).sum();
            if total.is_none_or(|b| b > budget) {
                continue;
            }
            let mut at = 0;
            let mut patterns = Vec::new();
            for &k in &groups {
                patterns.push(Pattern::new(board, &order[at..at + k]).expect("tiles of the board"));
                at += k;
            }
            let Ok(p) = Partition::new(patterns) else {
                continue;
            };
            if !out.contains(&p) {
                out.push(p);
                made += 1;
            }
        }
    }
    out
}

/// Every way of writing `left` as a sum of `sizes` (in order, largest first), ending with one
/// smaller remainder when `remainder` allows it, appended to `cuts`.
fn compose(
    left: usize,
    sizes: &[usize],
    remainder: bool,
    cuts: &mut Vec<usize>,
    found: &mut Vec<Vec<usize>>,
) {
    if found.len() > 50 * MAX_PER_ORDER {
        return;
    }
    if left == 0 {
        found.push(cuts.clone());
        return;
    }
    let smallest = sizes.iter().copied().min().unwrap_or(1);
    if remainder && left < smallest {
        cuts.push(left);
        found.push(cuts.clone());
        cuts.pop();
        return;
    }
    for &k in sizes {
        if k <= left {
            cuts.push(k);
            compose(left - k, sizes, remainder, cuts, found);
            cuts.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::Board;

    #[test]
    fn the_fifteen_puzzle_in_fives_and_sixes() {
        let goal = Goal::blank_first(Board::new(4, 4).unwrap());
        let ps = partitions(&goal, &[6, 5], &|k| Some(k as u64), 100);
        let rows = Partition::parse(&goal, "1-6/7-11/12-15").unwrap();
        assert!(ps.contains(&rows), "{ps:?}");
        assert!(ps.iter().all(|p| p.check_complete(goal.board()).is_ok()));
        assert!(ps.iter().all(|p| p.patterns().iter().all(|q| q.len() <= 6)));
        // At a byte a tile, every partition takes 15 bytes: a budget of 10 refuses all.
        assert!(partitions(&goal, &[6, 5], &|k| Some(k as u64), 10).is_empty());
    }
}
