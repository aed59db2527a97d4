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
//! An entry is a *pattern file* (a partition of single-tile-metric tables, zero-aware or not)
//! or a *class file* ([`StandardDb::classes`]: class tables of the multi-tile metric, one per
//! labelling, whose maximum the solver takes). Each board has at most one default per metric
//! ([`DEFAULTS`], [`default_for`]).
//!
//! Adding a database is one line of [`STANDARD`], for example the bit1 7-8 table
//! (`StandardDb::square("15-78-za-bit1", 4, "78", ZA).bit1()`) or the
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
use crate::metric::Metric;
use crate::pattern::Partition;
use crate::rank::{ClassLabels, TableKind};
use thiserror::Error;

/// One standard database: a whole partition in one file, or a file of class tables.
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
    /// The partition, as [`Partition::parse`] reads it: a preset name (`663`) or patterns;
    /// empty for a class file.
    pub partition: &'static str,
    /// Zero-aware or zero-unaware tables (a class file's tables keep the blank exactly: they
    /// are zero-aware, as their headers say).
    pub kind: TableKind,
    /// The metric the tables count moves in: the single-tile one for a pattern file.
    pub metric: Metric,
    /// For a class file, its labellings joined by `+` (`rows+rokicki`), one table each, each
    /// as [`ClassLabels::parse`] reads it; empty for a pattern file.
    pub labellings: &'static str,
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
            metric: Metric::Stm,
            labellings: "",
            encoding: Encoding::U8,
            large: false,
        }
    }

    /// A file of multi-tile-metric class tables on a `side`×`side` board for the blank-first
    /// goal, one table per labelling of `labellings` (joined by `+`: `rows+rokicki`), `u8`
    /// entries, small; chain [`large`](Self::large) to change that.
    pub const fn classes(name: &'static str, side: usize, labellings: &'static str) -> StandardDb {
        StandardDb {
            name,
            width: side,
            height: side,
            goal: "blank-first",
            partition: "",
            kind: TableKind::ZeroAware,
            metric: Metric::Mtm,
            labellings,
            encoding: Encoding::U8,
            large: false,
        }
    }

    /// Whether this is a file of class tables ([`StandardDb::classes`]) rather than a
    /// partition of pattern tables.
    pub const fn is_class_file(&self) -> bool {
        !self.labellings.is_empty()
    }

    /// The same database with `encoding` entries.
    pub const fn encoded(self, encoding: Encoding) -> StandardDb {
        StandardDb { encoding, ..self }
    }

    /// The same database at one bit per entry, marked as large ([`large`](Self::large)): what
    /// every one-bit standard database is.
    pub const fn bit1(self) -> StandardDb {
        self.encoded(Encoding::Bit1).large()
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
    /// A class file has none: that is an error.
    pub fn partition(&self) -> Result<Partition, StandardError> {
        if self.is_class_file() {
            return Err(StandardError::Content {
                name: self.name,
                why: "is a file of class tables, not a partition",
            });
        }
        let goal = self.goal()?;
        let p = Partition::parse(&goal, self.partition).map_err(|e| self.bad_pattern(e))?;
        p.check_complete(goal.board())
            .map_err(|e| self.bad_pattern(e))?;
        Ok(p)
    }

    /// A class file's labellings, resolved for [`goal`](Self::goal), one table each in file
    /// order; a pattern file has none: that is an error.
    pub fn labels(&self) -> Result<Vec<ClassLabels>, StandardError> {
        if !self.is_class_file() {
            return Err(StandardError::Content {
                name: self.name,
                why: "is a partition of pattern tables, not a file of class tables",
            });
        }
        let goal = self.goal()?;
        self.labellings
            .split('+')
            .map(|spec| {
                ClassLabels::parse(&goal, spec).map_err(|why| StandardError::BadLabels {
                    name: self.name,
                    why,
                })
            })
            .collect()
    }

    /// The board, goal and partition at once (what most users of a pattern file need); an
    /// error for a class file (see [`labels`](Self::labels)).
    pub fn resolve(&self) -> Result<Resolved, StandardError> {
        Ok(Resolved {
            board: self.board()?,
            goal: self.goal()?,
            partition: self.partition()?,
        })
    }

    /// The arguments of the `pdbgen` command that builds this database into the current
    /// folder under its file name (`build --board 4x4 --partition 663 --kind zero-aware
    /// --encoding u8 -o 15-663-za.pdb`): what a front-end tells a user to run, in its own
    /// words, when the file is missing.
    pub fn build_args(&self) -> Vec<String> {
        let mut args = vec![
            "build".to_string(),
            "--board".into(),
            format!("{}x{}", self.width, self.height),
        ];
        if self.goal != "blank-first" {
            args.extend(["--goal".into(), self.goal.to_string()]);
        }
        if self.is_class_file() {
            args.extend(["--metric".into(), self.metric.to_string()]);
            for l in self.labellings.split('+') {
                args.extend(["--classes".into(), l.to_string()]);
            }
        } else {
            args.extend(["--partition".into(), self.partition.to_string()]);
            args.extend(["--kind".into(), self.kind.name().to_string()]);
        }
        args.extend(["--encoding".into(), self.encoding.name().to_string()]);
        args.extend(["-o".into(), self.file_name()]);
        args
    }

    /// The file name inside the artifacts folder: `<name>.pdb`.
    pub fn file_name(&self) -> String {
        format!("{}.pdb", self.name)
    }

    /// The name this entry should have under the naming rule: `<board>-<partition>-<za|zu>`
    /// for a pattern file, `<board>-<labellings>-<metric>` for a class file (its labellings
    /// joined by `+`), then `-<encoding>` unless `u8`; `<board>` is the tile count of a square
    /// board and `<W>x<H>` of any other (`15-663-za`, `8-full-zu`, `5x6-…`,
    /// `15-78-za-bit1`, `8-rows-mtm`, `15-rows+rokicki+rokicki-mirror-mtm`). The partition or labellings
    /// part is made of preset names, so entries given as explicit patterns or tile groups
    /// have no conventional name (`None`).
    pub fn conventional_name(&self) -> Option<String> {
        // Tile groups always hold a `/` (or a `,`); labelling presets may hold a `-`
        // (`rokicki-mirror`), pattern presets never do.
        let (part, suffix, not_preset) = if self.is_class_file() {
            (self.labellings, self.metric.name(), &['/', ',', ' '][..])
        } else {
            let kind = match self.kind {
                TableKind::ZeroAware => "za",
                TableKind::ZeroUnaware => "zu",
            };
            (self.partition, kind, &['/', ',', '-', ' '][..])
        };
        let preset_like = !part.contains(not_preset);
        if !preset_like {
            return None;
        }
        // Square boards by their tile count (the puzzles' own names: 15, 24, 35); others by
        // their size, which tells a 5x6 board from a 6x5 one.
        let board = if self.width == self.height {
            (self.width * self.height - 1).to_string()
        } else {
            format!("{}x{}", self.width, self.height)
        };
        let mut name = format!("{board}-{part}-{suffix}");
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

    fn bad_labels(&self, why: &str) -> StandardError {
        StandardError::BadLabels {
            name: self.name,
            why: why.to_string(),
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
    StandardDb::square("15-78-za-bit1", 4, "78", ZA).bit1(),
    StandardDb::square("15-78b-za-bit1", 4, "78b", ZA).bit1(),
    StandardDb::square("24-6666-za", 5, "6666", ZA).large(),
    StandardDb::square("24-6666-za-bit1", 5, "6666", ZA).bit1(),
    // The 24-puzzle's stronger heuristics: more 6-6-6-6 partitions for catalogues
    // (90.5 MB each as bit1, a few CPU-minutes to build) and a 7-7-5-5 whose 7-tile patterns
    // mirror each other (1.02 GB as bit1; one 7-tile table searched, about 15 CPU-minutes).
    StandardDb::square("24-6666b-za-bit1", 5, "6666b", ZA).bit1(),
    StandardDb::square("24-6666c-za-bit1", 5, "6666c", ZA).bit1(),
    StandardDb::square("24-6666s-za-bit1", 5, "6666s", ZA).bit1(),
    StandardDb::square("24-7755s-za-bit1", 5, "7755s", ZA).bit1(),
    // Clausecker's "small" compound: seven 6-6-6-6 partitions over fourteen 6-tile tables
    // stored once each (317 MB as bit1, about 3 CPU-minutes to build), the maximum over the
    // seven sums and their transposes. The 5×5 default.
    StandardDb::square("24-6666x7-za-bit1", 5, "6666x7", ZA).bit1(),
    // The defaults past the 24-puzzle: bands of consecutive cells, zero-aware, one bit per
    // entry, each built in minutes on two cores (6x6 41.5 MiB, 7x7 258 MiB, 8x8 27.7 MiB).
    StandardDb::square("35-bands5-za-bit1", 6, "bands5", ZA).bit1(),
    StandardDb::square("48-bands5-za-bit1", 7, "bands5", ZA).bit1(),
    StandardDb::square("63-bands4-za-bit1", 8, "bands4", ZA).bit1(),
    // Class files of the multi-tile metric. The 3x3 goal-row table (milliseconds to build)
    // and the 4x4 goal-row table with Rokicki's labelling and its mirror image beside it
    // (252,252,000 + 2 x 151,351,200 entries, 529 MB, several CPU-minutes to build; six
    // lookups with the transposes): the fastest 4x4 MTM heuristic measured, and the 4x4 MTM
    // default.
    StandardDb::classes("8-rows-mtm", 3, "rows"),
    StandardDb::classes(
        "15-rows+rokicki+rokicki-mirror-mtm",
        4,
        "rows+rokicki+rokicki-mirror",
    )
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

/// The default database of each board and metric that has one, by name: what the solver uses
/// when no database is given, and builds on first use when it is missing. At most one per
/// board and metric (an entry's metric is [`StandardDb::metric`]).
///
/// Single-tile metric: on 4×4 the 6-6-3 (a second to build, 32 MB); on 5×5 the
/// seven-partition compound at one bit per entry (fourteen 6-tile tables, about 3 CPU-minutes
/// to build, 317 MB), the fastest 5×5 heuristic measured (BENCHMARKS.md, "24-puzzle"); on
/// 6×6 and 7×7 bands of five cells, on 8×8 of four (`bandsK`: a minute, seven minutes and a
/// minute on two cores), searched by the anytime search there (BENCHMARKS.md, "Past the
/// 24-puzzle").
/// Multi-tile metric: on 4×4 the class tables of goal rows, Rokicki's labelling and its
/// mirror image (several CPU-minutes to build, 529 MB); other boards use the walking
/// distance.
pub const DEFAULTS: &[&str] = &[
    "15-663-za",
    "24-6666x7-za-bit1",
    "35-bands5-za-bit1",
    "48-bands5-za-bit1",
    "63-bands4-za-bit1",
    "15-rows+rokicki+rokicki-mirror-mtm",
];

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
    /// An entry's labellings do not resolve.
    #[error("standard database {name}: {why}")]
    BadLabels {
        /// The entry.
        name: &'static str,
        /// Why.
        why: String,
    },
    /// A partition asked of a class file, or labellings of a pattern file.
    #[error("standard database {name} {why}")]
    Content {
        /// The entry.
        name: &'static str,
        /// What it is instead.
        why: &'static str,
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
    /// A [`DEFAULTS`] name that is not in [`STANDARD`], or a second default for one board
    /// and metric.
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

/// The default database of `board` in `metric` (see [`DEFAULTS`]), if it has one.
pub fn default_for(board: Board, metric: Metric) -> Option<&'static StandardDb> {
    DEFAULTS
        .iter()
        .filter_map(|n| find(n))
        .find(|s| s.width == board.width() && s.height == board.height() && s.metric == metric)
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

/// Checks the whole set: every entry resolves (board, goal, and a complete partition in the
/// single-tile metric or labellings), names are unique (catalogue names too), every
/// catalogue's members are pattern files of one board and goal, and every default names an
/// entry and is the only default of its board and metric.
pub fn check_definitions() -> Result<(), StandardError> {
    for (i, s) in STANDARD.iter().enumerate() {
        if s.is_class_file() {
            s.labels()?;
            if s.encoding == Encoding::Bit1 {
                return Err(s.bad_labels("class tables are u8 or u4"));
            }
        } else {
            s.partition()?;
            if s.metric != Metric::Stm {
                return Err(StandardError::Content {
                    name: s.name,
                    why: "is a partition of pattern tables, which count single-tile moves",
                });
            }
        }
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
            if m.is_class_file() {
                return Err(bad(format!("{} is a file of class tables", m.name)));
            }
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
            .any(|t| (t.width, t.height, t.metric) == (s.width, s.height, s.metric));
        if same_board {
            return Err(StandardError::BadDefault {
                name,
                why: format!(
                    "a second {} default for {}x{} boards",
                    s.metric, s.width, s.height
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
