//! Building on one machine: one table in memory ([`build_table`]), or every table of a
//! partition encoded and written into one file ([`build_file`]): searched by the byte BFS
//! (zero-unaware tables reduced from it), by the two-bit BFS for zero-aware `bit1` tables, or
//! derived from an earlier table whose symmetric image they are.

use crate::byte_table::{ByteTable, Entries};
use crate::error::{BuildError, FromIndexError};
use crate::levels::{zero_aware_distances, LevelSaves};
use crate::observer::{BuildObserver, TableSummary};
use crate::pool::in_pool;
use crate::reduce::zero_unaware_from_aware;
use crate::request::{check_fits, BuildRequest};
use crate::state::{summary_of, BuildState};
use crate::stats::ValueStats;
use crate::symmetric::{derive_table, image_of, Image};
use crate::twobit::{build_bit1_table, Bit1Payload, TwoBitTable};
use pdbformat::format::{encode_entries, write_pdb_streamed, Encoding, TableShape};
use pdbformat::rank::{entry_count, PermutationIndex, ZeroAwareIndex};
use pdbformat::{Goal, Pattern, TableKind};
use std::io::Write;
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
        build_in_pool(goal, pattern, kind, table_no, obs, None).map(|(e, _)| e)
    })
}

fn build_in_pool(
    goal: &Goal,
    pattern: &Pattern,
    kind: TableKind,
    table_no: usize,
    obs: &dyn BuildObserver,
    state: Option<&mut BuildState>,
) -> Result<(Entries, TableSummary), BuildError> {
    let board = goal.board();
    let start = Instant::now();
    let za_idx =
        ZeroAwareIndex::new(board, pattern.len()).map_err(BuildError::index_error(pattern))?;
    let saves = state.map(|s| s as &mut dyn LevelSaves<ByteTable>);
    let (entries, earlier) = match kind {
        TableKind::ZeroAware => {
            obs.table_started(table_no, pattern, kind, za_idx.len());
            zero_aware_distances(goal, pattern, &za_idx, table_no, obs, saves)?
        }
        TableKind::ZeroUnaware => {
            let zu_idx = PermutationIndex::new(board, pattern.len())
                .map_err(BuildError::index_error(pattern))?;
            obs.table_started(table_no, pattern, kind, za_idx.len());
            let (za, earlier) = zero_aware_distances(goal, pattern, &za_idx, table_no, obs, saves)?;
            (
                zero_unaware_from_aware(board, &za_idx, &za, &zu_idx),
                earlier,
            )
        }
    };
    let mut summary = TableSummary::new(pattern, kind, ValueStats::of(&entries), start);
    summary.seconds += earlier;
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
    build(req, path, None, obs)
}

/// [`build_file`], resumable: the build goes on from where `state` (opened with
/// [`BuildState::open`] for the same request and output) says an earlier run of it stopped
/// ([`BuildState::resume_point`]), saves its progress there as it goes, and removes the
/// state once the file is in place. The file is the same bytes as [`build_file`]'s,
/// however many times the build was stopped.
pub fn build_file_with_state(
    req: &BuildRequest,
    path: &Path,
    state: BuildState,
    obs: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    build(req, path, Some(state), obs)
}

fn build(
    req: &BuildRequest,
    path: &Path,
    mut state: Option<BuildState>,
    obs: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    let built = build_in(req, path, &mut state, obs);
    if let (Err(e), Some(s)) = (&built, &mut state) {
        if e.same_every_time() {
            // Running it again would fail again: the state is of no use.
            s.finish()?;
        }
    }
    built
}

fn build_in(
    req: &BuildRequest,
    path: &Path,
    state: &mut Option<BuildState>,
    obs: &dyn BuildObserver,
) -> Result<Vec<TableSummary>, BuildError> {
    req.check_encoding()?;
    in_pool(req.threads, || {
        let mut built: Vec<(EncodedOrRaw, TableSummary)> = Vec::new();
        let patterns = req.partition.patterns();
        if let Some(s) = state.as_mut() {
            s.restart_clock();
        }
        for (i, p) in patterns.iter().enumerate() {
            if let Some(image) = image_of(&req.goal, patterns, i) {
                let derived = derive_from(req, &built[image.source], p, image, i, obs)?;
                built.push(derived);
                continue;
            }
            if let Some(s) = state.as_ref().filter(|s| s.has_finished(i)) {
                let entries = entry_count(req.goal.board(), p.len(), req.kind)
                    .map_err(BuildError::index_error(p))?;
                let (bytes, summary) = s.load_finished(
                    i,
                    |meta| summary_of(meta, p, req.kind),
                    req.encoding.encoded_len(entries) as usize,
                )?;
                built.push((EncodedOrRaw::Encoded(bytes), summary));
                continue;
            }
            let (encoded, summary) = if req.two_bit() {
                let saves = state
                    .as_mut()
                    .map(|s| s as &mut dyn LevelSaves<TwoBitTable>);
                let (payload, summary) = build_bit1_table(&req.goal, p, i, obs, saves)?;
                (EncodedOrRaw::Bit1(payload), summary)
            } else {
                let (entries, summary) =
                    build_in_pool(&req.goal, p, req.kind, i, obs, state.as_mut())?;
                check_fits(req.encoding, &summary)?;
                let encoded = match req.encoding {
                    Encoding::U8 => EncodedOrRaw::Raw(entries),
                    e => EncodedOrRaw::Encoded(encode_entries(&entries, e)),
                };
                (encoded, summary)
            };
            let bytes = encoded.bytes().len() as u64;
            if let Some(s) = state.as_mut().filter(|s| s.wants_finished_save(i, bytes)) {
                s.save_finished(i, encoded.bytes(), &summary, true)?;
            }
            built.push((encoded, summary));
        }
        let shapes: Vec<TableShape> = built
            .iter()
            .map(|(_, s)| TableShape {
                kind: req.kind,
                pattern: &s.pattern,
                encoding: req.encoding,
                max_value: s.max_value,
            })
            .collect();
        let mut written = 0u64;
        let mut fill = |i: usize, w: &mut dyn Write| -> std::io::Result<()> {
            for chunk in built[i].0.bytes().chunks(1 << 20) {
                w.write_all(chunk)?;
                written += chunk.len() as u64;
                obs.output_written(written);
            }
            Ok(())
        };
        write_pdb_streamed(path, &req.goal, &shapes, &req.write, &mut fill)
            .map_err(BuildError::writing(path))?;
        if let Some(s) = state.as_mut() {
            s.finish()?;
        }
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
