//! Move strings: a sequence of the blank's single steps written in the tiles' notation of the
//! racing community (`U2LD3R`: each letter the direction the tiles slide) or in the blank's
//! (`RDLU`: each letter the direction the blank moves), read back into single steps, and a
//! sequence's length in either metric.

use crate::board::Direction;
use crate::metric::Metric;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The largest count one token may carry (`R2047`): the longest run of one board of at most
/// 4096 cells (a 2×2048 board's row). A larger count cannot be legal on any board.
pub const MAX_COUNT: usize = 2047;

/// The most single steps one move string may spell, so that a short hostile string (`R2047`
/// repeated) cannot ask for an unbounded allocation.
pub const MAX_STEPS: usize = 1 << 24;

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Each letter is the direction the tiles slide (the opposite of the blank's), and equal
    /// consecutive steps are one token with a count: `U2LD3R`. The racers' notation.
    Tiles,
    /// Each letter is the direction the blank moves, one letter per step: `RDLU`. The
    /// toolchain's own notation, and the default.
    #[default]
    Blank,
}

impl Notation {
    /// Both notations, the default first.
    pub const ALL: [Notation; 2] = [Notation::Blank, Notation::Tiles];

    /// The name: `tiles` or `blank`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Tiles => "tiles",
            Notation::Blank => "blank",
        }
    }

    /// The letter this notation writes for the blank's step `step`.
    pub fn letter(self, step: Direction) -> char {
        match self {
            Notation::Tiles => step.opposite().letter(),
            Notation::Blank => step.letter(),
        }
    }

    /// The blank's step a letter of this notation stands for (either case).
    pub fn step(self, letter: char) -> Option<Direction> {
        let d = Direction::from_letter(letter)?;
        Some(match self {
            Notation::Tiles => d.opposite(),
            Notation::Blank => d,
        })
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Notation {
    type Err = MoveError;

    /// `tiles` or `blank`.
    fn from_str(s: &str) -> Result<Notation, MoveError> {
        Notation::ALL
            .into_iter()
            .find(|n| n.name() == s)
            .ok_or_else(|| MoveError::UnknownNotation {
                name: s.chars().take(40).collect(),
            })
    }
}

/// Something wrong with a move string.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// A notation name that is neither `tiles` nor `blank`.
    #[error("unknown notation {name:?}: use tiles or blank")]
    UnknownNotation {
        /// What was given (at most 40 characters of it).
        name: String,
    },
    /// Text that is no move: a token is a letter U, D, L or R and an optional count.
    #[error("cannot read {text:?} (move {token}, at character {column}) as a move: write U, D, L or R, each with an optional count such as R3")]
    Unreadable {
        /// The offending text (at most 20 characters of it).
        text: String,
        /// 1-based number of the token it starts.
        token: usize,
        /// 1-based character position where it starts.
        column: usize,
    },
    /// A count of 0 or over [`MAX_COUNT`].
    #[error("move {token} {text:?} (at character {column}) has a count out of range: counts run from 1 to {MAX_COUNT}")]
    BadCount {
        /// The token as written (at most 20 characters of it).
        text: String,
        /// 1-based number of the token.
        token: usize,
        /// 1-based character position where it starts.
        column: usize,
    },
    /// The string spells more than [`MAX_STEPS`] single steps.
    #[error("the moves spell more than {MAX_STEPS} single steps")]
    TooLong,
}

/// One token of a move string as read: a letter and its count, where it stood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveToken {
    /// The blank's step the letter stands for, in the notation it was read in.
    pub step: Direction,
    /// How many times (1 when no count was written).
    pub count: usize,
    /// 1-based number of the token in the string.
    pub token: usize,
    /// 1-based character position where the token starts.
    pub column: usize,
    /// The token as written.
    pub text: String,
}

/// Reads `text` in `notation` into its tokens: a letter U, D, L or R (either case), then an
/// optional count of 1 to [`MAX_COUNT`]; whitespace may stand between tokens. An empty string
/// (or only whitespace) is the empty sequence.
pub fn read_tokens(text: &str, notation: Notation) -> Result<Vec<MoveToken>, MoveError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut tokens = Vec::new();
    let mut steps = 0usize;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let number = tokens.len() + 1;
        let column = i + 1;
        let Some(step) = notation.step(c) else {
            return Err(MoveError::Unreadable {
                text: text[at..]
                    .chars()
                    .take_while(|c| !c.is_whitespace())
                    .take(20)
                    .collect(),
                token: number,
                column,
            });
        };
        let mut j = i + 1;
        while j < chars.len() && chars[j].1.is_ascii_digit() {
            j += 1;
        }
        let end = chars.get(j).map_or(text.len(), |&(e, _)| e);
        let written = &text[at..end];
        let digits = &written[c.len_utf8()..];
        let count = if digits.is_empty() {
            1
        } else {
            // Leading zeros or many digits: refused by the bound, never parsed unbounded.
            match digits.parse::<usize>() {
                Ok(n) if (1..=MAX_COUNT).contains(&n) && digits.len() <= 4 => n,
                _ => {
                    return Err(MoveError::BadCount {
                        text: written.chars().take(20).collect(),
                        token: number,
                        column,
                    })
                }
            }
        };
        steps += count;
        if steps > MAX_STEPS {
            return Err(MoveError::TooLong);
        }
        tokens.push(MoveToken {
            step,
            count,
            token: number,
            column,
            text: written.to_string(),
        });
        i = j;
    }
    Ok(tokens)
}

