"""Raggi, Neto and Fontes's backtracking fills (2019): Algorithm 1, and the kernel that the
prune heuristics (Algorithms 2 and 3, :mod:`.fill_prune`) share.

Algorithm 1 (fill strategy ``backtrack``):

1. fill the diagonal boxes with random permutations: they share no row, column or box, so
   they are independent (boxes ``(d, d)`` for ``d < min(r, c)``);
2. fill the remaining cells row by row, left to right, by backtracking; at the start of each
   row the candidate list of each of its empty cells is computed afresh from the rows above
   (the values its column and box leave), which the paper found to be the best refresh
   policy; a *dead* cell (no candidate left) found at that refresh sends the search back at
   once. Inside a row the only constraint between cells is the row itself, so a cell's
   candidates are its row-start list less the values placed to its left;
3. each cell tries its candidates in a random order. When the whole search fails (the
   diagonal boxes have no completion), it starts again from new diagonal boxes.

The prune heuristics try only ``x`` candidates at each cell (``x = 2`` with some probability,
else 1) and restart from scratch when the search fails (:mod:`.fill_prune`).

The search is one resumable numba kernel (:func:`raggi_kernel`) called in slices of
:data:`SLICE_NODES` placements, so the clock and Ctrl-C are seen between slices. Random
numbers come from a xorshift32 state seeded from the caller's generator, so a seed gives the
same grid everywhere (and with ``NUMBA_DISABLE_JIT=1``).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> stats = {}
>>> g = backtrack_fill(9, (3, 3), np.random.default_rng(4), stats=stats)
>>> sudoku(g).is_solution(g), stats["nodes"] >= 81 - 27
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .._accel.numba_cache import njit
from ..errors import BudgetExhausted
from ..solvers.grasp_kernel import next_random

if TYPE_CHECKING:
    from ..solvers.budget import Meter

__all__ = ["backtrack_fill", "raggi_fill", "raggi_kernel", "diagonal_boxes", "MODE_ALL",
           "MODE_PRUNE", "MODE_WEIGHTED", "SLICE_NODES"]

#: try every candidate (Algorithm 1), at most 2 with probability alpha (Algorithm 2), or
#: with probability alpha * filled / total (Algorithm 3)
MODE_ALL, MODE_PRUNE, MODE_WEIGHTED = 0, 1, 2
#: placements per kernel call: a few milliseconds up to 64x64
SLICE_NODES = 20_000


@njit
def _uniform(rng):
    """A float in [0, 1) from the xorshift32 state."""
    return next_random(rng, 16777216) / 16777216.0


@njit
def raggi_kernel(grid, n, r, c, rowm, colm, boxm, empty, row_first, row_end, cand, tries,
                 ntry, ptr, entered, mode, alpha, rng, st, stop_nodes):
    """Run the row-by-row backtracking of Algorithms 1-3 until the grid is full (1), the
    search is exhausted (0: no completion within the pruned tree) or ``stop_nodes``
    placements in all (-1; ``st = [position, nodes]`` and the arrays keep the search, and
    the next call goes on from there). ``grid`` and the masks hold the placed values."""
    one = np.uint64(1)
    full = (one << np.uint64(n)) - one if n < 64 else ~np.uint64(0)
    size = len(empty)
    total = n * n
    k = st[0]
    nodes = st[1]
    stacks = n // c
    while 0 <= k < size:
        cell = empty[k]
        i = cell // n
        j = cell % n
        b = (i // r) * stacks + j // c
        if entered[k] == 0:
            if row_first[k]:                          # refresh the row's candidate lists
                dead = False
                for p in range(k, row_end[k]):
                    e = empty[p]
                    cand[p] = full & ~(rowm[i] | colm[e % n]
                                       | boxm[(i // r) * stacks + (e % n) // c])
                    if cand[p] == 0:
                        dead = True
                        break
                if dead:
                    k -= 1
                    continue
            allowed = cand[k] & ~rowm[i]
            m = 0
            for v in range(n):
                if (allowed >> np.uint64(v)) & one:
                    tries[k, m] = v + 1
                    m += 1
            for a in range(m - 1, 0, -1):             # Fisher-Yates
                z = next_random(rng, a + 1)
                tries[k, a], tries[k, z] = tries[k, z], tries[k, a]
            if mode != MODE_ALL and m > 1:
                p2 = alpha if mode == MODE_PRUNE else alpha * (total - size + k) / total
                m = 2 if _uniform(rng) < p2 else 1
            ntry[k] = m
            ptr[k] = 0
            entered[k] = 1
        else:                                         # back here: undo this cell's value
            bit = ~(one << np.uint64(grid[cell] - 1))
            rowm[i] &= bit
            colm[j] &= bit
            boxm[b] &= bit
            grid[cell] = 0
        if ptr[k] < ntry[k]:
            v = tries[k, ptr[k]]
            ptr[k] += 1
            bit = one << np.uint64(v - 1)
            grid[cell] = v
            rowm[i] |= bit
            colm[j] |= bit
            boxm[b] |= bit
            nodes += 1
            k += 1
            if k < size:
                entered[k] = 0
            if nodes >= stop_nodes and k < size:
                st[0] = k
                st[1] = nodes
                return -1
        else:
            entered[k] = 0
            k -= 1
    st[0] = k
    st[1] = nodes
    return 1 if k >= size else 0


def diagonal_boxes(n: int, box: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A flat grid whose diagonal boxes (band ``d``, stack ``d``, ``d < min(r, c)``) hold
    random permutations of ``1..n``; the rest 0.

    Examples
    --------
    >>> g = diagonal_boxes(4, (2, 2), np.random.default_rng(0)).reshape(4, 4)
    >>> sorted(g[:2, :2].ravel().tolist()), int((g == 0).sum())
    ([1, 2, 3, 4], 8)
    """
    r, c = box
    grid = np.zeros((n, n), dtype=np.int32)
    for d in range(min(r, c)):
        grid[d * r:(d + 1) * r, d * c:(d + 1) * c] = (rng.permutation(n) + 1).reshape(r, c)
    return grid.reshape(-1)


