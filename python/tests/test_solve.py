"""solve and solve_many: optimal lengths against breadth-first distances, the command line's
lengths and node counts on Korf's first ten, every thread count giving the same results, and
Ctrl-C stopping a batch."""

import _thread
import json
import os
import random
import re
import signal
import subprocess
import threading
import time

import pytest

import pdbtiles
from conftest import REPO, bfs_distances, korf


def sample(dist, k, seed):
    rng = random.Random(seed)
    return rng.sample(sorted(dist), k)


def test_lengths_are_bfs_distances_on_3x3(db33):
    goal = (0, 1, 2, 3, 4, 5, 6, 7, 8)
    dist = bfs_distances(3, 3, goal)
    db = pdbtiles.Database.open(db33)
    for tiles in sample(dist, 300, 1):
        s = pdbtiles.solve(list(tiles), db=db)
        assert s.length == dist[tiles], tiles
        assert s.optimal and len(s.moves) == s.length == len(s.tiles)
    # The other algorithms and heuristics agree (a few each).
    for tiles in sample(dist, 20, 2):
        for kw in (
            {"algorithm": "astar", "db": db},
            {"algorithm": "bfs"},
            {"heuristic": "manhattan"},
            {"algorithm": "ida", "db": db, "reflect": False, "prune": False},
        ):
            assert pdbtiles.solve(list(tiles), **kw).length == dist[tiles], kw


def test_lengths_are_bfs_distances_on_rectangles(db24):
    # 2 columns, 4 rows; blank-last goal, which the blank-first database serves through a
    # board symmetry.
    for goal_name, goal in (
        ("blank-first", (0, 1, 2, 3, 4, 5, 6, 7)),
        ("blank-last", (1, 2, 3, 4, 5, 6, 7, 0)),
    ):
        dist = bfs_distances(2, 4, goal)
        for tiles in sample(dist, 150, 3):
            text = " ".join(map(str, tiles))
            s = pdbtiles.solve(text, board="2x4", goal=goal_name, db=str(db24))
            assert s.length == dist[tiles], (goal_name, tiles)
    # A 3x2 board, no database fits: linear conflicts.
    dist = bfs_distances(3, 2, (0, 1, 2, 3, 4, 5))
    for tiles in sample(dist, 100, 4):
        s = pdbtiles.solve(list(tiles), board="3x2")
        assert s.length == dist[tiles]
        assert "no database" in s.heuristic


def solver_binary():
    path = os.environ.get("PDBTILES_SOLVER") or str(REPO / "target" / "release" / "solver")
    if not os.path.exists(path):
        pytest.skip("no solver binary (set PDBTILES_SOLVER or build target/release/solver)")
    return path


def test_korf_first_ten_as_the_command_line(db663):
    solver = solver_binary()
    instances = korf(10)
    db = pdbtiles.Database.open(db663)
    # One thread each: the parallel default's node counts depend on timing.
    mine = pdbtiles.solve_many([p for p, _ in instances], db=db, threads=1)
    for (puzzle, length), s in zip(instances, mine):
        out = subprocess.run(
            [solver, "solve", "--json", "--threads", "1", "--db", str(db663), puzzle],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        theirs = json.loads(out)
        assert s.length == length == theirs["length"]
        assert s.nodes == theirs["nodes"], puzzle
        assert s.moves == theirs["moves"]
        assert s.tiles == theirs["tiles"]
        assert s.initial_h == theirs["initial_h"]


def test_threads_give_the_results_of_one_thread(db663):
    puzzles = [p for p, _ in korf(12)]
    db = pdbtiles.Database.open(db663)
    one = pdbtiles.solve_many(puzzles, db=db, threads=1)
    for threads in (0, 2, 3):
        many = pdbtiles.solve_many(puzzles, db=db, threads=threads, progress=True)
        assert [(s.length, s.nodes, s.moves) for s in many] == [
            (s.length, s.nodes, s.moves) for s in one
        ]
    single = [pdbtiles.solve(p, db=db, threads=1) for p in puzzles[:3]]
    assert [(s.length, s.nodes) for s in single] == [(s.length, s.nodes) for s in one[:3]]
    # The default (parallel-ida on every core): the same lengths, its node counts may differ.
    default = [pdbtiles.solve(p, db=db) for p in puzzles[:3]]
    assert [s.length for s in default] == [s.length for s in one[:3]]
    # parallel-ida's threads: the same length.
    s = pdbtiles.solve(puzzles[0], db=db, algorithm="parallel-ida", threads=2)
    assert s.length == one[0].length


def test_default_database_is_built_on_first_use(isolated_search_dirs):
    s = pdbtiles.solve("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3")
    assert s.length == 57
    assert "15-663-za.pdb" in s.heuristic
    assert (isolated_search_dirs / "pdb" / "15-663-za.pdb").is_file()


def test_limits_and_errors_in_batches(db33):
    puzzles = ["8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0", "0 1 2 3 4 5 6 7 8"]
    with pytest.raises(pdbtiles.SearchStopped) as e:
        pdbtiles.solve_many(puzzles, db=str(db33), max_nodes=50)
    assert e.value.reason == "node limit"
    got = pdbtiles.solve_many(puzzles, db=str(db33), max_nodes=50, errors="return")
    assert isinstance(got[0], pdbtiles.SearchStopped)
    assert got[0].lower_bound > 0 and got[0].nodes >= 50
    assert got[2].length == 0
    assert pdbtiles.solve_many([], db=str(db33)) == []


@pytest.fixture
def python_handles_ctrl_c():
    """Python's own SIGINT handler for the test: a run started with SIGINT ignored (a
    background job of a non-interactive shell, under nohup) inherits the ignore, and then
    neither Ctrl-C nor _thread.interrupt_main raises KeyboardInterrupt at all."""
    saved = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, saved)


