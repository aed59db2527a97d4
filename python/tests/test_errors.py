"""Every error is a Python exception with the command line's message; none crashes."""

import shutil

import numpy as np
import pytest

import pdbtiles


@pytest.mark.parametrize(
    "puzzle, kw, match",
    [
        ("1 2 3", {}, "square"),
        ("1 1 2 3 4 5 6 7 8", {}, "more than once"),
        ("0 1 2 3 4 5 6 7 9", {}, "out of range"),
        ([0, 1, 2, 3, 4, 5, 6, 7, -1], {}, "not a tile"),
        (list(range(16)), {"goal": "blank-last"}, 'solvable for goal="blank-first"'),
        ("0 1 2 3 4 5 6 7 8", {"goal": "middle"}, None),
        ("0 1 2 3 4 5 6 7 8", {"board": "3x"}, None),
        ("0 1 2 3 4 5 6 7 8", {"board": "2x4"}, None),
        ("0 1 2 3 4 5 6 7 8", {"algorithm": "magic"}, "magic"),
        ("0 1 2 3 4 5 6 7 8", {"weight": 2}, "weight"),
        ("0 1 2 3 4 5 6 7 8", {"timeout": -1}, "timeout"),
        ("0 1 2 3 4 5 6 7 8", {"colour": "red"}, "colour"),
        ("0 1 2 3 4 5 6 7 8", {"heuristic": "manhattan", "db": "x.pdb"}, "db needs"),
    ],
)
def test_bad_requests_are_value_errors(puzzle, kw, match):
    with pytest.raises(ValueError, match=match):
        pdbtiles.solve(puzzle, **kw)


def test_messages_name_keyword_arguments_not_flags():
    # A tile count that makes no square board: the message names the keyword argument.
    with pytest.raises(ValueError, match='board="3x4"') as e:
        pdbtiles.solve(" ".join(str(t) for t in range(12)))
    assert "--" not in str(e.value)
    with pytest.raises(ValueError, match='board="3x4"'):
        pdbtiles.solve(list(range(12)))


def test_unsolvable_names_the_other_goal():
    with pytest.raises(ValueError, match='solvable for goal="blank-last"'):
        pdbtiles.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0", heuristic="manhattan")
    # On 3x3 both goals are in one parity class: no hint.
    with pytest.raises(ValueError, match=r"unsolvable[^(]*\(the permutation parity[^(]*$"):
        pdbtiles.solve("1 2 3 4 5 6 8 7 0")


def test_bad_types():
    with pytest.raises(TypeError):
        pdbtiles.solve(3.5)
    with pytest.raises(TypeError):
        pdbtiles.solve("0 1 2 3 4 5 6 7 8", db=12)
    with pytest.raises(TypeError):
        pdbtiles.solve_many("0 1 2 3 4 5 6 7 8")
    with pytest.raises(ValueError, match="puzzle 1"):
        pdbtiles.solve_many(["0 1 2 3 4 5 6 7 8", "0 1 2"])
    with pytest.raises(ValueError, match="errors"):
        pdbtiles.solve_many([], errors="ignore")


def test_limits_raise_search_stopped():
    with pytest.raises(pdbtiles.SearchStopped) as e:
        pdbtiles.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", heuristic="manhattan",
                       max_nodes=10_000)
    assert e.value.reason == "node limit" and e.value.lower_bound >= 41
    with pytest.raises(pdbtiles.SearchStopped, match="time limit"):
        pdbtiles.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", heuristic="manhattan",
                       timeout=0.05)


def test_unusable_files_are_database_errors(tmp_path, db33, db24):
    with pytest.raises(pdbtiles.DatabaseError, match="missing.pdb"):
        pdbtiles.Database.open(tmp_path / "missing.pdb")
    junk = tmp_path / "junk.pdb"
    junk.write_bytes(b"not a database at all" * 10)
    with pytest.raises(pdbtiles.DatabaseError):
        pdbtiles.Database.open(junk)
    with pytest.raises(pdbtiles.DatabaseError):
        pdbtiles.verify(junk)
    with pytest.raises(pdbtiles.DatabaseError, match="not in"):
        pdbtiles.Database.open("15-663-za")
    # A database for another board.
    with pytest.raises(pdbtiles.DatabaseError, match="2x4"):
        pdbtiles.solve("0 1 2 3 4 5 6 7 8", db=db24)
    with pytest.raises(ValueError):
        pdbtiles.Database.open(db33, load="swap")


def test_damaged_file(tmp_path, db33):
    damaged = tmp_path / "damaged.pdb"
    shutil.copy(db33, damaged)
    data = bytearray(damaged.read_bytes())
    data[-100] ^= 0x5A  # an entry of the last table
    damaged.write_bytes(bytes(data))
    with pytest.raises(pdbtiles.DatabaseError, match="failed verification"):
        pdbtiles.verify(damaged)
    with pytest.raises(pdbtiles.DatabaseError, match="checksum"):
        pdbtiles.solve("8 6 7 2 5 4 3 0 1", db=damaged)
    db = pdbtiles.Database.open(damaged)
    states = np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8]], dtype=np.uint8)
    with pytest.raises(pdbtiles.DatabaseError, match="checksum"):
        db.heuristic(states)
    with pytest.raises(pdbtiles.DatabaseError, match="checksum"):
        db.table(1)
    # Without the check the file opens; a truncated one does not.
    truncated = tmp_path / "truncated.pdb"
    truncated.write_bytes(bytes(data[: len(data) // 2]))
    with pytest.raises(pdbtiles.DatabaseError):
        pdbtiles.Database.open(truncated, verify=False)


def test_bad_states(db33):
    db = pdbtiles.Database.open(db33)
    good = np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8]], dtype=np.uint8)
    with pytest.raises(ValueError, match="columns"):
        db.heuristic(np.zeros((2, 16), dtype=np.uint8))
    with pytest.raises(ValueError, match="row 1: tile 1 appears more than once"):
        db.heuristic(np.array([[0, 1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 2, 3, 4, 5, 6, 7, 8]],
                              dtype=np.uint8))
    with pytest.raises(ValueError, match="out of range"):
        db.heuristic(np.array([[0, 1, 2, 3, 4, 5, 6, 7, 200]], dtype=np.uint8))
    with pytest.raises(TypeError):
        db.heuristic(good.astype(np.int64))
    with pytest.raises(TypeError):
        db.heuristic(good[0])
    with pytest.raises(ValueError):
        db.heuristic(good, goal="nowhere")
    with pytest.raises(IndexError):
        db.table(2)
    assert db.heuristic(np.zeros((0, 9), dtype=np.uint8)).shape == (0,)


def test_bad_builds(tmp_path):
    with pytest.raises(ValueError):
        pdbtiles.build("3x3", "1-4/4-8", tmp_path / "x.pdb", progress=False)
    with pytest.raises(ValueError, match="kind"):
        pdbtiles.build("3x3", "1-4/5-8", tmp_path / "x.pdb", kind="clever", progress=False)
    with pytest.raises(ValueError, match="encoding"):
        pdbtiles.build("3x3", "1-4/5-8", tmp_path / "x.pdb", encoding="u2", progress=False)
    with pytest.raises(ValueError, match="bit1"):
        pdbtiles.build("3x3", "1-4/5-8", tmp_path / "x.pdb", kind="zero-unaware",
                       encoding="bit1", progress=False)
    with pytest.raises(ValueError):
        pdbtiles.build("9x9", "1-4", tmp_path / "x.pdb", progress=False)
    assert not (tmp_path / "x.pdb").exists()
