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

from dataclasses import dataclass

import numpy as np

from ..errors import InstanceError
from ..instances import GridPuzzle, Precoloring, precoloring
from ..instances.units import unit_graph_edges
from ..problems import problem_kind
from ..protocols import Composable

__all__ = ["GridToColoring", "grid_to_coloring", "latin_to_coloring", "sudoku_to_coloring"]


@dataclass(frozen=True, eq=False)
class GridToColoring(Composable):
    """``sudoku2coloring`` or ``latin2coloring`` applied to one puzzle; parsimonious."""

    source: GridPuzzle
    target: Precoloring

    parsimonious = True

    @property
    def name(self) -> str:
        return f"{self.source.kind}2coloring"

    def decode(self, colors) -> np.ndarray:
        n = self.source.n
        return np.asarray(colors, dtype=np.int32).reshape(n, n)

    def encode(self, grid) -> np.ndarray:
        return np.asarray(grid, dtype=np.int32).reshape(-1)

    def explain(self) -> str:
        puzzle, n = self.source, self.source.n
        kind = problem_kind(puzzle)
        boxes = " or box" if "box" in kind.options else ""
        return (f"{self.name}: the {n}x{n} grid becomes the {kind.unit_graph} with {n * n} "
                f"vertices (vertex (r-1)*{n}+c is cell (r, c)) and {len(self.target.edges)} "
                f"edges (cells sharing a row, column{boxes}); "
                f"the {puzzle.num_givens} givens become precolors and the {n} values the "
                f"{n} colors.")


def grid_to_coloring(puzzle, kind: str | None = None) -> GridToColoring:
    """Reduce a Sudoku or Latin square (``kind`` checks which) to precoloring extension."""
    if problem_kind(puzzle).family != "grid" or (kind and puzzle.kind != kind):
        raise InstanceError(f"{kind or 'a grid'}2coloring needs a {kind or 'grid'} puzzle, "
                            f"got a {puzzle.kind} instance")
    n = puzzle.n
    graph = precoloring(n * n, unit_graph_edges(puzzle.units()), n, puzzle.flat_givens)
    return GridToColoring(puzzle, graph)


def sudoku_to_coloring(puzzle) -> GridToColoring:
    """``sudoku2coloring``: a Sudoku on its Sudoku graph."""
    return grid_to_coloring(puzzle, "sudoku")


def latin_to_coloring(puzzle) -> GridToColoring:
    """``latin2coloring``: a Latin square on its rook's graph."""
    return grid_to_coloring(puzzle, "latin")
