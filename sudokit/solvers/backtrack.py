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
from .cp_search import search_kernels

__all__ = ["start", "run", "batch"]


@njit(inline="always")
def _setup(head, givens, state):
    """The givens in place (0 = empty), the empty cells in order (their number in
    ``state[4]``)."""
    value, empties, tried, peer_starts, peers, num_values, flags = head
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
    state[4] = size
    return ok


@njit(inline="always")
def _solved(head, d, size):
    return d == size


@njit(inline="always")
def _record(head, d, first):
    value, empties, tried, peer_starts, peers, num_values, flags = head
    for c in range(value.shape[0]):
        first[c] = value[c]


@njit(inline="always")
def _choose(head, d, size):
    """Level ``d`` branches on the ``d``-th empty cell, from value 1."""
    value, empties, tried, peer_starts, peers, num_values, flags = head
    tried[d] = 0


@njit(inline="always")
def _pick(head, d):
    """The next value after the last tried that no peer holds, or 0 (and level ``d`` starts
    again from 1 next time)."""
    value, empties, tried, peer_starts, peers, num_values, flags = head
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
            return v
        v += 1
    tried[d] = 0
    return 0


@njit(inline="always")
def _place(head, d, v):
    value, empties, tried, peer_starts, peers, num_values, flags = head
    tried[d] = v
    value[empties[d]] = v
    return d + 1


start, run, batch = search_kernels(__name__, _setup, _solved, _record, _choose, _pick, _place)


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