/// Reads `text` in `notation` into the blank's single steps (see [`read_tokens`]).
pub fn read_moves(text: &str, notation: Notation) -> Result<Vec<Direction>, MoveError> {
    let tokens = read_tokens(text, notation)?;
    let mut steps = Vec::with_capacity(tokens.iter().map(|t| t.count).sum());
    for t in &tokens {
        steps.extend(std::iter::repeat_n(t.step, t.count));
    }
    Ok(steps)
}

/// Writes the blank's single steps `steps` in `notation`: in `tiles`, each run of equal steps
/// as the tiles' letter with its count when over one (`U2LD3R`; a run over [`MAX_COUNT`] as
/// several tokens, so that what is written reads back); in `blank`, one letter of the
/// blank per step (`RDLU`), as the solver has always printed solutions.
pub fn write_moves(steps: &[Direction], notation: Notation) -> String {
    match notation {
        Notation::Blank => steps.iter().map(|&d| notation.letter(d)).collect(),
        Notation::Tiles => {
            let mut out = String::new();
            // A run longer than a token's largest count is written as several tokens.
            for run in steps.chunk_by(|a, b| a == b) {
                for piece in run.chunks(MAX_COUNT) {
                    out.push(notation.letter(piece[0]));
                    if piece.len() > 1 {
                        out.push_str(&piece.len().to_string());
                    }
                }
            }
            out
        }
    }
}

/// The length of the blank's single steps `steps` in `metric`: in STM the number of steps; in
/// MTM the number of maximal runs of equal steps (one move slides a run of tiles).
pub fn length(steps: &[Direction], metric: Metric) -> usize {
    match metric {
        Metric::Stm => steps.len(),
        Metric::Mtm => steps.chunk_by(|a, b| a == b).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Direction::{Down, Left, Right, Up};

    #[test]
    fn tiles_notation_is_the_opposite_of_the_blank_with_counts() {
        // Tiles U2 L D3 R: the blank moves down twice, right, up three times, left.
        let steps = read_moves("U2LD3R", Notation::Tiles).unwrap();
        assert_eq!(steps, vec![Down, Down, Right, Up, Up, Up, Left]);
        assert_eq!(write_moves(&steps, Notation::Tiles), "U2LD3R");
        assert_eq!(write_moves(&steps, Notation::Blank), "DDRUUUL");
        assert_eq!(read_moves("d2 r u3 l", Notation::Blank).unwrap(), steps);
        assert_eq!(length(&steps, Metric::Stm), 7);
        assert_eq!(length(&steps, Metric::Mtm), 4);
        assert_eq!(read_moves("  ", Notation::Tiles).unwrap(), vec![]);
        assert_eq!(length(&[], Metric::Mtm), 0);
    }

    #[test]
    fn errors_name_the_token() {
        let e = read_moves("U2 L x D", Notation::Tiles).unwrap_err();
        assert_eq!(
            e,
            MoveError::Unreadable {
                text: "x".into(),
                token: 3,
                column: 6
            }
        );
        assert!(e.to_string().contains("move 3"), "{e}");
        for bad in ["R0", "R99999999999999", "R2048", "R00001", "R-1"] {
            let e = read_moves(bad, Notation::Blank).unwrap_err();
            assert!(
                matches!(
                    e,
                    MoveError::BadCount { token: 1, .. } | MoveError::Unreadable { .. }
                ),
                "{bad}: {e:?}"
            );
        }
        assert_eq!(read_moves("R2047", Notation::Blank).unwrap().len(), 2047);
        let hostile = "R2047".repeat(MAX_STEPS / 2047 + 1);
        assert_eq!(
            read_moves(&hostile, Notation::Tiles),
            Err(MoveError::TooLong)
        );
        // A run longer than one token's count is written as several tokens, and reads back
        // (found by the fuzz target: `R2047` after `R` was written as the unreadable `R2048`).
        let long = read_moves("D3 R R2047", Notation::Tiles).unwrap();
        let written = write_moves(&long, Notation::Tiles);
        assert_eq!(written, "D3R2047R");
        assert_eq!(read_moves(&written, Notation::Tiles).unwrap(), long);
        assert!("tile".parse::<Notation>().is_err());
        assert_eq!("tiles".parse::<Notation>(), Ok(Notation::Tiles));
        assert_eq!(Notation::default().to_string(), "blank");
    }
}
