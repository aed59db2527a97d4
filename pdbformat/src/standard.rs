//! The standard databases, defined once: their stable names, boards, goals, partitions, table
//! kinds and entry encodings, and which one is each board's default.
//!
//! `xtask` builds, records and publishes exactly these files (`artifacts/<name>.pdb`), and the
//! solver looks up a board's default database here ([`default_for`]) and builds it from the
//! same definition when it is missing, so the two cannot disagree. Names are a published
//! interface: users and scripts open `artifacts/15-663-za.pdb` by name.
//!
//! Standard files are stored uncompressed (`<name>.pdb`, memory-mappable); compressed copies
//! of them are variants named `<name>.zstd.pdb` and `<name>.gzip.pdb` ([`variant_file_name`]).
//!
//! Adding a database is one line of [`STANDARD`], for example the bit1 7-8 table
//! (`StandardDb::square("15-78-za-bit1", 4, "78", ZA).encoded(Encoding::Bit1).large()`) or the
//! 24-puzzle's 6-6-6-6 (`StandardDb::square("24-6666-za", 5, "6666", ZA).large()`); the tests
//! check that every entry resolves and that its name follows the naming rule.
//!
//! A [`Catalogue`] names several standard databases of one board whose maximum the solver
//! takes (`15-78+78b-za-bit1`: the two zero-aware 7-8 partitions at one bit per entry);
//! [`expand`] turns a database or catalogue name into the databases it stands for.
//!
//! Like the rest of the crate this module computes values only: it builds nothing (the
//! generator, `pdbgen`, turns an entry into a file) and prints nothing.

use crate::board::Board;
use crate::error::{PatternError, PuzzleError};
use crate::format::{Compression, Encoding};
use crate::goal::Goal;
use crate::pattern::Partition;
use crate::rank::TableKind;
use thiserror::Error;

/// One standard database: a whole partition in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandardDb {
    /// Stable name; the file is `<name>.pdb` ([`StandardDb::file_name`]).
    pub name: &'static str,
    /// Board columns.
    pub width: usize,
    /// Board rows.
    pub height: usize,
    /// The goal, as [`Goal::parse`] reads it (`blank-first`).
    pub goal: &'static str,
    /// The partition, as [`Partition::parse`] reads it: a preset name (`663`) or patterns.
    pub partition: &'static str,
    /// Zero-aware or zero-unaware tables.
    pub kind: TableKind,
    /// Entry encoding of every table.
    pub encoding: Encoding,
    /// Whether building it takes minutes and gigabytes (left out of tests and quick runs).
    pub large: bool,
}

impl StandardDb {
    /// A database on a `side`×`side` board for the blank-first goal, with `u8` entries,
    /// small; chain [`encoded`](Self::encoded) and [`large`](Self::large) to change that.
    pub const fn square(
        name: &'static str,
        side: usize,
        partition: &'static str,
        kind: TableKind,
    ) -> StandardDb {
        StandardDb {
            name,
            width: side,
            height: side,
            goal: "blank-first",
            partition,
            kind,
            encoding: Encoding::U8,
            large: false,
        }
    }

    /// The same database with `encoding` entries.
    pub const fn encoded(self, encoding: Encoding) -> StandardDb {
        StandardDb { encoding, ..self }
    }

    /// The same database, marked as taking minutes and gigabytes to build.
    pub const fn large(self) -> StandardDb {
        StandardDb {
            large: true,
            ..self
        }
    }

    /// The board. Every entry of [`STANDARD`] resolves (the tests check it with
    /// [`check_definitions`]), so this only fails for a hand-made entry.
    pub fn board(&self) -> Result<Board, StandardError> {
        Board::new(self.width, self.height).map_err(|e| self.bad_puzzle(e))
    }

    /// The goal.
    pub fn goal(&self) -> Result<Goal, StandardError> {
        Goal::parse(self.board()?, self.goal).map_err(|e| self.bad_puzzle(e))
    }

    /// The partition, resolved to tiles for [`goal`](Self::goal), and checked complete
    /// ([`Partition::check_complete`]: every tile in exactly one pattern, or for a compound in
    /// every exact cover).
    pub fn partition(&self) -> Result<Partition, StandardError> {
        let goal = self.goal()?;
        let p = Partition::parse(&goal, self.partition).map_err(|e| self.bad_pattern(e))?;
        p.check_complete(goal.board())
            .map_err(|e| self.bad_pattern(e))?;
        Ok(p)
    }

