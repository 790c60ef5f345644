"""Pictures of grids: Sudoku of any size and box shape, Latin squares, and any region map.

Thin lines separate cells; thick lines separate regions, found by comparing the region of
every two neighbouring cells, so boxes of any shape (and irregular jigsaw regions) get their
borders where the map says. Variants show their extra units: an X-Sudoku's diagonals as thin
``diagonal`` lines, windoku windows as shaded ``window`` cells (a Sudoku-DG's positions follow
from the boxes and get no mark). An X-Sudoku's diagonal cells are lightly shaded and its lines
stop short of every digit, so they run under the symbols, not across them. Text elements
carry a class: ``given`` (bold), ``filled`` (a solver's value, blue), ``deduced`` (fixed by
propagation, green) and ``candidate`` (pencil marks); cells are ``cell`` lines, region
borders ``box`` lines, the outline ``border``.

Symbols are ``1-9A-Z`` up to 35 values, integers above (and for ``.pls`` files, which
number symbols from 0, integers from 0).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> canvas = grid_picture(sudoku(np.array([[1, 0, 0, 0], [0, 0, 1, 0],
...                                        [0, 1, 0, 0], [0, 0, 0, 1]])))
>>> [(s.text, s.cls) for s in canvas.shapes if hasattr(s, "text")][:2]
[('1', 'given'), ('1', 'given')]
>>> sum(1 for s in canvas.shapes if getattr(s, "cls", "") == "box")
2
"""

from __future__ import annotations

import math

import numpy as np

from ..formats.puzzle_write import MAX_CHAR_N, SYMBOLS
from .svg import Canvas

__all__ = ["grid_picture", "grid_regions", "symbol", "CELL", "STYLE", "THIN", "THICK"]

#: pixels per cell before any ``--width`` scaling
CELL = 40

#: colors of the grid pictures (the text classes and the rest)
STYLE: dict[str, str] = {"given": "#000", "filled": "#1f5fbf", "deduced": "#2a7d2a",
                         "candidate": "#666", "given_cell": "#e4e4e4", "cell_line": "#999",
                         "background": "#fff", "window": "#dbe8f6", "diagonal": "#c0392b",
                         "diagonal_cell": "#fbeeee", "pattern": "#ffe08a",
                         "elimination": "#f4a6a6", "placement": "#a8dca8",
                         "step_cell": "#eef3fb"}
#: line widths: cell lines, and region borders and the outline
THIN, THICK = 1.0, 3.0


def symbol(value: int, n: int, zero_based: bool = False) -> str:
    """How value ``value`` (``1..n``) is written: ``1-9A-Z`` when ``n <= 35``, else decimal;
    ``zero_based`` (``.pls``) writes ``value - 1`` in decimal.

    Examples
    --------
    >>> symbol(10, 16), symbol(10, 36), symbol(1, 5, zero_based=True)
    ('A', '10', '0')
    """
    if zero_based:
        return str(value - 1)
    return SYMBOLS[value] if n <= MAX_CHAR_N else str(value)


