//! The ranks of a distributed build agreeing on where to resume: the last position every
//! rank's state can resume from.

use super::{BuildState, ResumePoint};
use crate::error::BuildError;

impl ResumePoint {
    /// The position of [`ResumePoint::key`].
    fn from_key(key: u64) -> ResumePoint {
        let level = match key % 512 {
            0 => None,
            d => Some((d - 1) as u8),
        };
        ResumePoint {
            table: (key / 512) as usize,
            level,
        }
    }
}

impl BuildState {
    /// Agrees with every rank of `world` on the last position all of them can resume from
    /// (each keeps its older level saves until every rank has written the newer one) and
    /// returns it. Every rank must call it; the distributed build calls it again itself.
    pub fn agree(
        &mut self,
        world: &mpi::topology::SimpleCommunicator,
    ) -> Result<ResumePoint, BuildError> {
        use mpi::traits::*;
        const SLOTS: usize = 16;
        let mut mine = [u64::MAX; SLOTS];
        let keys: Vec<u64> = self.candidates().iter().map(|p| p.key()).collect();
        for (slot, k) in mine.iter_mut().zip(keys.iter().rev()) {
            *slot = *k;
        }
        let mut all = vec![0u64; SLOTS * world.size() as usize];
        world.all_gather_into(&mine[..], &mut all[..]);
        let common = keys
            .iter()
            .rev()
            .find(|k| all.chunks(SLOTS).all(|r| r.contains(k)))
            .copied()
            .unwrap_or(0);
        self.resume = ResumePoint::from_key(common);
        Ok(self.resume)
    }
}
