//! The names of a state: its folder beside the output (`OUT.partial`) and its pieces
//! (`table-I`, `table-I-level-D`).

use std::path::{Path, PathBuf};

/// The state folder of the output `output`: `OUT.partial` beside it.
pub(super) fn state_dir(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The name of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PieceName {
    /// A finished table.
    Finished(usize),
    /// A working table after a level.
    Level(usize, u8),
}

impl PieceName {
    /// The piece's file name.
    pub(super) fn name(self) -> String {
        match self {
            PieceName::Finished(t) => format!("table-{t}"),
            PieceName::Level(t, d) => format!("table-{t}-level-{d}"),
        }
    }

    /// The piece a file name names, if it names one in its canonical spelling.
    pub(super) fn parse(name: &str) -> Option<PieceName> {
        let rest = name.strip_prefix("table-")?;
        let p = match rest.split_once("-level-") {
            Some((t, d)) => PieceName::Level(t.parse().ok()?, d.parse().ok()?),
            None => PieceName::Finished(rest.parse().ok()?),
        };
        // Only the canonical spelling of a number.
        (p.name() == name).then_some(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_names_read_back() {
        for p in [PieceName::Finished(3), PieceName::Level(1, 17)] {
            assert_eq!(PieceName::parse(&p.name()), Some(p));
        }
        assert_eq!(PieceName::parse("table-01"), None);
        assert_eq!(PieceName::parse("table-1-level-x"), None);
    }
}
