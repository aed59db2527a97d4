"""Sliding-tile puzzles solved optimally with pattern databases, from Python.

The pdb-tiles libraries (Rust) seen from Python: ``solve`` and ``solve_many`` run the solver's
searches (IDA* with additive pattern databases by default), ``Database`` loads a database file
for lookups (NumPy in and out), ``build`` and ``verify`` run the generator.

>>> import pdbtiles
>>> pdbtiles.solve("8 6 7 2 5 4 3 0 1").length
27
"""

from ._native import (
    Database,
    DatabaseError,
    SearchStopped,
    Solution,
    build,
    solve,
    solve_many,
    verify,
)

__all__ = [
    "Database",
    "DatabaseError",
    "SearchStopped",
    "Solution",
    "build",
    "solve",
    "solve_many",
    "verify",
]
