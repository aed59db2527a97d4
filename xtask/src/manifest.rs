//! `artifacts/manifest.toml`: the committed record of every standard database's parameters and
//! the SHA-256 of each table's entries, and the comparison of files against it.
//!
//! Digests are of the encoded, uncompressed entries (the header's `raw_digest`), never of the
//! file: file bytes depend on the compression, the entries do not. Builds are deterministic, so
//! these digests are the same on every machine.
//!
//! A pattern file's record gives its partition and kind, and each table's pattern; a class
//! file's (the multi-tile metric's) gives its metric instead, and each table's labelling.

use anyhow::{bail, Context, Result};
use pdbformat::format::{Digest, Header};
use pdbformat::rank::{entry_count, ClassIndex, ClassLabels};
use pdbformat::standard::{self, StandardDb};
use pdbformat::{Goal, Metric, Partition};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The version of the manifest layout written here.
pub const MANIFEST_VERSION: u32 = 1;

/// The file name of the manifest inside the artifacts folder.
pub const MANIFEST_FILE: &str = "manifest.toml";

const PREAMBLE: &str = "\
# The standard databases: for each file its parameters (a pattern file's partition and kind,
# a class file's metric) and, for each table in it (its pattern or its labelling), the entry
# count, largest value and SHA-256 of the encoded, uncompressed entries (the header's raw
# digest; the same whatever compression the file uses). Builds are deterministic, so these
# digests are the same on every machine.
#
# Written by `cargo xtask artifacts record`; checked by `cargo xtask artifacts verify`.
# See artifacts/README.md.

";

/// The whole manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Layout version ([`MANIFEST_VERSION`]).
    pub manifest_version: u32,
    /// One record per standard database, in the standard order.
    #[serde(default, rename = "database")]
    pub databases: Vec<DbRecord>,
}

/// What the manifest says about one database file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DbRecord {
    /// StandardDb name (the file is `<name>.pdb`).
    pub name: String,
    /// Board as `WxH`.
    pub board: String,
    /// Goal: `blank-first`, `blank-last` or the tiles cell by cell.
    pub goal: String,
    /// The patterns separated by `/`, in file order; empty (left out) for a class file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub partition: String,
    /// `zero-aware` or `zero-unaware`; empty (left out) for a class file.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The metric of a class file (`mtm`); left out for a pattern file (single-tile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// Entry encoding: `u8`, `u4` or `bit1`.
    pub encoding: String,
    /// Entries of all tables together.
    pub entries: u64,
    /// The tables, in file order.
    #[serde(rename = "table")]
    pub tables: Vec<TableRecord>,
}

/// What the manifest says about one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRecord {
    /// The pattern's tiles (`1-7`, `1,4,5,8`); empty (left out) for a class table.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pattern: String,
    /// A class table's labelling as headers print it (`goal-rows`, `labelled (goal cells
    /// 1,2,4,5/…)`); left out for a pattern table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classes: Option<String>,
    /// Number of entries.
    pub entries: u64,
    /// The largest value.
    pub max_value: u8,
    /// SHA-256 of the encoded, uncompressed entries, 64 hex digits.
    pub raw_sha256: String,
}

/// The patterns of `partition` as the manifest writes them, one string a table.
pub fn pattern_names(partition: &Partition) -> Vec<String> {
    partition.patterns().iter().map(|p| p.to_string()).collect()
}

/// A goal as the manifest writes it: its name, or the tiles cell by cell.
pub fn goal_text(goal: &Goal) -> String {
    match goal.name() {
        Some(n) => n.to_string(),
        None => goal
            .tiles()
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    }
}