    /// The board, goal and partition at once (what most users of an entry need).
    pub fn resolve(&self) -> Result<Resolved, StandardError> {
        Ok(Resolved {
            board: self.board()?,
            goal: self.goal()?,
            partition: self.partition()?,
        })
    }

    /// The file name inside the artifacts folder: `<name>.pdb`.
    pub fn file_name(&self) -> String {
        format!("{}.pdb", self.name)
    }

    /// The name this entry should have under the naming rule: `<tiles>-<partition>-<za|zu>`,
    /// then `-<encoding>` unless `u8` (`15-663-za`, `8-full-zu`, `15-78-za-bit1`). The
    /// partition part is the preset name, so entries given as explicit patterns have no
    /// conventional name (`None`).
    pub fn conventional_name(&self) -> Option<String> {
        let preset_like = !self.partition.contains(['/', ',', '-', ' ']);
        if !preset_like {
            return None;
        }
        let kind = match self.kind {
            TableKind::ZeroAware => "za",
            TableKind::ZeroUnaware => "zu",
        };
        let mut name = format!("{}-{}-{kind}", self.width * self.height - 1, self.partition);
        if self.encoding != Encoding::U8 {
            name.push('-');
            name.push_str(self.encoding.name());
        }
        Some(name)
    }

    fn bad_puzzle(&self, e: PuzzleError) -> StandardError {
        StandardError::BadPuzzle {
            name: self.name,
            source: e,
        }
    }

    fn bad_pattern(&self, e: PatternError) -> StandardError {
        StandardError::BadPartition {
            name: self.name,
            source: e,
        }
    }
}

/// A standard database's board, goal and partition ([`StandardDb::resolve`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The board.
    pub board: Board,
    /// The goal.
    pub goal: Goal,
    /// The partition, checked complete.
    pub partition: Partition,
}

use TableKind::{ZeroAware as ZA, ZeroUnaware as ZU};

/// The standard set, smallest first.
pub const STANDARD: &[StandardDb] = &[
    StandardDb::square("8-full-za", 3, "full", ZA),
    StandardDb::square("8-full-zu", 3, "full", ZU),
    StandardDb::square("15-555-za", 4, "555", ZA),
    StandardDb::square("15-555-zu", 4, "555", ZU),
    StandardDb::square("15-663-za", 4, "663", ZA),
    StandardDb::square("15-663-zu", 4, "663", ZU),
    StandardDb::square("15-78-za", 4, "78", ZA).large(),
    StandardDb::square("15-78-zu", 4, "78", ZU).large(),
    StandardDb::square("15-78-za-bit1", 4, "78", ZA)
        .encoded(Encoding::Bit1)
        .large(),
    StandardDb::square("15-78b-za-bit1", 4, "78b", ZA)
        .encoded(Encoding::Bit1)
        .large(),
    StandardDb::square("24-6666-za", 5, "6666", ZA).large(),
    StandardDb::square("24-6666-za-bit1", 5, "6666", ZA)
        .encoded(Encoding::Bit1)
        .large(),
    // The 24-puzzle's stronger heuristics: more 6-6-6-6 partitions for catalogues
    // (90.5 MB each as bit1, a few CPU-minutes to build) and a 7-7-5-5 whose 7-tile patterns
    // mirror each other (1.02 GB as bit1; one 7-tile table searched, about 15 CPU-minutes).
    StandardDb::square("24-6666b-za-bit1", 5, "6666b", ZA)
        .encoded(Encoding::Bit1)
        .large(),
    StandardDb::square("24-6666c-za-bit1", 5, "6666c", ZA)
        .encoded(Encoding::Bit1)
        .large(),
    StandardDb::square("24-6666s-za-bit1", 5, "6666s", ZA)
        .encoded(Encoding::Bit1)
        .large(),
    StandardDb::square("24-7755s-za-bit1", 5, "7755s", ZA)
        .encoded(Encoding::Bit1)
        .large(),
    // Clausecker's "small" compound: seven 6-6-6-6 partitions over fourteen 6-tile tables
    // stored once each (317 MB as bit1, about 3 CPU-minutes to build), the maximum over the
    // seven sums and their transposes. The 5×5 default.
    StandardDb::square("24-6666x7-za-bit1", 5, "6666x7", ZA)
        .encoded(Encoding::Bit1)
        .large(),
];

