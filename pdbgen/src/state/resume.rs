//! Where a build resumes ([`ResumePoint`]): the positions the pieces that check allow, in
//! order, and the last of them.

use super::BuildState;

/// Where a build resumes: tables before `table` are finished; `table` goes on after its level
/// `level` when one is given, else starts from its goal. `table` equal to the table count:
/// every table is finished and only the file is left to write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResumePoint {
    /// The first table not finished.
    pub table: usize,
    /// Its last level saved.
    pub level: Option<u8>,
}

impl ResumePoint {
    /// The position as one ordered number: tables first, then levels (0: the beginning).
    pub(super) fn key(self) -> u64 {
        self.table as u64 * 512 + self.level.map_or(0, |d| d as u64 + 1)
    }
}

impl BuildState {
    /// The positions this state could resume from, in increasing order (the beginning
    /// first): each needs every searched table before it finished.
    pub(super) fn candidates(&self) -> Vec<ResumePoint> {
        let mut out = vec![ResumePoint {
            table: 0,
            level: None,
        }];
        for t in 0..self.searched.len() {
            if let Some(depths) = self.levels.get(&t) {
                out.extend(depths.iter().map(|&d| ResumePoint {
                    table: t,
                    level: Some(d),
                }));
            }
            let finished = self.finished.contains(&t) || !self.searched[t];
            if !finished {
                break;
            }
            out.push(ResumePoint {
                table: t + 1,
                level: None,
            });
        }
        out
    }

    /// The last position this state alone can resume from.
    pub(super) fn best_local(&self) -> ResumePoint {
        *self
            .candidates()
            .last()
            .expect("the beginning is always there")
    }

    /// Whether table `table` is finished in the state and is to be loaded, not built.
    pub(crate) fn has_finished(&self, table: usize) -> bool {
        table < self.resume.table && self.searched[table]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_order_tables_first_then_levels() {
        let at = |table, level| ResumePoint { table, level }.key();
        assert!(at(0, None) < at(0, Some(0)));
        assert!(at(0, Some(200)) < at(1, None));
        assert!(at(1, None) < at(1, Some(3)));
    }
}
