//! Tests of the standard set: definitions, naming rule, catalogues, defaults, file names.

use super::*;

#[test]
fn the_set_resolves_and_follows_the_naming_rule() {
    check_definitions().unwrap();
    for (i, a) in STANDARD.iter().enumerate() {
        assert!(STANDARD[i + 1..].iter().all(|b| b.name != a.name));
        let suffix = match (a.is_class_file(), a.kind) {
            (true, _) => "-mtm",
            (false, TableKind::ZeroAware) => "-za",
            (false, TableKind::ZeroUnaware) => "-zu",
        };
        assert!(a.name.contains(suffix), "{}", a.name);
    }
    let p = find("15-663-za").unwrap().partition().unwrap();
    assert_eq!(p.to_string().matches('/').count(), 2);
    for s in STANDARD {
        assert_eq!(s.conventional_name().as_deref(), Some(s.name), "{s:?}");
        if s.is_class_file() {
            assert_eq!(s.metric, crate::Metric::Mtm, "{}", s.name);
            assert!(s.partition().is_err() && s.resolve().is_err(), "{}", s.name);
            let labels = s.labels().unwrap();
            assert_eq!(labels.len(), s.labellings.split('+').count(), "{}", s.name);
            continue;
        }
        assert_eq!(s.metric, crate::Metric::Stm, "{}", s.name);
        assert!(s.labels().is_err(), "{}", s.name);
        let p = s.partition().unwrap();
        // Every group (the partition, or each cover of a compound) holds every tile once.
        for cover in p.covers() {
            let tiles: usize = cover.iter().map(|&i| p.patterns()[i].len()).sum();
            assert_eq!(tiles, s.width * s.height - 1, "{}", s.name);
        }
        assert_eq!(p.covers().len() > 1, !p.is_disjoint(), "{}", s.name);
        if s.encoding == Encoding::Bit1 {
            assert_eq!(
                s.kind,
                TableKind::ZeroAware,
                "{}: bit1 needs zero-aware",
                s.name
            );
        }
    }
    assert_eq!(
        lookup("15-663-za")
            .unwrap()
            .partition()
            .unwrap()
            .to_string(),
        "1,4,5,8,9,12/2,3,6,7,10,11/13-15"
    );
    assert_eq!(
        lookup("15-663-za")
            .unwrap()
            .partition()
            .unwrap()
            .patterns()
            .iter()
            .map(|p| p.len())
            .collect::<Vec<_>>(),
        [6, 6, 3]
    );
}

#[test]
fn catalogues_expand_to_members_of_one_board() {
    check_definitions().unwrap();
    assert!(!CATALOGUES.is_empty());
    for c in CATALOGUES {
        let members = expand(c.name).unwrap();
        assert_eq!(
            members.iter().map(|m| m.name).collect::<Vec<_>>(),
            c.members
        );
        assert!(members.len() >= 2, "{}", c.name);
        // Every member ends like the catalogue (kind and encoding) and has a distinct
        // partition: two copies of one partition would add nothing to the maximum.
        for (i, m) in members.iter().enumerate() {
            let tail = m.name.split_once('-').unwrap().1.split_once('-').unwrap().1;
            assert!(c.name.ends_with(tail), "{} in {}", m.name, c.name);
            assert!(c.name.contains(m.partition), "{} in {}", m.name, c.name);
            let p = m.partition().unwrap();
            assert!(members[..i].iter().all(|n| n.partition().unwrap() != p));
        }
    }
    let c = find_catalogue("15-78+78b-za-bit1").unwrap();
    assert_eq!(c.members, ["15-78-za-bit1", "15-78b-za-bit1"]);
    assert_eq!(
        lookup("15-78b-za-bit1")
            .unwrap()
            .partition()
            .unwrap()
            .to_string(),
        "1-5,8,9/6,7,10-15"
    );
    assert_eq!(
        expand("15-663-za")
            .unwrap()
            .iter()
            .map(|s| s.name)
            .collect::<Vec<_>>(),
        ["15-663-za"]
    );
    let e = expand("15-78+78c-za-bit1").unwrap_err().to_string();
    assert!(
        e.contains("15-78+78c-za-bit1")
            && e.contains("15-78+78b-za-bit1")
            && e.contains("15-663-za"),
        "{e}"
    );
}

