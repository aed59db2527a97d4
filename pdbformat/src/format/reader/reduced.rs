//! Symmetry-reduced (`zstd-sym`) payloads read from a file: the preamble checked against the
//! header, the kept entries or the source table's entries fetched, then decoded by
//! [`crate::format::symmetric::decode`].

use super::{read_up_to, LoadOptions, PdbFile};
use crate::format::entries::Table;
use crate::format::error::FormatError;
use crate::format::symmetric;
use crate::rank::TableKind;
use std::io::Read;
use std::sync::Arc;

/// A symmetry-reduced table's payload, read and checked up to the decoding of its entries.
pub(super) struct SymmetricPayload {
    link: symmetric::Link,
    /// Which tile of the source each tile of the table is the image of.
    tau: Vec<usize>,
    /// The table's tiles' goal cells.
    goals: Vec<usize>,
    from: Origin,
}

/// What a symmetry-reduced table's entries are decoded from.
enum Origin {
    /// The entries it keeps (linked to itself).
    Kept(Vec<u8>),
    /// The entries of the earlier table it is the image of.
    Source(Arc<Table>),
}

impl PdbFile {
    /// Reads a symmetry-reduced table's payload (see [`crate::format::symmetric`]) up to what its
    /// entries are decoded from: its preamble, then its kept entries from `stored` or the
    /// entries of its source table. Everything that can be checked before the entries are
    /// allocated is checked here.
    pub(super) fn read_symmetric(
        &self,
        table: usize,
        stored: &mut dyn Read,
    ) -> Result<SymmetricPayload, FormatError> {
        let t = &self.header.tables[table];
        let bad = |why: String| self.decompress_err(table, why);
        let mut preamble = [0u8; symmetric::PREAMBLE_LEN];
        if read_up_to(stored, &mut preamble).map_err(|e| self.io_err(e))? < preamble.len() {
            return Err(bad("the payload ends inside its preamble".into()));
        }
        let link = symmetric::Link::parse(&preamble, table).map_err(bad)?;
        let source = &self.header.tables[link.source];
        if (source.kind, source.encoding) != (TableKind::ZeroAware, t.encoding) {
            return Err(bad(format!(
                "source table {} is not a zero-aware table of {} entries",
                link.source, t.encoding
            )));
        }
        let tau = symmetric::tile_map(
            &self.header.goal,
            link.symmetry,
            &source.pattern,
            &t.pattern,
        )
        .ok_or_else(|| {
            bad(format!(
                "{} does not map the goal of table {} onto this table's",
                link.symmetry.name(),
                link.source
            ))
        })?;
        let goals = t.pattern.goal_cells(&self.header.goal);
        let from = if link.source == table {
            let mut kept = Vec::new();
            zstd::stream::read::Decoder::new(stored)
                .map_err(|e| bad(e.to_string()))?
                .single_frame()
                .take(t.raw_len + 1)
                .read_to_end(&mut kept)
                .map_err(|e| bad(e.to_string()))?;
            symmetric::check_kept_len(kept.len(), t.raw_len).map_err(bad)?;
            Origin::Kept(kept)
        } else {
            let mut extra = [0u8; 1];
            if read_up_to(stored, &mut extra).map_err(|e| self.io_err(e))? != 0 {
                return Err(bad(
                    "a table mapped from another holds nothing after its preamble".into(),
                ));
            }
            Origin::Source(self.source_entries(link.source)?)
        };
        Ok(SymmetricPayload {
            link,
            tau,
            goals,
            from,
        })
    }

    /// Decodes the entries of table `table` from what [`PdbFile::read_symmetric`] read into
    /// `out`, which is `raw_len` bytes long (whatever it held).
    pub(super) fn decode_symmetric(
        &self,
        table: usize,
        payload: &SymmetricPayload,
        out: &mut [u8],
    ) -> Result<(), FormatError> {
        let from = match &payload.from {
            Origin::Kept(kept) => (&kept[..], None),
            Origin::Source(source) => (&[][..], Some(&source.bytes[..])),
        };
        symmetric::decode(
            self.header.board(),
            payload.link,
            (&payload.tau, &payload.goals),
            self.header.tables[table].encoding,
            from,
            out,
        )
        .map_err(|why| self.decompress_err(table, why))
    }

    /// The entries of table `source`, loaded once for the tables mapped from it.
    fn source_entries(&self, source: usize) -> Result<Arc<Table>, FormatError> {
        let cached = |last: &Option<(usize, Arc<Table>)>| {
            last.as_ref()
                .filter(|(t, _)| *t == source)
                .map(|(_, entries)| entries.clone())
        };
        let lock = || self.last_source.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(entries) = cached(&lock()) {
            return Ok(entries);
        }
        // Unlocked while loading: a (damaged) source may itself be mapped from another table.
        let entries = Arc::new(self.load(source, LoadOptions::default())?);
        *lock() = Some((source, entries.clone()));
        Ok(entries)
    }
}