def _state(grid: np.ndarray, n: int, box: tuple[int, int]):
    """The kernel's arrays for ``grid`` (flat, diagonal boxes filled)."""
    r, c = box
    one = np.uint64(1)
    rowm = np.zeros(n, np.uint64)
    colm = np.zeros(n, np.uint64)
    boxm = np.zeros(n, np.uint64)
    for cell in np.flatnonzero(grid):
        i, j = divmod(int(cell), n)
        bit = one << np.uint64(grid[cell] - 1)
        rowm[i] |= bit
        colm[j] |= bit
        boxm[(i // r) * (n // c) + j // c] |= bit
    empty = np.flatnonzero(grid == 0).astype(np.int64)
    rows = empty // n
    row_first = np.ones(len(empty), dtype=np.bool_)
    row_first[1:] = rows[1:] != rows[:-1]
    row_end = np.searchsorted(rows, rows, side="right").astype(np.int64)
    size = len(empty)
    return (rowm, colm, boxm, empty, row_first, row_end, np.zeros(size, np.uint64),
            np.zeros((size, n), np.int32), np.zeros(size, np.int64), np.zeros(size, np.int64),
            np.zeros(size, np.int8))


def raggi_fill(n: int, box: tuple[int, int], rng: np.random.Generator, mode: int,
               alpha: float = 1.0, *, meter: Meter | None = None, stats: dict | None = None,
               progress: Callable[[], None] | None = None,
               max_restarts: int | None = None) -> np.ndarray:
    """Algorithm 1, 2 or 3 (``mode``): diagonal boxes, then :func:`raggi_kernel` in slices,
    from new diagonal boxes after each failed search (``stats["restarts"]``), at most
    ``max_restarts`` times (None: until the grid is full or ``meter`` runs out)."""
    r, c = box
    restarts = nodes = 0
    try:
        while True:
            grid = diagonal_boxes(n, box, rng)
            arrays = _state(grid, n, box)
            seed = np.array([int(rng.integers(1, 2**32))], dtype=np.int64)
            st = np.zeros(2, dtype=np.int64)
            while True:
                result = raggi_kernel(grid, n, r, c, *arrays, mode, float(alpha), seed, st,
                                      st[1] + SLICE_NODES)
                if result >= 0:
                    break
                if progress is not None:
                    progress()
                if meter is not None and meter.late():
                    nodes += int(st[1])
                    st[1] = 0
                    raise BudgetExhausted(f"the time budget ran out while filling a "
                                          f"{n}x{n} grid")
            nodes += int(st[1])
            if result == 1:
                return grid.reshape(n, n)
            restarts += 1
            if max_restarts is not None and restarts > max_restarts:
                raise BudgetExhausted(f"no {n}x{n} grid found after {max_restarts} restarts")
            if meter is not None and meter.late():
                raise BudgetExhausted(f"the time budget ran out while filling a {n}x{n} grid")
    finally:
        if stats is not None:
            stats["restarts"], stats["nodes"] = restarts, nodes


def backtrack_fill(n: int, box: tuple[int, int], rng: np.random.Generator, *,
                   alpha: float | None = None, meter: Meter | None = None,
                   stats: dict | None = None, progress: Callable[[], None] | None = None,
                   max_restarts: int | None = None) -> np.ndarray:
    """The fill strategy ``backtrack``: Raggi et al.'s Algorithm 1 (see the module)."""
    return raggi_fill(n, box, rng, MODE_ALL, 1.0, meter=meter, stats=stats,
                      progress=progress, max_restarts=max_restarts)
