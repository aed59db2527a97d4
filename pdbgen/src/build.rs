//! Building on one machine: one table in memory ([`build_table`]), or every table of a
//! partition encoded and written into one file ([`build_file`]): searched by the byte BFS
//! (zero-unaware tables reduced from it), by the two-bit BFS for zero-aware `bit1` tables, or
//! derived from an earlier table whose symmetric image they are.

use crate::byte_table::Entries;
use crate::error::{BuildError, FromIndexError};
use crate::levels::zero_aware_distances;
use crate::observer::{BuildObserver, TableSummary};
use crate::pool::in_pool;
use crate::reduce::zero_unaware_from_aware;
use crate::request::{check_fits, BuildRequest};
use crate::stats::ValueStats;
use crate::symmetric::{derive_table, image_of, Image};
use crate::twobit::{build_bit1_table, Bit1Payload};
use pdbformat::format::{encode_entries, write_pdb, Encoding, TableSource};
use pdbformat::rank::{PermutationIndex, ZeroAwareIndex};
use pdbformat::{Goal, Pattern, TableKind};
use std::path::Path;
use std::time::Instant;

/// Builds the table of `pattern` towards `goal` in memory, one byte per entry in the index
/// order of [`pdbformat::TableIndex::new`]`(board, pattern.len(), kind)`, with `threads`
/// workers (`None`: all cores); `obs` hears of it as table number `table_no`. Unreached
/// entries (only possible for patterns that fill the whole board) hold [`crate::UNREACHED`].
/// The bytes are the same whatever the thread count.
///
/// The zero-aware table of tiles 1-4 of the 8-puzzle, and the entry of a state looked up:
///
/// ```
/// use pdbformat::{Board, Goal, Pattern, TableIndex, TableKind};
///
/// let goal = Goal::blank_first(Board::new(3, 3)?);
/// let pattern = Pattern::new(goal.board(), &[1, 2, 3, 4])?;
/// let table = pdbgen::build_table(&goal, &pattern, TableKind::ZeroAware, None, 0, &pdbgen::NoProgress)?;
/// let index = TableIndex::new(goal.board(), 4, TableKind::ZeroAware)?;
/// assert_eq!(table.len() as u64, index.len());
/// // The goal: tiles 1-4 on their cells, the blank on cell 0.
/// let cells: Vec<u8> = (1..=4).map(|t| goal.cell_of(t) as u8).collect();
/// assert_eq!(table[index.index(&cells, goal.blank_cell()) as usize], 0);
/// // Tile 1 and the blank swapped: one move of a pattern tile.
/// let moved = [0, cells[1], cells[2], cells[3]];
/// assert_eq!(table[index.index(&moved, goal.cell_of(1)) as usize], 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn build_table(
    goal: &Goal,
    pattern: &Pattern,
    kind: TableKind,
    threads: Option<usize>,
    table_no: usize,
    obs: &dyn BuildObserver,
) -> Result<Entries, BuildError> {
    in_pool(threads, || {
        build_in_pool(goal, pattern, kind, table_no, obs).map(|(e, _)| e)
    })
}

fn build_in_pool(
    goal: &Goal,
    pattern: &Pattern,
    kind: TableKind,
    table_no: usize,
    obs: &dyn BuildObserver,
) -> Result<(Entries, TableSummary), BuildError> {
    let board = goal.board();
    let start = Instant::now();
    let za_idx =
        ZeroAwareIndex::new(board, pattern.len()).map_err(BuildError::index_error(pattern))?;
    let entries = match kind {
        TableKind::ZeroAware => {
            obs.table_started(table_no, pattern, kind, za_idx.len());
            zero_aware_distances(goal, pattern, &za_idx, table_no, obs)
        }
        TableKind::ZeroUnaware => {
            let zu_idx = PermutationIndex::new(board, pattern.len())
                .map_err(BuildError::index_error(pattern))?;
            obs.table_started(table_no, pattern, kind, za_idx.len());
            let za = zero_aware_distances(goal, pattern, &za_idx, table_no, obs);
            zero_unaware_from_aware(board, &za_idx, &za, &zu_idx)
        }
    };
    let summary = TableSummary::new(pattern, kind, ValueStats::of(&entries), start);
    obs.table_done(table_no, &summary);
    Ok((entries, summary))
}

