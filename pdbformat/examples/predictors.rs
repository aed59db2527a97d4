//! How predictable a byte-per-entry table is: the entropy of each entry's residual against
//! cheap predictions, and the lower-neighbour model (what the entries of states with a smaller
//! index, one pattern-tile move away, leave open), for sizing a download encoding.
//!
//! `cargo run --release -p pdbformat --example predictors -- FILE [SAMPLES]` on a zero-aware
//! `u8` file. The index-order predictors read every entry; the neighbour model samples
//! `SAMPLES` entries per table (default 1,000,000).

mod common;

use common::Sampler;
use pdbformat::format::{Encoding, LoadOptions, PdbFile};
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::TableKind;

/// Bits needed for the symbols counted in `h` under their own order-0 distribution.
fn bits(h: &[u64]) -> f64 {
    let n: u64 = h.iter().sum();
    h.iter()
        .filter(|&&c| c > 0)
        .map(|&c| -(c as f64) * (c as f64 / n as f64).log2())
        .sum()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).ok_or("usage: predictors FILE [SAMPLES]")?;
    let samples: u64 = args.get(2).map_or(Ok(1_000_000), |s| s.parse())?;
    let file = PdbFile::open(path)?;
    let h = file.header();
    let board = h.board();
    let names = [
        "value (order 0)",
        "previous entry",
        "entry k! back",
        "gradient",
        "previous entry | context",
    ];
    let mut total = [0f64; 5];
    let mut entries = 0u64;
    let (mut nb_bits, mut nb_entries) = (0f64, 0f64);
    for (t, th) in h.tables.iter().enumerate() {
        if th.encoding != Encoding::U8 || th.kind != TableKind::ZeroAware {
            return Err("a zero-aware u8 file is needed".into());
        }
        let table = file.load(t, LoadOptions::default())?;
        let v: &[u8] = &table.bytes;
        let k = th.pattern.len();
        let z = ZeroAwareIndex::new(board, k)?;
        let b = z.order_count() as usize;
        let mut hist = vec![vec![0u64; 256]; 4];
        let mut ctx = vec![0u64; 256 * 256];
        for i in 0..v.len() {
            let x = v[i] as i32;
            let a = if i >= 1 { v[i - 1] as i32 } else { 0 };
            let up = if i >= b { v[i - b] as i32 } else { a };
            let c = if i > b { v[i - b - 1] as i32 } else { up };
            hist[0][x as usize] += 1;
            hist[1][((x - a) & 255) as usize] += 1;
            hist[2][((x - up) & 255) as usize] += 1;
            hist[3][((x - a - up + c) & 255) as usize] += 1;
            ctx[((a - up) & 255) as usize * 256 + ((x - a) & 255) as usize] += 1;
        }
        for (j, hh) in hist.iter().enumerate() {
            total[j] += bits(hh);
        }
        total[4] += ctx.chunks(256).map(bits).sum::<f64>();
        entries += v.len() as u64;

        // The lower-neighbour model on a sample.
        let (mut none, mut determined, mut ambiguous, mut up) = (0u64, 0u64, 0u64, 0u64);
        let mut cells = vec![0u8; k];
        let mut sampler = Sampler::new();
        for _ in 0..samples {
            let i = sampler.below(v.len() as u64);
            let blank = z.unrank(i, &mut cells);
            let set = z.set_rank(cells.iter().fold(0u64, |m, &c| m | 1 << c));
            let region = z.region_mask(z.region_at(set, blank));
            let (mut lo, mut hi, mut lower) = (u8::MAX, 0u8, 0);
            for j in 0..k {
                let from = cells[j] as usize;
                for (_, to) in board.neighbours(from) {
                    if region >> to & 1 == 0 {
                        continue;
                    }
                    let mut moved = cells.clone();
                    moved[j] = to as u8;
                    let n = z.index(&moved, from);
                    if n < i {
                        lower += 1;
                        lo = lo.min(v[n as usize]);
                        hi = hi.max(v[n as usize]);
                    }
                }
            }
            if lower == 0 {
                none += 1;
            } else if hi > lo {
                determined += 1;
            } else {
                ambiguous += 1;
                up += (v[i as usize] > lo) as u64;
            }
        }
        let s = samples as f64;
        let p = up as f64 / ambiguous.max(1) as f64;
        let h1 = if p > 0.0 && p < 1.0 {
            -(p * p.log2() + (1.0 - p) * (1.0 - p).log2())
        } else {
            0.0
        };
        println!(
            "table {t} ({k} tiles, {} entries): no lower neighbour {:.1} %, value determined {:.1} %, one of two {:.1} % (the higher {:.1} %, {h1:.3} bits)",
            v.len(),
            100.0 * none as f64 / s,
            100.0 * determined as f64 / s,
            100.0 * ambiguous as f64 / s,
            100.0 * p
        );
        nb_bits += h1 * ambiguous as f64 / s * v.len() as f64;
        nb_entries += none as f64 / s * v.len() as f64;
    }
    println!("bits per entry (order-0 entropy of the residual; % of one byte per entry):");
    for (n, b) in names.iter().zip(total) {
        println!(
            "  {n:<26} {:.3} ({:.2} %)",
            b / entries as f64,
            100.0 * b / 8.0 / entries as f64
        );
    }
    println!(
        "  lower neighbours: {:.3} bits per entry for the two-way choices, plus the {:.1} % of entries without a lower neighbour",
        nb_bits / entries as f64,
        100.0 * nb_entries / entries as f64
    );
    Ok(())
}