#[test]
fn defaults_per_board() {
    use crate::Metric::{Mtm, Stm};
    let b44 = Board::new(4, 4).unwrap();
    let d = default_for(b44, Stm).unwrap();
    let r = d.resolve().unwrap();
    assert_eq!((r.board, &r.goal), (b44, &Goal::blank_first(b44)));
    assert_eq!(r.partition, d.partition().unwrap());
    assert_eq!(d.name, "15-663-za");
    assert_eq!(d.file_name(), "15-663-za.pdb");
    assert_eq!((d.kind, d.encoding), (ZA, Encoding::U8));
    assert_eq!(d.goal().unwrap(), Goal::blank_first(b44));
    assert!(default_for(Board::new(3, 3).unwrap(), Stm).is_none());
    let b55 = Board::new(5, 5).unwrap();
    let d = default_for(b55, Stm).unwrap();
    assert_eq!(d.name, "24-6666x7-za-bit1");
    assert_eq!(d.partition().unwrap().covers().len(), 7);
    assert_eq!((d.kind, d.encoding), (ZA, Encoding::Bit1));
    assert_eq!(d.goal().unwrap(), Goal::blank_first(b55));
    assert!(default_for(Board::new(4, 5).unwrap(), Stm).is_none());
    // The multi-tile metric's default: on 4x4 only; other boards use the walking distance.
    let m = default_for(b44, Mtm).unwrap();
    assert_eq!(m.name, "15-rows+rokicki+rokicki-mirror-mtm");
    assert_eq!((m.metric, m.encoding, m.large), (Mtm, Encoding::U8, true));
    assert_eq!(m.goal().unwrap(), Goal::blank_first(b44));
    let labels = m.labels().unwrap();
    assert_eq!(labels.len(), 3);
    assert_eq!(labels[0], crate::rank::ClassLabels::Rows);
    for (i, preset) in [(1, "rokicki"), (2, "rokicki-mirror")] {
        let parsed = crate::rank::ClassLabels::parse(&Goal::blank_first(b44), preset);
        assert_eq!(labels[i], parsed.unwrap());
    }
    for side in [3, 5] {
        assert!(default_for(Board::new(side, side).unwrap(), Mtm).is_none());
    }
}

#[test]
fn class_files_follow_their_own_naming_rule() {
    let s = find("8-rows-mtm").unwrap();
    assert!(s.is_class_file() && !s.large);
    assert_eq!(s.labels().unwrap(), [crate::rank::ClassLabels::Rows]);
    assert_eq!(s.file_name(), "8-rows-mtm.pdb");
    assert!(matches!(
        s.partition(),
        Err(StandardError::Content {
            name: "8-rows-mtm",
            ..
        })
    ));
    assert!(matches!(
        find("15-663-za").unwrap().labels(),
        Err(StandardError::Content { .. })
    ));
    let c = StandardDb::classes("15-columns-mtm", 4, "columns");
    assert_eq!(c.conventional_name().as_deref(), Some("15-columns-mtm"));
    let m = StandardDb::classes("15-rokicki+rokicki-mirror-mtm", 4, "rokicki+rokicki-mirror");
    assert_eq!(m.conventional_name().as_deref(), Some(m.name));
    assert_eq!(m.labels().unwrap().len(), 2);
    let g = StandardDb::classes("x", 3, "1,2/3-8");
    assert_eq!(g.conventional_name(), None);
    assert_eq!(g.labels().unwrap().len(), 1);
    let bad = StandardDb::classes("15-nope-mtm", 4, "rows+nope");
    assert!(matches!(
        bad.labels(),
        Err(StandardError::BadLabels {
            name: "15-nope-mtm",
            ..
        })
    ));
    let wrong_board = StandardDb::classes("8-rokicki-mtm", 3, "rokicki");
    assert!(wrong_board.labels().is_err());
    // A catalogue never holds a class file: the solver's maximum over class tables is one file's.
    assert!(CATALOGUES
        .iter()
        .all(|c| c.members.iter().all(|m| !find(m).unwrap().is_class_file())));
}

#[test]
fn selections_keep_the_standard_order() {
    assert_eq!(select::<&str>(&[]).unwrap().len(), STANDARD.len());
    let s = select(&["15-663-zu", "8-full-za", "15-663-zu"]).unwrap();
    let names: Vec<_> = s.iter().map(|s| s.name).collect();
    assert_eq!(names, ["8-full-za", "15-663-zu"]);
    let e = select(&["8-full-za".to_string(), "15-664-za".into()]).unwrap_err();
    assert!(matches!(e, StandardError::Unknown { ref name, .. } if name == "15-664-za"));
    let text = e.to_string();
    assert!(
        text.contains("15-664-za") && text.contains("15-663-za"),
        "{text}"
    );
}

