//! The link a symmetry-reduced table's preamble records (source table, symmetry, predictor)
//! and the choice of the link a table can use.

use super::blocks::tile_map;
use crate::format::codes::Encoding;
use crate::goal::Goal;
use crate::pattern::Pattern;
use crate::symmetry::Symmetry;

/// Bytes of the preamble that starts every symmetry-reduced payload.
pub const PREAMBLE_LEN: usize = 8;

/// The symmetry codes of the preamble, in code order (code 0 is the identity).
const SYMMETRY_CODES: [Symmetry; 8] = [
    Symmetry::Identity,
    Symmetry::Transpose,
    Symmetry::Rotate180,
    Symmetry::FlipColumns,
    Symmetry::FlipRows,
    Symmetry::Rotate90,
    Symmetry::Rotate270,
    Symmetry::AntiTranspose,
];

/// Where a symmetry-reduced table takes its entries from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The table whose entries are mapped: an earlier one, or the table itself.
    pub source: usize,
    /// The board symmetry taking the source's states to this table's states.
    pub symmetry: Symmetry,
    /// What the kept entries are stored relative to.
    pub predictor: Predictor,
}

/// A prediction that kept entries are stored relative to (XOR), so that zstd finds more
/// repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predictor {
    /// The entries themselves (code 0).
    None,
    /// `bit1` entries only: bit 1 of the pattern tiles' Manhattan distance (code 1). An exact
    /// zero-aware value `h` is at least that distance `m` and of its parity, so the stored bit,
    /// bit 1 of `h` XOR bit 1 of `m`, is bit 0 of `(h − m) / 2`: zero whenever the tiles'
    /// interactions cost a multiple of four moves.
    Manhattan,
}

impl Link {
    /// The preamble bytes: source table, symmetry code, predictor code, five zero bytes.
    pub fn preamble(self) -> [u8; PREAMBLE_LEN] {
        let code = SYMMETRY_CODES
            .iter()
            .position(|&s| s == self.symmetry)
            .expect("every symmetry has a code");
        let mut p = [0u8; PREAMBLE_LEN];
        p[0] = self.source as u8;
        p[1] = code as u8;
        p[2] = match self.predictor {
            Predictor::None => 0,
            Predictor::Manhattan => 1,
        };
        p
    }

    /// Reads a preamble of table `table`; the link is checked against the patterns by
    /// [`tile_map`], not here.
    pub fn parse(bytes: &[u8; PREAMBLE_LEN], table: usize) -> Result<Link, String> {
        if bytes[3..].iter().any(|&b| b != 0) {
            return Err("the preamble's reserved bytes are not zero".into());
        }
        let source = bytes[0] as usize;
        let symmetry = *SYMMETRY_CODES
            .get(bytes[1] as usize)
            .ok_or_else(|| format!("unknown symmetry code {}", bytes[1]))?;
        if source > table {
            return Err(format!("source table {source} does not come before it"));
        }
        if source == table && !undoes_itself(symmetry) {
            return Err(format!(
                "a table can only be reduced by a symmetry that undoes itself, not {}",
                symmetry.name()
            ));
        }
        let predictor = match bytes[2] {
            0 => Predictor::None,
            1 if source == table => Predictor::Manhattan,
            1 => return Err("a table mapped from another keeps no entries to predict".into()),
            c => return Err(format!("unknown predictor code {c}")),
        };
        Ok(Link {
            source,
            symmetry,
            predictor,
        })
    }
}

/// The tables a file may reduce: a zero-aware pattern and its entries' encoding.
#[derive(Clone, Copy, Debug)]
pub struct Shape<'a> {
    /// The pattern.
    pub pattern: &'a Pattern,
    /// The entries' encoding.
    pub encoding: Encoding,
    /// Whether the table is zero-aware (only those are reduced).
    pub zero_aware: bool,
}

/// Whether `s` applied twice is the identity (the identity too: it keeps every entry).
fn undoes_itself(s: Symmetry) -> bool {
    !matches!(s, Symmetry::Rotate90 | Symmetry::Rotate270)
}

/// The first link table `table` can use: an earlier table of the same size and encoding that
/// a symmetry maps onto it, else itself under an involution that maps it onto itself, else (for
/// `bit1` entries, which the Manhattan predictor serves) itself under the identity.
pub fn find_link(goal: &Goal, shapes: &[Shape<'_>], table: usize) -> Option<Link> {
    let board = goal.board();
    let t = shapes[table];
    if !t.zero_aware {
        return None;
    }
    let candidates = (0..table)
        .flat_map(|s| Symmetry::of_board(board).into_iter().map(move |y| (s, y)))
        .chain(
            Symmetry::of_board(board)
                .into_iter()
                .filter(|&y| y != Symmetry::Identity && undoes_itself(y))
                .map(|y| (table, y)),
        );
    let predicted = t.encoding == Encoding::Bit1;
    let (source, symmetry) = candidates
        .filter(|&(s, _)| shapes[s].zero_aware && shapes[s].encoding == t.encoding)
        .find(|&(s, y)| tile_map(goal, y, shapes[s].pattern, t.pattern).is_some())
        .or(predicted.then_some((table, Symmetry::Identity)))?;
    Some(Link {
        source,
        symmetry,
        predictor: if predicted && source == table {
            Predictor::Manhattan
        } else {
            Predictor::None
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::format::symmetric::predict::Prediction;

    #[test]
    fn preambles_round_trip_and_bad_ones_are_refused() {
        let link = Link {
            source: 2,
            symmetry: Symmetry::FlipColumns,
            predictor: Predictor::Manhattan,
        };
        assert_eq!(Link::parse(&link.preamble(), 2), Ok(link));
        let bad = |p: [u8; PREAMBLE_LEN], t: usize| Link::parse(&p, t).unwrap_err();
        assert!(bad([0, 3, 1, 0, 0, 0, 0, 0], 2).contains("no entries to predict"));
        assert!(bad([2, 3, 7, 0, 0, 0, 0, 0], 2).contains("unknown predictor"));
        assert!(bad([2, 5, 0, 0, 0, 0, 0, 0], 2).contains("undoes itself"));
        assert!(bad([3, 0, 0, 0, 0, 0, 0, 0], 2).contains("does not come before"));
        assert!(bad([2, 8, 0, 0, 0, 0, 0, 0], 2).contains("unknown symmetry"));
        assert!(bad([2, 0, 0, 0, 0, 0, 0, 1], 2).contains("reserved"));
        let board = Board::new(3, 3).unwrap();
        assert!(Prediction::new(board, &[1], link, Encoding::U8).is_err());
    }
}
