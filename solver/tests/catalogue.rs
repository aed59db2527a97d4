//! Catalogues: the solver given two zero-aware bit1 databases of different partitions takes
//! the maximum of their sums (with and without reflection), finds the same optimal lengths as
//! either one alone, never generates more nodes than either in an iteration of the same bound
//! that ends without the goal, and `--db` resolves standard and
//! catalogue names in the search directories (or says how to build what is missing). A child's
//! estimate looked up ahead (`evaluate`, which may stop at the first component above the limit)
//! is the estimate of the child made afresh, and the parts applied from it are the child's.
//! A compound (one file of overlapping patterns) is the catalogue of its exact covers.

use crate::common;

use common::{random_walk, Rng};
use pdbformat::format::Encoding;
use pdbformat::rank::TableKind;
use pdbformat::standard::StandardDb;
use pdbformat::Puzzle;
use pdbformat::{Board, Goal, Partition, Pattern};
use pdbsolver::heuristic::{Heuristic, MoveTable, PdbHeuristic, Position};
use pdbsolver::{Database, HeuristicChoice, OpenOptions, Solution};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Builds a zero-aware bit1 4x4 database of `partition` at `path` (seconds for 5-5-5).
fn build(path: &Path, partition: &'static str) -> Arc<Database> {
    let def =
        StandardDb::square("test", 4, partition, TableKind::ZeroAware).encoded(Encoding::Bit1);
    pdbgen::build_standard(&def, path, None, &pdbgen::NoProgress).unwrap();
    Arc::new(Database::open(path, OpenOptions::default()).unwrap())
}

/// IDA* with `h`: the solution, and the nodes of each iteration that ended without the goal,
/// by its bound.
fn ida_by_bound(h: &HeuristicChoice, p: &Puzzle, goal: &Goal) -> (Solution, BTreeMap<u32, u64>) {
    common::ida_by_bound(h, p, goal, pdbsolver::Ida::default())
}

fn pdb(dbs: &[Arc<Database>], reflect: bool) -> HeuristicChoice {
    HeuristicChoice::Pdb {
        databases: dbs.to_vec(),
        reflect,
    }
}

/// The standard 5-5-5 blocks and a rows split (no pattern in common) in `dir`, and their goal.
fn two_partitions(dir: &Path) -> (Arc<Database>, Arc<Database>, Goal) {
    let a = build(&dir.join("a.pdb"), "555");
    let b = build(&dir.join("b.pdb"), "1-5/6-10/11-15");
    (a, b, Goal::blank_first(Board::new(4, 4).unwrap()))
}

