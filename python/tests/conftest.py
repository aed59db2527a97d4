"""Shared fixtures: small databases built once per test session with ``pdbtiles.build``, an
exact breadth-first distance oracle in plain Python, and the repository's files."""

import collections
import faulthandler
import os
import pathlib

import pytest

import pdbtiles

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def isolated_search_dirs(tmp_path_factory):
    """Keep the machine's databases and caches out of the tests: no default database is found
    unless a test builds one."""
    home = tmp_path_factory.mktemp("home")
    saved = {k: os.environ.get(k) for k in ("HOME", "XDG_CACHE_HOME", "PDB_DIR")}
    os.environ["HOME"] = str(home)
    os.environ["XDG_CACHE_HOME"] = str(home / "cache")
    os.environ["PDB_DIR"] = str(home / "pdb")
    cwd = os.getcwd()
    os.chdir(home)  # no artifacts/ folder here
    yield home
    os.chdir(cwd)
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(autouse=True)
def watchdog():
    """A test that hangs prints every Python thread's stack and ends the run after five
    minutes, instead of holding the run until an outer limit kills it without a word."""
    faulthandler.dump_traceback_later(300, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="session")
def dbdir(tmp_path_factory):
    return tmp_path_factory.mktemp("databases")


@pytest.fixture(scope="session")
def db33(dbdir):
    """The 8-puzzle's two 4-tile patterns, zero-aware, one byte per entry."""
    path = dbdir / "8-44-za.pdb"
    pdbtiles.build("3x3", "1-4/5-8", path, progress=False)
    return path


@pytest.fixture(scope="session")
def db24(dbdir):
    """A 2x4 board (columns x rows: 2 wide, 4 high), tiles 1-3 and 4-7."""
    path = dbdir / "2x4.pdb"
    pdbtiles.build("2x4", "1-3/4-7", path, progress=False)
    return path


@pytest.fixture(scope="session")
def db663(dbdir):
    """The 15-puzzle's 6-6-3 (the command line's default), built in about a second."""
    path = dbdir / "15-663-za.pdb"
    pdbtiles.build("4x4", "663", path, progress=False)
    return path


def bfs_distances(width, height, goal):
    """Exact distance to ``goal`` (a tuple of tiles, row by row) of every position of a
    width x height board that can reach it: breadth-first search in plain Python."""
    n = width * height
    dist = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        s = queue.popleft()
        b = s.index(0)
        r, c = divmod(b, width)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < height and 0 <= cc < width:
                t = list(s)
                o = rr * width + cc
                t[b], t[o] = t[o], 0
                t = tuple(t)
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
    assert len(dist) * 2 == _factorial(n)
    return dist


def _factorial(n):
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


def korf(first):
    """The first instances of Korf's 100: (tiles as a string, optimal length)."""
    out = []
    for line in (REPO / "bench" / "korf100.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) == 17:
            out.append((" ".join(parts[:16]), int(parts[16])))
        if len(out) == first:
            break
    return out
