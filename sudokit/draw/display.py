"""What Jupyter shows of sudokit's objects: the functions behind their display hooks.

Each model names one function here in its ``_svg`` or ``_html`` hook
(:mod:`sudokit.displayed`), resolved on first use, so the models never import the drawing
code:

- a grid puzzle (:class:`~sudokit.instances.GridPuzzle`: Sudoku of any box shape, jigsaw
  and other variants, Latin squares): :func:`grid_svg`, the picture of ``sudokit draw``;
- a precoloring instance (:class:`~sudokit.instances.Precoloring`): :func:`graph_svg`, its
  vertices numbered, the precolored ones ringed and filled;
- a solution with its instance (``instance.with_solution(values)``,
  :class:`~sudokit.instances.solution.Solution`): :func:`solution_svg`, givens bold and
  filled cells blue (a coloring fills every vertex); :func:`solution_text` is its ``str()``;
- pencil marks (:func:`sudokit.grading.pencil_marks`): :func:`marks_svg`;
- a CNF formula (:class:`~sudokit.cnf.CNF`, :class:`~sudokit.instances.CNFFormula`) and an
  exact cover problem (:class:`~sudokit.exact_cover.ExactCover`): :func:`cnf_html`,
  :func:`formula_html` and :func:`cover_html`, their size, groups and first clauses or
  options (a small cover as its 0/1 matrix);
- a reduction (every result of :func:`sudokit.reduce` and of the encoders, chains too):
  :func:`reduction_html`, each step's instance side by side (a Latin square next to its
  Sudoku), the reduction's name on the arrows, and its explanation.

Everything is SVG or HTML text made with the standard library. A grid larger than
:data:`MAX_SIDE` or a graph with more than :data:`MAX_VERTICES` vertices or
:data:`MAX_EDGES` edges is not drawn: the hook returns None and Jupyter shows the text
``repr`` instead (a reduction's HTML says so in words).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> puzzle = sudoku(np.array([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0], [0, 0, 0, 1]]))
>>> grid_svg(puzzle).count('class="given"')
4
>>> solved = puzzle.with_solution([[1, 2, 3, 4], [3, 4, 1, 2], [4, 1, 2, 3], [2, 3, 4, 1]])
>>> text = solution_svg(solved)
>>> text.count('class="given"'), text.count('class="filled"')
(4, 12)
"""

from __future__ import annotations

import html
import importlib.util
from typing import Any

import numpy as np

from ..formats.puzzle_write import format_puzzle
from .graph import graph_picture
from .grid import grid_picture
from .svg import Canvas

__all__ = ["grid_svg", "graph_svg", "solution_svg", "solution_text", "marks_svg", "cnf_html",
           "formula_html", "cover_html", "reduction_html", "MAX_SIDE", "MAX_VERTICES",
           "MAX_EDGES"]

#: the largest grid side drawn (64: 4,096 cells)
MAX_SIDE = 64
#: the most vertices and edges of a graph drawn
MAX_VERTICES, MAX_EDGES = 1000, 20_000
#: the widest a picture is shown (pixels); smaller pictures keep their own size
WIDTH = 480
#: the most clauses or options listed, and the largest cover shown as a 0/1 matrix
SHOWN, MATRIX = 8, 40


def _grid_fits(puzzle) -> bool:
    return bool(puzzle.n <= MAX_SIDE)


def _graph_fits(problem) -> bool:
    return bool(problem.num_vertices <= MAX_VERTICES and len(problem.edges) <= MAX_EDGES)


def _svg(canvas: Canvas, width: float = WIDTH) -> str:
    return canvas.to_svg(min(canvas.width, width))


def _layout(problem) -> str:
    """networkx's spring layout (seed 0) when networkx is there and needs no scipy, else
    the vertices on a circle."""
    spring = importlib.util.find_spec("networkx") is not None and problem.num_vertices < 500
    return "spring" if spring else "circle"


def grid_svg(puzzle, width: float = WIDTH) -> str | None:
    """The puzzle's givens in their grid (boxes, jigsaw regions and variants marked), or
    None above :data:`MAX_SIDE`.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> grid_svg(latin_square(np.zeros((3, 3), dtype=int))).count('class="cell"')
    4
    """
    return _svg(grid_picture(puzzle), width) if _grid_fits(puzzle) else None