impl Manifest {
    /// Reads and parses the manifest at `path`; the layout version must be known.
    pub fn load(path: &Path) -> Result<Manifest> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the manifest {}", path.display()))?;
        Manifest::parse(&text).with_context(|| format!("in the manifest {}", path.display()))
    }

    /// Like [`Manifest::load`], but a missing file is an empty manifest (before the first
    /// `record`).
    pub fn load_or_empty(path: &Path) -> Result<Manifest> {
        if path.exists() {
            Manifest::load(path)
        } else {
            Ok(Manifest {
                manifest_version: MANIFEST_VERSION,
                databases: Vec::new(),
            })
        }
    }

    /// Parses manifest text.
    pub fn parse(text: &str) -> Result<Manifest> {
        let m: Manifest = toml::from_str(text).context("not a valid manifest")?;
        if m.manifest_version != MANIFEST_VERSION {
            bail!(
                "manifest_version is {}, this xtask reads version {MANIFEST_VERSION}",
                m.manifest_version
            );
        }
        Ok(m)
    }

    /// The manifest as TOML, with the explanatory comment on top.
    pub fn to_toml(&self) -> Result<String> {
        Ok(format!(
            "{PREAMBLE}{}",
            toml::to_string(self).context("cannot write the manifest as TOML")?
        ))
    }

    /// Writes the manifest to `path` (through a temporary file renamed into place).
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = self.to_toml()?;
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut tmp = tempfile::NamedTempFile::new_in(dir)
            .with_context(|| format!("cannot write in {}", dir.display()))?;
        std::io::Write::write_all(&mut tmp, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
        crate::make_readable(tmp.path())?;
        tmp.persist(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }

    /// The record of database `name`.
    pub fn get(&self, name: &str) -> Option<&DbRecord> {
        self.databases.iter().find(|d| d.name == name)
    }

    /// Adds or replaces the record of `rec.name`, keeping records in the standard order.
    pub fn upsert(&mut self, rec: DbRecord) {
        self.databases.retain(|d| d.name != rec.name);
        self.databases.push(rec);
        let pos = |name: &str| {
            standard::STANDARD
                .iter()
                .position(|s| s.name == name)
                .unwrap_or(usize::MAX)
        };
        self.databases.sort_by_key(|d| pos(&d.name));
    }

    /// Everything wrong with the manifest itself: unknown or repeated names, parameters that
    /// differ from the standard definitions, malformed digests, wrong entry counts. Empty when
    /// the manifest is sound.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, d) in self.databases.iter().enumerate() {
            if self.databases[..i].iter().any(|e| e.name == d.name) {
                out.push(format!("{}: recorded twice", d.name));
                continue;
            }
            let Some(s) = standard::find(&d.name) else {
                out.push(format!(
                    "{}: not a standard database (known: {})",
                    d.name,
                    standard::known_names()
                ));
                continue;
            };
            out.extend(
                d.differences_from_standard(s)
                    .into_iter()
                    .map(|p| format!("{}: {p}", d.name)),
            );
        }
        out
    }
}

impl DbRecord {
    /// The record of a file named `name` with this header. Every table must have the same
    /// kind and encoding (standard files always do).
    pub fn from_header(name: &str, h: &Header) -> Result<DbRecord> {
        let first = h.tables.first().context("the file holds no table")?;
        if h.tables
            .iter()
            .any(|t| t.kind != first.kind || t.encoding != first.encoding)
        {
            bail!("{name}: tables of different kinds or encodings in one file");
        }
        let classes = first.classes.is_some();
        if h.tables.iter().any(|t| t.classes.is_some() != classes) {
            bail!("{name}: class and pattern tables in one file");
        }
        let patterns: Vec<String> = h.tables.iter().map(|t| t.pattern.to_string()).collect();
        let (partition, kind, metric) = if classes {
            (
                String::new(),
                String::new(),
                Some(h.metric.name().to_string()),
            )
        } else {
            (patterns.join("/"), first.kind.name().to_string(), None)
        };
        Ok(DbRecord {
            name: name.to_string(),
            board: h.board().to_string(),
            goal: goal_text(&h.goal),
            partition,
            kind,
            metric,
            encoding: first.encoding.name().to_string(),
            entries: h.tables.iter().map(|t| t.entry_count).sum(),
            tables: h
                .tables
                .iter()
                .map(|t| TableRecord {
                    pattern: match t.classes {
                        Some(_) => String::new(),
                        None => t.pattern.to_string(),
                    },
                    classes: t.classes.map(|c| c.to_string()),
                    entries: t.entry_count,
                    max_value: t.max_value,
                    raw_sha256: t.raw_digest.hex(),
                })
                .collect(),
        })
    }

