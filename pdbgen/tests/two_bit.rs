//! The two-bit BFS against the byte BFS: on small boards, patterns and goals, every entry's
//! "reached" and bit 1 agree with the exact distances, the compacted payload equals the `bit1`
//! encoding of the byte table, and the result does not depend on the thread count.

use pdbformat::format::{encode_entries, Encoding};
use pdbformat::rank::ZeroAwareIndex;
use pdbformat::{Board, Goal, Pattern, TableKind};
use pdbgen::build::in_pool;
use pdbgen::twobit::{build_bit1_table, two_bit_distances};
use pdbgen::{build_table, NoProgress, UNREACHED};

/// Boards, goals and patterns covering corner, middle and explicit goals, narrow boards (where
/// regions split often) and patterns that fill the whole board (parity-unreachable entries).
fn cases() -> Vec<(usize, usize, &'static str, Vec<usize>)> {
    vec![
        (3, 3, "blank-first", vec![1, 2, 3, 4, 5, 6, 7, 8]),
        (3, 3, "blank-last", vec![1, 2, 3, 4, 5, 6, 7, 8]),
        (3, 3, "1 2 3 4 0 5 6 7 8", vec![1, 2, 3, 4, 5, 6, 7, 8]),
        (3, 3, "blank-first", vec![1, 3, 5, 7]),
        (3, 3, "1 2 3 4 0 5 6 7 8", vec![2, 4, 6]),
        (2, 4, "blank-first", vec![1, 2, 3, 4, 5]),
        (4, 2, "blank-last", vec![1, 2, 3, 4, 5, 6, 7]),
        (4, 2, "blank-first", vec![2, 3, 6]),
        (3, 4, "blank-first", vec![1, 2, 3, 4, 5, 6]),
        (4, 3, "blank-last", vec![3, 4, 7, 8, 11]),
        (4, 4, "blank-first", vec![1, 2, 3, 4, 5]),
        (4, 4, "blank-last", vec![9, 10, 13, 14, 15]),
        (
            4,
            4,
            "5 1 2 3 4 0 6 7 8 9 10 11 12 13 14 15",
            vec![1, 4, 6, 11],
        ),
    ]
}

#[test]
fn two_bit_bfs_matches_the_byte_bfs() {
    for (w, h, g, tiles) in cases() {
        let b = Board::new(w, h).unwrap();
        let goal = Goal::parse(b, g).unwrap();
        let p = Pattern::new(b, &tiles).unwrap();
        let exact = build_table(&goal, &p, TableKind::ZeroAware, Some(2), 0, &NoProgress).unwrap();
        let idx = ZeroAwareIndex::new(b, p.len()).unwrap();
        let (t, stats) = two_bit_distances(&goal, &p, &idx, 0, &NoProgress);
        assert_eq!(t.len(), exact.len() as u64);
        let mut histogram = vec![0u64; stats.histogram.len()];
        for (i, &v) in exact.iter().enumerate() {
            let i = i as u64;
            assert_eq!(
                t.reached(i),
                v != UNREACHED,
                "{w}x{h} {g} {tiles:?} entry {i}"
            );
            if v != UNREACHED {
                assert_eq!(t.bit1(i), (v >> 1) & 1, "{w}x{h} {g} {tiles:?} entry {i}");
                histogram[v as usize] += 1;
            }
        }
        assert_eq!(stats.histogram, histogram, "{w}x{h} {g} {tiles:?}");
        assert!(stats.expanded >= stats.frontier);
        let unreached = exact.iter().filter(|&&v| v == UNREACHED).count();
        let built = build_bit1_table(&goal, &p, 0, &NoProgress);
        if unreached == 0 {
            let (payload, summary) = built.unwrap();
            assert_eq!(&*payload, &encode_entries(&exact, Encoding::Bit1)[..]);
            assert_eq!(summary.histogram, histogram);
            assert_eq!(summary.entries, exact.len() as u64);
        } else {
            let e = built
                .err()
                .expect("a board-filling pattern is refused")
                .to_string();
            assert!(e.contains("parity-unreachable"), "{e}");
        }
    }
}

#[test]
fn two_bit_bfs_is_the_same_on_one_and_two_threads() {
    for (w, h, g, tiles) in [
        (4, 4, "blank-first", vec![1, 2, 3, 4, 5, 6]),
        (3, 4, "blank-last", vec![1, 2, 3, 4, 5, 6, 7]),
    ] {
        let b = Board::new(w, h).unwrap();
        let goal = Goal::parse(b, g).unwrap();
        let p = Pattern::new(b, &tiles).unwrap();
        let one = in_pool(Some(1), || build_bit1_table(&goal, &p, 0, &NoProgress)).unwrap();
        let two = in_pool(Some(2), || build_bit1_table(&goal, &p, 0, &NoProgress)).unwrap();
        assert_eq!(&*one.0, &*two.0);
        assert_eq!(one.1.histogram, two.1.histogram);
    }
}
