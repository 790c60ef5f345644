"""Random Sudoku bands, row by row, as random perfect matchings of cells to values.

A row of a partly filled Sudoku is a perfect matching in the bipartite graph "cell - value the
cell's column and box still allow". This module finds one by Kuhn's augmenting paths with the
cells and each cell's values visited in random order, so every row is a random choice among
the matchings, not a fixed pattern. Filling the bands from the top this way rarely gets stuck
(a row without a perfect matching restarts its band), and :func:`~sudokit.generators.grids.sat_fill`
hands the last two bands, where the column constraints leave little freedom, to a SAT solver.

Values are bit positions ``0..n-1`` inside the kernels (``n <= 64`` fits an ``int64``), and
``1..n`` in the grids this module returns.

Examples
--------
>>> import numpy as np
>>> top = random_bands(9, (3, 3), 2, np.random.default_rng(0))
>>> top.shape, bool((top[6:] == 0).all())
((9, 9), True)
>>> from sudokit.instances import sudoku
>>> sudoku(top).num_givens                 # building the puzzle checks every unit
54
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from ..bitmasks import full_domain
from ..errors import BudgetExhausted

__all__ = ["random_bands"]


@njit
def _augment(cell, allowed, value_order, owner, seen, n):
    """Try to match ``cell``, re-matching other cells along an augmenting path (Kuhn)."""
    for k in range(n):
        v = value_order[cell, k]
        if (allowed[cell] >> v) & 1 == 0 or seen[v]:
            continue
        seen[v] = True
        if owner[v] < 0 or _augment(owner[v], allowed, value_order, owner, seen, n):
            owner[v] = cell
            return True
    return False


@njit
def _random_row(allowed, cell_order, value_order, n, row):
    """Fill ``row`` (values ``0..n-1``) with a perfect matching, or return False."""
    owner = np.full(n, -1, np.int64)
    seen = np.zeros(n, np.bool_)
    for k in range(n):
        seen[:] = False
        if not _augment(cell_order[k], allowed, value_order, owner, seen, n):
            return False
    for v in range(n):
        row[owner[v]] = v
    return True


def random_bands(n: int, box: tuple[int, int], bands: int, rng: np.random.Generator,
                 max_restarts: int = 1000) -> np.ndarray:
    """The top ``bands`` bands of a Sudoku grid, filled row by row by random matchings.

    Returns an ``(n, n)`` grid with the rows below the filled bands left 0. A row without a
    perfect matching restarts its band; after ``max_restarts`` restarts in all this raises
    :class:`~sudokit.errors.BudgetExhausted` (64x64 needed 0 to about 20 in testing).
    """
    r, c = box
    grid = np.zeros((n, n), np.int64)
    col_used = np.zeros(n, np.int64)
    box_used = np.zeros(n, np.int64)
    full = full_domain(n)
    one = np.int64(1)
    stacks = np.arange(n) // c
    row = np.empty(n, np.int64)
    restarts = 0
    band = 0
    while band < bands:
        saved = col_used.copy(), box_used.copy()
        boxes = band * r + stacks                # box index: band * (stacks per band) + stack
        for i in range(band * r, band * r + r):
            allowed = ~(col_used | box_used[boxes]) & full
            cell_order = rng.permutation(n)
            value_order = np.argsort(rng.random((n, n)), axis=1)
            if not _random_row(allowed, cell_order, value_order, n, row):
                break
            grid[i] = row + 1
            bits = one << row
            col_used |= bits
            np.bitwise_or.at(box_used, boxes, bits)
        else:
            band += 1
            continue
        restarts += 1
        if restarts > max_restarts:
            raise BudgetExhausted(f"no random {n}x{n} band found after {max_restarts} restarts")
        col_used, box_used = saved
        grid[band * r:band * r + r] = 0
    return grid
