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

__all__ = ["start", "run", "batch"]

EXPAND = 1
NEXT = 2
DONE = 0


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


@njit
def start(used, value, empties, bcell, brest, bbit, cell_units, num_values, flags, givens,
          state):
    """The givens in place (0 = empty); ``state = [depth, phase, solutions, nodes, open]``."""
    cells = value.shape[0]
    used[:] = 0
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
    state[0] = 0
    state[1] = EXPAND if ok else DONE
    state[2] = 0
    state[3] = 1
    state[4] = size


@njit
def run(used, value, empties, bcell, brest, bbit, cell_units, num_values, flags, state, limit,
        stop, first):
    """Search on from ``state`` (see :mod:`sudokit.solvers.cp_engine`)."""
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    d = state[0]
    phase = state[1]
    found = state[2]
    nodes = state[3]
    size = state[4]
    result = 0
    while True:
        if phase == EXPAND:
            if d == size:
                found += 1
                if found == 1:
                    first[:] = value[:]
                if found >= limit:
                    phase = DONE
                    result = 1
                    break
                if size == 0:
                    phase = DONE
                    result = 0
                    break
                d -= 1
                phase = NEXT
                continue
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
            phase = NEXT
        elif phase == NEXT:
            c = bcell[d]
            bit = bbit[d]
            if bit != 0:
                _toggle(c, bit, used, cell_units)
                value[c] = 0
                bbit[d] = 0
            r = brest[d]
            if r == 0:
                if d == 0:
                    phase = DONE
                    result = 0
                    break
                d -= 1
                continue
            if nodes >= stop:
                result = -1
                break
            nodes += 1
            bit = r & -r
            brest[d] = r ^ bit
            bbit[d] = bit
            value[c] = lowest_bit_index(bit) + 1
            _toggle(c, bit, used, cell_units)
            d += 1
            phase = EXPAND
        else:
            break
    state[0] = d
    state[1] = phase
    state[2] = found
    state[3] = nodes
    return result


@njit
def batch(used, value, empties, bcell, brest, bbit, cell_units, num_values, flags, givens,
          begin, limit, cap_each, cap_call, counts, firsts, unknown, nodes, state):
    """Rows ``begin, ...`` of ``givens``, ``cap_each`` nodes each, until ``cap_call`` nodes
    are spent; returns the next row."""
    spent = 0
    p = begin
    while p < givens.shape[0]:
        start(used, value, empties, bcell, brest, bbit, cell_units, num_values, flags,
              givens[p], state)
        result = run(used, value, empties, bcell, brest, bbit, cell_units, num_values, flags,
                     state, limit, cap_each, firsts[p])
        counts[p] = state[2]
        nodes[p] = state[3]
        unknown[p] = -result if result < 0 else 0
        spent += state[3]
        p += 1
        if spent >= cap_call:
            break
    return p


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
