//! The tables' pieces: a finished table's encoded entries and figures, and a working table
//! after a level with its level counts, saved and loaded back; and the state as the level
//! loop sees it ([`LevelSaves`]).

use super::files::bad;
#[cfg(feature = "mpi")]
use super::files::{remove_any, state_error};
use super::names::PieceName;
use super::piece::{list, number, numbers, read_piece, Bad};
use super::{BuildState, ResumePoint};
use crate::error::BuildError;
use crate::levels::{LevelSaves, Levels};
use crate::observer::TableSummary;
use crate::slice::LevelTable;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;

impl BuildState {
    /// The finished table `table`: its encoded entries (`len` bytes) and figures.
    pub(crate) fn load_finished(
        &self,
        table: usize,
        summary_of: impl FnOnce(&str) -> Option<TableSummary>,
        len: usize,
    ) -> Result<(Vec<u8>, TableSummary), BuildError> {
        let path = self.dir.join(PieceName::Finished(table).name());
        let mut bytes = vec![0u8; len];
        let meta = read_piece(&path, Some(&mut bytes[..])).map_err(bad(&path))?;
        let summary = summary_of(&meta)
            .ok_or_else(|| bad(&path)(Bad::Damaged("has unreadable figures".into())))?;
        Ok((bytes, summary))
    }

    /// The working table of `table` (its `len` entries) and its level counts, when the build
    /// resumes inside it.
    pub(crate) fn load_level<T: LevelTable>(
        &self,
        table: usize,
        len: usize,
    ) -> Result<Option<(T, Levels)>, BuildError> {
        let depth = match self.resume {
            ResumePoint {
                table: t,
                level: Some(d),
            } if t == table => d,
            _ => return Ok(None),
        };
        let path = self.dir.join(PieceName::Level(table, depth).name());
        let words_len = (len as u64 * T::BITS as u64).div_ceil(64) as usize;
        let mut words = pdbformat::memory::huge_vec(words_len, 0u64);
        let meta = read_piece(&path, Some(words_as_bytes_mut(&mut words))).map_err(bad(&path))?;
        let levels = levels_of(&meta)
            .filter(|l| l.histogram.len() == depth as usize + 1)
            .ok_or_else(|| bad(&path)(Bad::Damaged("has unreadable level counts".into())))?;
        Ok(Some((T::from_words(words, len), levels)))
    }

    /// Saves the working table `t` of table `table` after level `depth` (`levels` so far);
    /// with `drop_older`, the table's older levels are removed once it is in place.
    pub(crate) fn save_level<T: LevelTable>(
        &mut self,
        table: usize,
        t: &T,
        levels: &Levels,
        drop_older: bool,
    ) -> Result<(), BuildError> {
        let depth = (levels.histogram.len() - 1) as u8;
        let meta = format!(
            "params={}\ntable={table}\nlevel={depth}\nhistogram={}\nfrontier={}\nexpanded={}\nseconds={}",
            self.tag,
            list(&levels.histogram),
            levels.frontier,
            levels.expanded,
            levels.seconds.to_bits(),
        );
        let path = self.dir.join(PieceName::Level(table, depth).name());
        let obsolete = if drop_older {
            self.forget_levels(table, Some(depth))
        } else {
            Vec::new()
        };
        self.save(&path, &meta, words_as_bytes(t.words()), obsolete)?;
        self.levels.entry(table).or_default().insert(depth);
        Ok(())
    }

    /// Saves the finished table `table`: its encoded entries `bytes` and its figures; with
    /// `drop_levels`, its working tables are removed once it is in place.
    pub(crate) fn save_finished(
        &mut self,
        table: usize,
        bytes: &[u8],
        s: &TableSummary,
        drop_levels: bool,
    ) -> Result<(), BuildError> {
        let meta = format!(
            "params={}\ntable={table}\nentries={}\nunreached={}\nmax={}\nmean={}\nhistogram={}\nseconds={}",
            self.tag,
            s.entries,
            s.unreached,
            s.max_value,
            s.mean_value.to_bits(),
            list(&s.histogram),
            s.seconds.to_bits(),
        );
        let path = self.dir.join(PieceName::Finished(table).name());
        let obsolete = if drop_levels {
            self.forget_levels(table, None)
        } else {
            Vec::new()
        };
        self.save(&path, &meta, bytes, obsolete)?;
        self.finished.insert(table);
        Ok(())
    }

