//! Patterns (sets of tiles) and partitions (disjoint patterns, or the overlapping patterns of a
//! compound), with the named presets.

use crate::board::Board;
use crate::error::PatternError;
use crate::goal::Goal;
use crate::presets::{self, PRESETS};
use std::fmt;

/// A non-empty set of tiles (never the blank), kept in ascending order. The order is the
/// pattern's tile order used by index ranking.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    tiles: Vec<u8>,
}

/// The patterns of one database, one table each, in the order given: disjoint ones (an
/// additive partition, [`Partition::new`]), or the distinct patterns of a *compound*
/// ([`Partition::compound`]), several partitions that share patterns, whose tables are stored
/// once each and whose every exact cover of the tiles is an additive group
/// ([`Partition::covers`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    patterns: Vec<Pattern>,
}

impl Pattern {
    /// A pattern from tiles in any order; checks range and duplicates against `board`.
    pub fn new(board: Board, tiles: &[usize]) -> Result<Pattern, PatternError> {
        if !board.fits_pdb() {
            return Err(PatternError::BoardTooLarge {
                cells: board.cells(),
            });
        }
        if tiles.is_empty() {
            return Err(PatternError::Empty);
        }
        let max = board.cells() - 1;
        let mut v = Vec::with_capacity(tiles.len());
        for &t in tiles {
            if t == 0 {
                return Err(PatternError::BlankInPattern);
            }
            if t > max {
                return Err(PatternError::TileOutOfRange { tile: t, max });
            }
            v.push(t as u8);
        }
        v.sort_unstable();
        if let Some(w) = v.windows(2).find(|w| w[0] == w[1]) {
            return Err(PatternError::Overlap {
                tile: w[0] as usize,
            });
        }
        Ok(Pattern { tiles: v })
    }

    /// Parses one pattern: tiles and ranges separated by commas or spaces (`1-3,7 8`).
    pub fn parse(board: Board, spec: &str) -> Result<Pattern, PatternError> {
        let syntax = |why: &str| PatternError::Syntax {
            spec: spec.to_string(),
            why: why.to_string(),
        };
        let mut tiles = Vec::new();
        for item in spec
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            match item.split_once('-') {
                Some((a, b)) => {
                    let a: usize = a
                        .trim()
                        .parse()
                        .map_err(|_| syntax("a range needs numbers, as in 1-7"))?;
                    let b: usize = b
                        .trim()
                        .parse()
                        .map_err(|_| syntax("a range needs numbers, as in 1-7"))?;
                    if a > b {
                        return Err(syntax("a range must go upwards, as in 1-7"));
                    }
                    if b > 4096 {
                        return Err(PatternError::TileOutOfRange {
                            tile: b,
                            max: board.cells() - 1,
                        });
                    }
                    tiles.extend(a..=b);
                }
                None => tiles.push(
                    item.parse()
                        .map_err(|_| syntax("expected tile numbers and ranges"))?,
                ),
            }
        }
        Pattern::new(board, &tiles)
    }

    /// The tiles, ascending.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Number of tiles.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Always false: patterns hold at least one tile.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Whether `tile` belongs to the pattern.
    pub fn contains(&self, tile: usize) -> bool {
        self.tiles.iter().any(|&t| t as usize == tile)
    }

    /// The tiles as a set, one bit each.
    pub fn mask(&self) -> u64 {
        self.tiles.iter().fold(0, |m, &t| m | 1u64 << t)
    }

    /// The pattern's goal cells under `goal`.
    pub fn goal_cells(&self, goal: &Goal) -> Vec<usize> {
        self.tiles
            .iter()
            .map(|&t| goal.cell_of(t as usize))
            .collect()
    }
}

impl fmt::Display for Pattern {
    /// Ranges compressed: `1-7`, `1,4,5,8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.tiles;
        let mut i = 0;
        let mut first = true;
        while i < t.len() {
            let mut j = i;
            while j + 1 < t.len() && t[j + 1] == t[j] + 1 {
                j += 1;
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if j >= i + 2 {
                write!(f, "{}-{}", t[i], t[j])?;
            } else {
                for (n, x) in t[i..=j].iter().enumerate() {
                    if n > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{x}")?;
                }
            }
            i = j + 1;
        }
        Ok(())
    }
}

