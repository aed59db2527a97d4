//! What a partition costs before it is built: entries and bytes of its tables at each entry
//! encoding that can hold them, the bytes the solver holds, and the build's time and peak
//! memory from the build planner ([`crate::plan`]).

use crate::plan::plan;
use crate::request::BuildRequest;
use pdbformat::format::{Encoding, WriteOptions};
use pdbformat::rank::entry_count;
use pdbformat::{Goal, Partition, TableKind};
use std::collections::HashMap;

/// The most entries a table's index holds (2^40).
pub const MAX_TABLE_ENTRIES: u64 = 1 << 40;

/// Bytes of a partition's tables at one encoding.
#[derive(Clone, Debug, PartialEq)]
pub struct EncodingSize {
    /// The encoding.
    pub encoding: Encoding,
    /// Bytes of all the tables.
    pub bytes: u64,
    /// Whether it holds the tables only if their values fit (`u4`: at most 15), which is known
    /// once they are built.
    pub if_values_fit: bool,
}

/// The sizes of one partition.
#[derive(Clone, Debug)]
pub struct Sizes {
    /// Entries of each table; `None` for a table beyond the index's 2^40 entries.
    pub tables: Vec<Option<u64>>,
    /// Entries of all the tables (of those under 2^40 where some are beyond), or a lower
    /// bound of their count (`k`-permutations of the cells) where some table is beyond.
    pub entries: f64,
    /// Bytes at each encoding that can hold the tables (`bit1` for zero-aware ones only).
    pub encodings: Vec<EncodingSize>,
    /// The encoding the solver would hold: `bit1` for zero-aware tables, `u8` otherwise.
    pub encoding: Encoding,
    /// Bytes of the tables in [`Self::encoding`].
    pub raw_bytes: f64,
    /// Seconds to build on the request's threads (`None` for tables beyond 2^40 entries).
    pub build_seconds: Option<f64>,
    /// Peak bytes of memory of the build (`None` likewise).
    pub build_peak_bytes: Option<u64>,
}

/// Ways of sizing tables that share work between partitions: an entry count per pattern size.
#[derive(Default)]
pub struct Sizer {
    counts: HashMap<(usize, TableKind), Option<u64>>,
}

/// `n!/(n-k)!`, the entries of a zero-unaware table of `k` tiles on `n` cells and a lower bound
/// of a zero-aware one's, as a float (it may exceed `u64`).
fn arrangements(n: usize, k: usize) -> f64 {
    (0..k).map(|i| (n - i) as f64).product()
}

impl Sizer {
    /// Entries of a table of `k` tiles of `kind` on `goal`'s board, or `None` beyond 2^40.
    pub fn entries(&mut self, goal: &Goal, k: usize, kind: TableKind) -> Option<u64> {
        let board = goal.board();
        *self.counts.entry((k, kind)).or_insert_with(|| {
            if arrangements(board.cells(), k) > MAX_TABLE_ENTRIES as f64 {
                return None;
            }
            entry_count(board, k, kind).ok()
        })
    }

    /// The sizes of `partition` for tables of `kind`, built on `threads` threads (all cores
    /// when `None`) at `ns_per_entry` nanoseconds of wall time per searched entry.
    pub fn sizes(
        &mut self,
        goal: &Goal,
        partition: &Partition,
        kind: TableKind,
        threads: Option<usize>,
        ns_per_entry: f64,
    ) -> Sizes {
        let cells = goal.board().cells();
        let tables: Vec<Option<u64>> = partition
            .patterns()
            .iter()
            .map(|p| self.entries(goal, p.len(), kind))
            .collect();
        let entries: f64 = partition
            .patterns()
            .iter()
            .zip(&tables)
            .map(|(p, t)| t.map_or(arrangements(cells, p.len()), |e| e as f64))
            .sum();
        let mut encodings = vec![
            (Encoding::U8, false),
            (Encoding::U4, true),
            (Encoding::Bit1, false),
        ];
        if kind != TableKind::ZeroAware {
            encodings.pop();
        }
        let bytes_at = |e: Encoding| -> f64 {
            match e {
                Encoding::U8 => entries,
                Encoding::U4 => (entries / 2.0).ceil(),
                Encoding::Bit1 => (entries / 8.0).ceil(),
            }
        };
        let encoding = if kind == TableKind::ZeroAware {
            Encoding::Bit1
        } else {
            Encoding::U8
        };
        let all_fit = tables.iter().all(Option::is_some);
        let planned = all_fit
            .then(|| {
                plan(&BuildRequest {
                    goal: goal.clone(),
                    partition: partition.clone(),
                    kind,
                    threads,
                    encoding,
                    write: WriteOptions::default(),
                })
                .ok()
            })
            .flatten();
        Sizes {
            encodings: encodings
                .into_iter()
                .map(|(encoding, if_values_fit)| EncodingSize {
                    encoding,
                    bytes: bytes_at(encoding).min(u64::MAX as f64) as u64,
                    if_values_fit,
                })
                .collect(),
            raw_bytes: bytes_at(encoding),
            tables,
            entries,
            encoding,
            // The planner's processor time is its searched entries at its fixed rate.
            build_seconds: planned
                .as_ref()
                .map(|p| p.core_seconds * ns_per_entry / crate::plan::NS_PER_ENTRY),
            build_peak_bytes: planned.map(|p| p.peak_bytes),
        }
    }
}