/// A catalogue: several standard databases of one board whose heuristics the solver combines
/// by taking the maximum (each database is an additive group; with reflection each gives two
/// lookups). Asked for by name wherever a standard database name is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Catalogue {
    /// Stable name: `<tiles>-<partition>+<partition>…-<za|zu>[-<encoding>]`.
    pub name: &'static str,
    /// The member databases, by name, strongest first.
    pub members: &'static [&'static str],
}

/// The standard catalogues.
pub const CATALOGUES: &[Catalogue] = &[
    // The two zero-aware 7-8 partitions at one bit per entry (about 400 MB together): the
    // rows split and the staircase split, four lookups with reflection.
    Catalogue {
        name: "15-78+78b-za-bit1",
        members: &["15-78-za-bit1", "15-78b-za-bit1"],
    },
    // The 24-puzzle: Korf & Felner's 6-6-6-6, two shifted 6-6-6-6 partitions and the
    // transpose-symmetric one (362 MB together). With reflection: seven sums (6666s is its own
    // mirror image) over 28 tile sets, 26 of them distinct. The strongest 5x5 heuristic of the
    // standard set by node count (BENCHMARKS.md, "Korf's 24-puzzle instances: catalogues").
    Catalogue {
        name: "24-6666+6666b+6666c+6666s-za-bit1",
        members: &[
            "24-6666-za-bit1",
            "24-6666b-za-bit1",
            "24-6666c-za-bit1",
            "24-6666s-za-bit1",
        ],
    },
];

/// The default database of each board that has one, by name: what the solver uses when no
/// database is given, and builds on first use when it is missing. At most one per board.
///
/// On 4×4 the 6-6-3 (a second to build, 32 MB); on 5×5 the seven-partition compound at one
/// bit per entry (fourteen 6-tile tables, about 3 CPU-minutes to build, 317 MB), the fastest
/// 5×5 heuristic measured (BENCHMARKS.md, "24-puzzle").
pub const DEFAULTS: &[&str] = &["15-663-za", "24-6666x7-za-bit1"];

/// Something wrong with a standard database name or definition.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum StandardError {
    /// No standard database has this name.
    #[error("unknown database {name:?}; the standard ones are: {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The standard names, comma-separated.
        known: String,
    },
    /// An entry's board or goal does not resolve.
    #[error("standard database {name}: {source}")]
    BadPuzzle {
        /// The entry.
        name: &'static str,
        /// Why.
        source: PuzzleError,
    },
    /// An entry's partition does not resolve or does not cover the board.
    #[error("standard database {name}: {source}")]
    BadPartition {
        /// The entry.
        name: &'static str,
        /// Why.
        source: PatternError,
    },
    /// Two entries share a name.
    #[error("standard database {name} is defined twice")]
    Duplicate {
        /// The name.
        name: &'static str,
    },
    /// A [`CATALOGUES`] entry with an unknown or repeated member, or members of different
    /// boards or goals.
    #[error("catalogue {name}: {why}")]
    BadCatalogue {
        /// The catalogue.
        name: &'static str,
        /// Why.
        why: String,
    },
    /// A [`DEFAULTS`] name that is not in [`STANDARD`], or a second default for one board.
    #[error("default database {name}: {why}")]
    BadDefault {
        /// The name.
        name: &'static str,
        /// Why.
        why: String,
    },
}

/// The standard database called `name`.
pub fn find(name: &str) -> Option<&'static StandardDb> {
    STANDARD.iter().find(|s| s.name == name)
}

/// The standard database called `name`, or an error that lists the known names.
pub fn lookup(name: &str) -> Result<&'static StandardDb, StandardError> {
    find(name).ok_or_else(|| StandardError::Unknown {
        name: name.to_string(),
        known: known_names(),
    })
}

/// The databases named in `names`, in the standard order, or the whole set when `names` is
/// empty; an unknown name is an error that lists the known ones.
pub fn select<S: AsRef<str>>(names: &[S]) -> Result<Vec<&'static StandardDb>, StandardError> {
    for n in names {
        lookup(n.as_ref())?;
    }
    Ok(STANDARD
        .iter()
        .filter(|s| names.is_empty() || names.iter().any(|n| n.as_ref() == s.name))
        .collect())
}

