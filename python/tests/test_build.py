"""build and verify: what the generator's library calls return, and the file they make."""

import pdbtiles


def test_build_and_verify(tmp_path):
    path = tmp_path / "sub" / "3x4.pdb"
    tables = pdbtiles.build("3x4", "1-5/6-11", path, goal="blank-last", threads=1,
                            progress=True)
    assert [t["pattern"] for t in tables] == [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]
    assert all(sum(t["histogram"]) == t["entries"] for t in tables)
    report = pdbtiles.verify(path, progress=True)
    assert [t["semantic"] for t in report["tables"]] == [True, True]
    info = pdbtiles.Database.open(path).info()
    assert info["goal_name"] == "blank-last"
    assert {t["compression"] for t in info["tables"]} == {"none"}
    # Any number of threads makes the same bytes.
    again = tmp_path / "again.pdb"
    pdbtiles.build("3x4", "1-5/6-11", again, goal="blank-last", threads=2, progress=False)
    assert again.read_bytes() == path.read_bytes()
    s = pdbtiles.solve("1 2 3 4 5 6 7 8 9 0 10 11", board="3x4", goal="blank-last", db=path)
    assert s.length == 2 and s.moves == "RR"


def test_compressed_files(tmp_path):
    path = tmp_path / "8.zstd.pdb"
    pdbtiles.build("3x3", "1-4/5-8", path, compress="zstd", progress=False)
    info = pdbtiles.verify(path, semantic=False)
    assert [t["semantic"] for t in info["tables"]] == [False, False]
    db = pdbtiles.Database.open(path)
    assert {t["compression"] for t in db.info()["tables"]} == {"zstd"}
    assert pdbtiles.solve("8 6 7 2 5 4 3 0 1", db=db).length == 27
