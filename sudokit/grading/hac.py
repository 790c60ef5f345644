"""Hyper-arc-consistent all-different (Regin 1994): a matching plus strongly connected parts.

:func:`hac_prune` is the generic step on ``m`` variables over ``m`` values given as bitmasks
(``adj[x]`` = values ``x`` may take): find a perfect matching (augmenting paths, Hopcroft and
Karp's idea in its simplest BFS form), then keep an unmatched edge ``x - w`` only when it lies on
an alternating cycle. With as many values as variables every value is matched, so Regin's
"reachable from a free value" case never arises and an alternating cycle is all there is:
``x`` takes ``w`` (the value of ``y``), ``y`` moves on, ..., someone takes the value of ``x``.
On the *variable graph* ``x -> y`` when ``adj[x]`` holds ``match[y]``, the edge survives iff
``y`` reaches ``x``; the reachability of at most 64 variables is a bitset transitive closure
(Warshall), which is the SCC test of Regin's algorithm in word-parallel form.

The same step serves the units (cells x values), the colored matrix (rows x columns, one
value) and the line x box matchings of HAC3 (rows x boxes, one value); see
:mod:`sudokit.grading.redundant`.

Examples
--------
>>> import numpy as np
>>> adj = np.array([0b101, 0b101, 0b111], dtype=np.int64)   # {1,3}, {1,3}, {1,2,3}
>>> hac_prune(adj), adj.tolist()                           # the last must be 2
(1, [5, 5, 2])
>>> hac_prune(np.array([0b01, 0b01], dtype=np.int64))      # no perfect matching
-1
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .domains import narrow

__all__ = ["hac_prune", "hac_unit"]


@njit
def _augment(adj, start, match, owner, parent, queue):
    """BFS for an augmenting path from the free variable ``start``; True if one was found."""
    m = adj.shape[0]
    for w in range(m):
        parent[w] = -1
    head = 0
    tail = 1
    queue[0] = start
    while head < tail:
        x = queue[head]
        head += 1
        a = adj[x]
        for w in range(m):
            if (a >> w) & 1 and parent[w] < 0:
                parent[w] = x
                y = owner[w]
                if y < 0:
                    # flip the path back to start
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
def hac_prune(adj):
    """Remove from ``adj`` (in place) every edge in no perfect matching.

    Returns -1 when there is no perfect matching, 1 when an edge was removed, 0 if none.
    """
    m = adj.shape[0]
    match = np.full(m, -1, dtype=np.int64)
    owner = np.full(m, -1, dtype=np.int64)
    # greedy start
    for x in range(m):
        a = adj[x]
        for w in range(m):
            if (a >> w) & 1 and owner[w] < 0:
                match[x] = w
                owner[w] = x
                break
    parent = np.empty(m, dtype=np.int64)
    queue = np.empty(m, dtype=np.int64)
    for x in range(m):
        if match[x] < 0:
            if not _augment(adj, x, match, owner, parent, queue):
                return -1
    # variable graph and its transitive closure
    reach = np.zeros(m, dtype=np.int64)
    one = np.int64(1)
    for x in range(m):
        a = adj[x] & ~(one << match[x])
        g = np.int64(0)
        for w in range(m):
            if (a >> w) & 1:
                g |= one << owner[w]
        reach[x] = g
    for k in range(m):
        rk = reach[k]
        if rk == 0:
            continue
        for i in range(m):
            if (reach[i] >> k) & 1:
                reach[i] |= rk
    changed = 0
    for x in range(m):
        a = adj[x]
        keep = one << match[x]
        for w in range(m):
            if (a >> w) & 1 and w != match[x]:
                if (reach[owner[w]] >> x) & 1:
                    keep |= one << w
        if keep != a:
            adj[x] = keep
            changed = 1
    return changed


@njit
def hac_unit(dom, cells, adj, cell_units, dirty):
    """HAC of one unit of ``n`` cells over ``n`` values; ``adj`` is scratch of length ``n``.

    Returns -1 on failure, 1 if a domain shrank, 0 if not."""
    m = cells.shape[0]
    for i in range(m):
        adj[i] = dom[cells[i]]
    r = hac_prune(adj)
    if r <= 0:
        return r
    for i in range(m):
        if adj[i] != dom[cells[i]]:
            narrow(dom, cells[i], adj[i], cell_units, dirty)
    return 1
