"""Peeling low-degree vertices: a graph is k-colorable exactly when its *core* is.

A vertex with fewer than ``k`` neighbors can always be colored last: whatever its neighbors
take, a color of ``1..k`` is left for it. Removing such vertices again and again (their
removal lowers their neighbors' degrees) leaves the core (the ``k``-core of the graph); a
k-coloring of the core extends to the whole graph by putting the removed vertices back in
reverse order, each taking the smallest color its colored neighbors leave (:func:`extend_greedily`).
The sparse DIMACS register-allocation graphs (``mulsol``, ``zeroin``, ``fpsol2``) shrink to
little more than their big clique.

Examples
--------
>>> import numpy as np
>>> k4_and_tail = np.array([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (3, 4), (4, 5)])
>>> core, removed = peel(6, k4_and_tail, 3)
>>> core.tolist(), removed.tolist()
([True, True, True, True, False, False], [4, 5])
>>> extend_greedily(6, k4_and_tail, np.array([1, 2, 3, 4, 0, 0]), removed).tolist()
[1, 2, 3, 4, 2, 1]
"""

from __future__ import annotations

import numpy as np

from .adjacency import Adjacency, adjacency

__all__ = ["peel", "extend_greedily"]


def peel(num_vertices: int, edges, threshold: int,
         adj: Adjacency | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Remove vertices of degree below ``threshold`` until none is left.

    Returns
    -------
    core : numpy.ndarray of bool
        The vertices that stay.
    removed : numpy.ndarray
        The removed vertices in the order they went (a vertex removed in one round had fewer
        than ``threshold`` neighbors among the vertices present at the start of that round).
    """
    adj = adj if adj is not None else adjacency(num_vertices, edges)
    degree = adj.degree.copy()
    core = np.ones(num_vertices, dtype=bool)
    going = np.flatnonzero(degree < threshold)
    rounds = []
    while going.size:
        core[going] = False
        rounds.append(going)
        reached, _ = adj.gather(going)
        np.subtract.at(degree, reached, 1)
        reached = np.unique(reached)
        going = reached[core[reached] & (degree[reached] < threshold)]
    removed = np.concatenate(rounds) if rounds else np.zeros(0, dtype=np.int64)
    return core, removed


def extend_greedily(num_vertices: int, edges, colors, removed,
                    adj: Adjacency | None = None) -> np.ndarray:
    """Color the ``removed`` vertices (as :func:`peel` gives them) in reverse order, each with
    the smallest color its colored neighbors leave; ``colors`` (0 = uncolored) is not changed.
    """
    adj = adj if adj is not None else adjacency(num_vertices, edges)
    colors = np.array(colors, dtype=np.int32)
    for vertex in np.asarray(removed)[::-1].tolist():
        taken = np.zeros(adj.neighbors(vertex).size + 2, dtype=bool)
        around = colors[adj.neighbors(vertex)]
        taken[around[around < taken.size]] = True
        taken[0] = True
        colors[vertex] = int(np.argmin(taken))
    return colors