    /// How this record's parameters differ from the standard definition `s` (and whether its
    /// counts and digests are well-formed).
    pub fn differences_from_standard(&self, s: &StandardDb) -> Vec<String> {
        let mut out = Vec::new();
        let mut field = |what: &str, found: &str, expected: String| {
            if found != expected {
                out.push(format!(
                    "{what} is {found:?}, the standard says {expected:?}"
                ));
            }
        };
        if s.is_class_file() {
            return self.differences_from_class_file(s);
        }
        let r = match s.resolve() {
            Ok(r) => r,
            Err(e) => return vec![e.to_string()],
        };
        let patterns = pattern_names(&r.partition);
        field("board", &self.board, r.board.to_string());
        field("goal", &self.goal, goal_text(&r.goal));
        field("partition", &self.partition, patterns.join("/"));
        field("kind", &self.kind, s.kind.name().to_string());
        field("encoding", &self.encoding, s.encoding.name().to_string());
        if let Some(m) = &self.metric {
            out.push(format!("metric is {m:?}, the standard's is a pattern file"));
        }
        let table_patterns: Vec<&str> = self.tables.iter().map(|t| t.pattern.as_str()).collect();
        if table_patterns.join("/") != self.partition {
            out.push(format!(
                "its tables' patterns {} do not make up its partition {}",
                table_patterns.join("/"),
                self.partition
            ));
        }
        if self.tables.iter().map(|t| t.entries).sum::<u64>() != self.entries {
            out.push(format!(
                "entries is {}, its tables add up to {}",
                self.entries,
                self.tables.iter().map(|t| t.entries).sum::<u64>()
            ));
        }
        for (i, (t, p)) in self.tables.iter().zip(r.partition.patterns()).enumerate() {
            if let Ok(n) = entry_count(r.board, p.len(), s.kind) {
                if t.entries != n {
                    out.push(format!(
                        "table {i} has {} entries, its pattern has {n}",
                        t.entries
                    ));
                }
            }
            if let Err(e) = t.raw_sha256.parse::<Digest>() {
                out.push(format!("table {i} raw_sha256: {e}"));
            }
        }
        out
    }
}

impl DbRecord {
    /// How this record differs from standard class file `s`: board, goal, metric, encoding,
    /// each table's labelling and entry count, and whether its digests are well-formed.
    fn differences_from_class_file(&self, s: &StandardDb) -> Vec<String> {
        let (goal, labels) = match (s.goal(), s.labels()) {
            (Ok(g), Ok(l)) => (g, l),
            (Err(e), _) | (_, Err(e)) => return vec![e.to_string()],
        };
        let mut out = Vec::new();
        let mut field = |what: &str, found: &str, expected: String| {
            if found != expected {
                out.push(format!(
                    "{what} is {found:?}, the standard says {expected:?}"
                ));
            }
        };
        field("board", &self.board, goal.board().to_string());
        field("goal", &self.goal, goal_text(&goal));
        field("partition", &self.partition, String::new());
        field("kind", &self.kind, String::new());
        field(
            "metric",
            self.metric.as_deref().unwrap_or("stm"),
            s.metric.name().to_string(),
        );
        field("encoding", &self.encoding, s.encoding.name().to_string());
        let found: Vec<&str> = (self.tables.iter())
            .map(|t| t.classes.as_deref().unwrap_or(t.pattern.as_str()))
            .collect();
        let expected: Vec<String> = labels.iter().map(|l| l.to_string()).collect();
        if found != expected {
            out.push(format!(
                "its tables are {}, the standard says {}",
                found.join(" + "),
                expected.join(" + ")
            ));
        }
        let sum: u64 = self.tables.iter().map(|t| t.entries).sum();
        if sum != self.entries {
            out.push(format!(
                "entries is {}, its tables add up to {sum}",
                self.entries
            ));
        }
        for (i, (t, &l)) in self.tables.iter().zip(&labels).enumerate() {
            if let Ok(n) = class_entries(&goal, l) {
                if t.entries != n {
                    out.push(format!(
                        "table {i} has {} entries, its labelling has {n}",
                        t.entries
                    ));
                }
            }
            if let Err(e) = t.raw_sha256.parse::<Digest>() {
                out.push(format!("table {i} raw_sha256: {e}"));
            }
        }
        out
    }
}

