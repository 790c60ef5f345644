"""Takano's two polynomial constructions of a full grid (numpy only: no numba to load).

See :mod:`sudokit.generators.grids` for the constructions' formulas and the random fills; an
empty grid is solved by :func:`pattern_grid` at once (:class:`~sudokit.solvers.sat.SATEngine`).

Examples
--------
>>> from sudokit.instances import sudoku
>>> grid = pattern_grid(6, (2, 3))
>>> sudoku(grid, (2, 3)).is_solution(grid)
True
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError

__all__ = ["PATTERNS", "check_shape", "pattern_grid"]

PATTERNS = ("bands", "blocks")


def check_shape(n: int, box: tuple[int, int] | None) -> None:
    """Raise :class:`InstanceError` unless ``box`` tiles an ``n x n`` grid (None: Latin)."""
    if n < 1:
        raise InstanceError(f"the grid side must be positive, got {n}")
    if box is not None and box[0] * box[1] != n:
        raise InstanceError(f"box {box[0]}x{box[1]} does not tile a {n}x{n} grid")


def pattern_grid(n: int, box: tuple[int, int], method: str = "bands") -> np.ndarray:
    """A full grid by one of Takano's polynomial constructions (see the module).

    Parameters
    ----------
    n : int
        Side of the grid.
    box : tuple of int
        ``(r, c)`` with ``r * c == n``.
    method : {"bands", "blocks"}

    Examples
    --------
    >>> pattern_grid(4, (2, 2), "bands").tolist()
    [[1, 2, 3, 4], [3, 4, 1, 2], [2, 3, 4, 1], [4, 1, 2, 3]]
    """
    check_shape(n, box)
    r, c = box
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    if method == "bands":
        grid = (c * (i % r) + i // r + j) % n
    elif method == "blocks":
        band, a = divmod(i, r)
        stack, b = divmod(j, c)
        grid = c * ((a + stack) % r) + (b + band) % c
    else:
        raise InstanceError(f"unknown construction {method!r}; choose one of "
                            + ", ".join(PATTERNS))
    return (grid + 1).astype(np.int32)
