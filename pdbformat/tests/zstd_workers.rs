//! zstd's multithreaded mode writes the same bytes whatever the worker count (1, 2 or 4), on a
//! table that spans several jobs; the files load back to the written entries. This pins the
//! reproducibility of `.zstd.pdb` files written with `WriteOptions::zstd_workers` (an old zstd
//! report, facebook/zstd#2327, found outputs that varied with the worker count).

use pdbformat::format::{
    write_pdb, Compression, Encoding, LoadOptions, PdbFile, TableSource, WriteOptions,
};
use pdbformat::rank::{entry_count, TableKind};
use pdbformat::testkit::XorShift;
use pdbformat::{Board, Goal, Pattern};

/// Job size of these tests: 1 MiB (zstd's minimum is 512 KiB), so that the ~11.8 MB table below
/// is cut into a dozen jobs.
const JOB: u32 = 1 << 20;

/// Pseudo-random values below 40 in short runs, so that the compressor finds matches.
fn values(n: u64) -> Vec<u8> {
    let mut rng = XorShift::new(0x5eed);
    let mut v = Vec::with_capacity(n as usize);
    while (v.len() as u64) < n {
        let s = rng.next();
        for _ in 0..1 + (s >> 40) % 5 {
            v.push((s % 40) as u8);
        }
    }
    v.truncate(n as usize);
    v
}

/// Writes the 4x4 zero-aware 6-tile table (11,816,640 entries) with `workers` and `job`, long
/// matching on as `artifacts compress` does for large tables; returns the file's bytes.
fn written(dir: &std::path::Path, entries: &[u8], workers: u32, job: u32) -> Vec<u8> {
    let board = Board::new(4, 4).unwrap();
    let goal = Goal::blank_first(board);
    let pattern = Pattern::new(board, &[1, 2, 3, 4, 5, 6]).unwrap();
    let source = TableSource {
        kind: TableKind::ZeroAware,
        pattern: &pattern,
        encoding: Encoding::U8,
        max_value: 39,
        entries,
    };
    let opts = WriteOptions {
        compression: Compression::Zstd,
        zstd_level: 3,
        zstd_long: true,
        zstd_workers: workers,
        zstd_job_size: job,
        ..WriteOptions::default()
    };
    let path = dir.join(format!("w{workers}-j{job}.pdb"));
    write_pdb(&path, &goal, &[source], &opts).unwrap();
    let f = PdbFile::open(&path).unwrap();
    let back = f
        .load(
            0,
            LoadOptions {
                verify: true,
                mmap: false,
            },
        )
        .unwrap();
    assert!(
        &back.bytes[..] == entries,
        "{workers} workers: entries differ"
    );
    std::fs::read(&path).unwrap()
}

#[test]
fn multithreaded_zstd_output_does_not_depend_on_workers() {
    let board = Board::new(4, 4).unwrap();
    let n = entry_count(board, 6, TableKind::ZeroAware).unwrap();
    assert!(n > 5 * u64::from(JOB), "the table must span several jobs");
    let entries = values(n);
    let dir = tempfile::tempdir().unwrap();
    let one = written(dir.path(), &entries, 1, JOB);
    for workers in [2, 4] {
        let other = written(dir.path(), &entries, workers, JOB);
        assert!(
            one == other,
            "{workers} workers wrote other bytes than 1 worker"
        );
    }
    // The job size is part of the output: a 2 MiB job writes other bytes, which shows that the
    // 1 MiB jobs above really cut the table (one job would ignore the setting).
    let wider = written(dir.path(), &entries, 2, 2 * JOB);
    assert!(one != wider, "the job size changed nothing: one job only?");
    // Single-threaded mode still writes a valid file (its bytes may differ).
    written(dir.path(), &entries, 0, JOB);
}
