//! Encoding a symmetry-reduced payload: the entries a table keeps, checked to be the image
//! its link says.

use super::blocks::{for_each_block, index_for};
use super::link::Link;
use super::predict::{bit_at, Prediction};
use super::Entries;
use crate::board::Board;
use crate::format::codes::Encoding;

/// The kept entries of `entries`, packed in their encoding: for a table linked to itself
/// (`source` is `None`), those not larger than their image; for one linked to an earlier
/// table's `source` entries, none. An error if the entries are not the image the link says.
pub fn encode(
    board: Board,
    link: Link,
    (tau, goals): (&[usize], &[usize]),
    encoding: Encoding,
    entries: &[u8],
    source: Option<&[u8]>,
) -> Result<Vec<u8>, String> {
    let z = index_for(board, tau.len())?;
    let e = Entries(encoding);
    let mut predicted = Prediction::new(board, goals, link, encoding)?;
    let ob = z.order_count();
    let mut kept = Vec::new();
    let mut n = 0u64;
    if source.is_some_and(|s| s.len() != entries.len()) {
        return Err("the source table has another length".into());
    }
    let asymmetric = |i: u64, j: u64| {
        format!(
            "the entries are not mapped onto themselves by {}: entry {i} differs from entry {j}",
            link.symmetry.name()
        )
    };
    for_each_block(&z, board, link.symmetry, tau, |occ, r, ir, orders| {
        let guess = predicted.of(occ, orders.len());
        for (o, &io) in orders.iter().enumerate() {
            let (i, j) = (r as u64 * ob + o as u64, ir as u64 * ob + io as u64);
            let v = e.get(source.unwrap_or(entries), i);
            if source.is_some() {
                if e.get(entries, j) != v {
                    return Err(asymmetric(j, i));
                }
            } else if i <= j {
                if n.is_multiple_of(e.per_byte()) {
                    kept.push(0);
                }
                e.set(&mut kept, n, v ^ bit_at(guess, o));
                n += 1;
            } else if e.get(entries, j) != v {
                return Err(asymmetric(i, j));
            }
        }
        Ok(())
    })?;
    Ok(kept)
}