impl Partition {
    /// Disjoint patterns; fails on a tile in two patterns.
    pub fn new(patterns: Vec<Pattern>) -> Result<Partition, PatternError> {
        let mut seen = std::collections::HashSet::new();
        for p in &patterns {
            for &t in p.tiles() {
                if !seen.insert(t) {
                    return Err(PatternError::Overlap { tile: t as usize });
                }
            }
        }
        if patterns.is_empty() {
            return Err(PatternError::Empty);
        }
        Ok(Partition { patterns })
    }

    /// The distinct patterns of a compound: they may overlap (each exact cover of the tiles is
    /// an additive group, [`Partition::covers`]); fails on a pattern given twice.
    pub fn compound(patterns: Vec<Pattern>) -> Result<Partition, PatternError> {
        for (i, p) in patterns.iter().enumerate() {
            if patterns[..i].contains(p) {
                return Err(PatternError::Repeated {
                    pattern: p.to_string(),
                });
            }
        }
        if patterns.is_empty() {
            return Err(PatternError::Empty);
        }
        Ok(Partition { patterns })
    }

    /// Whether no tile is in two patterns (an additive partition, one group).
    pub fn is_disjoint(&self) -> bool {
        let masks: Vec<u64> = self.patterns.iter().map(Pattern::mask).collect();
        crate::cover::are_disjoint(&masks)
    }

    /// The additive groups: each exact cover of the tiles the patterns hold, as indexes into
    /// [`patterns`](Self::patterns) (for a disjoint partition, all of them in one group; at
    /// most [`MAX_COVERS`](crate::cover::MAX_COVERS)).
    pub fn covers(&self) -> Vec<Vec<usize>> {
        let masks: Vec<u64> = self.patterns.iter().map(Pattern::mask).collect();
        let all = masks.iter().fold(0, |a, &m| a | m);
        crate::cover::exact_covers(&masks, all)
    }

    /// Parses patterns separated by `/` (`1-7/8-15`, `1,2,3,4,5,6/7-12/13,14,15`) or a preset
    /// name (`78`, `78b`, `663`, `555` on 4×4, `6666`, `6666b`, `6666c` and the
    /// transpose-symmetric `6666s` and `7755s` on 5×5; `full` and `bandsK` on any board:
    /// groups of K consecutive cells row by row, the last one smaller). Presets are given in
    /// goal cells and mapped onto `goal` through the board symmetry that takes the top-left
    /// corner to the goal's blank cell.
    pub fn parse(goal: &Goal, spec: &str) -> Result<Partition, PatternError> {
        let board = goal.board();
        let spec = spec.trim();
        if spec
            .chars()
            .any(|c| c == '/' || c == ',' || c == '-' || c == ' ')
        {
            let pats = spec
                .split('/')
                .map(|p| Pattern::parse(board, p))
                .collect::<Result<Vec<_>, _>>()?;
            return Partition::new(pats);
        }
        Partition::preset(goal, spec)
    }

    /// A named partition mapped onto `goal` (see [`Partition::parse`]).
    pub fn preset(goal: &Goal, name: &str) -> Result<Partition, PatternError> {
        let board = goal.board();
        if !board.fits_pdb() {
            return Err(PatternError::BoardTooLarge {
                cells: board.cells(),
            });
        }
        if name == "full" {
            let tiles: Vec<usize> = (1..board.cells()).collect();
            return Partition::new(vec![Pattern::new(board, &tiles)?]);
        }
        let cells = presets::cells_of(board, name).ok_or_else(|| PatternError::UnknownPreset {
            name: name.to_string(),
            board: board.to_string(),
            known: Partition::preset_names(board).join(", "),
        })?;
        let groups = presets::tiles_for(&cells, goal).ok_or_else(|| {
            PatternError::PresetNeedsCornerBlank {
                name: name.to_string(),
            }
        })?;
        let pats = groups
            .iter()
            .map(|tiles| Pattern::new(board, tiles))
            .collect::<Result<Vec<_>, _>>()?;
        let masks: Vec<u64> = pats.iter().map(Pattern::mask).collect();
        if crate::cover::are_disjoint(&masks) {
            Partition::new(pats)
        } else {
            Partition::compound(pats)
        }
    }

