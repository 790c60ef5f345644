"""Graph algorithms behind the chromatic number: adjacency arrays, a large clique, a greedy
(DSatur) coloring and the low-degree peeling that both the bounds and the SAT calls use.

Every function takes a graph as ``(num_vertices, edges)``: ``edges`` an ``(m, 2)`` array of
0-based endpoints, each edge once (as :class:`~sudokit.instances.Precoloring` holds them).

Examples
--------
>>> import numpy as np
>>> wheel = np.array([(0, i) for i in range(1, 6)] + [(i, i % 5 + 1) for i in range(1, 6)])
>>> len(large_clique(6, wheel)), int(dsatur(6, wheel).max())
(3, 4)
"""

from .adjacency import Adjacency, adjacency
from .cliques import is_clique, large_clique
from .cores import extend_greedily, peel
from .dsatur import dsatur, is_proper_coloring

__all__ = ["Adjacency", "adjacency", "dsatur", "extend_greedily", "is_clique",
           "is_proper_coloring", "large_clique", "peel"]
