"""Adjacency lists as two arrays (compressed sparse rows), built once per graph.

Examples
--------
>>> import numpy as np
>>> adj = adjacency(4, np.array([[0, 1], [1, 2], [1, 3]]))
>>> adj.degree.tolist(), adj.neighbors(1).tolist()
([1, 3, 1, 1], [0, 2, 3])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Adjacency", "adjacency"]


@dataclass(frozen=True, eq=False)
class Adjacency:
    """The neighbors of vertex ``v`` are ``indices[indptr[v]:indptr[v + 1]]`` (sorted).

    Attributes
    ----------
    num_vertices : int
    indptr : numpy.ndarray
        ``(num_vertices + 1,)`` row starts.
    indices : numpy.ndarray
        ``(2 m,)`` neighbor ids, each edge in both directions.
    """

    num_vertices: int
    indptr: np.ndarray
    indices: np.ndarray

    @property
    def degree(self) -> np.ndarray:
        """Each vertex's number of neighbors."""
        return np.diff(self.indptr)

    def neighbors(self, vertex: int) -> np.ndarray:
        return self.indices[self.indptr[vertex]:self.indptr[vertex + 1]]

    def gather(self, vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The concatenated neighbor lists of ``vertices`` and, for each entry, the position
        in ``vertices`` whose list it belongs to (one vectorised pass, no Python loop)."""
        starts = self.indptr[vertices]
        lengths = self.indptr[vertices + 1] - starts
        owner = np.repeat(np.arange(len(vertices)), lengths)
        offsets = np.cumsum(lengths) - lengths
        positions = np.arange(int(lengths.sum())) - np.repeat(offsets - starts, lengths)
        return self.indices[positions], owner


def adjacency(num_vertices: int, edges) -> Adjacency:
    """The :class:`Adjacency` of a graph given by its ``(m, 2)`` 0-based edges (each once)."""
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    both = np.concatenate([edges, edges[:, ::-1]])
    order = np.lexsort((both[:, 1], both[:, 0]))
    indices = both[order, 1]
    counts = np.bincount(both[:, 0], minlength=num_vertices)
    indptr = np.zeros(num_vertices + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    return Adjacency(num_vertices, indptr, indices)