    /// The preset names available on `board`.
    pub fn preset_names(board: Board) -> Vec<&'static str> {
        let mut v: Vec<&str> = PRESETS
            .iter()
            .filter(|p| p.width == board.width() && p.height == board.height())
            .map(|p| p.name)
            .collect();
        v.extend(["full", "bandsK"]);
        v
    }

    /// The patterns.
    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    /// Whether every tile `1..cells` of `board` is in a pattern (for a partition: in exactly
    /// one, an additive partition) and, for a compound, some patterns cover them exactly once.
    pub fn check_complete(&self, board: Board) -> Result<(), PatternError> {
        let missing: Vec<usize> = (1..board.cells())
            .filter(|&t| !self.patterns.iter().any(|p| p.contains(t)))
            .collect();
        if !missing.is_empty() {
            return Err(PatternError::Missing { missing });
        }
        if !self.is_disjoint() && self.covers().is_empty() {
            return Err(PatternError::NoCover);
        }
        Ok(())
    }
}

impl fmt::Display for Partition {
    /// Patterns separated by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.patterns.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symmetry::Symmetry;

    fn b44() -> Board {
        Board::new(4, 4).unwrap()
    }

    #[test]
    fn parse_and_display() {
        let g = Goal::blank_first(b44());
        let p = Partition::parse(&g, "1-7/8-15").unwrap();
        assert_eq!(p.to_string(), "1-7/8-15");
        p.check_complete(b44()).unwrap();
        let q = Partition::parse(&g, "1,2,3,4,5,6/7-12/13,14,15").unwrap();
        assert_eq!(q.patterns().len(), 3);
        assert_eq!(q.to_string(), "1-6/7-12/13-15");
        assert_eq!(
            Pattern::parse(b44(), "1,2,4,5").unwrap().to_string(),
            "1,2,4,5"
        );
    }

    #[test]
    fn errors() {
        let g = Goal::blank_first(b44());
        assert!(matches!(
            Partition::parse(&g, "1-7/7-15"),
            Err(PatternError::Overlap { tile: 7 })
        ));
        assert!(matches!(
            Partition::parse(&g, "0-7/8-15"),
            Err(PatternError::BlankInPattern)
        ));
        assert!(matches!(
            Partition::parse(&g, "1-7/8-16"),
            Err(PatternError::TileOutOfRange { tile: 16, max: 15 })
        ));
        assert!(matches!(
            Partition::parse(&g, "1-7/8-14")
                .unwrap()
                .check_complete(b44()),
            Err(PatternError::Missing { .. })
        ));
        assert!(matches!(
            Partition::parse(&g, "99"),
            Err(PatternError::UnknownPreset { .. })
        ));
        assert!(matches!(
            Partition::parse(&g, "1-x"),
            Err(PatternError::Syntax { .. })
        ));
        assert!(matches!(
            Partition::parse(&g, "7-1"),
            Err(PatternError::Syntax { .. })
        ));
    }

