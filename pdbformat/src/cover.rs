//! The exact covers of a set of tiles by patterns: the additive groups of a compound (several
//! partitions that share tables, stored once each in one file).
//!
//! A sum of pattern-database values is admissible when its patterns are disjoint, and it
//! counts every tile's moves when they cover all tiles: each exact cover is one additive group,
//! and a compound's heuristic is the maximum over its covers. Clausecker's catalogues are
//! built this way: seven 6-6-6-6 partitions of the 24-puzzle over fourteen tables.

/// At most this many covers are enumerated ([`exact_covers`] stops there): more groups than
/// any search combines.
pub const MAX_COVERS: usize = 64;

/// The exact covers of `all` (a set of tiles, one bit each) by the sets `sets`, as lists of
/// indexes into `sets` in increasing order; at most [`MAX_COVERS`] of them (the rest are not
/// looked for). A cover uses each set at most once; empty sets are never used. The covers
/// come in the order of a depth-first search that covers the lowest uncovered tile with each
/// set holding it, in the order of `sets`.
pub fn exact_covers(sets: &[u64], all: u64) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    let mut chosen = Vec::new();
    extend(sets, all, 0, &mut chosen, &mut found);
    found
}

/// Whether no two of `sets` share an element (a partition's patterns, one group).
pub fn are_disjoint(sets: &[u64]) -> bool {
    let mut seen = 0u64;
    sets.iter().all(|&m| {
        let fresh = seen & m == 0;
        seen |= m;
        fresh
    })
}

/// Covers `all \ covered` given the sets in `chosen`, appending finished covers to `found`.
fn extend(
    sets: &[u64],
    all: u64,
    covered: u64,
    chosen: &mut Vec<usize>,
    found: &mut Vec<Vec<usize>>,
) {
    if found.len() >= MAX_COVERS {
        return;
    }
    let open = all & !covered;
    if open == 0 {
        let mut cover = chosen.clone();
        cover.sort_unstable();
        found.push(cover);
        return;
    }
    let lowest = open & open.wrapping_neg();
    for (i, &s) in sets.iter().enumerate() {
        if s & lowest != 0 && s & !open == 0 {
            chosen.push(i);
            extend(sets, all, covered | s, chosen, found);
            chosen.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(tiles: &[u32]) -> u64 {
        tiles.iter().fold(0, |m, &t| m | 1 << t)
    }

    #[test]
    fn a_partition_is_its_own_only_cover() {
        let sets = [mask(&[1, 2]), mask(&[3]), mask(&[4, 5])];
        assert_eq!(
            exact_covers(&sets, mask(&[1, 2, 3, 4, 5])),
            vec![vec![0, 1, 2]]
        );
    }

    #[test]
    fn overlapping_sets_give_every_cover_and_nothing_else() {
        // {1,2} {3,4}, {1,3} {2,4}, and {1,2,3,4} alone; {2,3} is in no cover.
        let sets = [
            mask(&[1, 2]),
            mask(&[3, 4]),
            mask(&[1, 3]),
            mask(&[2, 4]),
            mask(&[2, 3]),
            mask(&[1, 2, 3, 4]),
        ];
        let mut covers = exact_covers(&sets, mask(&[1, 2, 3, 4]));
        covers.sort();
        assert_eq!(covers, vec![vec![0, 1], vec![2, 3], vec![5]]);
        // Sets reaching outside `all` are never used; nothing covers tile 9.
        assert!(exact_covers(&sets, mask(&[1, 2, 3, 9])).is_empty());
        assert!(exact_covers(&[0, mask(&[1])], mask(&[1, 2])).is_empty());
    }

    #[test]
    fn enumeration_stops_at_the_limit() {
        // Two interchangeable sets per pair of tiles: 2^8 covers, only MAX_COVERS listed.
        let sets: Vec<u64> = (0..8)
            .flat_map(|i| [mask(&[2 * i, 2 * i + 1]); 2])
            .collect();
        let all = (1u64 << 16) - 1;
        let covers = exact_covers(&sets, all);
        assert_eq!(covers.len(), MAX_COVERS);
        assert!(covers.iter().all(|c| c.len() == 8));
    }
}
