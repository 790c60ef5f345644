"""Problems as networkx graphs, and precoloring extension from any networkx graph.

Every problem of the shared model (Takano et al., section 2.1) is a graph: cells are vertices
and two cells sharing a unit are adjacent. A Sudoku becomes the *Sudoku graph*, a Latin
square the *rook's graph*, a precoloring instance its own graph. Vertices keep the library's
0-based numbering in node order (node ``i`` of ``list(G)`` is cell or vertex ``i``), so
``from_networkx(grid_to_networkx(p), p.n, attribute="given")`` is
``grid_to_coloring(p).target`` (``sudoku2coloring``).

Node attributes: grids ``row``, ``col`` (0-based), ``box`` (0-based, Sudoku only; a jigsaw
has ``region`` instead), ``given``
(0 for an empty cell) and, with a solution, ``value``; graphs ``precolor`` (0 for a free
vertex) and, with a coloring, ``color``. Graph attributes: ``kind``, ``n``/``num_colors``,
``box``, ``variants``.

networkx is optional: ``pip install "sudokit[interop]"``.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> g = grid_to_networkx(sudoku(np.zeros((9, 9), dtype=int)))
>>> g.number_of_nodes(), g.number_of_edges(), g.degree[(0, 0)]
(81, 810, 20)
>>> back = from_networkx(g, 9, attribute="given")
>>> back.num_vertices, len(back.edges)
(81, 810)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import InstanceError, described
from ..instances import GridPuzzle, Precoloring, precoloring
from ..instances.units import unit_graph_edges
from ..problems import problem_kind, user_instance
from . import optional_module

__all__ = ["to_networkx", "from_networkx", "grid_to_networkx", "precoloring_to_networkx"]


def _nx() -> Any:
    return optional_module("networkx", "interop")


def grid_to_networkx(puzzle: GridPuzzle, solution=None):
    """The Sudoku graph of a Sudoku, the rook's graph of a Latin square.

    Parameters
    ----------
    puzzle : GridPuzzle
    solution : array_like, optional
        ``(n, n)`` values, stored as the ``value`` attribute of each node.

    Returns
    -------
    networkx.Graph
        Nodes ``(row, col)`` (0-based) in row-major order, with attributes ``row``, ``col``,
        ``given`` and, for a Sudoku, ``box`` (a jigsaw: ``region``); an edge between every
        two cells sharing a unit, the variants' units included (graph attribute
        ``variants``).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> g = grid_to_networkx(latin_square(np.array([[1, 0], [0, 0]])), [[1, 2], [2, 1]])
    >>> sorted(g.edges()), g.nodes[(0, 0)]
    ([((0, 0), (0, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((1, 0), (1, 1))], \
{'row': 0, 'col': 0, 'given': 1, 'value': 1})
    >>> g.graph["name"]
    "rook's graph of a 2x2 Latin square"
    """
    nx = _nx()
    n = puzzle.n
    kind = problem_kind(puzzle)
    shape = " ".join([*puzzle.variants, f"{n}x{n}", kind.noun])
    graph = nx.Graph(kind=puzzle.kind, n=n, box=puzzle.box, variants=puzzle.variants,
                     name=f"{kind.unit_graph} of a {shape}")
    rows, cols = np.divmod(np.arange(n * n), n)
    labels = list(zip(rows.tolist(), cols.tolist(), strict=True))
    attributes: dict[str, list] = {"row": rows.tolist(), "col": cols.tolist()}
    if puzzle.box is not None:
        r, c = puzzle.box
        attributes["box"] = ((rows // r) * (n // c) + cols // c).tolist()
    if puzzle.regions is not None:
        attributes["region"] = puzzle.regions.reshape(-1).tolist()
    attributes["given"] = puzzle.flat_givens.tolist()
    if solution is not None:
        values = np.asarray(solution).reshape(-1)
        if values.size != n * n:
            raise InstanceError(f"a solution of a {n}x{n} grid has {n * n} values, "
                                f"got {values.size}")
        attributes["value"] = values.tolist()
    names = list(attributes)
    graph.add_nodes_from((label, dict(zip(names, row, strict=True)))
                         for label, row in zip(labels, zip(*attributes.values(), strict=True),
                                               strict=True))
    graph.add_edges_from((labels[u], labels[v])
                         for u, v in unit_graph_edges(puzzle.units()).tolist())
    return graph


def precoloring_to_networkx(problem: Precoloring, coloring=None):
    """The graph of a precoloring instance: nodes ``0..V-1`` with attribute ``precolor``
    (0 free) and, given ``coloring``, ``color``.

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> g = precoloring_to_networkx(precoloring(3, [(0, 1), (1, 2)], 2, {0: 1}), [1, 2, 1])
    >>> list(g.nodes(data=True))
    [(0, {'precolor': 1, 'color': 1}), (1, {'precolor': 0, 'color': 2}), \
(2, {'precolor': 0, 'color': 1})]
    >>> g.graph["num_colors"]
    2
    """
    nx = _nx()
    graph = nx.Graph(kind=problem.kind, num_colors=problem.num_colors)
    precolors = problem.precolors.tolist()
    if coloring is None:
        graph.add_nodes_from((v, {"precolor": c}) for v, c in enumerate(precolors))
    else:
        colors = np.asarray(coloring).reshape(-1)
        if colors.size != problem.num_vertices:
            raise InstanceError(f"a coloring of {problem.num_vertices} vertices has "
                                f"{problem.num_vertices} entries, got {colors.size}")
        graph.add_nodes_from((v, {"precolor": c, "color": x})
                             for v, (c, x) in enumerate(zip(precolors, colors.tolist(),
                                                            strict=True)))
    graph.add_edges_from(map(tuple, problem.edges.tolist()))
    return graph


def to_networkx(problem: Any, solution=None):
    """Any grid or graph problem as a ``networkx.Graph``, with ``solution`` (a grid's values,
    a graph's colors) as node attributes: :func:`grid_to_networkx` or
    :func:`precoloring_to_networkx`, by the problem's kind.

    Raises
    ------
    InstanceError
        A problem that is no grid and no graph (CNF, exact cover).

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> g = to_networkx(precoloring(3, [(0, 1), (1, 2)], 2, {0: 1}), [1, 2, 1])
    >>> g.number_of_edges(), g.nodes[1]
    (2, {'precolor': 0, 'color': 2})
    """
    problem = user_instance(problem, ("grid", "graph"), "to_networkx")
    if isinstance(problem, GridPuzzle):
        return grid_to_networkx(problem, solution)
    if isinstance(problem, Precoloring):
        return precoloring_to_networkx(problem, solution)
    raise InstanceError(f"no graph for a {getattr(problem, 'kind', type(problem).__name__)} "
                        "instance; grids and graphs have one")


def from_networkx(graph, num_colors: int,
                              precolored: Mapping[Any, int] | None = None,
                              attribute: str | None = "precolor") -> Precoloring:
    """Precoloring extension on a networkx graph with ``num_colors`` colors.

    Parameters
    ----------
    graph : networkx.Graph
        Any graph (directed edges count as undirected, parallel edges once). Vertex ``i`` of
        the result is node ``list(graph)[i]``.
    num_colors : int
    precolored : mapping, optional
        ``{node: color}`` with colors ``1..num_colors``, nodes as ``graph`` names them.
    attribute : str or None
        Without ``precolored``, the node attribute that holds a precolor (missing or 0:
        free); None reads none.

    Raises
    ------
    InstanceError
        A node of ``precolored`` not in the graph, a self-loop, a color outside
        ``1..num_colors`` or two adjacent vertices precolored alike.

    Examples
    --------
    >>> import networkx as nx
    >>> p = from_networkx(nx.cycle_graph("abcde"), 3, precolored={"a": 1, "c": 2})
    >>> p.num_vertices, p.edges.tolist(), p.precolors.tolist()
    (5, [[0, 1], [0, 4], [1, 2], [2, 3], [3, 4]], [1, 0, 2, 0, 0])
    """
    if not hasattr(graph, "nodes") or not hasattr(graph, "edges"):
        raise InstanceError(f"from_networkx takes a networkx graph, not {described(graph)}")
    if isinstance(num_colors, bool) or not isinstance(num_colors, (int, np.integer)):
        raise InstanceError(f"the number of colors is an integer, not {described(num_colors)}")
    nodes = list(graph)
    index = {node: i for i, node in enumerate(nodes)}
    edges = np.array([(index[u], index[v]) for u, v, *_ in graph.edges], dtype=np.int64)
    colors = np.zeros(len(nodes), dtype=np.int64)
    if precolored is not None:
        for node, color in precolored.items():
            if node not in index:
                raise InstanceError(f"precolored node {node!r} is not in the graph")
            colors[index[node]] = _color(color, node)
    elif attribute is not None:
        for i, (node, data) in enumerate(graph.nodes(data=attribute, default=0)):
            colors[i] = _color(data, node)
    return precoloring(len(nodes), edges.reshape(-1, 2), int(num_colors), colors)


def _color(value: Any, node: Any) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InstanceError(f"the precolor of node {node!r} is {value!r}, not an integer")
    return int(value)