/// Builds every table of `req` and writes one file at `path` (through a temporary file
/// renamed into place: an interrupted build leaves nothing under `path`); returns each
/// table's figures, in partition order. A table whose pattern is the image of an earlier one
/// under a board symmetry that fixes the goal's blank is derived from it instead of searched
/// (`obs` hears [`BuildObserver::table_derived`]). Refuses `bit1` entries for zero-unaware
/// tables, and tables the encoding cannot hold ([`BuildError`]).
pub fn build_file(
    req: &BuildRequest,
    path: &Path,
    obs: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    req.check_encoding()?;
    in_pool(req.threads, || {
        let mut built: Vec<(EncodedOrRaw, TableSummary)> = Vec::new();
        let patterns = req.partition.patterns();
        for (i, p) in patterns.iter().enumerate() {
            if let Some(image) = image_of(&req.goal, patterns, i) {
                let derived = derive_from(req, &built[image.source], p, image, i, obs)?;
                built.push(derived);
                continue;
            }
            if req.two_bit() {
                let (payload, summary) = build_bit1_table(&req.goal, p, i, obs)?;
                built.push((EncodedOrRaw::Bit1(payload), summary));
                continue;
            }
            let (entries, summary) = build_in_pool(&req.goal, p, req.kind, i, obs)?;
            check_fits(req.encoding, &summary)?;
            let encoded = match req.encoding {
                Encoding::U8 => EncodedOrRaw::Raw(entries),
                e => EncodedOrRaw::Encoded(encode_entries(&entries, e)),
            };
            built.push((encoded, summary));
        }
        let sources: Vec<TableSource> = built
            .iter()
            .map(|(e, s)| TableSource {
                kind: req.kind,
                pattern: &s.pattern,
                encoding: req.encoding,
                max_value: s.max_value,
                entries: e.bytes(),
            })
            .collect();
        write_pdb(path, &req.goal, &sources, &req.write).map_err(|source| BuildError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(built.into_iter().map(|(_, s)| s).collect())
    })
}

/// Derives table `i` (pattern `p`) from the finished table it is an image of, with the source's
/// figures (a symmetry only renames entries) and the time the derivation took.
fn derive_from(
    req: &BuildRequest,
    source: &(EncodedOrRaw, TableSummary),
    p: &Pattern,
    image: Image,
    i: usize,
    obs: &dyn BuildObserver,
) -> Result<(EncodedOrRaw, TableSummary), BuildError> {
    let start = Instant::now();
    let (bytes, summary) = source;
    obs.table_derived(i, p, image.source, image.symmetry, summary.entries);
    let derived = derive_table(
        &req.goal,
        &summary.pattern,
        bytes.bytes(),
        p,
        image.symmetry,
        req.kind,
        req.encoding,
    )
    .map_err(BuildError::index_error(p))?;
    let summary = TableSummary {
        pattern: p.clone(),
        seconds: start.elapsed().as_secs_f64(),
        ..summary.clone()
    };
    obs.table_done(i, &summary);
    Ok((EncodedOrRaw::Encoded(derived), summary))
}

/// A finished table's bytes for the file, in the output encoding.
pub(crate) enum EncodedOrRaw {
    /// `u8` entries as the byte BFS left them.
    Raw(Entries),
    /// Entries packed from the byte table (`u4`, `bit1`) or derived through a symmetry.
    Encoded(Vec<u8>),
    /// The two-bit BFS's payload, compacted in place.
    Bit1(Bit1Payload),
}

impl EncodedOrRaw {
    /// The encoded entries.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            EncodedOrRaw::Raw(e) => e,
            EncodedOrRaw::Encoded(v) => v,
            EncodedOrRaw::Bit1(p) => p,
        }
    }
}
