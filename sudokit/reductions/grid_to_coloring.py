"""sudoku2coloring and latin2coloring: a grid puzzle as precoloring extension on its graph.

Every cell becomes a vertex, two cells sharing a unit (row, column or box) are joined by an
edge, the givens become precolors and the n values the n colors. For a Sudoku this is the
Sudoku graph (810 edges for 9x9: every cell has 20 peers); for a Latin square, the rook's
graph. A proper coloring extending the precolors is exactly a completion, so the reduction is
parsimonious (Takano et al., section 2.1: both are the same hypergraph coloring problem).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> reduced = grid_to_coloring(sudoku(np.zeros((9, 9), dtype=int)))
>>> reduced.target.num_vertices, len(reduced.target.edges), reduced.target.num_colors
(81, 810, 9)
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError
from ..instances import precoloring
from .base import Reduced

__all__ = ["grid_to_coloring", "unit_graph_edges"]


def unit_graph_edges(units: np.ndarray) -> np.ndarray:
    """All pairs of cells that share a unit, each once, as ``(m, 2)`` with ``u < v``."""
    first, second = np.triu_indices(units.shape[1], k=1)
    pairs = np.stack([units[:, first].reshape(-1), units[:, second].reshape(-1)], axis=1)
    return np.unique(np.sort(pairs, axis=1), axis=0)


def grid_to_coloring(puzzle, kind: str | None = None) -> Reduced:
    """Reduce a Sudoku or Latin square (``kind`` checks which) to precoloring extension."""
    if puzzle.kind not in ("sudoku", "latin") or (kind and puzzle.kind != kind):
        raise InstanceError(f"{kind or 'a grid'}2coloring needs a {kind or 'grid'} puzzle, "
                            f"got a {puzzle.kind} instance")
    n = puzzle.n
    graph = precoloring(n * n, unit_graph_edges(puzzle.units()), n, puzzle.flat_givens)
    name = f"{puzzle.kind}2coloring"

    def explain():
        graph_name = "Sudoku graph" if puzzle.kind == "sudoku" else "rook's graph"
        return (f"{name}: the {n}x{n} grid becomes the {graph_name} with {n * n} vertices "
                f"(vertex (r-1)*{n}+c is cell (r, c)) and {len(graph.edges)} edges (cells "
                f"sharing a row, column{' or box' if puzzle.kind == 'sudoku' else ''}); "
                f"the {puzzle.num_givens} givens become precolors and the {n} values the "
                f"{n} colors.")

    return Reduced(name, puzzle, graph, True,
                   decode=lambda colors: np.asarray(colors, dtype=np.int32).reshape(n, n),
                   encode=lambda grid: np.asarray(grid, dtype=np.int32).reshape(-1),
                   explain=explain)