/// The entry count of the class table of `goal` labelled by `labels`.
pub fn class_entries(goal: &Goal, labels: ClassLabels) -> Result<u64> {
    Ok(ClassIndex::new(goal.board(), labels, goal.blank_cell())?.len())
}

/// How the header of a class file for standard class file `s` differs from its definition:
/// goal, metric, each table's labelling and encoding.
fn compare_class_header(h: &Header, s: &StandardDb) -> Vec<String> {
    let (goal, labels) = match (s.goal(), s.labels()) {
        (Ok(g), Ok(l)) => (g, l),
        (Err(e), _) | (_, Err(e)) => return vec![e.to_string()],
    };
    let mut out = Vec::new();
    if h.goal != goal {
        out.push(format!(
            "goal is {}, expected {}",
            goal_text(&h.goal),
            goal_text(&goal)
        ));
    }
    if h.metric != s.metric {
        out.push(format!("metric is {}, expected {}", h.metric, s.metric));
    }
    let found: Vec<Option<ClassLabels>> = h.tables.iter().map(|t| t.classes).collect();
    if found != labels.iter().copied().map(Some).collect::<Vec<_>>() {
        let text = |l: &Option<ClassLabels>| match l {
            Some(l) => l.to_string(),
            None => "a pattern table".to_string(),
        };
        out.push(format!(
            "tables are {}, expected {}",
            found.iter().map(text).collect::<Vec<_>>().join(" + "),
            labels
                .iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(" + ")
        ));
    }
    for (i, t) in h.tables.iter().enumerate() {
        if t.encoding != s.encoding {
            out.push(format!(
                "table {i} has {} entries, expected {}",
                t.encoding, s.encoding
            ));
        }
    }
    out
}

/// How the header of a file for standard database `s` differs from the standard definition and,
/// when given, from its manifest record (entry counts, largest values, entry digests). Empty
/// when they agree. The compression is not compared: it does not change the entries.
pub fn compare_header(h: &Header, s: &StandardDb, rec: Option<&DbRecord>) -> Vec<String> {
    let mut out = Vec::new();
    if h.board() != s.board().unwrap_or(h.board()) {
        out.push(format!(
            "board is {}, expected {}x{}",
            h.board(),
            s.width,
            s.height
        ));
        return out;
    }
    if s.is_class_file() {
        out = compare_class_header(h, s);
    } else if h.metric != Metric::Stm {
        out.push(format!("metric is {}, expected {}", h.metric, Metric::Stm));
    } else {
        out = compare_pattern_header(h, s);
    }
    if !out.is_empty() {
        return out;
    }
    compare_with_record(h, rec)
}

/// How the header of a pattern file differs from standard pattern file `s`: board, goal,
/// partition, kinds and encodings.
fn compare_pattern_header(h: &Header, s: &StandardDb) -> Vec<String> {
    let mut out = Vec::new();
    let r = match s.resolve() {
        Ok(r) => r,
        Err(e) => return vec![e.to_string()],
    };
    if h.board() != r.board {
        out.push(format!("board is {}, expected {}", h.board(), r.board));
        return out;
    }
    if h.goal != r.goal {
        out.push(format!(
            "goal is {}, expected {}",
            goal_text(&h.goal),
            goal_text(&r.goal)
        ));
    }
    let expected = r.partition;
    let found: Vec<String> = h.tables.iter().map(|t| t.pattern.to_string()).collect();
    if h.tables.len() != expected.patterns().len()
        || h.tables
            .iter()
            .zip(expected.patterns())
            .any(|(t, p)| &t.pattern != p)
    {
        out.push(format!(
            "partition is {}, expected {expected}",
            found.join("/")
        ));
    }
    for (i, t) in h.tables.iter().enumerate() {
        if t.kind != s.kind {
            out.push(format!("table {i} is {}, expected {}", t.kind, s.kind));
        }
        if t.encoding != s.encoding {
            out.push(format!(
                "table {i} has {} entries, expected {}",
                t.encoding, s.encoding
            ));
        }
    }
    out
}

