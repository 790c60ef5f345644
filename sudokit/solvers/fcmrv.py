"""``--solver fcmrv``: Skiena's backtracking with forward checking and the MRV heuristic.

S. S. Skiena, *The Algorithm Design Manual* (2nd ed., section 7.3, the Sudoku war story), as
Takano, de Freitas and Sá (section 4) compare it, on the unit model: the next cell is the most
constrained one (the fewest values its assigned peers leave: minimum remaining values, the
first in cell order on ties), its values are tried in increasing order, and *forward checking*
looks ahead after each assignment: when some open cell has no value left, the assignment is
undone at once. Values are kept as plain counters, without bit tricks: ``conflicts[cell,
value]`` counts the assigned peers holding ``value`` and ``domain[cell]`` the values with no
conflict; an assignment updates the counters of the cell's peers and backtracking undoes it
(no copies). Every assignment tried is a search node.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.solvers.cp_engine import CPEngine
>>> CPEngine("fcmrv").count(latin_square(np.zeros((4, 4), dtype=int)))[0]
576
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_search import search_kernels

__all__ = ["start", "run", "batch"]


@njit(inline="always")
def _assign(c, v, value, conflicts, domain, peer_starts, peers, num_values):
    """Peers of ``c`` see value ``v``; True when an open peer is left without values."""
    wiped = False
    for t in range(peer_starts[c], peer_starts[c + 1]):
        p = peers[t]
        index = p * num_values + v
        conflicts[index] += 1
        if conflicts[index] == 1:
            domain[p] -= 1
            if domain[p] == 0 and value[p] == 0:
                wiped = True
    return wiped


@njit(inline="always")
def _unassign(c, v, conflicts, domain, peer_starts, peers, num_values):
    for t in range(peer_starts[c], peer_starts[c + 1]):
        p = peers[t]
        index = p * num_values + v
        conflicts[index] -= 1
        if conflicts[index] == 0:
            domain[p] += 1


@njit(inline="always")
def _setup(head, givens, state):
    """The givens in place (0 = empty), their conflicts counted, the open cells listed (their
    number in ``state[4]``)."""
    value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers, num_values, \
        flags = head
    cells = value.shape[0]
    for i in range(conflicts.shape[0]):
        conflicts[i] = 0
    for c in range(cells):
        domain[c] = num_values
    ok = True
    for c in range(cells):
        g = givens[c]
        value[c] = g
        if g > num_values:
            ok = False
    if ok:
        for c in range(cells):
            if value[c] > 0:
                _assign(c, value[c] - 1, value, conflicts, domain, peer_starts, peers,
                        num_values)
    size = 0
    for c in range(cells):
        g = value[c]
        if g > 0:
            if ok and conflicts[c * num_values + g - 1] > 0:
                ok = False              # a peer holds the same given
        else:
            empties[size] = c
            size += 1
            if domain[c] == 0:
                ok = False
    state[4] = size
    return ok


@njit(inline="always")
def _solved(head, d, size):
    return d == size


@njit(inline="always")
def _record(head, d, first):
    value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers, num_values, \
        flags = head
    for c in range(value.shape[0]):
        first[c] = value[c]


@njit(inline="always")
def _choose(head, d, size):
    """The open cell with the fewest values left (the first on ties)."""
    value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers, num_values, \
        flags = head
    best = -1
    fewest = num_values + 1
    for k in range(size):
        c = empties[k]
        if value[c] == 0 and domain[c] < fewest:
            fewest = domain[c]
            best = c
            if fewest <= 1:
                break
    bcell[d] = best
    bval[d] = -1
    applied[d] = 0


@njit(inline="always")
def _pick(head, d):
    """Undo the value tried last; the next value without conflicts, plus one (0: none)."""
    value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers, num_values, \
        flags = head
    c = bcell[d]
    if applied[d]:
        _unassign(c, bval[d], conflicts, domain, peer_starts, peers, num_values)
        value[c] = 0
        applied[d] = 0
    v = bval[d] + 1
    while v < num_values and conflicts[c * num_values + v] != 0:
        v += 1
    return v + 1 if v < num_values else 0


@njit(inline="always")
def _place(head, d, x):
    """Assign value ``x - 1``; the next level, or -1 when forward checking wipes a peer out."""
    value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers, num_values, \
        flags = head
    c = bcell[d]
    v = x - 1
    bval[d] = v
    value[c] = v + 1
    applied[d] = 1
    if _assign(c, v, value, conflicts, domain, peer_starts, peers, num_values):
        return -1
    return d + 1


start, run, batch = search_kernels(__name__, _setup, _solved, _record, _choose, _pick, _place)


def model_args(model):
    """The model arrays the kernels take, in order."""
    return (model.peer_starts, model.peers)


def work(model, depth):
    """Scratch: values, conflict counters, domain sizes, open cells; per level the cell, the
    value tried and whether it is applied."""
    cells = model.num_cells
    return (np.zeros(cells, dtype=np.int32),
            np.zeros(cells * model.num_values, dtype=np.int32),
            np.zeros(cells, dtype=np.int32), np.zeros(cells, dtype=np.int32),
            np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.int8))


def level_bytes(model):
    """Bytes per search level (the counters are shared by all levels)."""
    return 17 + (4 * model.num_cells * (model.num_values + 3)) // 64


def slice_nodes(model):
    """Nodes per kernel call between clock readings (a node scans the open cells)."""
    return max(64, (1 << 24) // max(model.num_cells, 1))
