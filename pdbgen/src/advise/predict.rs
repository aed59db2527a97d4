//! From the heuristic's values on a sample of random positions to the nodes a search expands:
//! Korf, Reid & Edelkamp's formula over the brute-force tree's sizes (summed over IDA*'s
//! iterations and over the sample's optimal depths), and Clausecker's η (the mean of `B^-h`
//! for the asymptotic branching factor `B`), whose ratio between two heuristics predicts the
//! ratio of their nodes.

use pdbformat::Board;

/// Sizes of the brute-force search tree: `N_i` nodes at depth `i` for a start with the blank
/// on each cell, under whatever pruning of move strings the search applies.
#[derive(Clone, Debug)]
pub struct TreeSizes {
    /// `per_cell[cell][i]`: nodes at depth `i` below a start with the blank on `cell`.
    per_cell: Vec<Vec<f64>>,
}

impl TreeSizes {
    /// The tree of a search that never moves the blank straight back (parent pruning), to
    /// depth `depth`, counted exactly by the blank's cell and its previous cell.
    pub fn parent_pruning(board: Board, depth: usize) -> TreeSizes {
        let cells = board.cells();
        let neighbours: Vec<Vec<usize>> = (0..cells)
            .map(|c| board.neighbours(c).map(|(_, n)| n).collect())
            .collect();
        let per_cell = (0..cells)
            .map(|start| {
                // count[cell * (cells + 1) + from]: nodes with the blank on `cell` that came
                // from `from` (`cells` for the root).
                let mut count = vec![0f64; cells * (cells + 1)];
                count[start * (cells + 1) + cells] = 1.0;
                let mut sizes = vec![1.0];
                for _ in 0..depth {
                    let mut next = vec![0f64; count.len()];
                    for cell in 0..cells {
                        for from in 0..=cells {
                            let n = count[cell * (cells + 1) + from];
                            if n == 0.0 {
                                continue;
                            }
                            for &to in neighbours[cell].iter().filter(|&&to| to != from) {
                                next[to * (cells + 1) + cell] += n;
                            }
                        }
                    }
                    count = next;
                    sizes.push(count.iter().sum());
                }
                sizes
            })
            .collect();
        TreeSizes { per_cell }
    }

    /// Sizes counted elsewhere (by the solver's duplicate-move machine): `per_cell[cell][i]`
    /// nodes at depth `i` below a start with the blank on `cell`, every cell to the same depth.
    pub fn from_counts(per_cell: Vec<Vec<f64>>) -> TreeSizes {
        TreeSizes { per_cell }
    }

    /// The tree to `depth`: levels beyond those counted extrapolated from each start cell's
    /// growth over its last two counted levels (the tree's growth settles within a few dozen
    /// levels, and counting hundreds of levels of a large machine would take minutes).
    pub fn extended(mut self, depth: usize) -> TreeSizes {
        for sizes in &mut self.per_cell {
            let n = sizes.len();
            if n < 3 {
                sizes.resize(depth + 1, *sizes.last().unwrap_or(&1.0));
                continue;
            }
            let growth = sizes[n - 1] / sizes[n - 3];
            while sizes.len() <= depth {
                let next = sizes[sizes.len() - 2] * growth;
                sizes.push(next);
            }
        }
        self
    }

    /// The deepest depth counted.
    pub fn depth(&self) -> usize {
        self.per_cell[0].len() - 1
    }

    /// Nodes at depth `i` below a start with the blank on `cell`.
    pub fn at(&self, cell: usize, i: usize) -> f64 {
        self.per_cell[cell][i]
    }

    /// The asymptotic branching factor: the growth per level of the whole tree over its last
    /// two levels (two levels, since the growth alternates with the blank's cell's parity).
    pub fn branching_factor(&self) -> f64 {
        let d = self.depth();
        if d < 4 {
            return 2.0;
        }
        let at = |i: usize| self.per_cell.iter().map(|v| v[i]).sum::<f64>();
        (at(d) / at(d - 2)).sqrt()
    }
}

/// The cumulative distribution of the heuristic within each parity: every position's
/// heuristic value has the parity of its Manhattan distance (each pattern's distance has the
/// parity of its tiles' Manhattan distances), and so has every node a search meets at a given
/// depth below a start; the probability that such a node's value is at most `x` is taken over
/// the sample's values of `x`'s parity.
pub struct Distribution {
    /// `cumulative[x]`: fraction of the sample's values of `x`'s parity that are at most `x`.
    cumulative: Vec<f64>,
}

