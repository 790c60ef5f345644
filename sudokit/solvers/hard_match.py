"""AllDifferent by matching for the engine ``cp``: Régin's hyper-arc consistency on one unit.

A complete unit (as many cells as values) is consistent when its open cells (more than one
value left) can take distinct values, and a value stays in a cell's domain only when some
such assignment gives it that value (Régin 1994). Once forward checking has run, the open
cells of a complete unit and the values they may take are equally many (fewer values than
cells is a failure, Hall's theorem), so every value is matched in a perfect matching and an
unmatched edge ``x - w`` survives exactly when it lies on an alternating cycle: ``w`` is the
value of ``y`` and ``y`` reaches ``x`` in the graph ``i -> j`` when ``i`` may take ``j``'s
value. :mod:`sudokit.grading.hac` does the same for the grader; here the step works in place
on the search's domains with its scratch given (no allocation per call), and starts from the
unit's last matching (kept in ``matches``, checked edge by edge), so after a few removals
only the cells whose matched value left need an augmenting path: the incremental part of
Régin's algorithm. Reachability among at most 64 cells is a bit-set transitive closure.

Examples
--------
>>> import numpy as np
>>> dom = np.array([0b101, 0b101, 0b111], dtype=np.int64)   # {1,3}, {1,3}, {1,2,3}
>>> cells = np.array([0, 1, 2], dtype=np.int32)
>>> matches = np.full(3, -1, dtype=np.int8)
>>> scratch = np.zeros((6, 64), dtype=np.int64)
>>> unit_prune(dom, cells, matches, scratch)                  # the last must be 2
1
>>> scratch[5, :1].tolist(), scratch[1, :1].tolist()          # position 2, new mask {2}
([2], [2])
>>> dom = np.array([0b011, 0b011, 0b011], dtype=np.int64)
>>> unit_prune(dom, cells, matches, scratch)                  # three cells, two values
-1
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_bits import lowest_bit_index, popcount

__all__ = ["unit_prune"]


@njit(inline="always")
def _augment(adj, start, match, owner, parent, queue):
    """BFS from the unmatched local cell ``start`` over values; flips the path it finds.
    True when one was found."""
    seen = np.int64(0)
    head = 0
    tail = 1
    queue[0] = start
    one = np.int64(1)
    while head < tail:
        x = queue[head]
        head += 1
        a = adj[x] & ~seen
        while a != 0:
            w = lowest_bit_index(a)
            a &= a - 1
            seen |= one << w
            parent[w] = x
            y = owner[w]
            if y < 0:
                while True:
                    x = parent[w]
                    prev = match[x]
                    match[x] = w
                    owner[w] = x
                    if x == start:
                        return True
                    w = prev
            queue[tail] = y
            tail += 1
    return False


@njit
def unit_prune(dom, cells, matches, scratch):
    """Hyper-arc consistency of the complete unit ``cells`` on ``dom``, in place.

    ``matches`` is the unit's row of last matched values (by position, -1 none), updated;
    ``scratch`` is ``(6, 64)`` int64. Returns -1 when the unit has no solution, else the
    number ``k`` of cells to narrow: their positions in ``scratch[5, :k]`` and their new
    masks in ``scratch[1, :k]`` (``dom`` itself is left to the caller, which trails it).
    Forward checking must have run (no open cell holds a value a closed cell of the unit
    has); with more values than open cells nothing is pruned.
    """
    one = np.int64(1)
    local = scratch[0]     # local index -> position in the unit
    adj = scratch[1]
    match = scratch[2]     # local index -> value
    owner = scratch[3]     # value -> local index
    reach = scratch[4]
    queue = scratch[5]
    width = cells.shape[0]
    m = 0
    union = np.int64(0)
    for pos in range(width):
        c = cells[pos]
        if c < 0:
            break
        d = dom[c]
        if (d & (d - 1)) != 0:
            local[m] = pos
            adj[m] = d
            union |= d
            m += 1
    if m == 0:
        return 0
    free = popcount(union)
    if free < m:
        return -1
    if free > m:
        return 0
    for w in range(64):
        owner[w] = -1
    # warm start: the last matching where its edges are still there
    for i in range(m):
        match[i] = -1
        w = matches[local[i]]
        if w >= 0 and (adj[i] >> w) & 1 and owner[w] < 0:
            match[i] = w
            owner[w] = i
    for i in range(m):
        if match[i] < 0:
            a = adj[i]
            while a != 0:
                w = lowest_bit_index(a)
                a &= a - 1
                if owner[w] < 0:
                    match[i] = w
                    owner[w] = i
                    break
    for i in range(m):
        if match[i] < 0:
            # parent reuses ``reach`` (free until the closure below)
            if not _augment(adj, i, match, owner, reach, queue):
                return -1
    for i in range(m):
        matches[local[i]] = match[i]
    # the graph i -> j when i may take j's value, and its transitive closure
    for i in range(m):
        a = adj[i] & ~(one << match[i])
        g = np.int64(0)
        while a != 0:
            w = lowest_bit_index(a)
            a &= a - 1
            g |= one << owner[w]
        reach[i] = g
    for k in range(m):
        rk = reach[k]
        bit = one << k
        for i in range(m):
            if reach[i] & bit:
                reach[i] |= rk
    narrowed = 0
    for i in range(m):
        a = adj[i]
        keep = one << match[i]
        rest = a & ~keep
        bit = one << i
        while rest != 0:
            w = lowest_bit_index(rest)
            rest &= rest - 1
            if reach[owner[w]] & bit:
                keep |= one << w
        if keep != a:
            queue[narrowed] = local[i]
            adj[i] = keep
            narrowed += 1
    # the new domains, by position, in scratch[5] (positions) and scratch[1] (masks)
    k = 0
    for i in range(m):
        if k < narrowed and queue[k] == local[i]:
            adj[k] = adj[i]
            k += 1
    return narrowed