def test_ctrl_c_stops_a_batch_within_a_second(python_handles_ctrl_c):
    # Manhattan distance alone on Korf's first eight: seconds in all, far beyond 0.5 s.
    puzzles = [p for p, _ in korf(8)]
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    # The timeout only bounds a run whose interrupt is lost (SearchStopped instead).
    with pytest.raises(KeyboardInterrupt):
        pdbtiles.solve_many(puzzles, heuristic="manhattan", threads=2, timeout=60)
    # Within 0.1 s of the interrupt on a quiet machine; the bound leaves room for a loaded one.
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 3.0, f"KeyboardInterrupt {elapsed:.2f} s after the start"


def test_ctrl_c_stops_one_search(python_handles_ctrl_c):
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        pdbtiles.solve(korf(1)[0][0], heuristic="hamming", timeout=60)
    elapsed = time.monotonic() - start
    timer.join()
    assert elapsed < 3.0, f"KeyboardInterrupt {elapsed:.2f} s after the start"


def test_the_multi_tile_metric_by_keyword():
    # Korf's 3x3 example of the docs: 31 single-tile moves; in the multi-tile metric a move
    # slides a whole run of tiles, and the answer says which metric its length counts in.
    stm = pdbtiles.solve("8 6 7 2 5 4 3 0 1", goal="blank-last", heuristic="manhattan")
    mtm = pdbtiles.solve("8 6 7 2 5 4 3 0 1", goal="blank-last", metric="mtm")
    assert (stm.metric, stm.length) == ("stm", 31)
    assert mtm.metric == "mtm" and mtm.as_dict()["metric"] == "mtm"
    runs = sum(1 for i, m in enumerate(mtm.moves) if i == 0 or mtm.moves[i - 1] != m)
    assert mtm.length == runs < len(mtm.moves)
    with pytest.raises(Exception, match="walking-distance"):
        pdbtiles.solve("8 6 7 2 5 4 3 0 1", goal="blank-last", metric="mtm", heuristic="manhattan")
    # The speedsolvers' notation: one token a move, the tiles' direction (the blank's
    # opposite), a count for a run of several.
    tokens = re.findall(r"[UDLR][0-9]*", mtm.written("tiles"))
    assert "".join(tokens) == mtm.written() and len(tokens) == mtm.length
    opposite = {"U": "D", "D": "U", "L": "R", "R": "L"}
    steps = "".join(opposite[t[0]] * int(t[1:] or 1) for t in tokens)
    assert steps == mtm.moves == mtm.written("blank")
    with pytest.raises(ValueError, match="notation"):
        mtm.written("semaphore")


def test_anytime_bounds_and_board_default():
    # A bound with no algorithm named asks for anytime; its answer carries a proven bound.
    # 31 moves from the blank-last goal.
    s = pdbtiles.solve("8 6 7 2 5 4 3 0 1", goal="blank-last", heuristic="manhattan", within=1.2)
    assert s.algorithm == "anytime"
    assert s.lower_bound <= 31 <= s.length <= 1.2 * s.lower_bound
    assert s.optimal == (s.length == s.lower_bound)
    assert s.as_dict()["lower_bound"] == s.lower_bound
    # Past 25 cells the default is anytime, stopped by the time limit with its best solution.
    big = "22 2 35 19 26 18 24 1 23 8 21 29 32 33 15 3 6 34 30 4 11 20 13 7 0 28 17 27 25 9 12 16 5 10 14 31"
    # (Linear conflict: the 6x6 default database is not built by a test.)
    s = pdbtiles.solve(
        big, goal="blank-last", heuristic="linear-conflict", timeout=1, max_memory="256M"
    )
    # The time limit, or on a fast machine the memory limit first: either ends it with its best.
    assert s.algorithm == "anytime" and s.stopped in ("time limit", "memory limit")
    assert s.initial_h <= s.lower_bound < s.length
    assert s.bound_ratio == s.length / s.lower_bound
    ida = pdbtiles.solve_many(["8 6 7 2 5 4 3 0 1"], goal="blank-last", heuristic="manhattan")
    assert ida[0].algorithm == "ida" and ida[0].lower_bound == ida[0].length == 31
