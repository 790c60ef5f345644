"""Breaking the color symmetry of a precoloring instance: fix a clique, order the rest.

The colors no precolor uses (the *free* colors ``f_1 < f_2 < ...``) are interchangeable:
permuting them maps proper extensions to proper extensions. A plain direct encoding explores
every permutation, so refuting ``k`` colors on a graph with a ``k + 1`` clique means refuting
the pigeonhole principle inside the clique, which CDCL cannot do quickly (``mulsol.i.1`` with
48 colors: no answer in minutes). Fixing the clique's colors removes exactly that.

The free vertices are put in one order ``v_1, v_2, ...``: first the free vertices
``c_1, ..., c_m`` of a large clique among the free vertices
(:func:`~sudokit.graphs.large_clique`), then the other free vertices; each part by decreasing
degree. Two families of clauses (unit clauses ``-x(v, f)``):

- **first use**: ``v_p`` takes none of ``f_{p+1}, f_{p+2}, ...``;
- **clique**: for ``p <= min(m, F)`` (``F`` free colors), ``c_p`` takes none of
  ``f_1, ..., f_{p-1}`` either, so a clique vertex that takes a free color takes ``f_p``.
  Without precolors every color is free and ``c_p`` simply gets color ``p``.

**Why satisfiability is kept.** Let ``s`` be a proper extension and ``S`` the positions
``p <= min(m, F)`` where ``s(c_p)`` is free. Relabel the free colors by a bijection ``r`` of
them: ``r(s(c_p)) = f_p`` for ``p`` in ``S`` (one to one, since clique vertices have distinct
colors), and the other free colors, in the order they first appear along ``v_1, v_2, ...``,
onto the free colors not of the form ``f_p`` (``p`` in ``S``), smallest first. ``r o s`` is a
proper extension (precolors use no free color, and renaming colors one to one keeps every edge
proper) and meets every clause:

- clique: ``c_p`` with ``p`` in ``S`` has ``f_p``; any other ``c_p`` with ``p <= min(m, F)``
  has a color that is not free;
- first use: if ``v_p`` has a free color ``f_j``, either it shares it with some ``c_q``
  (``q`` in ``S``), and ``j = q <= p`` because ``c_q`` comes first or is ``v_p``; or it is the
  ``t``-th new color along the order, ``j`` is the ``t``-th smallest index outside ``S``, and
  ``j > p`` would put at least ``p - t + 1`` indices of ``S`` in ``1..p``, so that positions
  ``1..p`` would show ``(p - t + 1) + t > p`` distinct colors, which ``p`` vertices cannot.

So the formula is satisfiable exactly when the instance is, but one solution stands for many:
models are not counted one to one (``count`` never uses this).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import precoloring
>>> k4_and_tail = precoloring(6, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (3, 4),
...                               (4, 5)], 4)
>>> symmetry = color_symmetry(k4_and_tail)
>>> symmetry.order.tolist(), symmetry.fixed.tolist()
([3, 0, 1, 2, 4, 5], [[3, 1], [0, 2], [1, 3], [2, 4]])
>>> symmetry.describe()
'a clique of 4 free vertices takes the free colors in order (vertex:color 4:1 1:2 2:3 3:4)'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InstanceError
from ..graphs import is_clique, large_clique

__all__ = ["ColorSymmetry", "color_symmetry", "CLIQUE_STARTS"]

#: start vertices the encoder's clique search tries (highest degree first): enough for the
#: DIMACS register-allocation graphs' cliques, a few milliseconds even on dense graphs
CLIQUE_STARTS = 16


@dataclass(frozen=True, eq=False)
class ColorSymmetry:
    """The symmetry breaking of one precoloring instance (see the module notes).

    Attributes
    ----------
    order : numpy.ndarray
        The free vertices in order (0-based): the clique's first.
    free_colors : numpy.ndarray
        ``f_1 < f_2 < ...``, the colors no precolor uses (1-based).
    clique_size : int
        ``m``: how many of ``order`` are the clique's free vertices.
    """

    order: np.ndarray
    free_colors: np.ndarray
    clique_size: int

    @property
    def fixed(self) -> np.ndarray:
        """``(min(m, F), 2)`` rows ``(vertex, color)``: clique vertex ``c_p`` and the free color
        ``f_p`` it takes if it takes a free color."""
        count = min(self.clique_size, len(self.free_colors))
        return np.stack([self.order[:count], self.free_colors[:count]], axis=1)

    def excluded(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """``{group: (vertices, colors)}``: the vertex-color pairs each family rules out."""
        position = np.arange(len(self.order))[:, None]
        index = np.arange(len(self.free_colors))[None, :]
        later = index > position
        earlier = (index < position) & (position < min(self.clique_size,
                                                       len(self.free_colors)))
        groups = {}
        for group, mask in (("clique colors", earlier), ("symmetry breaking", later)):
            i, j = np.nonzero(mask)
            groups[group] = (self.order[i], self.free_colors[j])
        return groups

    def describe(self) -> str:
        """One line saying what was fixed (for CNF headers, ``--explain`` and ``--stats``)."""
        fixed = self.fixed
        if len(fixed) < 2:
            return "no clique of 2 or more free vertices to fix"
        pairs = " ".join(f"{v + 1}:{c}" for v, c in fixed.tolist())
        if len(fixed) == self.clique_size:
            return (f"a clique of {len(fixed)} free vertices takes the free colors in order "
                    f"(vertex:color {pairs})")
        return (f"a clique of {self.clique_size} free vertices, more than the "
                f"{len(fixed)} free colors: its first {len(fixed)} take them in order "
                f"(vertex:color {pairs})")


def color_symmetry(problem, clique=None) -> ColorSymmetry:
    """The :class:`ColorSymmetry` of a precoloring instance.

    Parameters
    ----------
    problem : Precoloring
    clique : array_like, optional
        0-based vertices of a clique to fix (its precolored vertices are left out); by
        default a large clique among the free vertices is searched from the
        :data:`CLIQUE_STARTS` vertices of highest degree.

    Raises
    ------
    InstanceError
        ``clique`` names vertices that are not all adjacent, or not in the graph.
    """
    free = problem.precolors == 0
    if clique is None:
        members = large_clique(problem.num_vertices, problem.edges, among=free,
                               starts=CLIQUE_STARTS)
    else:
        members = np.unique(np.asarray(clique, dtype=np.int64).reshape(-1))
        if members.size and (members.min() < 0 or members.max() >= problem.num_vertices):
            raise InstanceError(f"clique vertices must be in 1..{problem.num_vertices}")
        if not is_clique(problem.edges, members):
            raise InstanceError("the vertices given as a clique are not all adjacent")
        members = members[free[members]]
    degree = np.bincount(problem.edges.reshape(-1), minlength=problem.num_vertices)
    in_clique = np.zeros(problem.num_vertices, dtype=bool)
    in_clique[members] = True
    vertices = np.flatnonzero(free)
    # clique first, then by decreasing degree, then by index
    order = vertices[np.lexsort((vertices, -degree[vertices], ~in_clique[vertices]))]
    used = np.unique(problem.precolors[problem.precolors > 0])
    free_colors = np.setdiff1d(np.arange(1, problem.num_colors + 1), used)
    return ColorSymmetry(order, free_colors, int(members.size))