/// The standard catalogue called `name`.
pub fn find_catalogue(name: &str) -> Option<&'static Catalogue> {
    CATALOGUES.iter().find(|c| c.name == name)
}

/// The databases a name stands for: a standard database's name gives that database, a
/// catalogue's name its members in order. An unknown name is an error that lists the known
/// databases and catalogues.
pub fn expand(name: &str) -> Result<Vec<&'static StandardDb>, StandardError> {
    if let Some(s) = find(name) {
        return Ok(vec![s]);
    }
    match find_catalogue(name) {
        Some(c) => c.members.iter().map(|m| lookup(m)).collect(),
        None => Err(StandardError::Unknown {
            name: name.to_string(),
            known: format!("{}; catalogues: {}", known_names(), catalogue_names()),
        }),
    }
}

/// The catalogue names, comma-separated (for messages).
pub fn catalogue_names() -> String {
    CATALOGUES
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The standard names, comma-separated (for messages).
pub fn known_names() -> String {
    STANDARD
        .iter()
        .map(|s| s.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The default database of `board` (see [`DEFAULTS`]), if it has one.
pub fn default_for(board: Board) -> Option<&'static StandardDb> {
    DEFAULTS
        .iter()
        .filter_map(|n| find(n))
        .find(|s| s.width == board.width() && s.height == board.height())
}

/// The standard database stored in the file called `file_name`, with the compression the name
/// implies: `<name>.pdb` (none), `<name>.zstd.pdb`, `<name>.gzip.pdb` (and `<name>.none.pdb`,
/// which [`variant_file_name`] never writes).
pub fn parse_file_name(file_name: &str) -> Option<(&'static StandardDb, Compression)> {
    let (name, c) = split_file_name(file_name)?;
    find(name).map(|s| (s, c))
}

/// Any database file name (standard or not) split into the database's name and the
/// compression the name implies, by the same rule as [`parse_file_name`]; `None` when it does
/// not end in `.pdb`.
pub fn split_file_name(file_name: &str) -> Option<(&str, Compression)> {
    let stem = file_name.strip_suffix(".pdb")?;
    for c in [Compression::Zstd, Compression::Gzip, Compression::None] {
        if let Some(name) = stem
            .strip_suffix(c.name())
            .and_then(|s| s.strip_suffix('.'))
        {
            return Some((name, c));
        }
    }
    Some((stem, Compression::None))
}

/// The file name of `db` stored with `compression`: [`StandardDb::file_name`] uncompressed,
/// `<name>.<compression>.pdb` otherwise.
pub fn variant_file_name(db: &StandardDb, compression: Compression) -> String {
    if compression == Compression::None {
        db.file_name()
    } else {
        format!("{}.{}.pdb", db.name, compression.name())
    }
}

/// Checks the whole set: every entry resolves (board, goal, complete partition), names are
/// unique (catalogue names too), every catalogue's members are standard databases of one board
/// and goal, and every default names an entry and is the only default of its board.
pub fn check_definitions() -> Result<(), StandardError> {
    for (i, s) in STANDARD.iter().enumerate() {
        s.partition()?;
        if STANDARD[..i].iter().any(|t| t.name == s.name) {
            return Err(StandardError::Duplicate { name: s.name });
        }
    }
    for (i, c) in CATALOGUES.iter().enumerate() {
        if find(c.name).is_some() || CATALOGUES[..i].iter().any(|d| d.name == c.name) {
            return Err(StandardError::Duplicate { name: c.name });
        }
        let bad = |why: String| StandardError::BadCatalogue { name: c.name, why };
        let members = c
            .members
            .iter()
            .map(|&m| find(m).ok_or_else(|| bad(format!("{m} is not a standard database"))))
            .collect::<Result<Vec<_>, _>>()?;
        let first = members
            .first()
            .ok_or_else(|| bad("no members".to_string()))?;
        for (j, m) in members.iter().enumerate() {
            if (m.width, m.height, m.goal) != (first.width, first.height, first.goal) {
                return Err(bad(format!("{} is for another board or goal", m.name)));
            }
            if members[..j].iter().any(|n| n.name == m.name) {
                return Err(bad(format!("{} is listed twice", m.name)));
            }
        }
    }
    for (i, &name) in DEFAULTS.iter().enumerate() {
        let s = find(name).ok_or_else(|| StandardError::BadDefault {
            name,
            why: "not a standard database".into(),
        })?;
        let same_board = DEFAULTS[..i]
            .iter()
            .filter_map(|n| find(n))
            .any(|t| (t.width, t.height) == (s.width, s.height));
        if same_board {
            return Err(StandardError::BadDefault {
                name,
                why: format!("a second default for {}x{} boards", s.width, s.height),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_resolves_and_follows_the_naming_rule() {
        check_definitions().unwrap();
        for (i, a) in STANDARD.iter().enumerate() {
            assert!(STANDARD[i + 1..].iter().all(|b| b.name != a.name));
            let suffix = match a.kind {
                TableKind::ZeroAware => "-za",
                TableKind::ZeroUnaware => "-zu",
            };
            assert!(a.name.contains(suffix), "{}", a.name);
        }
        let p = find("15-663-za").unwrap().partition().unwrap();
        assert_eq!(p.to_string().matches('/').count(), 2);
        for s in STANDARD {
            assert_eq!(s.conventional_name().as_deref(), Some(s.name), "{s:?}");
            let p = s.partition().unwrap();
            // Every group (the partition, or each cover of a compound) holds every tile once.
            for cover in p.covers() {
                let tiles: usize = cover.iter().map(|&i| p.patterns()[i].len()).sum();
                assert_eq!(tiles, s.width * s.height - 1, "{}", s.name);
            }
            assert_eq!(p.covers().len() > 1, !p.is_disjoint(), "{}", s.name);
            if s.encoding == Encoding::Bit1 {
                assert_eq!(
                    s.kind,
                    TableKind::ZeroAware,
                    "{}: bit1 needs zero-aware",
                    s.name
                );
            }
        }
        assert_eq!(
            lookup("15-663-za")
                .unwrap()
                .partition()
                .unwrap()
                .to_string(),
            "1,4,5,8,9,12/2,3,6,7,10,11/13-15"
        );
        assert_eq!(
            lookup("15-663-za")
                .unwrap()
                .partition()
                .unwrap()
                .patterns()
                .iter()
                .map(|p| p.len())
                .collect::<Vec<_>>(),
            [6, 6, 3]
        );
    }

    #[test]
    fn catalogues_expand_to_members_of_one_board() {
        check_definitions().unwrap();
        assert!(!CATALOGUES.is_empty());
        for c in CATALOGUES {
            let members = expand(c.name).unwrap();
            assert_eq!(
                members.iter().map(|m| m.name).collect::<Vec<_>>(),
                c.members
            );
            assert!(members.len() >= 2, "{}", c.name);
            // Every member ends like the catalogue (kind and encoding) and has a distinct
            // partition: two copies of one partition would add nothing to the maximum.
            for (i, m) in members.iter().enumerate() {
                let tail = m.name.split_once('-').unwrap().1.split_once('-').unwrap().1;
                assert!(c.name.ends_with(tail), "{} in {}", m.name, c.name);
                assert!(c.name.contains(m.partition), "{} in {}", m.name, c.name);
                let p = m.partition().unwrap();
                assert!(members[..i].iter().all(|n| n.partition().unwrap() != p));
            }
        }
        let c = find_catalogue("15-78+78b-za-bit1").unwrap();
        assert_eq!(c.members, ["15-78-za-bit1", "15-78b-za-bit1"]);
        assert_eq!(
            lookup("15-78b-za-bit1")
                .unwrap()
                .partition()
                .unwrap()
                .to_string(),
            "1-5,8,9/6,7,10-15"
        );
        assert_eq!(
            expand("15-663-za")
                .unwrap()
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>(),
            ["15-663-za"]
        );
        let e = expand("15-78+78c-za-bit1").unwrap_err().to_string();
        assert!(
            e.contains("15-78+78c-za-bit1")
                && e.contains("15-78+78b-za-bit1")
                && e.contains("15-663-za"),
            "{e}"
        );
    }

    #[test]
    fn defaults_per_board() {
        let b44 = Board::new(4, 4).unwrap();
        let d = default_for(b44).unwrap();
        let r = d.resolve().unwrap();
        assert_eq!((r.board, &r.goal), (b44, &Goal::blank_first(b44)));
        assert_eq!(r.partition, d.partition().unwrap());
        assert_eq!(d.name, "15-663-za");
        assert_eq!(d.file_name(), "15-663-za.pdb");
        assert_eq!((d.kind, d.encoding), (ZA, Encoding::U8));
        assert_eq!(d.goal().unwrap(), Goal::blank_first(b44));
        assert!(default_for(Board::new(3, 3).unwrap()).is_none());
        let b55 = Board::new(5, 5).unwrap();
        let d = default_for(b55).unwrap();
        assert_eq!(d.name, "24-6666x7-za-bit1");
        assert_eq!(d.partition().unwrap().covers().len(), 7);
        assert_eq!((d.kind, d.encoding), (ZA, Encoding::Bit1));
        assert_eq!(d.goal().unwrap(), Goal::blank_first(b55));
        assert!(default_for(Board::new(4, 5).unwrap()).is_none());
    }

    #[test]
    fn selections_keep_the_standard_order() {
        assert_eq!(select::<&str>(&[]).unwrap().len(), STANDARD.len());
        let s = select(&["15-663-zu", "8-full-za", "15-663-zu"]).unwrap();
        let names: Vec<_> = s.iter().map(|s| s.name).collect();
        assert_eq!(names, ["8-full-za", "15-663-zu"]);
        let e = select(&["8-full-za".to_string(), "15-664-za".into()]).unwrap_err();
        assert!(matches!(e, StandardError::Unknown { ref name, .. } if name == "15-664-za"));
        let text = e.to_string();
        assert!(
            text.contains("15-664-za") && text.contains("15-663-za"),
            "{text}"
        );
    }

    #[test]
    fn lookups_and_file_names() {
        let e = lookup("15-664-za").unwrap_err();
        assert!(matches!(&e, StandardError::Unknown { name, .. } if name == "15-664-za"));
        let text = e.to_string();
        assert!(
            text.contains("15-664-za") && text.contains("15-663-za"),
            "{text}"
        );
        let (s, c) = parse_file_name("15-78-za.zstd.pdb").unwrap();
        assert_eq!((s.name, c), ("15-78-za", Compression::Zstd));
        assert_eq!(variant_file_name(s, Compression::Gzip), "15-78-za.gzip.pdb");
        assert_eq!(variant_file_name(s, Compression::None), "15-78-za.pdb");
        assert_eq!(
            parse_file_name("8-full-zu.pdb").unwrap().1,
            Compression::None
        );
        assert!(parse_file_name("8-full-zu.xz.pdb").is_none());
        assert!(parse_file_name("8-full-zuzstd.pdb").is_none());
        assert!(parse_file_name("other.pdb").is_none());
        assert!(parse_file_name("8-full-zu").is_none());
    }

    #[test]
    fn one_line_entries() {
        // What a future entry looks like, checked without adding it to the set.
        let bit1 = StandardDb::square("15-78-za-bit1", 4, "78", ZA)
            .encoded(Encoding::Bit1)
            .large();
        assert_eq!(bit1.conventional_name().as_deref(), Some(bit1.name));
        assert!(bit1.large && bit1.encoding == Encoding::Bit1);
        bit1.partition().unwrap();
        let z = StandardDb::square("24-6666-za", 5, "6666", ZA).large();
        assert_eq!(z.conventional_name().as_deref(), Some("24-6666-za"));
        assert_eq!(z.partition().unwrap().patterns().len(), 4);
        assert_eq!(
            variant_file_name(&z, Compression::Zstd),
            "24-6666-za.zstd.pdb"
        );
        assert_eq!(variant_file_name(&z, Compression::None), "24-6666-za.pdb");
        assert_eq!(
            parse_file_name("15-663-za.none.pdb").map(|(s, c)| (s.name, c)),
            Some(("15-663-za", Compression::None))
        );
        let bad = StandardDb::square("15-99-za", 4, "99", ZA);
        assert!(matches!(
            bad.partition(),
            Err(StandardError::BadPartition {
                name: "15-99-za",
                ..
            })
        ));
        let bad = StandardDb::square("x", 1, "full", ZA);
        assert!(matches!(bad.goal(), Err(StandardError::BadPuzzle { .. })));
    }
}
