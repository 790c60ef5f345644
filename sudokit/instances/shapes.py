"""The shape model of a grid: its units and how they meet, built once per shape.

Every grid of one kind, side, box shape, variants and region map (one
:func:`~sudokit.instances.grid.grid_shape_key`) has the same units, so the tables that
describe them are built once and kept (the last 16 shapes used) in a :class:`GridShape`:

``units``
    ``(U, n)`` int64, read-only: rows, columns, boxes (a jigsaw's regions), then the
    variants' units.
``cell_units``
    ``(n*n, k)`` int64: the units of each cell, ``-1`` padded.
``pairs``, ``pair_cells``
    The pairs of units that share at least one cell, ``(P, 2)`` int32 with the first unit
    before the second (in row-major order of the pair), and for each ``(P, 3, n)`` int32: the
    shared cells, the first unit's other cells and the second's, each in unit order and
    ``-1`` padded (a line and a box meeting in a segment: the segment, the rest of the line,
    the rest of the box).

What a back end derives from these (the CP kernels' unit model, the grading propagators'
tables) it keeps with the shape: :meth:`GridShape.derived`.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> shape = grid_shape(sudoku(np.zeros((4, 4), dtype=int)))
>>> shape.units.shape, shape.cell_units.shape, shape.pairs.shape
((12, 4), (16, 3), (32, 2))
>>> shape.pairs[0].tolist(), shape.pair_cells[0].tolist()
([0, 4], [[0, -1, -1, -1], [1, 2, 3, -1], [4, 8, 12, -1]])
>>> grid_shape(sudoku(np.diag([1, 2, 3, 4]))) is shape
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from .grid import grid_shape_key, shape_units
from .units import cell_unit_table

__all__ = ["GridShape", "grid_shape", "unit_pairs"]

T = TypeVar("T")

#: shapes kept; a 64x64 Sudoku's tables take a few MB, a 9x9's some kB, and building evicted
#: ones again costs milliseconds
CACHED_SHAPES = 16


@dataclass(frozen=True, eq=False)
class GridShape:
    """The tables of one grid shape (see the module); get one with :func:`grid_shape`."""

    key: tuple
    n: int
    units: np.ndarray
    cell_units: np.ndarray
    pairs: np.ndarray
    pair_cells: np.ndarray
    _derived: dict = field(default_factory=dict, repr=False)

    @property
    def kind(self) -> str:
        return str(self.key[0])

    @property
    def box(self) -> tuple[int, int] | None:
        return self.key[2]

    @property
    def regions_key(self) -> bytes | None:
        """A jigsaw's region map (its regions are the third ``n`` units), else None."""
        return next((part for part in self.key[3:] if isinstance(part, bytes)), None)

    def derived(self, build: Callable[[GridShape], T]) -> T:
        """``build(self)``, built once per shape and kept with it (a back end's own tables of
        the shape)."""
        found = self._derived.get(build)
        if found is None:     # two threads may both build: the first one's is kept
            found = self._derived.setdefault(build, build(self))
        return found


def grid_shape(puzzle: Any) -> GridShape:
    """The shape model of a grid puzzle (shared by every grid of its shape)."""
    return _grid_shape(grid_shape_key(puzzle))


@functools.lru_cache(maxsize=CACHED_SHAPES)
def _grid_shape(key: tuple) -> GridShape:
    n = int(key[1])
    units = shape_units(key)
    cell_units = cell_unit_table(units, n * n)
    return GridShape(key, n, units, cell_units, *unit_pairs(units, cell_units))


def unit_pairs(units: np.ndarray, cell_units: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of units sharing at least one cell and how they meet (``pairs`` and
    ``pair_cells`` of the module); ``cell_units`` is :func:`~.units.cell_unit_table` of the
    units, when known.

    Examples
    --------
    >>> pairs, cells = unit_pairs(np.array([[0, 1, 2], [2, 3, 4], [5, 6, 7]]))
    >>> pairs.tolist(), cells.tolist()
    ([[0, 1]], [[[2, -1, -1], [0, 1, -1], [3, 4, -1]]])
    """
    count, width = units.shape
    cells = int(units.max()) + 1 if units.size else 0
    if cell_units is None:
        cell_units = cell_unit_table(units, cells)
    # every two units through a cell meet; (first, second) in row-major order
    i, j = np.triu_indices(cell_units.shape[1], k=1)
    a, b = cell_units[:, i].reshape(-1), cell_units[:, j].reshape(-1)
    both = (a >= 0) & (b >= 0)
    met = np.zeros(count * count, dtype=bool)
    met[np.minimum(a, b)[both] * count + np.maximum(a, b)[both]] = True
    first, second = np.divmod(np.flatnonzero(met), count)
    member = np.zeros((count, cells), dtype=bool)
    np.put_along_axis(member, units.astype(np.int64), True, axis=1)
    in_second = member[second[:, None], units[first]]      # (P, width): cell of a in b?
    in_first = member[first[:, None], units[second]]
    table = np.full((len(first), 3, max(width, 1)), -1, dtype=np.int32)
    table[:, 0, :width] = _packed(units[first], in_second)
    table[:, 1, :width] = _packed(units[first], ~in_second)
    table[:, 2, :width] = _packed(units[second], ~in_first)
    return np.stack([first, second], axis=1).astype(np.int32), table


def _packed(cells: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Each row's kept cells first (in order), then -1."""
    order = np.argsort(~keep, axis=1, kind="stable")
    packed = np.take_along_axis(cells, order, axis=1)
    packed[np.take_along_axis(~keep, order, axis=1)] = -1
    return packed