/// How the header's tables differ from their manifest record, when given (entry counts,
/// largest values, entry digests).
fn compare_with_record(h: &Header, rec: Option<&DbRecord>) -> Vec<String> {
    let mut out = Vec::new();
    let Some(rec) = rec else { return out };
    if rec.tables.len() != h.tables.len() {
        out.push(format!(
            "{} tables, the manifest records {}",
            h.tables.len(),
            rec.tables.len()
        ));
        return out;
    }
    for (i, (t, r)) in h.tables.iter().zip(&rec.tables).enumerate() {
        if t.entry_count != r.entries {
            out.push(format!(
                "table {i}: {} entries, the manifest records {}",
                t.entry_count, r.entries
            ));
        }
        if t.max_value != r.max_value {
            out.push(format!(
                "table {i}: largest value {}, the manifest records {}",
                t.max_value, r.max_value
            ));
        }
        if t.raw_digest.hex() != r.raw_sha256.to_ascii_lowercase() {
            out.push(format!(
                "table {i}: entries SHA-256 {}, the manifest records {}",
                t.raw_digest, r.raw_sha256
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Manifest {
        let s = standard::find("8-full-za").unwrap();
        let r = s.resolve().unwrap();
        let goal = r.goal;
        let p = &r.partition.patterns()[0].clone();
        let n = entry_count(r.board, p.len(), s.kind).unwrap();
        Manifest {
            manifest_version: MANIFEST_VERSION,
            databases: vec![DbRecord {
                name: s.name.into(),
                board: "3x3".into(),
                goal: goal_text(&goal),
                partition: p.to_string(),
                kind: "zero-aware".into(),
                metric: None,
                encoding: "u8".into(),
                entries: n,
                tables: vec![TableRecord {
                    pattern: p.to_string(),
                    classes: None,
                    entries: n,
                    max_value: 31,
                    raw_sha256: Digest::of(b"x").hex(),
                }],
            }],
        }
    }

    #[test]
    fn round_trip_and_sound() {
        let m = sample();
        assert!(m.problems().is_empty(), "{:?}", m.problems());
        let text = m.to_toml().unwrap();
        assert!(text.starts_with("# The standard"));
        assert!(text.contains("[[database.table]]"), "{text}");
        assert_eq!(Manifest::parse(&text).unwrap(), m);
    }

    #[test]
    fn problems_are_found() {
        let mut m = sample();
        m.databases[0].kind = "zero-unaware".into();
        m.databases[0].tables[0].raw_sha256 = "abc".into();
        m.databases[0].entries += 1;
        let p = m.problems().join("\n");
        assert!(p.contains("kind is \"zero-unaware\""), "{p}");
        assert!(p.contains("raw_sha256"), "{p}");
        assert!(p.contains("add up to"), "{p}");
        let mut m = sample();
        m.databases.push(m.databases[0].clone());
        m.databases[0].name = "9-full-za".into();
        let p = m.problems().join("\n");
        assert!(p.contains("not a standard database"), "{p}");
    }

    #[test]
    fn bad_text_is_an_error() {
        assert!(Manifest::parse("manifest_version = 2").is_err());
        assert!(Manifest::parse("manifest_version = 1\nsurprise = 3").is_err());
        assert!(Manifest::parse("[[database]]\nname = 3").is_err());
        assert!(Manifest::parse("manifest_version = 1")
            .unwrap()
            .databases
            .is_empty());
    }

    #[test]
    fn upsert_keeps_standard_order() {
        let mut m = sample();
        let mut r = m.databases[0].clone();
        r.name = "15-555-za".into();
        m.upsert(r.clone());
        r.name = "8-full-zu".into();
        m.upsert(r);
        let names: Vec<&str> = m.databases.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["8-full-za", "8-full-zu", "15-555-za"]);
    }
}