#[test]
fn two_partitions_take_the_maximum_and_keep_lengths() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, goal) = two_partitions(dir.path());
    let mut rng = Rng::new(78);
    for reflect in [false, true] {
        let (ha, hb) = (
            PdbHeuristic::new(std::slice::from_ref(&a), &goal, reflect).unwrap(),
            PdbHeuristic::new(std::slice::from_ref(&b), &goal, reflect).unwrap(),
        );
        let both = PdbHeuristic::new(&[a.clone(), b.clone()], &goal, reflect).unwrap();
        assert_eq!(both.groups(), 2);
        let mut raised = 0;
        let mut compared = 0;
        for _ in 0..300 {
            let p = random_walk(&goal, 120, &mut rng);
            let tiles = Position::from_tiles(p.tiles()).unwrap().tiles;
            let (va, vb) = (ha.value(&ha.init(&tiles)), hb.value(&hb.init(&tiles)));
            let st = both.init(&tiles);
            let v = both.value(&st);
            assert_eq!(v, va.max(vb), "{p:#}");
            assert_eq!(v, both.component_values(&st).into_iter().max().unwrap());
            raised += usize::from(v > va.min(vb));
        }
        assert!(raised > 0, "the second partition never raised the value");
        let (sa, sb, sc) = (
            pdb(std::slice::from_ref(&a), reflect),
            pdb(std::slice::from_ref(&b), reflect),
            pdb(&[a.clone(), b.clone()], reflect),
        );
        for _ in 0..6 {
            let p = random_walk(&goal, 80, &mut rng);
            let (x, xi) = ida_by_bound(&sa, &p, &goal);
            let (y, yi) = ida_by_bound(&sb, &p, &goal);
            let (z, zi) = ida_by_bound(&sc, &p, &goal);
            assert_eq!(x.len(), y.len(), "{p:#}");
            assert_eq!(z.len(), x.len(), "{p:#}");
            common::assert_replays(&p, &goal, &z);
            // The maximum dominates both, so an iteration of IDA* with it that ends without the
            // goal expands a subset of what either expands to the same bound: it never
            // generates more nodes. (The last iteration stops at the first solution, which the
            // order by estimate, itself depending on the heuristic, may meet later.)
            assert!(z.stats.initial_h >= x.stats.initial_h.max(y.stats.initial_h));
            for (bound, &nodes) in &zi {
                for other in [&xi, &yi] {
                    if let Some(&theirs) = other.get(bound) {
                        assert!(nodes <= theirs, "{p:#}, bound {bound}: {nodes} > {theirs}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 0, "no iteration of the same bound to compare");
    }
}

#[test]
fn children_evaluated_ahead_match_the_children_made_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, goal) = two_partitions(dir.path());
    // Four components: two partitions, each with its reflection.
    let h = PdbHeuristic::new(&[a, b.clone()], &goal, true).unwrap();
    assert_eq!(h.components(), 4);
    check_children(&h, &goal, 1212);
    // Two partitions sharing the pattern 1-5 (and, reflected, its transpose): a move of
    // tiles 1-5 is looked up once for both.
    let c = build(&dir.path().join("c.pdb"), "1-5/6,7,10,11,14/8,9,12,13,15");
    let h = PdbHeuristic::new(&[b, c], &goal, true).unwrap();
    assert_eq!(h.components(), 4);
    check_children(&h, &goal, 1213);
}

/// The partitions of the compound test, as `/`-separated patterns: three 5-5-5 splits of the
/// 4x4 sharing the bottom row's pattern 11-15.
const SPLITS: [&str; 3] = [
    "1-5/6-10/11-15",
    "1-3,6,7/4,5,8-10/11-15",
    "1,2,5,6,9/3,4,7,8,10/11-15",
];

#[test]
fn a_compound_file_is_the_catalogue_of_its_covers() {
    let dir = tempfile::tempdir().unwrap();
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    let board = goal.board();
    // The seven distinct patterns of the three splits, in one file.
    let mut patterns: Vec<Pattern> = Vec::new();
    for split in SPLITS {
        for p in Partition::parse(&goal, split).unwrap().patterns() {
            if !patterns.contains(p) {
                patterns.push(p.clone());
            }
        }
    }
    assert_eq!(patterns.len(), 7);
    let partition = Partition::compound(patterns).unwrap();
    assert_eq!(partition.covers().len(), 3);
    partition.check_complete(board).unwrap();
    let request = pdbgen::BuildRequest {
        goal: goal.clone(),
        partition,
        kind: TableKind::ZeroAware,
        threads: None,
        encoding: Encoding::Bit1,
        write: Default::default(),
    };
    let path = dir.path().join("compound.pdb");
    pdbgen::build_file(&request, &path, &pdbgen::NoProgress).unwrap();
    let compound = Arc::new(Database::open(&path, OpenOptions::default()).unwrap());
    assert_eq!(compound.tables().len(), 7);
    let splits: Vec<Arc<Database>> = SPLITS
        .iter()
        .enumerate()
        .map(|(i, s)| build(&dir.path().join(format!("{i}.pdb")), s))
        .collect();
    let mut rng = Rng::new(7755);
    for reflect in [false, true] {
        let hc = PdbHeuristic::new(std::slice::from_ref(&compound), &goal, reflect).unwrap();
        let hs = PdbHeuristic::new(&splits, &goal, reflect).unwrap();
        assert_eq!((hc.groups(), hs.groups()), (3, 3));
        assert_eq!(hc.components(), hs.components());
        for _ in 0..200 {
            let p = random_walk(&goal, 120, &mut rng);
            let tiles = Position::from_tiles(p.tiles()).unwrap().tiles;
            assert_eq!(
                hc.value(&hc.init(&tiles)),
                hs.value(&hs.init(&tiles)),
                "{p:#}"
            );
        }
        // The same heuristic: the same search, node for node.
        for _ in 0..3 {
            let p = random_walk(&goal, 80, &mut rng);
            let (x, xi) = ida_by_bound(&pdb(std::slice::from_ref(&compound), reflect), &p, &goal);
            let (y, yi) = ida_by_bound(&pdb(&splits, reflect), &p, &goal);
            common::assert_replays(&p, &goal, &x);
            assert_eq!(
                (x.len(), x.stats.expanded),
                (y.len(), y.stats.expanded),
                "{p:#}"
            );
            assert_eq!(xi, yi, "{p:#}");
        }
        if reflect {
            // More components than `prepare` prefetches: the rest are looked up in a second
            // round of `evaluate`.
            assert!(hc.components() > 4, "{}", hc.components());
            check_children(&hc, &goal, 7756);
        }
    }
}

/// Down random paths from random positions, every child of every node evaluated ahead against
/// every limit near its parent's estimate is above the limit exactly when the child made
/// afresh is, else is that child, and its parts applied and undone are the child's and the
/// parent's.
fn check_children(h: &PdbHeuristic, goal: &Goal, seed: u64) {
    let moves = MoveTable::new(goal.board());
    let mut rng = Rng::new(seed);
    let (mut checked, mut pruned) = (0, 0);
    for _ in 0..40 {
        let p = random_walk(goal, 60, &mut rng);
        let mut pos = Position::from_tiles(p.tiles()).unwrap();
        let mut parts = h.init(&pos.tiles);
        // Down a random path, every child of every node checked against every limit near it.
        for _ in 0..30 {
            let hv = h.value(&parts);
            let blank = pos.blank;
            for &next in moves.targets(blank) {
                let tile = pos.tiles[next as usize];
                let mut child = pos.clone();
                child.slide(next);
                let fresh = h.init(&child.tiles);
                for limit in hv.saturating_sub(2)..=hv + 2 {
                    let mut pending = h.prepare(&parts, tile, next, blank);
                    let e = h.evaluate(&parts, &pos.tiles, tile, next, blank, limit, &mut pending);
                    checked += 1;
                    // Above the limit exactly when the child made afresh is: the search
                    // prunes what the whole maximum prunes, whichever lookups decided it.
                    assert_eq!(e > limit, h.value(&fresh) > limit, "{p:#}, limit {limit}");
                    if e > limit {
                        // Pruned: any admissible value above the limit.
                        assert!(e <= h.value(&fresh), "{p:#}: {e} > {}", h.value(&fresh));
                        pruned += 1;
                        continue;
                    }
                    assert_eq!(e, h.value(&fresh), "{p:#}");
                    let mut applied = parts.clone();
                    let (v, undo) = h.apply(
                        &mut applied,
                        &child.tiles,
                        tile,
                        next,
                        blank,
                        limit,
                        &pending,
                    );
                    assert_eq!(v, e);
                    assert_eq!(h.component_values(&applied), h.component_values(&fresh));
                    h.undo(&mut applied, tile, next, blank, undo);
                    assert_eq!(h.component_values(&applied), h.component_values(&parts));
                    assert_eq!(h.value(&applied), hv);
                }
            }
            // On to a random child, applied without evaluation.
            let t = moves.targets(blank);
            let next = t[rng.below(t.len())];
            let pending = h.prepare(&parts, pos.tiles[next as usize], next, blank);
            let tile = pos.slide(next);
            h.apply(
                &mut parts,
                &pos.tiles,
                tile,
                next,
                blank,
                u32::MAX,
                &pending,
            );
            assert_eq!(
                h.component_values(&parts),
                h.component_values(&h.init(&pos.tiles))
            );
        }
    }
    assert!(
        pruned > 0 && pruned < checked,
        "{pruned} of {checked} pruned"
    );
}

/// At most `MAX_ENTRIES` distinct (table, view) pairs combine: one more is a clear error
/// naming the limit, not a panic, and the limit itself is accepted.
#[test]
fn too_many_distinct_tables_is_an_error() {
    use pdbsolver::heuristic::pdb::MAX_ENTRIES;
    use pdbsolver::DbError;
    let dir = tempfile::tempdir().unwrap();
    // Ten partitions of small patterns, each a group of its own (their patterns overlap the
    // previous file's), 65 distinct tables in all: 15 singles; 7 new pairs in each of the
    // next four (the unpaired single repeats one); 5 triples in each of the next three; then
    // 3 new (13-15 repeats a triple) and 4 new.
    let partitions = [
        "1/2/3/4/5/6/7/8/9/10/11/12/13/14/15",
        "1,2/3,4/5,6/7,8/9,10/11,12/13,14/15",
        "2,3/4,5/6,7/8,9/10,11/12,13/14,15/1",
        "1,5/9,13/2,6/10,14/3,7/11,15/4,8/12",
        "1,9/5,13/2,10/6,14/3,11/7,15/4,12/8",
        "1,2,3/4,5,6/7,8,9/10,11,12/13,14,15",
        "2,3,4/5,6,7/8,9,10/11,12,13/14,15,1",
        "3,4,5/6,7,8/9,10,11/12,13,14/15,1,2",
        "1-4/5-8/9-12/13-15",
        "1,2,5,6/3,4,7,8/9,10,13,14/11,12,15",
    ];
    let dbs: Vec<Arc<Database>> = partitions
        .iter()
        .enumerate()
        .map(|(i, p)| build(&dir.path().join(format!("{i}.pdb")), p))
        .collect();
    let goal = Goal::blank_first(Board::new(4, 4).unwrap());
    // The first nine: 61 distinct tables, within the limit.
    let h = PdbHeuristic::new(&dbs[..9], &goal, false).unwrap();
    assert_eq!(h.groups(), 9);
    match PdbHeuristic::new(&dbs, &goal, false) {
        Err(e @ DbError::TooMany { max, found, .. }) => {
            assert_eq!((max, found), (MAX_ENTRIES, MAX_ENTRIES + 1));
            assert!(
                e.to_string().contains("distinct (table, view) pairs"),
                "{e}"
            );
        }
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("65 distinct tables accepted"),
    }
}
