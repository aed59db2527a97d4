//! How well a table's drop-one sub-tables predict its `bit1` bits: for sampled entries of a
//! zero-aware `u8` table over pattern P, the prediction is the maximum, over the given tables
//! of P without one tile t, of that table's value plus t's Manhattan distance (at least P's
//! Manhattan distance), and the residual is half the entry minus the prediction; a `bit1`
//! coder storing bits against the prediction pays the entropy of the residual's low bit.
//!
//! `cargo run --release -p pdbformat --example subpatterns -- FILE TABLE SUBFILE... [--samples N]`:
//! FILE a zero-aware `u8` file, TABLE the number of the table in it, each SUBFILE a zero-aware
//! `u8` file whose first table's pattern is TABLE's without one tile (`pdbgen build --partition
//! 9-15 -o d8.pdb` and so on). Prints the low bit's entropy for the Manhattan distance alone,
//! for the best one, two, ... sub-tables (chosen greedily), and for all of them with the
//! sampled probability of each context (how many sub-tables reach the maximum, its margin over
//! the next, and the prediction's excess over the Manhattan distance).

mod common;

use common::Sampler;
use pdbformat::format::{LoadOptions, PdbFile};
use pdbformat::rank::ZeroAwareIndex;
use std::collections::HashMap;

/// One sampled entry: its value, its pattern's Manhattan distance, and each sub-table's
/// prediction (its value plus the dropped tile's Manhattan distance).
struct Sample {
    entry: i32,
    manhattan: i32,
    predictions: Vec<i32>,
}

/// Bits per symbol of the binary symbols counted per context in `counts`, each context coded
/// with its own sampled probability.
fn bits(counts: &HashMap<u64, [u64; 2]>, n: usize) -> f64 {
    let mut b = 0.0;
    for c in counts.values() {
        let t = (c[0] + c[1]) as f64;
        for &x in c {
            if x > 0 {
                b -= x as f64 * (x as f64 / t).log2();
            }
        }
    }
    b / n as f64
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut samples = 1_000_000usize;
    if let Some(at) = args.iter().position(|a| a == "--samples") {
        samples = args
            .get(at + 1)
            .ok_or("--samples needs a number")?
            .parse()?;
        args.drain(at..at + 2);
    }
    if args.len() < 3 {
        return Err("usage: subpatterns FILE TABLE SUBFILE... [--samples N]".into());
    }
    let file = PdbFile::open(&args[0])?;
    let tn: usize = args[1].parse()?;
    let h = file.header();
    let board = h.board();
    let w = board.width() as i32;
    let th = h.tables.get(tn).ok_or("no such table")?;
    let values = file.load(tn, LoadOptions::default())?.bytes;
    let tiles = th.pattern.tiles().to_vec();
    let k = tiles.len();
    let goals = th.pattern.goal_cells(&h.goal);
    let md = |j: usize, c: u8| -> i32 {
        let (g, c) = (goals[j] as i32, c as i32);
        (g / w - c / w).abs() + (g % w - c % w).abs()
    };
    // Each sub-table: the dropped tile's place in the pattern, and its values.
    let mut subs = Vec::new();
    for path in &args[2..] {
        let sub = PdbFile::open(path)?;
        let sp = sub.header().tables[0].pattern.tiles().to_vec();
        let dropped = (0..k)
            .find(|&j| {
                let rest: Vec<u8> = tiles.iter().copied().filter(|&t| t != tiles[j]).collect();
                rest == sp
            })
            .ok_or_else(|| format!("{path}: its first table is not TABLE without one tile"))?;
        subs.push((dropped, sub.load(0, LoadOptions::default())?.bytes));
    }
    let z = ZeroAwareIndex::new(board, k)?;
    let zs = ZeroAwareIndex::new(board, k - 1)?;
    let mut rows: Vec<Sample> = Vec::with_capacity(samples);
    let (mut cells, mut rest) = (vec![0u8; k], vec![0u8; k - 1]);
    let mut sampler = Sampler::new();
    for _ in 0..samples {
        let i = sampler.below(values.len() as u64);
        let blank = z.unrank(i, &mut cells);
        let m: i32 = (0..k).map(|j| md(j, cells[j])).sum();
        let predictions = subs
            .iter()
            .map(|(j, sv)| {
                let mut n = 0;
                for (jj, &c) in cells.iter().enumerate() {
                    if jj != *j {
                        rest[n] = c;
                        n += 1;
                    }
                }
                sv[zs.index(&rest, blank) as usize] as i32 + md(*j, cells[*j])
            })
            .collect();
        rows.push(Sample {
            entry: values[i as usize] as i32,
            manhattan: m,
            predictions,
        });
    }
    let bit_of = |chosen: &[usize], ctx: &dyn Fn(&Sample, i32) -> u64| {
        let mut counts: HashMap<u64, [u64; 2]> = HashMap::new();
        for row in &rows {
            let p = chosen
                .iter()
                .map(|&s| row.predictions[s])
                .fold(row.manhattan, i32::max);
            let residual = row.entry - p;
            assert!(
                residual >= 0 && residual % 2 == 0,
                "a prediction above the entry"
            );
            counts.entry(ctx(row, p)).or_default()[((residual / 2) & 1) as usize] += 1;
        }
        bits(&counts, rows.len())
    };
    println!("table {tn} (pattern of {k} tiles), {samples} sampled entries");
    println!(
        "Manhattan distance alone: {:.3} bits per entry",
        bit_of(&[], &|_, _| 0)
    );
    let mut chosen: Vec<usize> = Vec::new();
    while chosen.len() < subs.len() {
        let best = (0..subs.len())
            .filter(|s| !chosen.contains(s))
            .map(|s| {
                let mut c = chosen.clone();
                c.push(s);
                (bit_of(&c, &|_, _| 0), s)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .expect("a sub-table left");
        chosen.push(best.1);
        let dropped: Vec<u8> = chosen.iter().map(|&s| tiles[subs[s].0]).collect();
        println!(
            "maximum over {} sub-table(s) (without tile {:?}): {:.3} bits per entry",
            chosen.len(),
            dropped,
            best.0
        );
    }
    let context = |row: &Sample, p: i32| -> u64 {
        let mut sorted = row.predictions.clone();
        sorted.sort_unstable();
        let ties = row.predictions.iter().filter(|&&x| x == p).count() as u64;
        let gap = match sorted.len() {
            0 | 1 => 0,
            n => (sorted[n - 1] - sorted[n - 2]).min(6) as u64,
        };
        ties * 1000 + gap * 100 + ((p - row.manhattan) / 2).min(15) as u64
    };
    println!(
        "all of them, with context: {:.3} bits per entry",
        bit_of(&chosen, &context)
    );
    Ok(())
}
