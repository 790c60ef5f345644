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
from .shaving import propagate_scheme

__all__ = ["label_count", "status_batch"]


@njit
def _first_open(dom):
    for i in range(dom.shape[0]):
        d = dom[i]
        if d & (d - 1) != 0:
            return i
    return -1


@njit
def label_count(dom, flags, units, cell_units, seg_cells, same_pairs, line_units, box_units,
                n, full, limit):
    """Search from ``dom`` (overwritten by the first solution when there is one).

    Returns ``(nodes, status)``: status 1 solved, 0 no solution, -1 node limit reached.
    """
    r = propagate_scheme(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                         box_units, n, full)
    nodes = 1
    if r == 1:
        return nodes, 1
    if r < 0:
        return nodes, 0
    size = dom.shape[0]
    stack = np.empty((size + 1, size), dtype=np.int64)
    branch = np.empty(size + 1, dtype=np.int64)
    tried = np.empty(size + 1, dtype=np.int64)
    stack[0] = dom
    branch[0] = _first_open(dom)
    tried[0] = -1
    depth = 0
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
        tried[depth] = v
        if nodes >= limit:
            return nodes, -1
        nodes += 1
        child = stack[depth + 1]
        child[:] = stack[depth]
        child[cell] = one << v
        r = propagate_scheme(child, flags, units, cell_units, seg_cells, same_pairs,
                             line_units, box_units, n, full)
        if r == 1:
            dom[:] = child
            return nodes, 1
        if r == 0:
            depth += 1
            branch[depth] = _first_open(child)
            tried[depth] = -1
    return nodes, 0


@njit
def status_batch(doms, schemes, units, cell_units, seg_cells, same_pairs, line_units,
                 box_units, n, full, out):
    """``out[p, s]`` = result (-1, 0, 1) of scheme ``schemes[s]`` on the domains ``doms[p]``
    (the rows of ``doms`` are left untouched)."""
    work = np.empty(doms.shape[1], dtype=np.int64)
    for p in range(doms.shape[0]):
        for s in range(schemes.shape[0]):
            work[:] = doms[p]
            out[p, s] = propagate_scheme(work, schemes[s], units, cell_units, seg_cells,
                                         same_pairs, line_units, box_units, n, full)