impl Distribution {
    /// The distribution of `values`.
    pub fn new(values: &[u32]) -> Distribution {
        let max = values.iter().copied().max().unwrap_or(0) as usize;
        let mut hist = vec![0f64; max + 3];
        for &v in values {
            hist[v as usize] += 1.0;
        }
        let mut cumulative = vec![0f64; max + 3];
        for parity in 0..2 {
            let total: f64 = hist.iter().skip(parity).step_by(2).sum();
            let mut run = 0.0;
            for x in (parity..hist.len()).step_by(2) {
                run += hist[x];
                cumulative[x] = if total > 0.0 { run / total } else { 1.0 };
            }
        }
        Distribution { cumulative }
    }

    /// The probability that a node's value is at most `x` (1 beyond the sample's largest).
    pub fn at_most(&self, x: usize) -> f64 {
        self.cumulative.get(x).copied().unwrap_or(1.0)
    }
}

/// What one position of the sample tells the prediction.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    /// The blank's cell.
    pub blank: usize,
    /// The heuristic's value there.
    pub h: u32,
    /// Its optimal solution length (exact or estimated).
    pub depth: u32,
}

/// Korf, Reid & Edelkamp's prediction of the nodes IDA* expands from `start` with a heuristic
/// whose values on random positions are distributed as `dist`: every iteration of threshold
/// `t` (from the start's value to its optimal length in steps of 2) expands the nodes at depth
/// `i` whose value is at most `t - i`, `N_i · P(t - i)`. (The unconditioned form, every
/// threshold from 0 with the start expanded with probability `P(t)`, gives the same on the 4x4
/// and errs more on the 3x3: see docs/advisor.md.)
pub fn kre_nodes(start: Start, dist: &Distribution, tree: &TreeSizes) -> f64 {
    let mut total = 0.0;
    let mut t = start.h as usize + (start.depth.saturating_sub(start.h) % 2) as usize;
    while t <= start.depth as usize {
        for i in 0..=t.min(tree.depth()) {
            total += tree.at(start.blank, i) * dist.at_most(t - i);
        }
        t += 2;
    }
    total
}

/// The mean of [`kre_nodes`] over `starts`, with the distribution of their own values.
pub fn mean_kre_nodes(starts: &[Start], tree: &TreeSizes) -> f64 {
    let values: Vec<u32> = starts.iter().map(|s| s.h).collect();
    let dist = Distribution::new(&values);
    starts
        .iter()
        .map(|&s| kre_nodes(s, &dist, tree))
        .sum::<f64>()
        / starts.len().max(1) as f64
}

/// Clausecker's η of a heuristic whose values on random positions are `values`: the mean of
/// `b^-h` for the branching factor `b`. Nodes expanded scale with η: the ratio of two
/// heuristics' η predicts the ratio of their nodes.
pub fn eta(values: &[u32], b: f64) -> f64 {
    values.iter().map(|&h| b.powi(-(h as i32))).sum::<f64>() / values.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_pruning_counts_the_small_trees() {
        // 2x2: a blank in a corner has 2 moves, then always 1 (no going back).
        let t = TreeSizes::parent_pruning(Board::new(2, 2).unwrap(), 5);
        assert_eq!(
            (0..=5).map(|i| t.at(0, i)).collect::<Vec<_>>(),
            [1.0, 2.0, 2.0, 2.0, 2.0, 2.0]
        );
        // 4x4: the asymptotic branching factor of parent pruning is about 2.13.
        let b = TreeSizes::parent_pruning(Board::new(4, 4).unwrap(), 40).branching_factor();
        assert!((b - 2.13).abs() < 0.01, "{b}");
        // Extended from 30 levels, the tree agrees with the one counted to 40.
        let full = TreeSizes::parent_pruning(Board::new(4, 4).unwrap(), 40);
        let ext = TreeSizes::parent_pruning(Board::new(4, 4).unwrap(), 30).extended(40);
        for cell in 0..16 {
            let q = ext.at(cell, 40) / full.at(cell, 40);
            assert!((q - 1.0).abs() < 1e-3, "{q}");
        }
    }

    #[test]
    fn one_iteration_adds_up() {
        // A start of value 10 at length 10 runs the iteration of threshold 10 only; nodes at
        // even depth i need an (even) value of at most 10 - i, those at odd depths meet no
        // value of their parity in the sample and count fully: 1 + 5/6 + ... + 1/6 + 5 = 8.5.
        let dist = Distribution::new(&[0, 2, 4, 6, 8, 10]);
        assert_eq!(dist.at_most(4), 0.5);
        assert_eq!(dist.at_most(3), 1.0);
        let tree = TreeSizes::from_counts(vec![vec![1.0; 11]]);
        let n = kre_nodes(
            Start {
                blank: 0,
                h: 10,
                depth: 10,
            },
            &dist,
            &tree,
        );
        assert!((n - 8.5).abs() < 1e-9, "{n}");
        assert!(eta(&[0, 1], 2.0) == 0.75);
    }
}
