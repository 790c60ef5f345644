"""``--solver bitset``: backtracking with candidate sets as bit masks.

The bit-manipulation backtracking Takano, de Freitas and Sá (section 4) compare, on the unit
model: every unit keeps the mask of the values already placed in it, so a cell's candidates
are ``full & ~(used[u1] | used[u2] | ...)`` over its units, and testing, placing and removing a
value are single bit operations (constant time for a fixed number of units per cell; a graph
vertex has one unit per edge). The next cell is the one with the fewest candidates (popcount;
the first in cell order on ties, an empty one ends the branch at once), its values are tried
lowest bit first, and backtracking clears the bit again (no copies). No propagation: the
search is fcmrv's (:mod:`sudokit.solvers.fcmrv`), its sets as bits.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.solvers.cp_engine import CPEngine
>>> CPEngine("bitset").count(sudoku(np.zeros((4, 4), dtype=int)))[0]
288
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_bits import lowest_bit_index, popcount
from .cp_search import search_kernels

__all__ = ["start", "run", "batch"]


@njit(inline="always")
def _candidates(c, used, cell_units, full):
    seen = np.int64(0)
    for j in range(cell_units.shape[1]):
        u = cell_units[c, j]
        if u < 0:
            break
        seen |= used[u]
    return full & ~seen


@njit(inline="always")
def _toggle(c, bit, used, cell_units):
    for j in range(cell_units.shape[1]):
        u = cell_units[c, j]
        if u < 0:
            break
        used[u] ^= bit


@njit(inline="always")
def _setup(head, givens, state):
    """The givens in place (0 = empty) and in their units' masks, the open cells listed (their
    number in ``state[4]``)."""
    used, value, empties, bcell, brest, bbit, cell_units, num_values, flags = head
    cells = value.shape[0]
    for u in range(used.shape[0]):
        used[u] = 0
    ok = True
    size = 0
    for c in range(cells):
        g = givens[c]
        value[c] = g
        if g == 0:
            empties[size] = c
            size += 1
        elif g > num_values:
            ok = False
        else:
            bit = np.int64(1) << (g - 1)
            for j in range(cell_units.shape[1]):
                u = cell_units[c, j]
                if u < 0:
                    break
                if used[u] & bit:
                    ok = False          # the value is already in this unit
                used[u] |= bit
    state[4] = size
    return ok


@njit(inline="always")
def _solved(head, d, size):
    return d == size


@njit(inline="always")
def _record(head, d, first):
    used, value, empties, bcell, brest, bbit, cell_units, num_values, flags = head
    for c in range(value.shape[0]):
        first[c] = value[c]


@njit(inline="always")
def _choose(head, d, size):
    """The open cell with the fewest candidates (the first on ties), all of them untried."""
    used, value, empties, bcell, brest, bbit, cell_units, num_values, flags = head
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    best = -1
    best_mask = np.int64(0)
    fewest = 65
    for k in range(size):
        c = empties[k]
        if value[c] != 0:
            continue
        m = _candidates(c, used, cell_units, full)
        count = popcount(m)
        if count < fewest:
            fewest = count
            best = c
            best_mask = m
            if count == 0:
                break
    bcell[d] = best
    brest[d] = best_mask
    bbit[d] = 0


@njit(inline="always")
def _pick(head, d):
    """Undo the value placed last; the next untried candidate's bit (0: none)."""
    used, value, empties, bcell, brest, bbit, cell_units, num_values, flags = head
    c = bcell[d]
    bit = bbit[d]
    if bit != 0:
        _toggle(c, bit, used, cell_units)
        value[c] = 0
        bbit[d] = 0
    r = brest[d]
    return r & -r


@njit(inline="always")
def _place(head, d, bit):
    used, value, empties, bcell, brest, bbit, cell_units, num_values, flags = head
    c = bcell[d]
    brest[d] ^= bit
    bbit[d] = bit
    value[c] = lowest_bit_index(bit) + 1
    _toggle(c, bit, used, cell_units)
    return d + 1


start, run, batch = search_kernels(__name__, _setup, _solved, _record, _choose, _pick, _place)


def model_args(model):
    """The model arrays the kernels take, in order."""
    return (model.cell_units,)


def work(model, depth):
    """Scratch: the used-value mask of each unit, values, open cells; per level the cell, its
    untried candidates and the value placed."""
    cells = model.num_cells
    return (np.zeros(max(len(model.units), 1), dtype=np.int64),
            np.zeros(cells, dtype=np.int32), np.zeros(cells, dtype=np.int32),
            np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.int64))


def level_bytes(model):
    """Bytes per search level (the masks are shared by all levels)."""
    return 24 + (8 * len(model.units) + 8 * model.num_cells) // 64


def slice_nodes(model):
    """Nodes per kernel call between clock readings (a node scans the open cells)."""
    return max(64, (1 << 23) // max(model.num_cells * model.cell_units.shape[1], 1))
