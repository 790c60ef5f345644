"""Precoloring-extension instances with a planted coloring: solvable by construction.

Every vertex gets a random color ``1..k`` (the planted coloring); each pair of vertices with
*different* planted colors becomes an edge with probability ``p`` (the random graph G(n, p)
with its monochromatic edges removed, the usual planted k-coloring model, e.g. Achlioptas and
Friedgut / Krivelevich). A random share of the vertices keeps its planted color as a
precolor, so the planted coloring extends the precoloring.

Examples
--------
>>> import numpy as np
>>> graph, planted = planted_precoloring(20, 3, 0.3, 0.25, np.random.default_rng(0))
>>> graph.num_givens, graph.is_solution(planted)
(5, True)
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError
from ..instances import Precoloring, precoloring
from .sizes import check_request, coloring_bytes

__all__ = ["planted_precoloring"]


def planted_precoloring(vertices: int, colors: int, density: float, precolored: float,
                        rng: np.random.Generator, max_memory: int | None = None
                        ) -> tuple[Precoloring, np.ndarray]:
    """A random graph with a planted ``colors``-coloring and a share of precolored vertices.

    Parameters
    ----------
    vertices : int
    colors : int
    density : float
        Edge probability ``p`` in [0, 1] between differently colored vertices.
    precolored : float
        Share of the vertices in [0, 1] that are precolored (rounded to a count).
    rng : numpy.random.Generator
    max_memory : int, optional
        Refuse a graph that would need more bytes (default: the available memory, see
        :mod:`~sudokit.generators.sizes`): :class:`~sudokit.errors.ResourceError`, before
        anything is built.

    Returns
    -------
    graph : Precoloring
    planted : ndarray
        The planted coloring (a solution of ``graph``).
    """
    if vertices < 1 or colors < 1:
        raise InstanceError("need at least one vertex and one color")
    if not 0 <= density <= 1 or not 0 <= precolored <= 1:
        raise InstanceError("density and the precolored share must lie in [0, 1]")
    check_request(f"a graph of {vertices:,} vertices with density {density:g}",
                  coloring_bytes(vertices, colors, density, precolored), max_memory)
    planted = rng.integers(1, colors + 1, size=vertices).astype(np.int32)
    chunks = []
    for u in range(vertices - 1):   # row by row: O(n^2) random numbers, O(n) memory
        v = np.flatnonzero(rng.random(vertices - u - 1) < density) + u + 1
        v = v[planted[v] != planted[u]]
        if v.size:
            chunks.append(np.stack([np.full(v.size, u), v], axis=1))
    edges = np.concatenate(chunks) if chunks else np.zeros((0, 2), dtype=np.int64)
    fixed = np.zeros(vertices, dtype=np.int32)
    chosen = rng.choice(vertices, int(round(precolored * vertices)), replace=False)
    fixed[chosen] = planted[chosen]
    return precoloring(vertices, edges, colors, fixed), planted
