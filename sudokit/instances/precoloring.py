"""Precoloring extension: color a graph with ``k`` colors, extending some fixed colors.

In the hypergraph model shared with the grids (Takano et al., section 2.1) every vertex is a
cell, the colors ``1..k`` are the values and every edge is an all-different unit of two cells.
Vertices are 0-based inside the library and 1-based in files and messages.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..displayed import SVGDisplay
from ..errors import InstanceError, described
from .solution import Solution

__all__ = ["Precoloring", "precoloring"]


@dataclass(frozen=True, eq=False)
class Precoloring(SVGDisplay):
    """A graph, a number of colors and a (possibly empty) precoloring.

    In Jupyter the graph draws itself (``_repr_svg_``, :mod:`sudokit.draw.display`): vertex
    ids, precolored vertices ringed and filled with their color.

    Parameters
    ----------
    num_vertices : int
    edges : numpy.ndarray
        ``(m, 2)`` 0-based endpoints, ``u < v``, each edge once (see :func:`precoloring`,
        which normalises any edge list).
    num_colors : int
    precolors : numpy.ndarray
        ``(num_vertices,)``, 0 for a free vertex, else the fixed color ``1..num_colors``.

    Examples
    --------
    >>> triangle = precoloring(3, [(0, 1), (1, 2), (2, 0)], 3, {0: 2})
    >>> triangle.units().tolist()
    [[0, 1], [0, 2], [1, 2]]
    >>> triangle.is_solution([2, 1, 3])
    True
    """

    num_vertices: int
    edges: np.ndarray
    num_colors: int
    precolors: np.ndarray

    def __post_init__(self):
        self.validate()

    kind = "coloring"
    _svg = "graph_svg"

    @property
    def num_cells(self) -> int:
        return self.num_vertices

    @property
    def num_values(self) -> int:
        return self.num_colors

    @property
    def flat_givens(self) -> np.ndarray:
        return self.precolors

    @property
    def num_givens(self) -> int:
        return int(np.count_nonzero(self.precolors))

    def units(self) -> np.ndarray:
        """The edges, each an all-different unit of two vertices, shape ``(m, 2)``."""
        return self.edges

    def unit_groups(self) -> list[tuple[str, np.ndarray]]:
        """Units by kind: ``[("edge", edges)]``."""
        return [("edge", self.edges)]

    @property
    def solution_shape(self) -> tuple[int]:
        return (self.num_vertices,)

    def unit_name(self, index: int) -> str:
        u, v = self.edges[index]
        return f"edge {u + 1}-{v + 1}"

    def cell_name(self, cell: int) -> str:
        return f"vertex {int(cell) + 1}"

    def validate(self) -> None:
        """Raise :class:`InstanceError` on a bad vertex, color or clashing precolors."""
        if self.num_colors < 1:
            raise InstanceError(f"the number of colors must be at least 1, got {self.num_colors}")
        if self.precolors.shape != (self.num_vertices,):
            raise InstanceError("precolors must give one entry per vertex")
        bad = np.flatnonzero((self.precolors < 0) | (self.precolors > self.num_colors))
        if bad.size:
            v = bad[0]
            raise InstanceError(f"precolor {self.precolors[v]} of vertex {v + 1} is outside "
                                f"1..{self.num_colors}")
        same = self.precolors[self.edges[:, 0]] == self.precolors[self.edges[:, 1]]
        clash = np.flatnonzero(same & (self.precolors[self.edges[:, 0]] > 0))
        if clash.size:
            u, v = self.edges[clash[0]]
            raise InstanceError(f"adjacent vertices {u + 1} and {v + 1} are both precolored "
                                f"{self.precolors[u]}")

    def violations(self, coloring) -> list[str]:
        """Why ``coloring`` (colors in vertex order) is not a proper extension."""
        colors = np.asarray(coloring)
        if colors.shape != (self.num_vertices,):
            return [f"coloring has {colors.size} entries, graph has {self.num_vertices} vertices"]
        problems = []
        for v in np.flatnonzero((colors < 1) | (colors > self.num_colors))[:1]:
            problems.append(f"vertex {v + 1} has color {colors[v]}, not in 1..{self.num_colors}")
        given = self.precolors
        for v in np.flatnonzero((given > 0) & (colors != given))[:1]:
            problems.append(f"precolor {given[v]} of vertex {v + 1} was changed to {colors[v]}")
        same = np.flatnonzero(colors[self.edges[:, 0]] == colors[self.edges[:, 1]])
        for e in same[:1]:
            u, v = self.edges[e]
            problems.append(f"adjacent vertices {u + 1} and {v + 1} both have color {colors[u]}")
        return problems

    def is_solution(self, coloring) -> bool:
        """True if ``coloring`` is proper, uses colors ``1..k`` and keeps the precolors."""
        return not self.violations(coloring)

    def with_solution(self, coloring) -> Solution:
        """``coloring`` (colors in vertex order, e.g. what :func:`sudokit.solve` returns, or
        None) with this graph: drawn with every vertex filled by its color.

        Examples
        --------
        >>> path = precoloring(3, [(0, 1), (1, 2)], 2, {0: 1})
        >>> str(path.with_solution([1, 2, 1]))
        '1 2 1'
        """
        return Solution(self, coloring)

    def with_givens(self, precolors) -> Precoloring:
        return Precoloring(self.num_vertices, self.edges, self.num_colors,
                           np.asarray(precolors, dtype=np.int32))

    def __eq__(self, other):
        return (isinstance(other, Precoloring) and self.num_vertices == other.num_vertices
                and self.num_colors == other.num_colors
                and np.array_equal(self.edges, other.edges)
                and np.array_equal(self.precolors, other.precolors))

    def __hash__(self):
        return hash((self.num_vertices, self.num_colors, self.edges.tobytes(),
                     self.precolors.tobytes()))


def precoloring(num_vertices: int, edges, num_colors: int, precolors=None) -> Precoloring:
    """Build a :class:`Precoloring` from any edge list (0-based), deduplicating edges.

    Parameters
    ----------
    precolors : mapping or sequence, optional
        ``{vertex: color}`` (0-based vertex) or a per-vertex array with 0 for free.

    Examples
    --------
    >>> g = precoloring(3, [(1, 0), (0, 1), (1, 2)], 2)
    >>> g.edges.tolist()
    [[0, 1], [1, 2]]
    """
    for name, value in (("number of vertices", num_vertices), ("number of colors", num_colors)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InstanceError(f"the {name} is an integer, not {described(value)}")
    try:
        edges = list(edges) if not isinstance(edges, np.ndarray) else edges
        np.asarray(edges, dtype=np.int64)
    except (TypeError, ValueError):
        raise InstanceError(f"edges are pairs of 0-based vertices, not {described(edges)}"
                            ) from None
    if num_vertices < 0:
        raise InstanceError(f"the number of vertices must be non-negative, got {num_vertices}")
    edge_array = np.asarray(list(edges) if not isinstance(edges, np.ndarray) else edges,
                            dtype=np.int64).reshape(-1, 2)
    out_of_range = np.flatnonzero(((edge_array < 0) | (edge_array >= num_vertices)).any(axis=1))
    if out_of_range.size:
        u, v = edge_array[out_of_range[0]] + 1
        raise InstanceError(f"edge {u}-{v} names a vertex outside 1..{num_vertices}")
    loops = np.flatnonzero(edge_array[:, 0] == edge_array[:, 1])
    if loops.size:
        v = edge_array[loops[0], 0] + 1
        raise InstanceError(f"edge {v}-{v} is a loop: no coloring can be proper")
    edge_array = np.unique(np.sort(edge_array, axis=1), axis=0) if edge_array.size else edge_array
    colors = np.zeros(num_vertices, dtype=np.int32)
    if isinstance(precolors, dict):
        for vertex, color in precolors.items():
            if not 0 <= vertex < num_vertices:
                raise InstanceError(f"precolored vertex {vertex + 1} is outside 1..{num_vertices}")
            colors[vertex] = color
    elif precolors is not None:
        colors = np.asarray(precolors, dtype=np.int32)
    return Precoloring(num_vertices, edge_array.astype(np.int64), num_colors, colors)
