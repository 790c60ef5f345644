"""A large clique, found greedily: the lower bound of the chromatic number and the vertices
whose colors symmetry breaking may fix.

From a start vertex, the greedy search keeps the set of *candidates* (the vertices adjacent to
every clique member so far) and adds the candidate with the most neighbors among the
candidates, until none is left (the classic greedy of Johnson 1974, with the candidate-degree
rule). Starts are taken in order of decreasing degree, and a start (or a search) is dropped as
soon as it cannot beat the best clique found, so on the sparse DIMACS graphs most vertices cost
nothing. Each step is a few numpy operations over the candidates' neighbor lists.

It is a heuristic: the clique is maximal, not always maximum. Everything built on it stays
correct with any clique (a smaller one only gives a weaker bound or fixes fewer colors).

Examples
--------
>>> import numpy as np
>>> k4_and_tail = np.array([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (3, 4), (4, 5)])
>>> large_clique(6, k4_and_tail).tolist()
[0, 1, 2, 3]
>>> is_clique(k4_and_tail, [0, 1, 2, 3]), is_clique(k4_and_tail, [2, 3, 4])
(True, False)
"""

from __future__ import annotations

import time

import numpy as np

from .adjacency import Adjacency, adjacency

__all__ = ["large_clique", "is_clique"]


#: graphs up to this many vertices get a dense 0/1 adjacency matrix (at most 16 MiB) for the
#: searches; larger ones work on the neighbor lists
DENSE_MAX_VERTICES = 4096


class _Search:
    """The greedy search's view of the graph: neighbor counts between vertex sets."""

    def __init__(self, adj: Adjacency, allowed: np.ndarray):
        n = adj.num_vertices
        self.adj, self.allowed = adj, allowed
        self.matrix = None
        if n <= DENSE_MAX_VERTICES:
            self.matrix = np.zeros((n, n), dtype=bool)
            owners = np.repeat(np.arange(n), adj.degree)
            self.matrix[owners, adj.indices] = True
        self.position = np.full(n, -1, dtype=np.int64)
        self.mask = np.zeros(n, dtype=bool)

    def counts(self, of: np.ndarray, among: np.ndarray) -> np.ndarray:
        """For each vertex of ``of``, its number of neighbors in ``among``."""
        if self.matrix is not None:
            return self.matrix[np.ix_(of, among)].sum(axis=1)
        self.position[of] = np.arange(of.size)
        reached, _ = self.adj.gather(among)
        hit = self.position[reached]
        self.position[of] = -1
        return np.bincount(hit[hit >= 0], minlength=of.size)

    def adjacent(self, vertex: int, among: np.ndarray) -> np.ndarray:
        """Which vertices of ``among`` are neighbors of ``vertex``."""
        if self.matrix is not None:
            return self.matrix[vertex, among]
        around = self.adj.neighbors(vertex)
        self.mask[around] = True
        found = self.mask[among]
        self.mask[around] = False
        return found

    def greedy(self, start: int, best: int) -> list[int]:
        """The greedy clique from ``start``; ``[]`` once it cannot exceed ``best`` vertices.

        The candidates' neighbor counts among the candidates are computed once and then
        lowered by the candidates each step drops, so a search costs about the square of the
        start's degree (dense) or the degrees of its neighbors (neighbor lists).
        """
        clique = [start]
        candidates = self.adj.neighbors(start)
        candidates = candidates[self.allowed[candidates]]
        inside = self.counts(candidates, candidates)
        while candidates.size:
            if len(clique) + candidates.size <= best:
                return []
            chosen = int(candidates[int(np.argmax(inside))])
            clique.append(chosen)
            keep = self.adjacent(chosen, candidates)
            dropped = candidates[~keep]           # the chosen vertex among them
            candidates, inside = candidates[keep], inside[keep]
            if candidates.size and dropped.size:
                inside = inside - self.counts(candidates, dropped)
        return clique if len(clique) > best else []


def large_clique(num_vertices: int, edges, among=None, starts: int | None = None,
                 seconds: float | None = None, adj: Adjacency | None = None) -> np.ndarray:
    """The vertices (sorted, 0-based) of a large clique, found greedily (see the module).

    Parameters
    ----------
    num_vertices : int
    edges : array_like
        ``(m, 2)`` 0-based endpoints, each edge once.
    among : array_like of bool, optional
        Only these vertices may be in the clique (default: all).
    starts : int, optional
        Try at most this many start vertices, highest degree first (default: every vertex
        that could still improve the clique).
    seconds : float, optional
        Start no new search after this much time (the first one always runs).
    adj : Adjacency, optional
        The graph's adjacency, when the caller has it already.

    Returns
    -------
    numpy.ndarray
        ``int64`` vertex ids; empty only for a graph without allowed vertices.
    """
    began = time.monotonic()
    adj = adj if adj is not None else adjacency(num_vertices, edges)
    allowed = (np.ones(num_vertices, dtype=bool) if among is None
               else np.asarray(among, dtype=bool).copy())
    if not allowed.any():
        return np.zeros(0, dtype=np.int64)
    # the degree inside the allowed vertices bounds the clique through each start
    reached, owner = adj.gather(np.arange(num_vertices))
    degree = np.bincount(owner, weights=allowed[reached], minlength=num_vertices).astype(int)
    order = np.flatnonzero(allowed)
    order = order[np.argsort(-degree[order], kind="stable")]
    best = [int(order[0])]
    search = _Search(adj, allowed)
    for tried, start in enumerate(order.tolist()):
        if degree[start] + 1 <= len(best) or (starts is not None and tried >= starts):
            break  # later starts have no more neighbors: none can do better
        if tried and seconds is not None and time.monotonic() - began > seconds:
            break
        found = search.greedy(start, len(best))
        if found:
            best = found
    return np.sort(np.asarray(best, dtype=np.int64))


def is_clique(edges, vertices) -> bool:
    """True if every two of ``vertices`` are adjacent (checked against the edge list)."""
    vertices = np.unique(np.asarray(vertices, dtype=np.int64))
    if vertices.size < 2:
        return True
    edges = np.sort(np.asarray(edges, dtype=np.int64).reshape(-1, 2), axis=1)
    width = int(max(edges.max(initial=0), vertices.max())) + 1
    present = np.unique(edges[:, 0] * width + edges[:, 1])
    first, second = np.triu_indices(vertices.size, 1)
    wanted = vertices[first] * width + vertices[second]   # vertices sorted: first < second
    return bool(np.isin(wanted, present).all())
