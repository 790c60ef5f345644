"""``--solver backtrack``: pure backtracking, the baseline of the comparison.

The plain backtracking Takano, de Freitas and Sá (section 4) start from, on the unit model:
the empty cells in cell order (row-major for a grid, vertex order for a graph), each tried
with the values ``1..V`` in order, a placement kept when no peer holds the same value (the
consistency check scans the cell's peers); when no value fits, back up one cell. No pruning,
no look-ahead, no ordering heuristic, so even some 9x9 puzzles take billions of steps: give it
a node or time budget (``unknown`` when it runs out). Every placement kept is a search node.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.solvers.cp_engine import CPEngine
>>> CPEngine("backtrack").count(sudoku(np.zeros((4, 4), dtype=int)))[0]
288
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit

__all__ = ["start", "run", "batch"]

EXPAND = 1
NEXT = 2
DONE = 0


@njit
def start(value, empties, tried, peer_starts, peers, num_values, flags, givens, state):
    """The givens in place (0 = empty); ``state = [depth, phase, solutions, nodes, open]``."""
    cells = value.shape[0]
    ok = True
    size = 0
    for c in range(cells):
        value[c] = givens[c]
        if givens[c] == 0:
            empties[size] = c
            size += 1
        elif givens[c] > num_values:
            ok = False
    for c in range(cells):
        g = value[c]
        if g > 0:
            for t in range(peer_starts[c], peer_starts[c + 1]):
                if value[peers[t]] == g:
                    ok = False
    state[0] = 0
    state[1] = EXPAND if ok else DONE
    state[2] = 0
    state[3] = 1
    state[4] = size


@njit
def run(value, empties, tried, peer_starts, peers, num_values, flags, state, limit, stop,
        first):
    """Search on from ``state`` (see :mod:`sudokit.solvers.cp_engine`)."""
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
            tried[d] = 0
            phase = NEXT
        elif phase == NEXT:
            c = empties[d]
            value[c] = 0
            v = tried[d] + 1
            while v <= num_values:
                clash = False
                for t in range(peer_starts[c], peer_starts[c + 1]):
                    if value[peers[t]] == v:
                        clash = True
                        break
                if not clash:
                    break
                v += 1
            if v > num_values:
                tried[d] = 0
                if d == 0:
                    phase = DONE
                    result = 0
                    break
                d -= 1
                continue
            if nodes >= stop:
                tried[d] = v - 1           # the next call checks v again
                result = -1
                break
            nodes += 1
            tried[d] = v
            value[c] = v
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
def batch(value, empties, tried, peer_starts, peers, num_values, flags, givens, begin, limit,
          cap_each, cap_call, counts, firsts, unknown, nodes, state):
    """Rows ``begin, ...`` of ``givens``, ``cap_each`` nodes each, until ``cap_call`` nodes
    are spent; returns the next row."""
    spent = 0
    p = begin
    while p < givens.shape[0]:
        start(value, empties, tried, peer_starts, peers, num_values, flags, givens[p], state)
        result = run(value, empties, tried, peer_starts, peers, num_values, flags, state,
                     limit, cap_each, firsts[p])
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
    return (model.peer_starts, model.peers)


def work(model, depth):
    """Scratch: values, the empty cells in order, the last value tried per level."""
    cells = model.num_cells
    return (np.zeros(cells, dtype=np.int32), np.zeros(cells, dtype=np.int32),
            np.zeros(depth, dtype=np.int64))


def level_bytes(model):
    """Bytes per search level."""
    return 8 + (8 * model.num_cells) // 64


def slice_nodes(model):
    """Nodes per kernel call between clock readings (a node checks a few values against the
    peers)."""
    peers = len(model.peers) // max(model.num_cells, 1)
    return max(64, (1 << 25) // max(peers * model.num_values, 1))