    /// Forgets the working tables of `table` older than level `keep` (all of them when
    /// `keep` is `None`: the table is finished) and returns their files, to be removed.
    fn forget_levels(&mut self, table: usize, keep: Option<u8>) -> Vec<PathBuf> {
        let Some(depths) = self.levels.get_mut(&table) else {
            return Vec::new();
        };
        let old: Vec<u8> = depths
            .iter()
            .copied()
            .filter(|&d| keep.is_none_or(|k| d < k))
            .collect();
        old.into_iter()
            .map(|d| {
                depths.remove(&d);
                self.dir.join(PieceName::Level(table, d).name())
            })
            .collect()
    }

    /// Removes the working tables of `table` older than level `keep` (all of them when
    /// `keep` is `None`), once the piece saved last is in place.
    #[cfg(feature = "mpi")]
    pub(crate) fn drop_levels(&mut self, table: usize, keep: Option<u8>) -> Result<(), BuildError> {
        self.wait()?;
        for path in self.forget_levels(table, keep) {
            remove_any(&path).map_err(state_error(&path))?;
        }
        Ok(())
    }
}

/// The single-process build's saves: its working table after a level, when worth it, with
/// its older levels removed once it is in place.
impl<T: LevelTable> LevelSaves<T> for BuildState {
    fn resumed(&self, table: usize, len: usize) -> Result<Option<(T, Levels)>, BuildError> {
        self.load_level::<T>(table, len)
    }

    fn level_done(&mut self, table: usize, t: &T, levels: &Levels) -> Result<(), BuildError> {
        let bytes = (t.words().len() * 8) as u64;
        if self.wants_level_save(bytes) {
            self.save_level(table, t, levels, true)?;
        }
        Ok(())
    }
}

/// A finished table's figures from its piece's description, for `pattern` and `kind`.
pub(crate) fn summary_of(
    meta: &str,
    pattern: &pdbformat::Pattern,
    kind: pdbformat::TableKind,
) -> Option<TableSummary> {
    Some(TableSummary {
        pattern: pattern.clone(),
        kind,
        entries: number(meta, "entries")?,
        unreached: number(meta, "unreached")?,
        max_value: number(meta, "max")?,
        mean_value: f64::from_bits(number(meta, "mean")?),
        histogram: numbers(meta, "histogram")?,
        seconds: f64::from_bits(number(meta, "seconds")?),
    })
}

/// A working table's level counts from its piece's description.
fn levels_of(meta: &str) -> Option<Levels> {
    Some(Levels {
        histogram: numbers(meta, "histogram")?,
        frontier: number(meta, "frontier")?,
        expanded: number(meta, "expanded")?,
        seconds: f64::from_bits(number(meta, "seconds")?),
    })
}

/// The bytes of a working table's words, read while no level runs.
fn words_as_bytes(words: &[AtomicU64]) -> &[u8] {
    // SAFETY: `AtomicU64` has the size and alignment of `u64`, and every bit pattern is a
    // valid byte. Pieces are written between levels only, when no thread writes the table
    // (every level has ended before the level loop hands the table over), so these plain
    // reads race with no atomic write.
    unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}

/// The bytes of `words`, to read a working table into.
fn words_as_bytes_mut(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: u8 has alignment 1 and every byte pattern is a valid u64.
    unsafe {
        std::slice::from_raw_parts_mut(
            words.as_mut_ptr().cast::<u8>(),
            std::mem::size_of_val(words),
        )
    }
}
