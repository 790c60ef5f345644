"""Pictures of graphs with their coloring: precoloring instances and their solutions.

Vertices are circles filled with their color (the palette below; white when uncolored),
precolored vertices get a thick black ring (class ``precolored``), every colored vertex
shows its color number (text classes ``precolor`` and ``color``) and, where the circles are
big enough to read, every vertex its id (1-based as in files and messages, above right of the
circle, class ``vertex-id``). Layouts:

- ``spring``: networkx's spring layout (Fruchterman-Reingold) with a fixed ``seed``, so the
  same graph and seed give the same picture (needs networkx: ``pip install "sudokit[draw]"``);
- ``circle``: the vertices on a circle in vertex order, from the top, clockwise;
- ``grid``: vertex ``i`` at row ``i // m``, column ``i % m`` of an ``m x m`` grid, the layout
  of a Sudoku or rook's graph (``sudoku2coloring``), for ``m*m`` vertices.

Examples
--------
>>> from sudokit.instances import precoloring
>>> canvas = graph_picture(precoloring(4, [(0, 1), (1, 2), (2, 3)], 2, {0: 1}),
...                        layout="circle")
>>> [s.cls for s in canvas.shapes if hasattr(s, "r")]
['precolored', 'vertex', 'vertex', 'vertex']
>>> palette(3)
['#4e79a7', '#f28e2b', '#e15759']
"""

from __future__ import annotations

import colorsys
import math

import numpy as np

from ..errors import InstanceError, MissingExtraError
from ..interop import optional_module
from .svg import Canvas

__all__ = ["graph_picture", "layout_positions", "palette", "LAYOUTS"]

LAYOUTS = ("spring", "circle", "grid")

#: Tableau 10: distinguishable colors for the first ten colors
_TABLEAU = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
            "#ff9da7", "#9c755f", "#bab0ac"]


def palette(k: int) -> list[str]:
    """``k`` fill colors: Tableau 10, then hues spaced by the golden angle."""
    colors = _TABLEAU[:k]
    for i in range(len(colors), k):
        r, g, b = colorsys.hls_to_rgb((i * 0.618033988749895) % 1.0, 0.6, 0.55)
        colors.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return colors


def layout_positions(problem, layout: str = "spring", seed: int = 0) -> np.ndarray:
    """``(num_vertices, 2)`` positions in ``[0, 1]``, y down, the longer side of the drawing
    spanning the whole interval and the shorter one centred (see the module for layouts).

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> layout_positions(precoloring(4, [], 2), "grid").tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    """
    count = problem.num_vertices
    if layout == "grid":
        side = math.isqrt(count)
        if side * side != count:
            raise InstanceError(f"the grid layout needs a square number of vertices, the graph "
                                f"has {count}; use --layout spring or circle")
        rows, cols = np.divmod(np.arange(count), side)
        points = np.stack([cols, rows], axis=1).astype(float)
    elif layout == "circle":
        angle = 2 * np.pi * np.arange(count) / max(count, 1)
        points = np.stack([np.sin(angle), -np.cos(angle)], axis=1)
    elif layout == "spring":
        nx = optional_module("networkx", "draw")
        graph = nx.Graph()
        graph.add_nodes_from(range(count))
        graph.add_edges_from(map(tuple, problem.edges.tolist()))
        try:   # from 500 vertices on, networkx's spring layout needs scipy
            where = nx.spring_layout(graph, seed=seed)
        except ImportError as err:
            raise MissingExtraError(f"the spring layout of a graph of {count} vertices needs "
                                    f"scipy with networkx {nx.__version__} ({err}): pip "
                                    "install scipy, or use --layout circle") from None
        points = np.array([where[v] for v in range(count)], dtype=float).reshape(-1, 2)
        points[:, 1] = -points[:, 1]   # networkx has y up
    else:
        raise InstanceError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    if count == 0:
        return points.reshape(0, 2)
    low, high = points.min(axis=0), points.max(axis=0)
    extent = float((high - low).max()) or 1.0
    centred = (points - low) / extent + (1 - (high - low) / extent) / 2   # the short side
    return np.round(centred, 6)


def graph_picture(problem, coloring=None, layout: str = "spring", seed: int = 0,
                  size: float = 600, caption: str | None = None,
                  vertex_ids: bool = True) -> Canvas:
    """A precoloring instance (and a ``coloring``, colors in vertex order) as a canvas of
    ``size x size`` pixels (plus a caption line); ``vertex_ids`` labels each vertex with its
    1-based id when the circles are big enough to read (radius 7 pixels or more).

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> path = precoloring(3, [(0, 1), (1, 2)], 2, {0: 1})
    >>> [s.text for s in graph_picture(path, layout="circle").shapes
    ...  if getattr(s, "cls", "") == "vertex-id"]
    ['1', '2', '3']
    """
    count = problem.num_vertices
    radius = min(16.0, max(3.0, 0.35 * size / math.sqrt(max(count, 1))))
    labels = radius >= 7
    pad = radius * (2.2 if vertex_ids and labels else 1) + 4   # room for the ids, above right
    top = pad + (size * 0.05 if caption else 0)
    canvas = Canvas(size, size + (top - pad))
    canvas.rect(0, 0, canvas.width, canvas.height, fill="#fff", cls="background")
    if caption:
        canvas.text(size / 2, top - pad, caption, size * 0.03, cls="caption")
    where = layout_positions(problem, layout, seed) * (size - 2 * pad) + [pad, top]
    thin = 1.0 if count <= 100 else 0.5
    for u, v in problem.edges.tolist():
        canvas.line(where[u, 0], where[u, 1], where[v, 0], where[v, 1], stroke="#888",
                    width=thin, cls="edge")
    precolors = problem.precolors
    colors = precolors if coloring is None else np.asarray(coloring).reshape(-1)
    fills = palette(problem.num_colors)
    for v in range(count):
        color, fixed = int(colors[v]), int(precolors[v]) > 0
        x, y = where[v]
        canvas.circle(x, y, radius, fill=fills[color - 1] if color else "#fff",
                      stroke="#000" if fixed else "#444", width=3.0 if fixed else 1.0,
                      cls="precolored" if fixed else "vertex", title=f"vertex {v + 1}")
        if vertex_ids and labels:
            canvas.text(x + radius * 0.8, y - radius * 0.8, str(v + 1), radius * 0.75,
                        fill="#333", cls="vertex-id", anchor="start")
        if color and labels:
            size_text = radius * (1.0 if color < 10 else 0.8 if color < 100 else 0.6)
            canvas.text(x, y + size_text * 0.36, str(color), size_text,
                        weight="bold" if fixed else "normal",
                        cls="precolor" if fixed else "color")
    return canvas
