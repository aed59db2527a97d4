//! The pruning machine's cache file: a machine read back is the machine that was written
//! (every start and transition), the layout is the documented little-endian one, and every
//! damaged, truncated or mislabelled file is refused and then rebuilt and replaced; a machine
//! beside the databases is read before the cache, and never replaced.

use pdbformat::Board;
use pdbsolver::prune::cache::{self, decode, encode, file_name, read, write};
use pdbsolver::prune::{Origin, Pruner};

/// The two machines answer every (state, slot) and every start cell alike.
fn assert_same(board: Board, a: &Pruner, b: &Pruner) {
    assert_eq!(a.states(), b.states());
    assert_eq!(a.words(), b.words());
    assert_eq!(a.depth(), b.depth());
    assert_eq!(a.table_bytes(), b.table_bytes());
    for c in 0..board.cells() {
        assert_eq!(a.start(c as u8), b.start(c as u8));
    }
    for s in 0..=a.states() as u32 {
        for slot in 0..4 {
            assert_eq!(a.step(s, slot), b.step(s, slot), "state {s} slot {slot}");
        }
    }
}

#[test]
fn written_machines_read_back_identical() {
    let dir = tempfile::tempdir().unwrap();
    // 3×5 at depth 16 has over 65,535 states: four-byte entries, decoded into huge pages.
    for (w, h, depth) in [(3, 3, 10), (4, 3, 8), (4, 4, 10), (5, 5, 8), (3, 5, 16)] {
        let board = Board::new(w, h).unwrap();
        let built = Pruner::new(board, depth);
        let path = dir.path().join(file_name(board, depth));
        write(&path, board, &built).unwrap();
        let loaded = read(&path, board, depth).unwrap();
        assert_same(board, &built, &loaded);
        assert_eq!(loaded.origin(), &Origin::Loaded(path.clone()));
    }
    // Only the final files are left: the temporary files were renamed.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "prune-3x3-d10.fsm",
            "prune-3x5-d16.fsm",
            "prune-4x3-d8.fsm",
            "prune-4x4-d10.fsm",
            "prune-5x5-d8.fsm"
        ]
    );
}

/// A four-byte table (over 65,535 states) with a transition past the last state, its digest
/// made right again, is refused: the range check covers the table decoded in place.
#[test]
fn a_wide_transition_out_of_range_is_refused() {
    let board = Board::new(3, 5).unwrap();
    let p = Pruner::new(board, 16);
    assert!(p.states() > 65_535);
    let good = encode(board, &p);
    assert_eq!(&good[32..36], &[4, 0, 0, 0]);
    let path = std::path::Path::new("prune-3x5-d16.fsm");
    assert_same(board, &p, &decode(path, &good, board, 16).unwrap());
    let table = 40 + 4 * board.cells();
    let body = good.len() - 32;
    // The last transition, then one in the middle of the table.
    for at in [body - 4, table + (body - table) / 8 * 4] {
        let mut bad = good.clone();
        bad[at..at + 4].copy_from_slice(&(p.states() as u32 + 1).to_le_bytes());
        let digest = pdbformat::format::Digest::of(&bad[..body]).0;
        bad[body..].copy_from_slice(&digest);
        let e = decode(path, &bad, board, 16).unwrap_err().to_string();
        assert!(e.contains("out of range"), "{e}");
    }
}

#[test]
fn layout_is_the_documented_little_endian_one() {
    let board = Board::new(4, 3).unwrap();
    let p = Pruner::new(board, 8);
    let bytes = encode(board, &p);
    assert_eq!(&bytes[0..8], b"PRUNEFSM");
    assert_eq!(&bytes[8..12], &[1, 0, 0, 0]);
    assert_eq!(&bytes[12..14], &[4, 0]);
    assert_eq!(&bytes[14..16], &[3, 0]);
    assert_eq!(&bytes[16..20], &[8, 0, 0, 0]);
    assert_eq!(
        u32::from_le_bytes(bytes[20..24].try_into().unwrap()) as usize,
        p.states()
    );
    assert_eq!(
        u64::from_le_bytes(bytes[24..32].try_into().unwrap()) as usize,
        p.words()
    );
    assert_eq!(&bytes[32..40], &[2, 0, 0, 0, 0, 0, 0, 0]);
    // Start states, then the table (row 0 forbidden), then the digest.
    for c in 0..12 {
        let at = 40 + 4 * c;
        assert_eq!(
            u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()),
            p.start(c as u8)
        );
    }
    let table = 40 + 4 * 12;
    assert_eq!(bytes.len(), table + (p.states() + 1) * 4 * 2 + 32);
    assert_eq!(&bytes[table..table + 8], &[0; 8]);
    let s = p.start(5) as usize;
    for slot in 0..4 {
        let at = table + 2 * (4 * s + slot);
        assert_eq!(
            u16::from_le_bytes([bytes[at], bytes[at + 1]]) as u32,
            p.step(s as u32, slot)
        );
    }
    let body = bytes.len() - 32;
    assert_eq!(
        pdbformat::format::Digest::of(&bytes[..body]).0[..],
        bytes[body..]
    );
}

