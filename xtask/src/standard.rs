//! The standard set of databases: the one place that says which files `artifacts/` holds.
//!
//! The solver and users look these files up by name (`artifacts/15-663-za.pdb`), so names are
//! stable: a change here is a change of the published interface.

use anyhow::{anyhow, bail, Result};
use pdbformat::format::{Encoding, WriteOptions};
use pdbformat::{Board, Goal, Partition, TableKind};
use pdbgen::BuildRequest;

/// One standard database: a whole partition in one file, raw `u8` entries, uncompressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standard {
    /// Stable name; the file is `<name>.pdb`.
    pub name: &'static str,
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// Goal as `pdbgen build --goal` takes it.
    pub goal: &'static str,
    /// Partition as `pdbgen build --partition` takes it (a preset name or patterns).
    pub partition: &'static str,
    /// Zero-aware or zero-unaware.
    pub kind: TableKind,
    /// Whether building it takes minutes and gigabytes (left out of tests and `--quick`).
    pub large: bool,
}

const fn db(
    name: &'static str,
    side: usize,
    partition: &'static str,
    kind: TableKind,
    large: bool,
) -> Standard {
    Standard {
        name,
        width: side,
        height: side,
        goal: "blank-first",
        partition,
        kind,
        large,
    }
}

use TableKind::{ZeroAware as ZA, ZeroUnaware as ZU};

/// The standard set, smallest first.
pub const STANDARD: &[Standard] = &[
    db("8-full-za", 3, "full", ZA, false),
    db("8-full-zu", 3, "full", ZU, false),
    db("15-555-za", 4, "555", ZA, false),
    db("15-555-zu", 4, "555", ZU, false),
    db("15-663-za", 4, "663", ZA, false),
    db("15-663-zu", 4, "663", ZU, false),
    db("15-78-za", 4, "78", ZA, true),
    db("15-78-zu", 4, "78", ZU, true),
];

/// Entry encoding of every standard file.
pub const ENCODING: Encoding = Encoding::U8;

impl Standard {
    /// The board.
    pub fn board(&self) -> Board {
        Board::new(self.width, self.height).expect("standard boards are valid")
    }

    /// The goal.
    pub fn goal(&self) -> Goal {
        Goal::parse(self.board(), self.goal).expect("standard goals are valid")
    }

    /// The partition, resolved to tiles for the goal.
    pub fn partition(&self) -> Partition {
        Partition::parse(&self.goal(), self.partition).expect("standard partitions are valid")
    }

    /// The file name inside the artifacts folder: `<name>.pdb`.
    pub fn file_name(&self) -> String {
        format!("{}.pdb", self.name)
    }

    /// What `pdbgen::build_file` needs to build this file (uncompressed).
    pub fn request(&self, threads: Option<usize>) -> BuildRequest {
        BuildRequest {
            goal: self.goal(),
            partition: self.partition(),
            kind: self.kind,
            threads,
            encoding: ENCODING,
            write: WriteOptions::default(),
        }
    }
}

/// The standard database called `name`.
pub fn find(name: &str) -> Option<&'static Standard> {
    STANDARD.iter().find(|s| s.name == name)
}

/// The databases named in `names` in the standard order, or all of them when `names` is empty.
/// An unknown name is an error that lists the known ones.
pub fn select(names: &[String]) -> Result<Vec<&'static Standard>> {
    if names.is_empty() {
        return Ok(STANDARD.iter().collect());
    }
    for n in names {
        if find(n).is_none() {
            bail!("unknown database {n:?}; the standard ones are: {}", known());
        }
    }
    Ok(STANDARD
        .iter()
        .filter(|s| names.iter().any(|n| n == s.name))
        .collect())
}

/// The standard names, comma-separated (for messages).
pub fn known() -> String {
    STANDARD
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The standard database whose file is `file_name` (raw or a compressed variant), with the
/// compression the name implies: `<name>.pdb` (none), `<name>.zstd.pdb`, `<name>.gzip.pdb`.
pub fn parse_file_name(
    file_name: &str,
) -> Option<(&'static Standard, pdbformat::format::Compression)> {
    use pdbformat::format::Compression;
    let stem = file_name.strip_suffix(".pdb")?;
    for (suffix, c) in [(".zstd", Compression::Zstd), (".gzip", Compression::Gzip)] {
        if let Some(name) = stem.strip_suffix(suffix) {
            return find(name).map(|s| (s, c));
        }
    }
    find(stem).map(|s| (s, Compression::None))
}

/// The file name of a standard database stored with `compression`.
pub fn variant_file_name(s: &Standard, compression: pdbformat::format::Compression) -> String {
    use pdbformat::format::Compression;
    match compression {
        Compression::None => s.file_name(),
        c => format!("{}.{}.pdb", s.name, c.name()),
    }
}

/// Checks that every standard definition resolves (board, goal, partition), so that the
/// `expect`s above cannot fire; run by the tests.
pub fn check_definitions() -> Result<()> {
    for s in STANDARD {
        let board = Board::new(s.width, s.height).map_err(|e| anyhow!("{}: {e}", s.name))?;
        let goal = Goal::parse(board, s.goal).map_err(|e| anyhow!("{}: {e}", s.name))?;
        let p = Partition::parse(&goal, s.partition).map_err(|e| anyhow!("{}: {e}", s.name))?;
        p.check_complete(board)
            .map_err(|e| anyhow!("{}: {e}", s.name))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdbformat::format::Compression;

    #[test]
    fn definitions_resolve_and_names_are_unique() {
        check_definitions().unwrap();
        for (i, a) in STANDARD.iter().enumerate() {
            assert!(STANDARD[i + 1..].iter().all(|b| b.name != a.name));
            let suffix = match a.kind {
                TableKind::ZeroAware => "-za",
                TableKind::ZeroUnaware => "-zu",
            };
            assert!(a.name.ends_with(suffix), "{}", a.name);
        }
        assert_eq!(
            find("15-663-za")
                .unwrap()
                .partition()
                .to_string()
                .matches('/')
                .count(),
            2
        );
    }

    #[test]
    fn selection_and_file_names() {
        assert_eq!(select(&[]).unwrap().len(), STANDARD.len());
        let s = select(&["15-663-zu".into(), "8-full-za".into()]).unwrap();
        assert_eq!(s[0].name, "8-full-za");
        assert_eq!(s[1].name, "15-663-zu");
        let e = select(&["15-664-za".into()]).unwrap_err().to_string();
        assert!(e.contains("15-664-za") && e.contains("15-663-za"), "{e}");
        let (s, c) = parse_file_name("15-78-za.zstd.pdb").unwrap();
        assert_eq!((s.name, c), ("15-78-za", Compression::Zstd));
        assert_eq!(variant_file_name(s, Compression::Gzip), "15-78-za.gzip.pdb");
        assert_eq!(
            parse_file_name("8-full-zu.pdb").unwrap().1,
            Compression::None
        );
        assert!(parse_file_name("8-full-zu.xz.pdb").is_none());
        assert!(parse_file_name("other.pdb").is_none());
    }
}
