"""``--solver norvig``: Norvig's constraint propagation with depth-first search.

P. Norvig, "Solving Every Sudoku Puzzle" (2006), as Takano, de Freitas and Sá (section 4)
take it for their comparison, on the unit model: each cell keeps its set of possible values
(a row of a ``C x V`` table of flags, as Norvig's strings of digits, not a bit vector) and
their count. ``assign(cell, d)`` eliminates every other value; ``eliminate(cell, d)`` removes
``d`` and then

1. if the cell is left with no value, fail; with one value ``d2``, eliminate ``d2`` from its
   peers (elimination: naked singles);
2. for each complete unit of the cell (as many cells as values), count the places left for
   ``d``: none fails, one assigns ``d`` there (only choice: hidden singles).

Norvig's recursion becomes a stack of pending ``(cell, value)`` eliminations (each pending at
most once); the fixpoint, and so the search tree, is the same. Search: the cell with the fewest
values (the first in cell order on ties), its values in increasing order, each child on a copy
of the table (Norvig's ``values.copy()``). Precoloring: a graph's edges are not complete units,
so only elimination applies (with two colors, they are, and only choice applies too).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.solvers.cp_engine import CPEngine
>>> CPEngine("norvig").count(sudoku(np.zeros((4, 4), dtype=int)))[0]
288
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_search import search_kernels
from .takano_layout import grow  # noqa: F401  (the same first five arrays: the levels)

__all__ = ["start", "run", "batch"]


@njit(inline="always")
def _push(tab, pending, stack, top, index):
    if tab[index] != 0 and pending[index] == 0:
        pending[index] = 1
        stack[top] = index
        top += 1
    return top


@njit(inline="always")
def _propagate(tab, count, left, stack, pending, top, peer_starts, peers, hidden_units,
               cell_hidden, num_values):
    """Carry out the pending eliminations; the cells left open, or -1 on a contradiction."""
    width = hidden_units.shape[1]
    failed = False
    while top > 0:
        top -= 1
        index = stack[top]
        pending[index] = 0
        if tab[index] == 0:
            continue
        c = index // num_values
        d = index - c * num_values
        tab[index] = 0
        k = count[c] - 1
        count[c] = k
        if k == 0:
            failed = True
            break
        if k == 1:
            left -= 1
            base = c * num_values
            d2 = 0
            while tab[base + d2] == 0:
                d2 += 1
            for t in range(peer_starts[c], peer_starts[c + 1]):
                top = _push(tab, pending, stack, top, peers[t] * num_values + d2)
        for j in range(cell_hidden.shape[1]):
            u = cell_hidden[c, j]
            if u < 0:
                break
            places = 0
            place = -1
            for i in range(width):
                q = hidden_units[u, i]
                if tab[q * num_values + d] != 0:
                    places += 1
                    place = q
                    if places > 1:
                        break
            if places == 0:
                failed = True
                break
            if places == 1 and count[place] > 1:
                base = place * num_values
                for e in range(num_values):
                    if e != d:
                        top = _push(tab, pending, stack, top, base + e)
        if failed:
            break
    if failed:
        while top > 0:
            top -= 1
            pending[stack[top]] = 0
        return -1
    return left


@njit(inline="always")
def _setup(head, givens, state):
    """Level 0 from ``givens`` (0 = empty), propagated."""
    tab, count, lst, bcell, bval, stack, pending, peer_starts, peers, hidden_units, \
        cell_hidden, num_values, flags = head
    cells = count.shape[1]
    level = tab[0]
    for i in range(level.shape[0]):
        level[i] = 1
    for c in range(cells):
        count[0, c] = num_values
    top = 0
    ok = True
    for c in range(cells):
        g = givens[c]
        if g > num_values:
            ok = False
        elif g > 0:
            for e in range(num_values):
                if e != g - 1:
                    top = _push(level, pending, stack, top, c * num_values + e)
    left = cells
    if num_values == 1:       # every cell starts with one value: it leaves the peers
        left = 0
        for c in range(cells):
            for t in range(peer_starts[c], peer_starts[c + 1]):
                top = _push(level, pending, stack, top, peers[t] * num_values)
    left = _propagate(level, count[0], left, stack, pending, top, peer_starts, peers,
                      hidden_units, cell_hidden, num_values)
    lst[0] = left if ok else -1
    return ok and left >= 0


@njit(inline="always")
def _solved(head, d, size):
    tab, count, lst, bcell, bval, stack, pending, peer_starts, peers, hidden_units, \
        cell_hidden, num_values, flags = head
    return lst[d] == 0


@njit(inline="always")
def _record(head, d, first):
    tab, count, lst, bcell, bval, stack, pending, peer_starts, peers, hidden_units, \
        cell_hidden, num_values, flags = head
    for c in range(count.shape[1]):
        v = 0
        while tab[d, c * num_values + v] == 0:
            v += 1
        first[c] = v + 1


@njit(inline="always")
def _choose(head, d, size):
    """The first open cell with the fewest possible values."""
    tab, count, lst, bcell, bval, stack, pending, peer_starts, peers, hidden_units, \
        cell_hidden, num_values, flags = head
    best = -1
    fewest = num_values + 1
    for c in range(count.shape[1]):
        k = count[d, c]
        if 1 < k < fewest:
            fewest = k
            best = c
            if k == 2:
                break
    bcell[d] = best
    bval[d] = -1


@njit(inline="always")
def _pick(head, d):
    """The next possible value of the level's cell, plus one (0: none)."""
    tab, count, lst, bcell, bval, stack, pending, peer_starts, peers, hidden_units, \
        cell_hidden, num_values, flags = head
    c = bcell[d]
    v = bval[d] + 1
    while v < num_values and tab[d, c * num_values + v] == 0:
        v += 1
    return v + 1 if v < num_values else 0