def graph_svg(problem, layout: str | None = None, width: float = WIDTH) -> str | None:
    """The graph with its vertex ids and precolors (``layout`` as in
    :func:`~sudokit.draw.graph.graph_picture`; by default spring when networkx is installed,
    else circle), or None when it is too large to draw.

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> svg = graph_svg(precoloring(3, [(0, 1), (1, 2)], 2, {0: 1}), layout="circle")
    >>> svg.count('class="vertex-id"'), svg.count('class="precolored"')
    (3, 1)
    """
    if not _graph_fits(problem):
        return None
    return _svg(graph_picture(problem, layout=layout or _layout(problem), size=width), width)


def solution_svg(solution, width: float = WIDTH) -> str | None:
    """A solved grid (givens bold, filled cells blue) or a colored graph; the puzzle under
    "no solution" when there is none, and the first broken rule above the picture when the
    values do not solve it."""
    instance, values = solution.instance, solution.values
    caption = None
    if values is None:
        caption = "no solution"
    elif not solution.valid:
        caption = "not a solution: " + instance.violations(values)[0]
    if hasattr(instance, "n"):
        if not _grid_fits(instance):
            return None
        return _svg(grid_picture(instance, values, caption=caption), width)
    if not _graph_fits(instance):
        return None
    return _svg(graph_picture(instance, values, layout=_layout(instance), size=width,
                              caption=caption), width)


def solution_text(solution) -> str:
    """``str()`` of a solution: the grid as the text writers write it, the colors in vertex
    order on one line, or ``no solution``.

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> solution_text(precoloring(2, [(0, 1)], 2).with_solution(None))
    'no solution'
    """
    if solution.values is None:
        return "no solution"
    if hasattr(solution.instance, "n"):
        return format_puzzle(solution.values, "grid", box=solution.instance.box)
    return " ".join(map(str, np.asarray(solution.values).tolist()))


def marks_svg(marks, width: float = WIDTH) -> str | None:
    """The puzzle with its candidates after a propagation scheme: givens bold, cells the
    scheme fixed green, the others' candidates small; the scheme and its outcome above."""
    puzzle = marks.puzzle
    if not _grid_fits(puzzle):
        return None
    return _svg(grid_picture(puzzle, candidates=marks.domains,
                             caption=f"{marks.scheme}: {marks.status}"), width)


# -- HTML --------------------------------------------------------------------------------------

_TABLE = 'style="border-collapse:collapse;font-size:90%"'
_CELL = 'style="border:1px solid #ccc;padding:1px 6px;text-align:right"'


def _table(head: list[str], rows: list[list[Any]]) -> str:
    cells = "".join(f"<th {_CELL}>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td {_CELL}>{html.escape(str(v))}</td>" for v in row)
                   + "</tr>" for row in rows)
    return f"<table {_TABLE}><tr>{cells}</tr>{body}</table>"


def _first_clauses(cnf) -> str:
    shown: list[str] = []
    for chunk in cnf.clause_lists(SHOWN):
        shown += [" ".join(map(str, clause + [0])) for clause in chunk]
        if len(shown) >= SHOWN:
            break
    more = cnf.num_clauses - min(len(shown), SHOWN)
    lines = shown[:SHOWN] + ([f"... {more:,} more"] if more > 0 else [])
    return "<pre>" + html.escape("\n".join(lines)) + "</pre>"


def cnf_html(cnf, title: str = "CNF formula") -> str:
    """Size, constraint groups (variables, clauses, literals each) and the first clauses.

    Examples
    --------
    >>> from sudokit.cnf import CNF
    >>> cnf = CNF(num_vars=2)
    >>> cnf.add_clauses("input", [[1, 2], [-1, -2]])
    >>> page = cnf_html(cnf)
    >>> "2 variables, 2 clauses" in page, "-1 -2 0" in page
    (True, True)
    """
    head = (f"<b>{html.escape(title)}</b>: {cnf.num_vars:,} variables, "
            f"{cnf.num_clauses:,} clauses, {cnf.num_literals:,} literals")
    stats = cnf.stats()
    groups = _table(["group", "variables", "clauses", "literals"],
                    [[name, f"{g['variables']:,}", f"{g['clauses']:,}", f"{g['literals']:,}"]
                     for name, g in stats.items()]) if len(stats) > 1 else ""
    return f"<div>{head}{groups}{_first_clauses(cnf)}</div>"


