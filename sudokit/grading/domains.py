"""Domains as bitmasks and the index tables the propagators of :mod:`sudokit.grading` share.

A domain is one ``int64`` per cell: bit ``v - 1`` is set when value ``v`` is still possible
(so grids up to ``n = 64``; bit 63 is the sign bit, which the bit operations do not mind).
The tables describe the grid once, as flat integer arrays a numba kernel can take:

``units``
    ``(U, n)`` flat cell indices of the all-different units (rows, columns, boxes).
``cell_units``
    ``(n*n, k)`` the units of each cell (``-1`` pads cells that belong to fewer units).
``seg_cells``
    ``(L*B, w)`` for each line (row or column) and box: the cells they share (``-1`` pads;
    an all ``-1`` row means the line misses the box).
``same_pairs``
    ``(P, 2, n)`` for each line/box pair that meets: the line's cells outside the box and
    the box's cells outside the line (``-1`` pads). Simonis's "same" constraints.
``band_lines``
    ``(2, n)`` unit indices of the rows and of the columns, and ``band_boxes`` ``(n,)`` the
    unit indices of the boxes: the per-value line x box matchings of HAC3 use them.

Every kernel here runs as plain Python under ``NUMBA_DISABLE_JIT=1``.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> t = grid_tables(sudoku(np.zeros((4, 4), dtype=int)))
>>> t.units.shape, t.cell_units.shape, t.same_pairs.shape
((12, 4), (16, 3), (16, 2, 4))
>>> dom = initial_domains(sudoku(np.array([[1, 0, 0, 0]] + [[0] * 4] * 3)))
>>> [bin(int(d)) for d in dom[:2]]
['0b1', '0b1111']
>>> popcount(np.int64(0b1011)), lowest_value(np.int64(0b100))
(3, 3)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._accel.numba_cache import njit
from ..bitmasks import full_domain
from ..errors import InstanceError
from ..instances.shapes import GridShape, grid_shape

__all__ = ["GridTables", "grid_tables", "full_domain", "initial_domains", "popcount",
           "lowest_value", "narrow", "MAX_N"]

#: Largest grid side the bitmask domains can hold.
MAX_N = 64


@njit
def popcount(x):
    """Number of set bits of an ``int64`` (the size of a domain)."""
    count = 0
    while x != 0:
        x &= x - 1
        count += 1
    return count


@njit
def lowest_value(x):
    """The smallest value (1-based) of a non-empty domain."""
    v = 0
    while (x >> v) & 1 == 0:
        v += 1
    return v + 1


@dataclass(frozen=True, eq=False)
class GridTables:
    """Index tables of one grid shape (see the module docstring); build with :func:`grid_tables`."""

    n: int
    units: np.ndarray
    cell_units: np.ndarray
    seg_cells: np.ndarray
    same_pairs: np.ndarray
    line_units: np.ndarray
    box_units: np.ndarray
    full: np.int64

    def kernel_args(self):
        """The arrays in the order the kernels take them."""
        return (self.units, self.cell_units, self.seg_cells, self.same_pairs,
                self.line_units, self.box_units)


def grid_tables(puzzle) -> GridTables:
    """The tables of ``puzzle``'s shape (kept with its shape model,
    :func:`~sudokit.instances.shapes.grid_shape`).

    Raises :class:`~sudokit.errors.InstanceError` when ``n`` exceeds :data:`MAX_N`.
    """
    n = int(puzzle.n)
    if n > MAX_N:
        raise InstanceError(f"grading handles grids up to {MAX_N}x{MAX_N}, got {n}x{n}")
    return grid_shape(puzzle).derived(_grid_tables)


def _grid_tables(shape: GridShape) -> GridTables:
    """The grading tables of a shape: its lines (rows, then columns), its boxes (or a
    jigsaw's regions: the third ``n`` units; variants' units come after them) and how each
    line meets each box."""
    n, box = shape.n, shape.box
    line_units = np.arange(2 * n, dtype=np.int64).reshape(2, n)
    has_boxes = box is not None or shape.regions_key is not None
    box_units = (np.arange(2 * n, 3 * n, dtype=np.int64) if has_boxes
                 else np.zeros(0, dtype=np.int64))
    nb = box_units.shape[0]
    first, second = shape.pairs[:, 0], shape.pairs[:, 1]
    meet = (first < 2 * n) & (second >= 2 * n) & (second < 2 * n + nb)
    cells = shape.pair_cells[meet].astype(np.int64)          # line x box, in that order
    common = cells[:, 0]
    used = max(1, int((common >= 0).sum(axis=1).max(initial=1)))
    seg_cells = np.full((2 * n * max(nb, 1), used), -1, dtype=np.int64)
    seg_cells[first[meet] * nb + second[meet] - 2 * n] = common[:, :used]
    same_pairs = np.full((len(cells), 2, n), -1, dtype=np.int64)
    same_pairs[:, :, :cells.shape[2]] = _ascending(cells[:, 1:])
    return GridTables(n, shape.units, shape.cell_units, np.ascontiguousarray(seg_cells),
                      same_pairs, line_units, box_units, full_domain(n))


def _ascending(cells: np.ndarray) -> np.ndarray:
    """Each row's cells in increasing order, the ``-1`` pads still last."""
    big = np.iinfo(cells.dtype).max
    ordered = np.sort(np.where(cells < 0, big, cells), axis=-1)
    return np.where(ordered == big, -1, ordered)


def initial_domains(puzzle) -> np.ndarray:
    """``(n*n,)`` int64 bitmasks: a given's single value, else every value ``1..n``."""
    n = int(puzzle.n)
    if n > MAX_N:
        raise InstanceError(f"grading handles grids up to {MAX_N}x{MAX_N}, got {n}x{n}")
    flat = np.asarray(puzzle.flat_givens, dtype=np.int64)
    dom = np.full(n * n, full_domain(n), dtype=np.int64)
    given = flat > 0
    dom[given] = np.left_shift(np.int64(1), flat[given] - 1)
    return dom


@njit
def narrow(dom, cell, new, cell_units, dirty):
    """Set ``dom[cell] = new`` (a subset of it); mark the cell's units dirty.

    ``dirty`` has ``2 * U + 1`` flags: the cheap unit propagators' ``[0, U)``, HAC's
    ``[U, 2U)`` and the redundant constraints' ``2U``. Returns -1 when ``new`` is empty
    (a wipe-out), 1 when the domain shrank, 0 when nothing changed.
    """
    if new == dom[cell]:
        return 0
    dom[cell] = new
    if new == 0:
        return -1
    mark_dirty(cell, cell_units, dirty)
    return 1


@njit
def mark_dirty(cell, cell_units, dirty):
    """Flag every unit through ``cell`` for the cheap propagators and HAC, and the redundant
    constraints (the ``2 * U + 1`` flag layout of :func:`narrow`)."""
    num_units = (dirty.shape[0] - 1) // 2
    for k in range(cell_units.shape[1]):
        u = cell_units[cell, k]
        if u >= 0:
            dirty[u] = 1
            dirty[num_units + u] = 1
    dirty[2 * num_units] = 1
