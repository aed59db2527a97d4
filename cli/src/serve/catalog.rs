//! The databases a server has loaded: their names, their headers in words and as JSON, the
//! value histogram of each table (counted once, on first request), and the resolver that
//! chooses among them for each request.

use pdbformat::Goal;
use pdbsolver::{Database, Resolver};
use serde_json::{json, Value};
use std::sync::{Arc, OnceLock};

/// One database as served: a name unique on this server and the loaded file.
#[derive(Debug)]
pub struct Served {
    /// The name used in the API and on the page (the file name without `.pdb`).
    pub name: String,
    /// The loaded file.
    pub db: Arc<Database>,
    /// Per table: the value histogram (`None` for `bit1` tables), counted on first request.
    histograms: OnceLock<Vec<Option<Histogram>>>,
}

/// The values of one table: `counts[v]` entries hold `v`; entries beyond the header's
/// maximum value are unreachable states.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    /// Entries per value, from 0 to the largest value found.
    pub counts: Vec<u64>,
    /// Entries holding a marker above the table's maximum (parity-unreachable states).
    pub unreached: u64,
}

impl Histogram {
    /// The mean over reached entries.
    pub fn mean(&self) -> f64 {
        let n: u64 = self.counts.iter().sum();
        let s: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(v, &c)| v as f64 * c as f64)
            .sum();
        if n == 0 {
            0.0
        } else {
            s / n as f64
        }
    }
}

/// The databases of one server, in the order given.
#[derive(Debug)]
pub struct Catalog {
    /// The databases.
    pub dbs: Vec<Served>,
    /// Resolves each request's heuristic among them (by these names).
    pub resolver: Resolver,
}

impl Catalog {
    /// The catalogue of `dbs`, named after their files (`-2`, `-3`, … added to repeated names).
    pub fn new(dbs: Vec<Arc<Database>>) -> Catalog {
        let mut out: Vec<Served> = Vec::new();
        for db in dbs {
            let stem = db
                .path()
                .file_stem()
                .map_or_else(|| "database".to_string(), |s| s.to_string_lossy().into());
            let mut name = stem.clone();
            let mut k = 2;
            while out.iter().any(|s| s.name == name) {
                name = format!("{stem}-{k}");
                k += 1;
            }
            out.push(Served {
                name,
                db,
                histograms: OnceLock::new(),
            });
        }
        let resolver = Resolver::serving(
            (out.iter())
                .map(|s| (s.name.clone(), s.db.clone()))
                .collect(),
        );
        Catalog { dbs: out, resolver }
    }

    /// The database called `name`.
    pub fn get(&self, name: &str) -> Option<&Served> {
        self.dbs.iter().find(|s| s.name == name)
    }
}

impl Served {
    /// The header in words: one sentence for the page.
    pub fn describe(&self) -> String {
        let db = &self.db;
        let n = db.tables().len();
        format!(
            "A {} pattern database of the {} board for goal {}: {n} table{} (pattern{} {}) of {} entries, {} in all; {} on disk.",
            if db.is_zero_aware() { "zero-aware" } else { "zero-unaware" },
            db.board(),
            db.goal(),
            if n == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" },
            db.describe_patterns(),
            db.describe_encodings(),
            pdbformat::units::thousands(db.tables().iter().map(|t| t.header.entry_count).sum()),
            pdbformat::units::bytes(db.file_bytes()),
        )
    }

    /// The summary of `GET /api/databases`.
    pub fn summary_json(&self) -> Value {
        let db = &self.db;
        let board = db.board();
        let fits: Vec<&str> = [
            ("blank-first", Goal::blank_first(board)),
            ("blank-last", Goal::blank_last(board)),
        ]
        .into_iter()
        .filter(|(_, g)| db.fits(g))
        .map(|(n, _)| n)
        .collect();
        json!({
            "name": self.name,
            "board": board.to_string(),
            "width": board.width(),
            "height": board.height(),
            "goal": db.goal().to_string(),
            "goals": fits,
            "zero_aware": db.is_zero_aware(),
            "complete": db.is_complete(),
            "patterns": db.describe_patterns(),
            "tables": db.tables().len(),
            "file_bytes": db.file_bytes(),
            "description": self.describe(),
        })
    }

    /// The detail of `GET /api/databases/{name}`: the summary, each table's header and its
    /// value histogram (counting it the first time: call on a blocking thread).
    pub fn detail_json(&self) -> Value {
        let hist = self.histograms.get_or_init(|| self.count());
        let mut v = self.summary_json();
        v["file"] = json!(self.db.path().display().to_string());
        v["load_seconds"] = json!(self.db.load_seconds());
        let tables: Vec<Value> = self
            .db
            .tables()
            .iter()
            .zip(hist)
            .enumerate()
            .map(|(i, (t, h))| {
                let h_json = match h {
                    Some(h) => json!({
                        "counts": h.counts,
                        "unreached": h.unreached,
                        "mean": h.mean(),
                    }),
                    None => Value::Null,
                };
                json!({
                    "table": i,
                    "pattern": t.pattern.to_string(),
                    "tiles": t.pattern.len(),
                    "kind": t.kind.name(),
                    "encoding": t.header.encoding.name(),
                    "compression": t.header.compression.name(),
                    "entries": t.header.entry_count,
                    "max_value": t.header.max_value,
                    "raw_bytes": t.header.raw_len,
                    "stored_bytes": t.header.stored_len,
                    "sha256": t.header.raw_digest.to_string(),
                    "histogram": h_json,
                    "note": if h.is_none() {
                        json!("bit1 entries hold bit 1 of each value only: the histogram needs a restoring search (`pdbgen info --restore`)")
                    } else {
                        Value::Null
                    },
                })
            })
            .collect();
        v["table_list"] = json!(tables);
        v
    }

    /// Counts every table's values (not `bit1` ones: their entries are single bits).
    fn count(&self) -> Vec<Option<Histogram>> {
        self.db
            .tables()
            .iter()
            .map(|t| {
                if t.is_differential() {
                    return None;
                }
                let max = t.header.max_value as usize;
                let mut all = [0u64; 256];
                for i in 0..t.header.entry_count {
                    all[t.value(i) as usize] += 1;
                }
                let unreached = all[max + 1..].iter().sum();
                let top = (0..=max).rev().find(|&v| all[v] > 0).unwrap_or(0);
                Some(Histogram {
                    counts: all[..=top].to_vec(),
                    unreached,
                })
            })
            .collect()
    }
}