def formula_html(formula) -> str:
    """:func:`cnf_html` of the formula, with the size of its projection."""
    projected = len(formula.projection)
    title = "CNF formula" + ("" if projected == formula.cnf.num_vars else
                             f" (projected on {projected:,} variables)")
    return cnf_html(formula.cnf, title)


def cover_html(xc) -> str:
    """Items and options; a cover of at most :data:`MATRIX` options and items as its 0/1
    matrix (a mark where an option covers an item), a larger one as its first options.

    Examples
    --------
    >>> from sudokit.exact_cover import exact_cover
    >>> page = cover_html(exact_cover([["a", "b"], ["a"], ["b"]], primary=["a", "b"]))
    >>> "2 primary items" in page, page.count("&#9679;")
    (True, 4)
    """
    head = (f"<b>exact cover</b>: {xc.num_primary:,} primary items, "
            f"{xc.num_secondary:,} secondary, {xc.num_options:,} options")
    if xc.num_options <= MATRIX and xc.num_items <= MATRIX:
        dense = xc.to_dense()
        items = [html.escape(str(name)) for name in xc.items]
        cells = "".join(f"<th {_CELL}>{name}</th>" for name in items)
        rows = "".join(
            f"<tr><th {_CELL}>{html.escape(xc.option_name(k))}</th>"
            + "".join(f"<td {_CELL}>{'&#9679;' if dense[k, i] else ''}</td>"
                      for i in range(xc.num_items)) + "</tr>"
            for k in range(xc.num_options))
        return f"<div>{head}<table {_TABLE}><tr><th></th>{cells}</tr>{rows}</table></div>"
    shown = [f"{k + 1}: " + " ".join(xc.option(k)) for k in range(min(SHOWN, xc.num_options))]
    more = xc.num_options - len(shown)
    lines = shown + ([f"... {more:,} more"] if more > 0 else [])
    return f"<div>{head}<pre>" + html.escape("\n".join(lines)) + "</pre></div>"


def _steps(reduction) -> list:
    """The one-step reductions a result is made of, in order (a chain's, flattened)."""
    if hasattr(reduction, "first") and hasattr(reduction, "second"):
        return _steps(reduction.first) + _steps(reduction.second)
    return [reduction]


def _shown(instance, before=None) -> str:
    """One step's instance as a picture or a summary; a graph made from a grid keeps the
    grid's layout."""
    if hasattr(instance, "n"):
        svg = grid_svg(instance, width=320)
        return svg or f"<p>a {instance.n}x{instance.n} grid: too large to draw here</p>"
    if hasattr(instance, "edges"):
        layout = "grid" if before is not None and hasattr(before, "n") else None
        svg = graph_svg(instance, layout=layout, width=320)
        return svg or (f"<p>a graph of {instance.num_vertices:,} vertices and "
                       f"{len(instance.edges):,} edges: too large to draw here</p>")
    shown = getattr(instance, "_repr_html_", None)
    return shown() if shown is not None else f"<pre>{html.escape(repr(instance))}</pre>"


def reduction_html(reduction) -> str:
    """Each instance of the reduction (a chain: every step's) side by side, the reduction's
    name on each arrow, then whether it is parsimonious and how it is built.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> from sudokit.reductions import reduce
    >>> page = reduction_html(reduce("latin2sudoku", latin_square(np.zeros((2, 2), int))))
    >>> page.count("<svg"), "latin2sudoku" in page
    (2, True)
    """
    steps = _steps(reduction)
    instances = [steps[0].source] + [step.target for step in steps]
    parts = [f"<div>{_shown(instances[0])}</div>"]
    for k, step in enumerate(steps):
        parts.append('<div style="align-self:center;text-align:center;padding:0 8px">'
                     f"{html.escape(step.name)}<br/>&#10230;</div>")
        parts.append(f"<div>{_shown(instances[k + 1], instances[k])}</div>")
    row = ('<div style="display:flex;flex-wrap:wrap;align-items:flex-start">'
           + "".join(parts) + "</div>")
    kind = "parsimonious (solutions correspond one to one)" if reduction.parsimonious \
        else "not parsimonious (counts may differ)"
    explained = html.escape(str(reduction.explain()))
    return (f"<div><b>{html.escape(reduction.name)}</b>: {kind}{row}"
            f'<p style="white-space:pre-wrap">{explained}</p></div>')
