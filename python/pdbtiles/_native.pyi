"""Type stubs of the native module (see the docstrings of each function at run time)."""

import os
from typing import Any, Dict, List, Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

PuzzleLike = Union[str, Sequence[int]]
PathLike = Union[str, "os.PathLike[str]"]
DbLike = Union[PathLike, "Database", Sequence[Union[PathLike, "Database"]]]
Setting = Union[str, int, float, bool, None]

class DatabaseError(Exception):
    """A file that cannot be used as a pattern database."""

class SearchStopped(RuntimeError):
    """A search ended by a limit before it found a solution."""

    reason: str
    lower_bound: int
    initial_h: int
    nodes: int
    seconds: float

class Solution:
    """A solved puzzle: the moves, and what the search cost."""

    length: int
    metric: str
    moves: str
    tiles: List[int]
    nodes: int
    expanded: int
    iterations: int
    initial_h: int
    seconds: float
    optimal: bool
    lower_bound: int
    bound_ratio: float
    stopped: Optional[str]
    algorithm: str
    heuristic: str
    puzzle: str
    def __len__(self) -> int: ...
    def written(self, notation: str = "tiles") -> str: ...
    def as_dict(self) -> Dict[str, Any]: ...

class Database:
    """A pattern-database file loaded for lookups."""

    @staticmethod
    def open(
        path_or_name: PathLike,
        verify: bool = True,
        load: Literal["auto", "map", "huge-pages"] = "auto",
    ) -> "Database": ...
    @property
    def path(self) -> str: ...
    @property
    def board(self) -> str: ...
    def __len__(self) -> int: ...
    def info(self) -> Dict[str, Any]: ...
    def heuristic(
        self,
        states: npt.NDArray[np.uint8],
        goal: str = "blank-first",
        reflect: bool = True,
    ) -> npt.NDArray[np.uint32]: ...
    def table(self, i: int, encoded: bool = False) -> npt.NDArray[np.uint8]: ...

def solve(
    puzzle: PuzzleLike,
    db: Optional[DbLike] = None,
    goal: str = "blank-first",
    board: Optional[str] = None,
    algorithm: Optional[str] = None,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    **settings: Setting,
) -> Solution: ...
def solve_many(
    puzzles: Sequence[PuzzleLike],
    db: Optional[DbLike] = None,
    goal: str = "blank-first",
    board: Optional[str] = None,
    algorithm: Optional[str] = None,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: int = 0,
    progress: bool = False,
    errors: Literal["raise", "return"] = "raise",
    **settings: Setting,
) -> List[Union[Solution, Exception]]: ...
def build(
    board: str,
    partition: str,
    path: PathLike,
    kind: Literal["zero-aware", "zero-unaware"] = "zero-aware",
    encoding: Literal["u8", "u4", "bit1"] = "u8",
    threads: int = 0,
    progress: bool = True,
    goal: str = "blank-first",
    compress: Literal["none", "zstd", "gzip"] = "none",
) -> List[Dict[str, Any]]: ...
def verify(
    path: PathLike,
    semantic: bool = True,
    threads: int = 0,
    progress: bool = False,
) -> Dict[str, Any]: ...