#[test]
fn lookups_and_file_names() {
    let e = lookup("15-664-za").unwrap_err();
    assert!(matches!(&e, StandardError::Unknown { name, .. } if name == "15-664-za"));
    let text = e.to_string();
    assert!(
        text.contains("15-664-za") && text.contains("15-663-za"),
        "{text}"
    );
    let (s, c) = parse_file_name("15-78-za.zstd.pdb").unwrap();
    assert_eq!((s.name, c), ("15-78-za", Compression::Zstd));
    assert_eq!(variant_file_name(s, Compression::Gzip), "15-78-za.gzip.pdb");
    assert_eq!(variant_file_name(s, Compression::None), "15-78-za.pdb");
    assert_eq!(
        parse_file_name("8-full-zu.pdb").unwrap().1,
        Compression::None
    );
    assert!(parse_file_name("8-full-zu.xz.pdb").is_none());
    assert!(parse_file_name("8-full-zuzstd.pdb").is_none());
    assert!(parse_file_name("other.pdb").is_none());
    assert!(parse_file_name("8-full-zu").is_none());
}

#[test]
fn one_line_entries() {
    // What a future entry looks like, checked without adding it to the set.
    let bit1 = StandardDb::square("15-78-za-bit1", 4, "78", ZA)
        .encoded(Encoding::Bit1)
        .large();
    assert_eq!(bit1.conventional_name().as_deref(), Some(bit1.name));
    assert!(bit1.large && bit1.encoding == Encoding::Bit1);
    bit1.partition().unwrap();
    let z = StandardDb::square("24-6666-za", 5, "6666", ZA).large();
    assert_eq!(z.conventional_name().as_deref(), Some("24-6666-za"));
    assert_eq!(z.partition().unwrap().patterns().len(), 4);
    assert_eq!(
        variant_file_name(&z, Compression::Zstd),
        "24-6666-za.zstd.pdb"
    );
    assert_eq!(variant_file_name(&z, Compression::None), "24-6666-za.pdb");
    assert_eq!(
        parse_file_name("15-663-za.none.pdb").map(|(s, c)| (s.name, c)),
        Some(("15-663-za", Compression::None))
    );
    let bad = StandardDb::square("15-99-za", 4, "99", ZA);
    assert!(matches!(
        bad.partition(),
        Err(StandardError::BadPartition {
            name: "15-99-za",
            ..
        })
    ));
    let bad = StandardDb::square("x", 1, "full", ZA);
    assert!(matches!(bad.goal(), Err(StandardError::BadPuzzle { .. })));
}

#[test]
fn rectangles_are_named_by_their_size() {
    // 5x6 and 6x5 have the same tile count: their names tell them apart.
    let wide = StandardDb {
        width: 6,
        height: 5,
        ..StandardDb::square("x", 5, "full", TableKind::ZeroAware)
    };
    let tall = StandardDb {
        width: 5,
        height: 6,
        ..wide
    };
    assert_eq!(wide.conventional_name().as_deref(), Some("6x5-full-za"));
    assert_eq!(tall.conventional_name().as_deref(), Some("5x6-full-za"));
    let square = StandardDb::square("x", 6, "full", TableKind::ZeroAware).encoded(Encoding::Bit1);
    assert_eq!(
        square.conventional_name().as_deref(),
        Some("35-full-za-bit1")
    );
}

#[test]
fn build_args_say_how_to_build_each_entry() {
    let d = find("15-663-za").unwrap();
    assert_eq!(
        d.build_args().join(" "),
        "build --board 4x4 --partition 663 --kind zero-aware --encoding u8 -o 15-663-za.pdb"
    );
    let c = find("8-rows-mtm").unwrap();
    assert_eq!(
        c.build_args().join(" "),
        "build --board 3x3 --metric mtm --classes rows --encoding u8 -o 8-rows-mtm.pdb"
    );
    let last = StandardDb {
        goal: "blank-last",
        ..*d
    };
    assert!(last
        .build_args()
        .join(" ")
        .contains("--board 4x4 --goal blank-last --partition"));
}
