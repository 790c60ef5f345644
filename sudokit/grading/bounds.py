"""Bound-consistent all-different (BC), by Hall intervals.

A set of ``k`` cells whose domains lie inside a value interval ``[a, b]`` of ``k`` values is a
Hall interval: no other cell of the unit may take a value in it. Bound consistency (Puget 1998;
Lopez-Ortiz, Quimper, Tromp and van Beek 2003 give O(n) versions) removes those values from
every other cell whose *lower or upper bound* falls inside ``[a, b]``; cells that straddle the
interval keep their inner values, which is where BC is weaker than HAC. This kernel checks all
O(n^2) candidate intervals (bounds of the cells) per pass and repeats the pass to the unit's
fixpoint, which reaches the same fixpoint as Puget's sort-based algorithm; for n <= 64 the
simple version is fast enough.

As in ECLiPSe's ``ic_global:alldifferent/1`` (which Simonis used), the scheme "BC" runs this
together with forward checking: a fixed cell's value leaves its peers even when it is not at
their bound (the grading engine always runs FC first). Domains keep their holes: a new lower
bound is the smallest remaining value above the interval.

Examples
--------
>>> import numpy as np
>>> # cells {1,2}, {1,2}, {1,2,3} (0b111) and {2,3,4}: [1,2] is a Hall interval
>>> dom = np.array([0b0011, 0b0011, 0b0111, 0b1110], dtype=np.int64)
>>> dirty = np.zeros(3, dtype=np.int8); cu = np.zeros((4, 1), dtype=np.int64)
>>> bc_unit(dom, np.arange(4), cu, dirty), [bin(int(d)) for d in dom]
(1, ['0b11', '0b11', '0b100', '0b1000'])
>>> # {1,3}, {1,3}, {1,2,3}: HAC would fix the last cell to 2, BC cannot (no Hall interval)
>>> dom = np.array([0b101, 0b101, 0b111], dtype=np.int64)
>>> bc_unit(dom, np.arange(3), cu, dirty), dom.tolist()
(0, [5, 5, 7])
"""

from __future__ import annotations

import numpy as np

from .domains import jit, narrow

__all__ = ["bc_unit"]


@jit
def _bounds(dom, cells, lo, hi):
    for i in range(cells.shape[0]):
        d = dom[cells[i]]
        v = 0
        while (d >> v) & 1 == 0:
            v += 1
        lo[i] = v
        w = 63
        while (d >> w) & 1 == 0:
            w -= 1
        hi[i] = w


@jit
def bc_unit(dom, cells, cell_units, dirty):
    """Bound consistency of one all-different unit (values are bit positions).

    Returns -1 on failure (more cells than values in an interval, or a wipe-out), 1 if a
    domain shrank, 0 if not."""
    m = cells.shape[0]
    lo = np.empty(m, dtype=np.int64)
    hi = np.empty(m, dtype=np.int64)
    order = np.empty(m, dtype=np.int64)
    changed = 0
    again = True
    while again:
        again = False
        for i in range(m):
            if dom[cells[i]] == 0:
                return -1
        _bounds(dom, cells, lo, hi)
        # cells by upper bound (insertion sort, m <= 64)
        for i in range(m):
            j = i
            while j > 0 and hi[order[j - 1]] > hi[i]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        for ia in range(m):
            a = lo[ia]
            inside = 0
            for k in range(m):
                j = order[k]
                if lo[j] >= a:
                    inside += 1
                if k + 1 < m and hi[order[k + 1]] == hi[j]:
                    continue            # close the group of equal upper bounds first
                b = hi[j]
                if b < a or inside == 0:
                    continue
                size = b - a + 1
                if inside > size:
                    return -1
                if inside < size:
                    continue
                # [a, b] is a Hall interval: cut it from the bounds of the other cells
                if size >= 64:
                    interval = np.int64(-1)
                else:
                    interval = ((np.int64(1) << size) - 1) << a
                for i in range(m):
                    if lo[i] >= a and hi[i] <= b:
                        continue
                    if (a <= lo[i] <= b) or (a <= hi[i] <= b):
                        cell = cells[i]
                        if narrow(dom, cell, dom[cell] & ~interval, cell_units, dirty) < 0:
                            return -1
                        changed = 1
                        again = True
                if again:
                    break
            if again:
                break
    return changed