    #[test]
    fn the_catalogue_presets_and_their_mirror_images_share_no_pattern() {
        // 6666, 6666b and 6666c with reflection: six sums over 24 distinct 6-tile sets.
        let b5 = Board::new(5, 5).unwrap();
        let g = Goal::blank_first(b5);
        let mut sets: Vec<Vec<u8>> = Vec::new();
        for name in ["6666", "6666b", "6666c"] {
            for p in Partition::preset(&g, name).unwrap().patterns() {
                let mut image: Vec<u8> = p
                    .tiles()
                    .iter()
                    .map(|&t| Symmetry::Transpose.map(b5, t as usize) as u8)
                    .collect();
                image.sort_unstable();
                sets.push(p.tiles().to_vec());
                sets.push(image);
            }
        }
        let mut distinct = sets.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 24, "{sets:?}");
    }

    #[test]
    fn bands_cut_the_cells_row_by_row() {
        let b = Board::new(6, 6).unwrap();
        let first = Partition::parse(&Goal::blank_first(b), "bands5").unwrap();
        let sizes: Vec<usize> = first.patterns().iter().map(Pattern::len).collect();
        assert_eq!(sizes, [5; 7]);
        assert_eq!(first.patterns()[1].tiles(), [6, 7, 8, 9, 10]);
        // Blank-last: the same bands turned half a turn, the first of them the bottom row's.
        let last = Partition::parse(&Goal::blank_last(b), "bands5").unwrap();
        assert_eq!(last.patterns()[0].tiles(), [31, 32, 33, 34, 35]);
        let seven = Partition::parse(&Goal::blank_first(Board::new(7, 7).unwrap()), "bands5");
        assert_eq!(seven.unwrap().patterns().last().unwrap().len(), 3);
        for bad in ["bands1", "bands10", "bands", "bandsx"] {
            assert!(matches!(
                Partition::parse(&Goal::blank_first(b), bad),
                Err(PatternError::UnknownPreset { .. })
            ));
        }
    }

    #[test]
    fn presets_are_complete_for_both_goals() {
        for (w, names) in [
            (4, vec!["78", "78b", "663", "555", "full"]),
            (
                5,
                vec!["6666", "6666s", "6666b", "6666c", "7755s", "6666x7"],
            ),
            (3, vec!["full", "bands2", "bands4"]),
            (6, vec!["bands5", "bands6"]),
            (8, vec!["bands4"]),
        ] {
            let b = Board::new(w, w).unwrap();
            for g in [Goal::blank_first(b), Goal::blank_last(b)] {
                for n in &names {
                    let p = Partition::parse(&g, n).unwrap();
                    p.check_complete(b).unwrap();
                }
            }
        }
        // 6666s and 7755s are their own transposes for both corner goals: in 6666s patterns 1
        // and 2 swap and 0 and 3 stay, in 7755s the 7-tile patterns 0 and 1 swap.
        let b5 = Board::new(5, 5).unwrap();
        for (g, name) in [Goal::blank_first(b5), Goal::blank_last(b5)]
            .into_iter()
            .flat_map(|g| [(g.clone(), "6666s"), (g, "7755s")])
        {
            let p = Partition::preset(&g, name).unwrap();
            let image = |pat: &Pattern| {
                let mut t: Vec<u8> = pat
                    .tiles()
                    .iter()
                    .map(|&t| {
                        let cell = Symmetry::Transpose.map(b5, g.cell_of(t as usize));
                        g.tile_at(cell) as u8
                    })
                    .collect();
                t.sort_unstable();
                t
            };
            let ps = p.patterns();
            let (pair, own) = if name == "6666s" {
                ((1, 2), [0, 3])
            } else {
                ((0, 1), [2, 3])
            };
            assert_eq!(image(&ps[pair.0]), ps[pair.1].tiles());
            assert_eq!(image(&ps[pair.1]), ps[pair.0].tiles());
            for i in own {
                assert_eq!(image(&ps[i]), ps[i].tiles(), "{name}");
            }
        }
        // Under blank-last the 7-8 preset maps through the 180° rotation: tile t -> 16 - t.
        let g = Goal::blank_last(b44());
        let p = Partition::preset(&g, "78").unwrap();
        assert_eq!(p.to_string(), "9-15/1-8");
        let odd = Goal::parse(b44(), "1 2 3 4 5 0 6 7 8 9 10 11 12 13 14 15").unwrap();
        assert!(matches!(
            Partition::preset(&odd, "78"),
            Err(PatternError::PresetNeedsCornerBlank { .. })
        ));
    }

    #[test]
    fn the_compound_preset_covers_the_tiles_seven_ways() {
        let b5 = Board::new(5, 5).unwrap();
        let g = Goal::blank_first(b5);
        let p = Partition::parse(&g, "6666x7").unwrap();
        assert_eq!(p.patterns().len(), 14);
        assert!(!p.is_disjoint());
        // The seven partitions of Clausecker's small-compound catalogue, by pattern index.
        let mut covers = p.covers();
        covers.sort();
        let mut expected = vec![
            vec![0, 1, 2, 3],
            vec![4, 5, 2, 3],
            vec![0, 1, 6, 7],
            vec![4, 5, 6, 7],
            vec![8, 1, 9, 2],
            vec![4, 10, 11, 3],
            vec![8, 1, 12, 13],
        ];
        for c in &mut expected {
            c.sort();
        }
        expected.sort();
        assert_eq!(covers, expected);
        assert_eq!(p.patterns()[0].to_string(), "1,5,6,10-12");
        // A partition is its own one cover; a compound repeats no pattern and needs a cover.
        let q = Partition::parse(&g, "6666").unwrap();
        assert!(q.is_disjoint());
        assert_eq!(q.covers(), vec![vec![0, 1, 2, 3]]);
        let pat = |t: &[usize]| Pattern::new(b5, t).unwrap();
        assert!(matches!(
            Partition::compound(vec![pat(&[1, 2]), pat(&[1, 2])]),
            Err(PatternError::Repeated { .. })
        ));
        let gappy = Partition::compound(vec![
            pat(&(1..13).collect::<Vec<_>>()),
            pat(&(12..25).collect::<Vec<_>>()),
        ])
        .unwrap();
        assert!(matches!(
            gappy.check_complete(b5),
            Err(PatternError::NoCover)
        ));
    }
}
