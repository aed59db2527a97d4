//! Decoding a symmetry-reduced payload: a table's entries from its kept entries or from its
//! source table's entries, a (cell set, region) block at a time.

use super::blocks::{for_each_block, index_for};
use super::link::Link;
use super::predict::{bit_at, Prediction};
use super::Entries;
use crate::board::Board;
use crate::format::codes::Encoding;
use crate::format::view::EntryView;
use crate::symmetry::Symmetry;

/// The bytes of `dst` from bits of `src`: bit `b` of `dst[i]` is bit `base + from[8i + b]`.
fn gather_bits(dst: &mut [u8], src: &[u8], base: u64, from: &[u32]) {
    let src = EntryView::new(src, Encoding::Bit1);
    let bit = |o: u32| src.stored(base + o as u64);
    for (d, f) in dst.iter_mut().zip(from.chunks_exact(8)) {
        *d = f.iter().rev().fold(0u8, |m, &o| m << 1 | bit(o));
    }
}

/// Entries `base..base + count` of `out` from the kept entries `n..` XOR the packed `guess`.
fn copy_kept(
    e: Entries,
    out: &mut [u8],
    (base, count): (u64, u64),
    kept: &[u8],
    n: u64,
    guess: &[u8],
) {
    if e.0 == Encoding::Bit1
        && base.is_multiple_of(8)
        && n.is_multiple_of(8)
        && count.is_multiple_of(8)
    {
        let bytes = count as usize / 8;
        let out = &mut out[base as usize / 8..][..bytes];
        let kept = &kept[n as usize / 8..][..bytes];
        for ((o, &k), &g) in out.iter_mut().zip(kept).zip(guess) {
            *o = k ^ g;
        }
    } else {
        for o in 0..count {
            e.set(
                out,
                base + o,
                e.get(kept, n + o) ^ bit_at(guess, o as usize),
            );
        }
    }
}

/// Whether `kept` bytes of kept entries can hold a table of `raw_len` bytes linked to itself:
/// at least half its entries are kept, so a short stream is refused before the entries are
/// allocated.
pub fn check_kept_len(kept: usize, raw_len: u64) -> Result<(), String> {
    if kept as u64 * 2 + 2 < raw_len {
        return Err(format!(
            "{kept} bytes of kept entries, fewer than half the table's {raw_len}"
        ));
    }
    Ok(())
}

/// The entries of a table with `link` into `out` (whatever it held; its length is the table's
/// raw length): from `kept` (the decoded frame of a table linked to itself, its length
/// checked by [`check_kept_len`] before `out` was allocated) or from `source` (the entries of
/// an earlier table).
pub fn decode(
    board: Board,
    link: Link,
    (tau, goals): (&[usize], &[usize]),
    encoding: Encoding,
    (kept, source): (&[u8], Option<&[u8]>),
    out: &mut [u8],
) -> Result<(), String> {
    let raw_len = out.len() as u64;
    let z = index_for(board, tau.len())?;
    let e = Entries(encoding);
    let mut predicted = Prediction::new(board, goals, link, encoding)?;
    if encoding.encoded_len(z.len()) != raw_len {
        return Err("the entry count does not match the index".into());
    }
    let ob = z.order_count();
    // bit1 blocks of whole bytes are filled a byte at a time.
    let whole_bytes = encoding == Encoding::Bit1 && ob.is_multiple_of(8);
    // Entries are written in place (bytes whole, or bits and nibbles masked in); the padding
    // bits of a last, partial byte are never written, so they start at zero.
    if let Some(last) = out.last_mut() {
        *last = 0;
    }
    let mut n = 0u64;
    let kept_len = kept.len() as u64 * e.per_byte();
    let short = || "the kept entries end early".to_string();
    match source {
        Some(src) => {
            if src.len() != out.len() {
                return Err("the source table has another length".into());
            }
            let mut inverse = vec![0u32; ob as usize];
            for_each_block(&z, board, link.symmetry, tau, |_, r, ir, orders| {
                let (base, image) = (r as u64 * ob, ir as u64 * ob);
                if whole_bytes {
                    for (o, &io) in orders.iter().enumerate() {
                        inverse[io as usize] = o as u32;
                    }
                    let dst = &mut out[image as usize / 8..(image + ob) as usize / 8];
                    gather_bits(dst, src, base, &inverse);
                } else {
                    for (o, &io) in orders.iter().enumerate() {
                        e.set(out, image + io as u64, e.get(src, base + o as u64));
                    }
                }
                Ok(())
            })?;
        }
        None => {
            for_each_block(&z, board, link.symmetry, tau, |occ, r, ir, orders| {
                let base = r as u64 * ob;
                let guess = predicted.of(occ, orders.len());
                // Under the identity every block is its own image and wholly kept.
                if r < ir || link.symmetry == Symmetry::Identity {
                    if n + ob > kept_len {
                        return Err(short());
                    }
                    copy_kept(e, out, (base, ob), kept, n, guess);
                    n += ob;
                } else if r > ir {
                    let image = ir as u64 * ob;
                    if whole_bytes {
                        // The image block comes before this one.
                        let (done, rest) = out.split_at_mut(base as usize / 8);
                        gather_bits(&mut rest[..ob as usize / 8], done, image, orders);
                    } else {
                        for (o, &io) in orders.iter().enumerate() {
                            let v = e.get(out, image + io as u64);
                            e.set(out, base + o as u64, v);
                        }
                    }
                } else {
                    for (o, &io) in orders.iter().enumerate() {
                        let g = bit_at(guess, o);
                        let (o, io) = (o as u64, io as u64);
                        let v = if o <= io {
                            if n >= kept_len {
                                return Err(short());
                            }
                            n += 1;
                            e.get(kept, n - 1) ^ g
                        } else {
                            e.get(out, base + io)
                        };
                        e.set(out, base + o, v);
                    }
                }
                Ok(())
            })?;
            if n.div_ceil(e.per_byte()) != kept.len() as u64 {
                return Err(format!(
                    "{} bytes of kept entries, {} expected",
                    kept.len(),
                    n.div_ceil(e.per_byte())
                ));
            }
        }
    }
    Ok(())
}
