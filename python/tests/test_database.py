"""Database: the header, the solver's estimates of NumPy arrays of positions (equal to the
start estimate of a search), and tables as read-only views without a copy."""

import numpy as np
import pytest

import pdbtiles
from conftest import bfs_distances


def random_positions(n, cells, seed):
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(cells) for _ in range(n)], dtype=np.uint8)


def test_info(db663):
    db = pdbtiles.Database.open(db663)
    info = db.info()
    assert info["board"] == "4x4" and info["width"] == 4 and info["height"] == 4
    assert info["goal"] == list(range(16)) and info["goal_name"] == "blank-first"
    assert [len(t["pattern"]) for t in info["tables"]] == [6, 6, 3]
    assert sorted(x for t in info["tables"] for x in t["pattern"]) == list(range(1, 16))
    assert all(t["encoding"] == "u8" and t["kind"] == "zero-aware" for t in info["tables"])
    assert sum(t["raw_bytes"] for t in info["tables"]) < info["file_bytes"]
    assert len(db) == 3 and db.board == "4x4" and "13-15" in repr(db)


def test_heuristic_is_the_start_estimate_3x3(db33):
    db = pdbtiles.Database.open(db33)
    goal = (0, 1, 2, 3, 4, 5, 6, 7, 8)
    dist = bfs_distances(3, 3, goal)
    states = np.array(sorted(dist)[::97], dtype=np.uint8)
    for reflect in (True, False):
        h = db.heuristic(states, reflect=reflect)
        assert h.dtype == np.uint32 and h.shape == (len(states),)
        for row, v in zip(states, h):
            s = pdbtiles.solve(row.tolist(), db=db, reflect=reflect)
            assert v == s.initial_h
            assert v <= dist[tuple(row)]
    # For the blank-last goal too (the database seen through a symmetry).
    states = random_positions(200, 9, 5)
    h = db.heuristic(states, goal="blank-last")
    for row, v in list(zip(states, h))[:40]:
        try:
            s = pdbtiles.solve(row.tolist(), db=db, goal="blank-last")
        except ValueError:
            continue  # unsolvable for this goal: the estimate still exists
        assert v == s.initial_h


def test_heuristic_is_the_start_estimate_4x4(db663):
    db = pdbtiles.Database.open(db663)
    states = random_positions(2000, 16, 6)
    h = db.heuristic(states)
    assert h.min() > 10 and h.max() < 80
    # Random positions: the estimate a search starts from (stopped at once by a node limit).
    checked = 0
    for row, v in list(zip(states, h))[:60]:
        try:
            pdbtiles.solve(row.tolist(), db=db, max_nodes=1)
        except ValueError:
            continue  # the other parity class
        except pdbtiles.SearchStopped as e:
            assert v == e.initial_h
            checked += 1
    assert checked > 15
    # Positions a few moves from the goal solve quickly; their start estimates must agree.
    rng = np.random.default_rng(7)
    near = []
    for _ in range(25):
        t = list(range(16))
        b = 0
        for _ in range(30):
            r, c = divmod(b, 4)
            moves = [(r + dr) * 4 + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                     if 0 <= r + dr < 4 and 0 <= c + dc < 4]
            o = moves[rng.integers(len(moves))]
            t[b], t[o] = t[o], 0
            b = o
        near.append(t)
    near = np.array(near, dtype=np.uint8)
    for reflect in (True, False):
        h = db.heuristic(near, reflect=reflect)
        for row, v in zip(near, h):
            assert v == pdbtiles.solve(row.tolist(), db=db, reflect=reflect).initial_h
    # A non-contiguous array gives the same values.
    wide = np.zeros((len(near), 32), dtype=np.uint8)
    wide[:, ::2] = near
    assert (db.heuristic(wide[:, ::2]) == db.heuristic(near)).all()


def test_table_is_a_read_only_view(db33):
    db = pdbtiles.Database.open(db33)
    info = db.info()
    t = db.table(0)
    assert t.dtype == np.uint8 and t.shape == (info["tables"][0]["entries"],)
    assert not t.flags.writeable
    with pytest.raises(ValueError):
        t[0] = 1
    assert np.shares_memory(t, db.table(0))
    assert t.max() == info["tables"][0]["max_value"] and t.min() == 0
    del db  # the view keeps the database alive
    assert int(t.sum()) > 0


def test_bit1_tables(dbdir):
    path = dbdir / "8-44-za-bit1.pdb"
    pdbtiles.build("3x3", "1-4/5-8", path, encoding="bit1", progress=False)
    db = pdbtiles.Database.open(path)
    with pytest.raises(ValueError, match="encoded=True"):
        db.table(0)
    assert db.table(0, encoded=True).dtype == np.uint8
    states = random_positions(300, 9, 8)
    u8 = pdbtiles.Database.open(dbdir / "8-44-za.pdb") if (dbdir / "8-44-za.pdb").exists() else None
    if u8 is not None:
        assert (db.heuristic(states) == u8.heuristic(states)).all()
