//! How moves are counted: one tile slid per move (STM) or any number of tiles of one row or
//! column slid towards the blank at once (MTM).

use std::fmt;
use std::str::FromStr;

/// The move metric a search counts in and a table was built for.
///
/// In the single-tile metric ([`Metric::Stm`], the default) a move slides one tile into the
/// blank. In the multi-tile metric ([`Metric::Mtm`]) a move slides 1 to k tiles of the blank's
/// row or column one cell each towards the blank, at cost 1: the blank jumps k cells along
/// that line. Every STM move is an MTM move, so an MTM length never exceeds the STM length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Metric {
    /// Single-tile metric: one tile per move.
    #[default]
    Stm,
    /// Multi-tile metric: several tiles of one row or column per move.
    Mtm,
}

impl Metric {
    /// Both metrics, the default first.
    pub const ALL: [Metric; 2] = [Metric::Stm, Metric::Mtm];

    /// The name used on command lines, in JSON and in reports: `stm` or `mtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Stm => "stm",
            Metric::Mtm => "mtm",
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of reading a metric's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMetric(pub String);

impl fmt::Display for UnknownMetric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown metric \"{}\": expected stm or mtm", self.0)
    }
}

impl std::error::Error for UnknownMetric {}

impl FromStr for Metric {
    type Err = UnknownMetric;

    /// Reads `stm` or `mtm` (any case).
    fn from_str(s: &str) -> Result<Metric, UnknownMetric> {
        match s.to_ascii_lowercase().as_str() {
            "stm" => Ok(Metric::Stm),
            "mtm" => Ok(Metric::Mtm),
            _ => Err(UnknownMetric(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for m in Metric::ALL {
            assert_eq!(m.name().parse::<Metric>(), Ok(m));
            assert_eq!(m.to_string().to_uppercase().parse::<Metric>(), Ok(m));
        }
        assert_eq!(Metric::default(), Metric::Stm);
        let e = "fast".parse::<Metric>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown metric \"fast\": expected stm or mtm"
        );
    }
}