#[test]
fn every_flipped_byte_and_truncation_is_refused() {
    let board = Board::new(3, 3).unwrap();
    let p = Pruner::new(board, 8);
    let good = encode(board, &p);
    let path = std::path::Path::new("prune-3x3-d8.fsm");
    assert_same(board, &p, &decode(path, &good, board, 8).unwrap());
    for i in 0..good.len() {
        for bit in [0x01u8, 0x80] {
            let mut bad = good.clone();
            bad[i] ^= bit;
            assert!(decode(path, &bad, board, 8).is_err(), "byte {i} ^ {bit:#x}");
        }
    }
    for len in 0..good.len() {
        assert!(decode(path, &good[..len], board, 8).is_err(), "{len} bytes");
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(decode(path, &longer, board, 8).is_err());
}

#[test]
fn a_machine_of_another_board_or_depth_is_refused() {
    let board = Board::new(3, 3).unwrap();
    let bytes = encode(board, &Pruner::new(board, 8));
    let path = std::path::Path::new("x.fsm");
    let e = decode(path, &bytes, board, 10).unwrap_err().to_string();
    assert!(e.contains("word depth 8, expected 10"), "{e}");
    let e = decode(path, &bytes, Board::new(4, 3).unwrap(), 8)
        .unwrap_err()
        .to_string();
    assert!(e.contains("made for a 3x3 board"), "{e}");
}

#[test]
fn load_or_build_caches_and_replaces_damaged_files() {
    let dir = tempfile::tempdir().unwrap();
    let board = Board::new(4, 4).unwrap();
    let path = dir.path().join(file_name(board, 10));
    let reference = Pruner::new(board, 10);

    // Missing: built and written.
    let first = Pruner::load_or_build(board, 10, dir.path());
    assert_eq!(
        first.origin(),
        &Origin::Cached {
            path: path.clone(),
            replaced: None
        }
    );
    assert_same(board, &reference, &first);

    // Present: read.
    let second = Pruner::load_or_build(board, 10, dir.path());
    assert_eq!(second.origin(), &Origin::Loaded(path.clone()));
    assert_same(board, &reference, &second);

    // Damaged (one byte of the table, then a truncation, then another depth's machine under
    // this name): refused with the reason, rebuilt, and the file replaced by a good one.
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    let other = encode(board, &Pruner::new(board, 8));
    for (damage, reason) in [
        (bytes.clone(), "checksum mismatch"),
        (bytes[..mid].to_vec(), "the header says"),
        (other, "word depth 8, expected 10"),
        (b"hello".to_vec(), "shorter than a header"),
    ] {
        std::fs::write(&path, damage).unwrap();
        let rebuilt = Pruner::load_or_build(board, 10, dir.path());
        match rebuilt.origin() {
            Origin::Cached {
                path: p,
                replaced: Some(why),
            } => {
                assert_eq!(p, &path);
                assert!(why.contains(reason), "{why}");
            }
            o => panic!("not rebuilt: {o:?}"),
        }
        assert_same(board, &reference, &rebuilt);
        let again = read(&path, board, 10).unwrap();
        assert_same(board, &reference, &again);
    }
}

#[test]
fn an_unwritable_cache_still_gives_the_machine() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the cache directory should be: nothing can be created under it.
    let blocker = dir.path().join("not-a-dir");
    std::fs::write(&blocker, b"x").unwrap();
    let board = Board::new(3, 3).unwrap();
    let p = Pruner::load_or_build(board, 12, &blocker);
    assert!(
        matches!(p.origin(), Origin::NotSaved(_)),
        "{:?}",
        p.origin()
    );
    assert_same(board, &Pruner::new(board, 12), &p);
}

#[test]
fn cache_directory_follows_the_environment() {
    // The variable's values, given as the variable would give them: tests never set the
    // process environment, which every test of the binary shares.
    assert_eq!(cache::cache_dir_for(Some("off".into())), None);
    assert_eq!(cache::cache_dir_for(Some("".into())), None);
    assert_eq!(
        cache::cache_dir_for(Some("/some/where".into())),
        Some(std::path::PathBuf::from("/some/where"))
    );
    assert_eq!(cache::cache_dir_for(None), pdbsolver::locate::cache_dir());
}
