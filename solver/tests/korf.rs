//! Korf's 15-puzzle instances with the default 6-6-3 database (built once by pdbgen into the
//! test cache directory): the known optimal lengths, the same lengths for the blank-last form
//! of each instance through the same blank-first table, reflection never costing nodes, and
//! agreement with linear conflict on the easy ones.

use crate::common;

use common::{assert_replays, db663, korf100 as korf, Ida};
use pdbformat::{Board, Goal, Puzzle, Symmetry};
use pdbsolver::{HeuristicChoice, Limits};

fn pdb(reflect: bool) -> HeuristicChoice {
    HeuristicChoice::Pdb {
        databases: vec![db663()],
        reflect,
    }
}

/// The same problem written for the blank-last goal: rotate by 180 degrees, tile t -> 16 - t.
fn as_blank_last(p: &Puzzle) -> Puzzle {
    let b = p.board();
    let mut tiles = vec![0u16; 16];
    for x in 0..16 {
        let t = p.tile_at(x) as u16;
        tiles[Symmetry::Rotate180.map(b, x)] = if t == 0 { 0 } else { 16 - t };
    }
    Puzzle::new(b, &tiles).unwrap()
}

#[test]
fn first_ten_instances_have_their_known_lengths() {
    let first = Goal::blank_first(Board::new(4, 4).unwrap());
    let last = Goal::blank_last(Board::new(4, 4).unwrap());
    let (with, without) = (pdb(true), pdb(false));
    for (i, (p, len)) in korf().into_iter().take(10).enumerate() {
        let a = with.ida(&p, &first, &Limits::default()).unwrap();
        assert_eq!(a.len(), len, "instance {}", i + 1);
        assert_replays(&p, &first, &a);
        let b = without.ida(&p, &first, &Limits::default()).unwrap();
        assert_eq!(b.len(), len, "instance {} without reflection", i + 1);
        // The reflected maximum dominates, so IDA* never generates more nodes with it.
        assert!(
            a.stats.nodes <= b.stats.nodes,
            "instance {}: {} > {}",
            i + 1,
            a.stats.nodes,
            b.stats.nodes
        );
        // The blank-last form, solved through the blank-first table, moves in its own frame.
        let q = as_blank_last(&p);
        let c = with.ida(&q, &last, &Limits::default()).unwrap();
        assert_eq!(c.len(), len, "instance {} as blank-last", i + 1);
        assert_replays(&q, &last, &c);
    }
}

#[test]
fn easy_instances_agree_with_linear_conflict() {
    let first = Goal::blank_first(Board::new(4, 4).unwrap());
    let lc = HeuristicChoice::LinearConflict;
    let all = korf();
    for n in [9, 12, 16] {
        let (p, len) = &all[n - 1];
        let a = lc.ida(p, &first, &Limits::default()).unwrap();
        assert_eq!(a.len(), *len, "instance {n}");
        assert_replays(p, &first, &a);
        let b = pdb(true).ida(p, &first, &Limits::default()).unwrap();
        assert_eq!(b.len(), *len);
        assert!(b.stats.nodes < a.stats.nodes);
    }
}
