"""Node counts of a fixed labelling: the tiebreaker between puzzles of the same grade.

Depth-first search that branches on the first open cell in row-major order, tries its values
in increasing order, and propagates with one scheme at every node; it counts the nodes (the
root plus every assignment tried) until the first solution. A puzzle that propagation alone
solves needs 1 node.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.grading.domains import grid_tables, initial_domains
>>> p = sudoku(np.zeros((4, 4), dtype=int))
>>> t = grid_tables(p)
>>> dom = initial_domains(p)
>>> label_count(dom, 1, *t.kernel_args(), t.n, t.full, 10**6)   # (nodes, solved)
(8, 1)
>>> [int(d).bit_length() for d in dom[:4]]                       # the first solution's row
[1, 2, 3, 4]
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .engine import propagate
from .shaving import NO_STOP, SHAVE_STATE, SUSPENDED, propagate_scheme, shave_slice

__all__ = ["label_count", "label_slice", "status_batch", "status_slice", "LABEL_STATE",
           "STATUS_STATE", "ALL_DONE", "PUZZLE_DONE"]


@njit
def _first_open(dom):
    for i in range(dom.shape[0]):
        d = dom[i]
        if d & (d - 1) != 0:
            return i
    return -1


#: the length of a labelling state (:func:`label_slice`): started, depth, nodes
LABEL_STATE = 3
#: the length of a status state (:func:`status_slice`): the next (puzzle, scheme) pair, then
#: a shaving state (:data:`~sudokit.grading.shaving.SHAVE_STATE`), whose last entry counts
#: the propagations run
STATUS_STATE = 1 + SHAVE_STATE
#: what :func:`status_slice` returns: every pair done, a puzzle done (with ``one``)
ALL_DONE, PUZZLE_DONE = 1, 0


@njit
def label_count(dom, flags, units, cell_units, seg_cells, same_pairs, line_units, box_units,
                n, full, limit):
    """Search from ``dom`` (overwritten by the first solution when there is one).

    Returns ``(nodes, status)``: status 1 solved, 0 no solution, -1 node limit reached.
    """
    size = dom.shape[0]
    stack = np.empty((size + 1, size), dtype=np.int64)
    branch = np.empty(size + 1, dtype=np.int64)
    tried = np.empty(size + 1, dtype=np.int64)
    state = np.zeros(LABEL_STATE, dtype=np.int64)
    status = label_slice(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                         box_units, n, full, limit, stack, branch, tried, state, NO_STOP)
    return state[2], status


@njit
def label_slice(dom, flags, units, cell_units, seg_cells, same_pairs, line_units, box_units,
                n, full, limit, stack, branch, tried, state, stop):
    """:func:`label_count`, resumable: the search stack (``stack``, ``branch``, ``tried``:
    ``n*n + 1`` rows) and ``state`` (:data:`LABEL_STATE` zeros at the start; ``state[2]``
    counts the nodes) are the caller's. Returns 1 solved, 0 no solution, -1 node limit
    reached, or :data:`~sudokit.grading.shaving.SUSPENDED` (-2) when the nodes reached
    ``stop``: call again with the same arrays to go on."""
    if state[0] == 0:
        state[0] = 1
        state[2] = 1
        r = propagate_scheme(dom, flags, units, cell_units, seg_cells, same_pairs,
                             line_units, box_units, n, full)
        if r == 1:
            return 1
        if r < 0:
            return 0
        stack[0] = dom
        branch[0] = _first_open(dom)
        tried[0] = -1
        state[1] = 0
    depth = state[1]
    nodes = state[2]
    one = np.int64(1)
    while depth >= 0:
        cell = branch[depth]
        d = stack[depth, cell]
        v = tried[depth] + 1
        while v < n and (d >> v) & 1 == 0:
            v += 1
        if v >= n:
            depth -= 1
            continue
        if nodes >= limit or nodes >= stop:
            state[1], state[2] = depth, nodes
            return -1 if nodes >= limit else SUSPENDED
        tried[depth] = v
        nodes += 1
        child = stack[depth + 1]
        child[:] = stack[depth]
        child[cell] = one << v
        r = propagate_scheme(child, flags, units, cell_units, seg_cells, same_pairs,
                             line_units, box_units, n, full)
        if r == 1:
            dom[:] = child
            state[1], state[2] = depth, nodes
            return 1
        if r == 0:
            depth += 1
            branch[depth] = _first_open(child)
            tried[depth] = -1
    state[1], state[2] = depth, nodes
    return 0


@njit
def status_batch(doms, schemes, units, cell_units, seg_cells, same_pairs, line_units,
                 box_units, n, full, out):
    """``out[p, s]`` = result (-1, 0, 1) of scheme ``schemes[s]`` on the domains ``doms[p]``
    (the rows of ``doms`` are left untouched)."""
    cur = np.empty(doms.shape[1], dtype=np.int64)
    state = np.zeros(STATUS_STATE, dtype=np.int64)
    status_slice(doms, schemes, units, cell_units, seg_cells, same_pairs, line_units,
                 box_units, n, full, out, cur, state, NO_STOP, False)


@njit
def status_slice(doms, schemes, units, cell_units, seg_cells, same_pairs, line_units,
                 box_units, n, full, out, cur, state, stop, one):
    """:func:`status_batch`, resumable: go on from the pair ``state[0]`` (puzzle ``p``, scheme
    ``s`` is pair ``p * len(schemes) + s``) until the propagations counted in ``state[-1]``
    reach ``stop`` (a shaving scheme stops mid-way, its domains kept in ``cur``; returns
    :data:`~sudokit.grading.shaving.SUSPENDED`), or, with ``one``, a puzzle is done
    (:data:`PUZZLE_DONE`); :data:`ALL_DONE` when every pair is. Call again with the same
    ``out``, ``cur`` and ``state`` (:data:`STATUS_STATE` zeros at the start) to go on."""
    count = schemes.shape[0]
    shaving = state[1:]
    while state[0] < doms.shape[0] * count:
        p = state[0] // count
        flags = schemes[state[0] % count]
        if shaving[0] == 0:
            if shaving[4] >= stop:
                return SUSPENDED
            cur[:] = doms[p]
        if flags & 128:
            r = shave_slice(cur, flags & 127, units, cell_units, seg_cells, same_pairs,
                            line_units, box_units, n, full, flags >> 8, shaving, stop)
            if r == SUSPENDED:
                return SUSPENDED
        else:
            shaving[4] += 1
            r = propagate(cur, flags, units, cell_units, seg_cells, same_pairs, line_units,
                          box_units, n, full)
        out[p, state[0] % count] = r
        shaving[:4] = 0
        state[0] += 1
        if one and state[0] % count == 0:
            return PUZZLE_DONE
    return ALL_DONE
