"""Writing grid puzzles (and solution grids) as text: one-liners and multi-line grids.

The reader is :mod:`sudokit.formats.puzzle_text`; everything written here reads back to the
same grid.

Examples
--------
>>> print(format_puzzle(np.array([[1, 0], [0, 0]]), "line"))
1...
"""

from __future__ import annotations

import math

import numpy as np

from ..instances.grid import GridPuzzle
from ..instances.jigsaw import format_region_map
from .styles import output_style

__all__ = ["format_puzzle", "puzzle_text", "variant_header", "VariantHeaders", "SYMBOLS",
           "MAX_CHAR_N", "SYMBOL_BYTES"]

#: Character of each value: index 0 is the empty cell.
SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The largest grid written one character per cell.
MAX_CHAR_N = len(SYMBOLS) - 1
#: ``SYMBOL_BYTES[value]``: the byte of each symbol, for writing a grid in one lookup
SYMBOL_BYTES = np.frombuffer(SYMBOLS.encode("ascii"), dtype=np.uint8)


def _is_square(k: int) -> bool:
    return k >= 1 and math.isqrt(k) ** 2 == k


def format_puzzle(puzzle, style: str = "line", box: tuple[int, int] | None = None) -> str:
    """Write a puzzle (or any ``(n, n)`` grid, e.g. a solution) as text, without a final newline.

    Parameters
    ----------
    puzzle : GridPuzzle or array_like
        The grid; 0 is an empty cell.
    style : {"line", "ints-line", "grid", "ints-grid"}
        ``"line"`` needs ``n <= 35`` and switches to ``"ints-line"`` above; ``"grid"``
        writes integers instead of characters above 35.
    box : tuple of int, optional
        Box shape for the separators of ``"grid"``; defaults to the puzzle's own box.

    Examples
    --------
    >>> grid = np.array([[1, 2, 0, 0], [0, 0, 1, 2], [2, 1, 0, 0], [0, 0, 2, 1]])
    >>> print(format_puzzle(grid, "grid", box=(2, 2)))
    1 2 | . .
    . . | 1 2
    ----+----
    2 1 | . .
    . . | 2 1
    >>> print(format_puzzle(grid, "ints-line"))
    1 2 0 0 0 0 1 2 2 1 0 0 0 0 2 1
    """
    if isinstance(puzzle, GridPuzzle):
        box = box or puzzle.box
        puzzle = puzzle.givens
    grid = np.asarray(puzzle, dtype=np.int64)
    n = grid.shape[0]
    if grid.ndim != 2 or grid.shape[1] != n:
        raise ValueError(f"a puzzle grid must be square, got shape {grid.shape}")
    writers = {"line": _write_line, "ints-line": _write_int_line,
               "grid": _write_grid, "ints-grid": _write_int_grid}
    if style not in writers:
        raise ValueError(f"unknown puzzle style {style!r}; expected one of {sorted(writers)}")
    return writers[style](grid, box)


def _write_line(grid, box) -> str:
    if grid.shape[0] > MAX_CHAR_N:
        return _write_int_line(grid, box)
    return SYMBOL_BYTES[grid.reshape(-1)].tobytes().decode("ascii")


def _write_int_line(grid, box) -> str:
    return " ".join(map(str, grid.reshape(-1).tolist()))


def _write_int_grid(grid, box) -> str:
    width = len(str(grid.shape[0]))
    return "\n".join(" ".join(str(v).rjust(width) for v in row) for row in grid.tolist())


def _write_grid(grid, box) -> str:
    n = grid.shape[0]
    if n > MAX_CHAR_N:
        width = len(str(n))
        cells = [[str(v).rjust(width) for v in row] for row in grid.tolist()]
    else:
        cells = [[SYMBOLS[v] for v in row] for row in grid.tolist()]
    band, cols = box if box is not None else (n, n)
    text_rows = [" | ".join(" ".join(row[j:j + cols]) for j in range(0, n, cols))
                 for row in cells]
    rule = "".join("+" if ch == "|" else "-" for ch in text_rows[0])
    while "+" not in rule and _is_square(len(rule)):
        rule += "-"  # a dash run of square length would read as an empty one-line puzzle
    out = []
    for i, row in enumerate(text_rows):
        if i and i % band == 0:
            out.append(rule)
        out.append(row)
    return "\n".join(out)


def puzzle_text(puzzle: GridPuzzle) -> str:
    """A puzzle as a multi-line grid, after the ``# variant:`` and ``regions:`` lines its
    variants need: ``str(puzzle)``, which :func:`~sudokit.formats.parse_puzzles` reads back
    (a Latin square with ``problem="latin"``).

    Examples
    --------
    >>> from sudokit.instances import sudoku
    >>> print(puzzle_text(sudoku(np.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0],
    ...                                    [0, 0, 0, 2]]), variants=["x"])))
    # variant: diagonal
    1 . | . .
    . . | . .
    ----+----
    . . | . .
    . . | . 2
    """
    return VariantHeaders().before(puzzle, "grid") + format_puzzle(puzzle, "grid")


def variant_header(variants) -> str:
    """The header line that gives the puzzles after it ``variants`` (the reader's
    ``# variant:`` line; ``none`` for the classic puzzle).

    Examples
    --------
    >>> variant_header(("diagonal", "windoku"))
    '# variant: diagonal windoku'
    """
    return "# variant: " + (" ".join(variants) if variants else "none")


class VariantHeaders:
    """The header lines a writer puts before each puzzle so that the file reads back with the
    same variants and region map: a ``# variant:`` line and a ``regions:`` line where they
    change (nothing at all for a file of classic puzzles).

    Examples
    --------
    >>> from sudokit.instances import sudoku
    >>> headers = VariantHeaders()
    >>> x = sudoku(np.zeros((4, 4), dtype=int), variants=["x"])
    >>> headers.before(x), headers.before(x)
    ('# variant: diagonal\\n', '')
    >>> jig = sudoku(np.zeros((4, 4), dtype=int), regions=[[0, 0, 1, 1]] * 2 + [[2, 2, 3, 3]] * 2)
    >>> print(headers.before(jig), end="")
    # variant: jigsaw
    regions: AABBAABBCCDDCCDD
    """

    def __init__(self) -> None:
        self.variants: tuple[str, ...] = ()
        self.regions: bytes | None = None

    def before(self, instance, style: str = "line") -> str:
        """The lines (each with its line break) to write before ``instance`` in ``style``;
        empty when it has the variants and map of the puzzle before it, is no grid, or
        ``style`` is not puzzle text (``.pls`` has no place for them: its registry entry's
        ``headers``)."""
        if not output_style(style).headers:
            return ""
        variants = tuple(getattr(instance, "variants", ()) or ())
        regions = getattr(instance, "regions_key", None)
        out = []
        if variants != self.variants:
            out.append(variant_header(variants) + "\n")
            self.variants = variants
        if regions is not None and (regions != self.regions or out):
            out.append("regions: " + format_region_map(instance.regions) + "\n")
        self.regions = regions
        return "".join(out)
