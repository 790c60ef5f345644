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

__all__ = ["start", "run", "batch"]

EXPAND = 1
NEXT = 2
DONE = 0


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


@njit
def start(value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers,
          num_values, flags, givens, state):
    """The givens in place (0 = empty); ``state = [depth, phase, solutions, nodes, open]``."""
    cells = value.shape[0]
    conflicts[:] = 0
    domain[:] = num_values
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
    state[0] = 0
    state[1] = EXPAND if ok else DONE
    state[2] = 0
    state[3] = 1
    state[4] = size


@njit
def run(value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers,
        num_values, flags, state, limit, stop, first):
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
            phase = NEXT
        elif phase == NEXT:
            c = bcell[d]
            if applied[d]:
                _unassign(c, bval[d], conflicts, domain, peer_starts, peers, num_values)
                value[c] = 0
                applied[d] = 0
            v = bval[d] + 1
            while v < num_values and conflicts[c * num_values + v] != 0:
                v += 1
            if v >= num_values:
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
            bval[d] = v
            value[c] = v + 1
            applied[d] = 1
            if not _assign(c, v, value, conflicts, domain, peer_starts, peers, num_values):
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
def batch(value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers,
          num_values, flags, givens, begin, limit, cap_each, cap_call, counts, firsts, unknown,
          nodes, state):
    """Rows ``begin, ...`` of ``givens``, ``cap_each`` nodes each, until ``cap_call`` nodes
    are spent; returns the next row."""
    spent = 0
    p = begin
    while p < givens.shape[0]:
        start(value, conflicts, domain, empties, bcell, bval, applied, peer_starts, peers,
              num_values, flags, givens[p], state)
        result = run(value, conflicts, domain, empties, bcell, bval, applied, peer_starts,
                     peers, num_values, flags, state, limit, cap_each, firsts[p])
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
