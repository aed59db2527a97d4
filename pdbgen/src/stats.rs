//! Value statistics of a table: histogram, maximum and mean.

use crate::byte_table::UNREACHED;
use rayon::prelude::*;

/// Value counts of a table of byte entries.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueStats {
    /// `histogram[v]` entries hold `v` (up to the largest reached value).
    pub histogram: Vec<u64>,
    /// Entries holding the unreached marker.
    pub unreached: u64,
}

impl ValueStats {
    /// Counts the values of `entries` (in parallel).
    pub fn of(entries: &[u8]) -> ValueStats {
        let counts = entries
            .par_chunks(1 << 20)
            .map(|c| {
                let mut h = [0u64; 256];
                for &v in c {
                    h[v as usize] += 1;
                }
                h
            })
            .reduce(
                || [0u64; 256],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        ValueStats::from_counts(&counts)
    }

    /// The statistics of a table with `counts[v]` entries holding `v`.
    fn from_counts(counts: &[u64; 256]) -> ValueStats {
        let unreached = counts[UNREACHED as usize];
        let max = (0..UNREACHED as usize)
            .rev()
            .find(|&v| counts[v] > 0)
            .unwrap_or(0);
        ValueStats {
            histogram: counts[..=max].to_vec(),
            unreached,
        }
    }

    /// The statistics of a BFS's table of `entries` entries, `histogram[d]` of which it first
    /// reached at depth `d` (the others never).
    pub(crate) fn of_levels(histogram: Vec<u64>, entries: u64) -> ValueStats {
        let reached: u64 = histogram.iter().sum();
        ValueStats {
            histogram,
            unreached: entries - reached,
        }
    }

    /// Largest reached value.
    pub fn max_value(&self) -> u8 {
        (self.histogram.len() - 1) as u8
    }

    /// Mean over reached entries.
    pub fn mean(&self) -> f64 {
        let n: u64 = self.histogram.iter().sum();
        let s: u64 = self
            .histogram
            .iter()
            .enumerate()
            .map(|(v, &c)| v as u64 * c)
            .sum();
        if n == 0 {
            0.0
        } else {
            s as f64 / n as f64
        }
    }
}