def grid_regions(puzzle) -> np.ndarray | None:
    """``(n, n)`` region ids whose borders are drawn thick: a jigsaw's region map, the boxes of
    a Sudoku, or None (a Latin square has none).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> grid_regions(sudoku(np.zeros((4, 4), dtype=int)))[1].tolist()
    [0, 0, 1, 1]
    """
    regions = getattr(puzzle, "regions", None)
    if regions is not None:
        return np.asarray(regions).reshape(puzzle.n, puzzle.n)
    if puzzle.box is None:
        return None
    r, c = puzzle.box
    rows, cols = np.indices((puzzle.n, puzzle.n))
    return (rows // r) * (puzzle.n // c) + cols // c


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """``(start, stop)`` of every run of True in a 1-D boolean array."""
    padded = np.concatenate([[False], flags, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def _font(cell: float, longest: int) -> float:
    return cell * (0.62 if longest <= 1 else 0.46 if longest == 2 else 0.34)


def grid_picture(puzzle, values=None, candidates=None, highlight_givens: bool = False,
                 zero_based: bool = False, cell: float = CELL, margin: float | None = None,
                 caption: str | None = None, marks=(), deduce: bool = True) -> Canvas:
    """A grid puzzle as a :class:`~sudokit.draw.svg.Canvas`.

    Parameters
    ----------
    puzzle : GridPuzzle
    values : array_like, optional
        ``(n, n)`` values to show in the empty cells (a solution): class ``filled``.
    candidates : array_like, optional
        ``(n, n)`` bitmask domains (:func:`sudokit.grading.propagate`): a cell left with one
        value shows it (class ``deduced``), a cell with more shows them as pencil marks.
    highlight_givens : bool
        Shade the cells of the givens.
    zero_based : bool
        Write values from 0 (``.pls`` files).
    caption : str, optional
        A line of text above the grid (its size shrinks to fit a long one).
    marks : iterable of (row, col, value, cls)
        Shaded squares drawn under the symbols, ``cls`` naming their :data:`STYLE` color
        and class: behind pencil mark ``value`` of cell ``(row, col)`` (0-based), or behind
        the whole cell for value 0.
    deduce : bool
        With ``candidates``: a cell left with one candidate shows it as a ``deduced`` value
        (False: as a pencil mark, as in a solver's step where it is not placed yet).
    """
    n = puzzle.n
    margin = cell * 0.25 if margin is None else margin
    top = margin + (cell * 0.6 if caption else 0)
    side = n * cell
    canvas = Canvas(side + 2 * margin, side + top + margin)
    canvas.rect(0, 0, canvas.width, canvas.height, fill=STYLE["background"], cls="background")
    givens = puzzle.givens
    if caption:
        fitted = min(cell * 0.42, (side + 2 * margin) * 0.95 / (0.6 * max(len(caption), 1)))
        canvas.text(margin + side / 2, top - cell * 0.2, caption, fitted, cls="caption")
    groups = dict(puzzle.unit_groups()) if hasattr(puzzle, "unit_groups") else {}
    for unit in groups.get("window", ()):
        for flat in unit.tolist():
            r, c = divmod(flat, n)
            canvas.rect(margin + c * cell, top + r * cell, cell, cell, fill=STYLE["window"],
                        cls="window")
    if highlight_givens:
        for r, c in np.argwhere(givens > 0).tolist():
            canvas.rect(margin + c * cell, top + r * cell, cell, cell,
                        fill=STYLE["given_cell"], cls="given-cell")
    per_row = math.isqrt(n - 1) + 1 if n > 1 else 1
    for r, c, v, cls in marks:
        if v:
            i, j = divmod(v - 1, per_row)
            sub = cell / per_row
            canvas.rect(margin + c * cell + j * sub, top + r * cell + i * sub, sub, sub,
                        fill=STYLE[cls], cls=cls)
        else:
            canvas.rect(margin + c * cell, top + r * cell, cell, cell, fill=STYLE[cls],
                        cls=cls)
    grid = None if values is None else np.asarray(values).reshape(n, n)
    domains = None if candidates is None else np.asarray(candidates).reshape(n, n)
    if "diagonal" in groups:
        _diagonals(canvas, _written(givens, grid, domains), n, cell, margin, top)
    _lines(canvas, grid_regions(puzzle), n, cell, margin, top)
    longest = len(symbol(n, n, zero_based))
    size = _font(cell, longest)
    baseline = cell / 2 + size * 0.36

    def write(r: int, c: int, value: int, cls: str, weight: str = "normal") -> None:
        canvas.text(margin + (c + 0.5) * cell, top + r * cell + baseline,
                    symbol(value, n, zero_based), size, fill=STYLE[cls], weight=weight,
                    cls=cls)

    shown = givens.copy()
    for r, c in np.argwhere(givens > 0).tolist():
        write(r, c, int(givens[r, c]), "given", "bold")
    if grid is not None:
        for r, c in np.argwhere((givens == 0) & (grid > 0)).tolist():
            write(r, c, int(grid[r, c]), "filled")
            shown[r, c] = grid[r, c]
    if domains is not None:
        _pencil_marks(canvas, domains, shown, n, cell, margin, top, zero_based, write,
                      deduce)
    return canvas


#: the stretch of a diagonal cell's diagonal (as fractions of it) that a digit covers: the
#: line stops short of it, so it runs under the digits, never across them
DIGIT_SPAN = (0.2, 0.8)


def _written(givens: np.ndarray, grid, domains) -> np.ndarray:
    """What each cell shows: 0 nothing, 1 one digit, 2 pencil marks."""
    shown = (givens > 0).astype(np.int8)
    if grid is not None:
        shown[grid > 0] = 1
    if domains is not None:
        counts = np.vectorize(lambda d: int(d).bit_count())(domains) if domains.size else 0
        shown[(shown == 0) & (counts == 1)] = 1
        shown[(shown == 0) & (counts > 1)] = 2
    return shown


def _diagonals(canvas: Canvas, written: np.ndarray, n: int, cell: float, left: float,
               top: float) -> None:
    """An X-Sudoku's diagonals: their cells lightly shaded (``diagonal-cell``) and the lines
    (``diagonal``) drawn cell by cell, broken around a digit and left out of a cell of
    pencil marks, so that no line crosses a symbol."""
    cells = sorted({(k, k) for k in range(n)} | {(k, n - 1 - k) for k in range(n)})
    for r, c in cells:
        canvas.rect(left + c * cell, top + r * cell, cell, cell, fill=STYLE["diagonal_cell"],
                    cls="diagonal-cell")
    low, high = DIGIT_SPAN
    for r, c in cells:
        pieces = {0: ((0.0, 1.0),), 1: ((0.0, low), (high, 1.0)), 2: ()}[int(written[r, c])]
        directions = ([1] if r == c else []) + ([-1] if r + c == n - 1 else [])
        for direction in directions:
            x0 = left + (c if direction > 0 else c + 1) * cell
            y0 = top + r * cell
            for a, b in pieces:
                canvas.line(x0 + direction * a * cell, y0 + a * cell,
                            x0 + direction * b * cell, y0 + b * cell,
                            stroke=STYLE["diagonal"], width=THIN, cls="diagonal")


def _lines(canvas: Canvas, regions, n: int, cell: float, left: float, top: float) -> None:
    """Thin cell lines, thick region borders where neighbouring regions differ, the outline."""
    side = n * cell
    for k in range(1, n):
        canvas.line(left + k * cell, top, left + k * cell, top + side,
                    stroke=STYLE["cell_line"], width=THIN, cls="cell")
        canvas.line(left, top + k * cell, left + side, top + k * cell,
                    stroke=STYLE["cell_line"], width=THIN, cls="cell")
    if regions is not None:
        for k in range(1, n):
            for start, stop in _runs(regions[:, k - 1] != regions[:, k]):   # vertical
                canvas.line(left + k * cell, top + start * cell, left + k * cell,
                            top + stop * cell, width=THICK, cls="box")
            for start, stop in _runs(regions[k - 1, :] != regions[k, :]):   # horizontal
                canvas.line(left + start * cell, top + k * cell, left + stop * cell,
                            top + k * cell, width=THICK, cls="box")
    canvas.rect(left, top, side, side, stroke="#000", width=THICK, cls="border")


def _pencil_marks(canvas: Canvas, domains: np.ndarray, shown: np.ndarray, n: int, cell: float,
                  left: float, top: float, zero_based: bool, write, deduce: bool = True
                  ) -> None:
    per_row = math.isqrt(n - 1) + 1 if n > 1 else 1
    sub = cell / per_row
    size = _font(sub, len(symbol(n, n, zero_based))) * 1.05
    for r, c in np.argwhere(shown == 0).tolist():
        values = [v + 1 for v in range(n) if (int(domains[r, c]) >> v) & 1]
        if len(values) == 1 and deduce:
            write(r, c, values[0], "deduced")
            continue
        for v in values:
            i, j = divmod(v - 1, per_row)
            canvas.text(left + c * cell + (j + 0.5) * sub,
                        top + r * cell + i * sub + sub / 2 + size * 0.36,
                        symbol(v, n, zero_based), size, fill=STYLE["candidate"],
                        cls="candidate")
