//! The examples of `docs/FORMAT.md` are what the code does: the annotated hex dump of a small
//! file, the worked index examples and the entry-encoding examples.

use pdbformat::format::{
    encode_entries, write_pdb, Compression, Digest, Encoding, LoadOptions, PdbFile, TableSource,
    WriteOptions, MAGIC,
};
use pdbformat::rank::{
    entry_count, rank_combination, rank_permutation, Binomials, TableIndex, TableKind,
    ZeroAwareIndex,
};
use pdbformat::{Board, Goal, Pattern};

const DOC: &str = include_str!("../../docs/FORMAT.md");

/// The marker line before the fenced hex dump in the document.
const DUMP_MARKER: &str = "<!-- example-hexdump -->";

/// `hexdump`-like lines: four hex digits of offset, then sixteen bytes in two groups of eight.
fn hex_dump(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (i, line) in bytes.chunks(16).enumerate() {
        let group = |g: &[u8]| g.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>();
        let (a, b) = line.split_at(line.len().min(8));
        s += &format!("{:04x}  {}", i * 16, group(a).join(" "));
        if !b.is_empty() {
            s += &format!("  {}", group(b).join(" "));
        }
        s += "\n";
    }
    s
}

/// The fenced block after [`DUMP_MARKER`].
fn documented_dump() -> String {
    let after = &DOC[DOC.find(DUMP_MARKER).expect("hex dump marker in FORMAT.md")..];
    let mut lines = after.lines().skip_while(|l| !l.starts_with("```"));
    lines.next();
    lines
        .take_while(|l| !l.starts_with("```"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The example file: a 2x2 board, blank-first goal, a zero-unaware `u8` table of tiles 1 and 2
/// and a zero-aware `u4` table of tile 3, stored raw. Values are illustrative.
fn example_file() -> Vec<u8> {
    let board = Board::new(2, 2).unwrap();
    let goal = Goal::blank_first(board);
    let p0 = Pattern::new(board, &[1, 2]).unwrap();
    let p1 = Pattern::new(board, &[3]).unwrap();
    let v0: Vec<u8> = (0..12).collect();
    let e1 = encode_entries(&[1, 2, 3, 4], Encoding::U4);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("example.pdb");
    write_pdb(
        &path,
        &goal,
        &[
            TableSource {
                kind: TableKind::ZeroUnaware,
                pattern: &p0,
                encoding: Encoding::U8,
                max_value: 11,
                entries: &v0,
            },
            TableSource {
                kind: TableKind::ZeroAware,
                pattern: &p1,
                encoding: Encoding::U4,
                max_value: 4,
                entries: &e1,
            },
        ],
        &WriteOptions {
            compression: Compression::None,
            ..WriteOptions::default()
        },
    )
    .unwrap();
    std::fs::read(&path).unwrap()
}

#[test]
fn the_documented_hex_dump_is_what_the_writer_writes() {
    let bytes = example_file();
    let dump = hex_dump(&bytes);
    assert_eq!(
        documented_dump(),
        dump,
        "docs/FORMAT.md's example dump is stale; the writer now writes:\n{dump}"
    );
    // The facts the document states about it.
    assert_eq!(bytes.len(), 386);
    assert_eq!(bytes[..8], MAGIC);
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()), 288);
    assert_eq!(
        bytes[256..288],
        Digest::of(&bytes[..256]).0,
        "the header checksum"
    );
    let f = PdbFile::from_bytes(bytes.clone()).unwrap();
    f.verify().unwrap();
    let h = f.header();
    assert_eq!(
        h.tables
            .iter()
            .map(|t| (t.payload_offset, t.stored_len))
            .collect::<Vec<_>>(),
        [(320, 12), (384, 2)]
    );
    assert_eq!(h.tables[0].stored_digest, Digest::of(&bytes[320..332]));
    assert_eq!(h.tables[1].raw_digest, Digest::of(&[0x21, 0x43]));
    let t1 = f.load(1, LoadOptions::default()).unwrap();
    assert_eq!(t1.values(), Some(vec![1, 2, 3, 4]));
}

#[test]
fn the_worked_index_examples() {
    let board = Board::new(3, 3).unwrap();
    // Entry counts.
    assert_eq!(entry_count(board, 2, TableKind::ZeroUnaware).unwrap(), 72);
    assert_eq!(entry_count(board, 2, TableKind::ZeroAware).unwrap(), 80);
    assert_eq!(entry_count(board, 3, TableKind::ZeroUnaware).unwrap(), 504);
    assert_eq!(entry_count(board, 3, TableKind::ZeroAware).unwrap(), 744);
    let b22 = Board::new(2, 2).unwrap();
    assert_eq!(entry_count(b22, 2, TableKind::ZeroUnaware).unwrap(), 12);
    assert_eq!(entry_count(b22, 1, TableKind::ZeroAware).unwrap(), 4);
    // Tile 1 on cell 3, tile 2 on cell 1.
    let cells = [3u8, 1];
    // Zero-unaware: digits 3 and 1, rank 3·8 + 1.
    assert_eq!(rank_permutation(&cells, 9), 25);
    let zu = TableIndex::new(board, 2, TableKind::ZeroUnaware).unwrap();
    for blank in [0, 2, 4, 5, 6, 7, 8] {
        assert_eq!(zu.index(&cells, blank), 25);
    }
    // Zero-aware: set {1, 3} has colex rank C(1,1) + C(3,2) = 4; sets 0..=3 are {0,1}, {0,2},
    // {1,2}, {0,3}, one region each; set 4 has regions {0} and {2,4,5,6,7,8}.
    let binom = Binomials::new();
    assert_eq!(rank_combination((1 << 1) | (1 << 3), &binom), 4);
    let sets: Vec<u64> = [[0, 1], [0, 2], [1, 2], [0, 3]]
        .iter()
        .map(|s| (1u64 << s[0]) | (1 << s[1]))
        .collect();
    let za = ZeroAwareIndex::new(board, 2).unwrap();
    for (rank, &mask) in sets.iter().enumerate() {
        assert_eq!(za.set_rank(mask), rank);
        assert_eq!(za.regions_of_set(rank).len(), 1);
    }
    assert_eq!(za.regions_of_set(4), 4..6);
    assert_eq!(za.region_mask(4), 1 << 0);
    assert_eq!(
        za.region_mask(5),
        [2, 4, 5, 6, 7, 8].iter().fold(0, |m, c| m | 1 << c)
    );
    // Slots (1, 0): order rank 1.
    assert_eq!(za.order_rank(&cells, (1 << 1) | (1 << 3)), 1);
    assert_eq!(rank_permutation(&[1, 0], 2), 1);
    assert_eq!(za.index(&cells, 0), 9);
    for blank in [2, 4, 5, 6, 7, 8] {
        assert_eq!(za.index(&cells, blank), 11);
    }
    // Exactly four sets of two cells cut a corner off: 40 regions, 80 entries.
    let split: Vec<usize> = (0..za.set_count())
        .filter(|&s| za.regions_of_set(s).len() == 2)
        .collect();
    let corners: Vec<u64> = [[1, 3], [1, 5], [3, 7], [5, 7]]
        .iter()
        .map(|s| (1u64 << s[0]) | (1 << s[1]))
        .collect();
    assert_eq!(
        split.iter().map(|&s| za.set_mask(s)).collect::<Vec<_>>(),
        corners
    );
    assert_eq!(za.region_count(), 40);
    // The 2x2 example file: zero-unaware index c1·3 + d1, zero-aware index = tile 3's cell.
    let zu22 = TableIndex::new(b22, 2, TableKind::ZeroUnaware).unwrap();
    assert_eq!(zu22.index(&[1, 2], 0), 4);
    assert_eq!(zu22.index(&[3, 0], 1), 9);
    let za22 = TableIndex::new(b22, 1, TableKind::ZeroAware).unwrap();
    for c in 0..4u8 {
        assert_eq!(za22.index(&[c], if c == 0 { 1 } else { 0 }), c as u64);
    }
}

#[test]
fn the_entry_encoding_examples() {
    let values = [0u8, 1, 2, 3, 4, 5, 6, 7, 15];
    assert_eq!(
        encode_entries(&values, Encoding::U4),
        [0x10, 0x32, 0x54, 0x76, 0x0f]
    );
    assert_eq!(encode_entries(&values, Encoding::Bit1), [0xcc, 0x01]);
    assert_eq!(Encoding::U8.encoded_len(9), 9);
    assert_eq!(Encoding::U4.encoded_len(9), 5);
    assert_eq!(Encoding::Bit1.encoded_len(9), 2);
    for (e, code) in [(Encoding::U8, 0), (Encoding::U4, 1), (Encoding::Bit1, 2)] {
        assert_eq!(e.code(), code);
        assert_eq!(Encoding::from_code(code), Some(e));
    }
    assert_eq!(Encoding::from_code(3), None);
    for (c, code) in [
        (Compression::None, 0),
        (Compression::Zstd, 1),
        (Compression::Gzip, 2),
        (Compression::ZstdSymmetric, 3),
    ] {
        assert_eq!(c.code(), code);
        assert_eq!(Compression::from_code(code), Some(c));
    }
    assert_eq!(Compression::from_code(4), None);
}