@njit(inline="always")
def _crowded(head, d, x):
    """Every value gets a copy of the level: none is left past the last."""
    tab, count, lst, bcell, bval, stack, pending, peer_starts, peers, hidden_units, \
        cell_hidden, num_values, flags = head
    return d + 1 == count.shape[0]


@njit(inline="always")
def _place(head, d, x):
    """Value ``x - 1`` in a copy of the level, propagated: the next level, or -1."""
    tab, count, lst, bcell, bval, stack, pending, peer_starts, peers, hidden_units, \
        cell_hidden, num_values, flags = head
    c = bcell[d]
    v = x - 1
    bval[d] = v
    for i in range(tab.shape[1]):
        tab[d + 1, i] = tab[d, i]
    for i in range(count.shape[1]):
        count[d + 1, i] = count[d, i]
    level = tab[d + 1]
    top = 0
    base = c * num_values
    for e in range(num_values):
        if e != v:
            top = _push(level, pending, stack, top, base + e)
    left = _propagate(level, count[d + 1], lst[d], stack, pending, top, peer_starts, peers,
                      hidden_units, cell_hidden, num_values)
    if left < 0:
        return -1
    lst[d + 1] = left
    return d + 1


start, run, batch = search_kernels(__name__, _setup, _solved, _record, _choose, _pick, _place,
                                   _crowded)


def model_args(model):
    """The model arrays the kernels take, in order."""
    return (model.peer_starts, model.peers, model.hidden_units, model.cell_hidden)


def work(model, depth):
    """Scratch: the table of possible values and the counts per level, open cells, branch cell
    and value per level, the stack of pending eliminations and its flags."""
    cells, values = model.num_cells, model.num_values
    return (np.zeros((depth, cells * values), dtype=np.uint8),
            np.zeros((depth, cells), dtype=np.int32), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(cells * values + 1, dtype=np.int64),
            np.zeros(cells * values + 1, dtype=np.uint8))


def level_bytes(model):
    """Bytes per search level."""
    return model.num_cells * (model.num_values + 4) + 24


def slice_nodes(model):
    """Nodes per kernel call between clock readings (a node copies and scans the table)."""
    return max(64, (1 << 22) // max(model.num_cells * model.num_values, 1))
