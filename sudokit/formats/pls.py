"""The ``.pls`` partial Latin square format (Gomes' lsencode).

The first non-blank line is ``order N``; then come ``N`` rows of ``N`` integers where ``-1`` is
a hole and ``0..N-1`` are the symbols. Inside sudokit the symbols are ``1..N`` and holes are 0.
The header is trusted over the file name (``qwh.order10.holes10.pls`` holds an order-5 square).

Examples
--------
>>> rec = parse_pls("order 2\\n 0 -1\\n-1 -1\\n")
>>> rec.instance.givens.tolist(), rec.style
([[1, 0], [0, 0]], 'pls')
>>> print(format_pls(rec.instance))
order 2
   0  -1
  -1  -1
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import InstanceError, ParseError
from ..instances.grid import GridPuzzle, latin_square
from .puzzle_text import OnBad, parse_puzzles
from .record import Record

__all__ = ["parse_pls", "parse_latin_records", "format_pls", "is_pls_text"]

_TOKEN = re.compile(r"\S+")
_INT = re.compile(r"[+-]?[0-9]+")


def parse_pls(text: str, source: str = "<string>", validate: bool = True) -> Record:
    """Parse one ``.pls`` partial Latin square.

    Parameters
    ----------
    text : str
        The file contents.
    source : str
        Name used in error messages.
    validate : bool
        False reads a candidate solution without checking it (for ``sudokit check``).

    Returns
    -------
    Record
        A Latin-square :class:`~sudokit.instances.GridPuzzle` with style ``"pls"``.

    Raises
    ------
    ParseError
        Missing or malformed ``order`` line, wrong row or entry counts, a token that is not an
        integer or a value outside ``-1..N-1``; the location is ``source:line:column``.
    InstanceError
        A symbol repeated in a row or column, prefixed with the ``source:line:column:`` of the
        repeat; values are named as in the file (0-based).

    Examples
    --------
    >>> parse_pls("order 2\\n0 1\\n1 2\\n", "x.pls")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: x.pls:3:3: value 2 is outside -1..1 (-1 is a hole)
    >>> parse_pls("order 2\\n0 -1\\n0 1\\n", "y.pls")
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: y.pls:3:1: value 0 at row 2, column 1 repeats in column 1 \
(also at row 1, column 1)
    """
    lines = [line.rstrip("\r") for line in text.split("\n")]
    content = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    if not content:
        raise ParseError("empty input, no instance found", source)
    header_line, header = content[0]
    fields = list(_TOKEN.finditer(header))
    if len(fields) != 2 or fields[0].group().lower() != "order":
        raise ParseError(f"expected 'order N' as the first line, got {header.strip()!r}",
                         source, header_line, 1)
    size = fields[1].group()
    if not (size.isascii() and size.isdigit()) or int(size) < 1:
        raise ParseError(f"order must be a positive integer, got {size!r}", source,
                         header_line, fields[1].start() + 1)
    n = int(size)
    rows = content[1:]
    if len(rows) != n:
        where = rows[n][0] if len(rows) > n else (rows[-1][0] if rows else header_line)
        raise ParseError(f"order {n} needs {n} rows, found {len(rows)}", source, where)
    givens = _read_rows(rows, n, source, validate)
    puzzle = latin_square(givens) if validate else GridPuzzle.unchecked(givens)
    return Record(puzzle, header_line, "pls")


def _read_rows(rows: list[tuple[int, str]], n: int, source: str,
               validate: bool) -> np.ndarray:
    """The ``(n, n)`` givens (1-based, 0 = hole) of the ``n`` rows ``(line, text)``; with
    ``validate``, a value repeated in a row or column is an error at the repeat."""
    givens = np.zeros((n, n), dtype=np.int64)
    in_column: list[dict[int, int]] = [{} for _ in range(n)]  # value -> row, per column
    for i, (number, line) in enumerate(rows):
        tokens = list(_TOKEN.finditer(line))
        if len(tokens) != n:
            raise ParseError(f"row has {len(tokens)} entries; order {n} needs {n}",
                             source, number)
        in_row: dict[int, int] = {}  # value -> column
        for j, m in enumerate(tokens):
            token = m.group()
            if not _INT.fullmatch(token):
                raise ParseError(f"{token!r} is not an integer", source, number, m.start() + 1)
            value = int(token)
            if not -1 <= value < n:
                raise ParseError(f"value {value} is outside -1..{n - 1} (-1 is a hole)",
                                 source, number, m.start() + 1)
            if value >= 0 and validate:
                _check_repeat(value, (i, j), in_row.get(value), in_column[j].get(value),
                              f"{source}:{number}:{m.start() + 1}")
                in_row[value] = j
                in_column[j][value] = i
            givens[i, j] = value + 1
    return givens


def _check_repeat(value: int, cell: tuple[int, int], row_twin: int | None,
                  column_twin: int | None, where: str) -> None:
    """An InstanceError if ``value`` at ``cell`` met itself earlier in its row or column."""
    i, j = cell
    if row_twin is not None:
        unit, other = f"row {i + 1}", (i, row_twin)
    elif column_twin is not None:
        unit, other = f"column {j + 1}", (column_twin, j)
    else:
        return
    raise InstanceError(f"{where}: value {value} at row {i + 1}, column {j + 1} repeats in "
                        f"{unit} (also at row {other[0] + 1}, column {other[1] + 1})")


def format_pls(puzzle) -> str:
    """Write a Latin square (a puzzle or any ``(n, n)`` grid, 0 = hole) as ``.pls`` text.

    Values are right-aligned in columns like the lsencode files; no final newline.

    Examples
    --------
    >>> print(format_pls(np.array([[1, 2], [2, 0]])))
    order 2
       0   1
       1  -1
    """
    grid = puzzle.givens if isinstance(puzzle, GridPuzzle) else np.asarray(puzzle)
    n = grid.shape[0]
    width = max(len(str(n - 1)), 2) + 2
    rows = ("".join(str(v - 1).rjust(width) for v in row) for row in grid.tolist())
    return "\n".join([f"order {n}", *rows])


def is_pls_text(text: str) -> bool:
    """True if the first significant line (comments skipped) is a ``.pls`` ``order`` line."""
    for line in text.splitlines():
        line = line.strip().lower()
        if line and not line.startswith(("#", "c ")) and line != "c":
            return line.startswith("order")
    return False


def parse_latin_records(text: str, source: str, box=None, colors=None,
                        on_bad: OnBad | None = None, layout: str = "auto") -> list[Record]:
    """The ``latin`` kind's parser: ``.pls`` text (an ``order`` line, or a ``.pls`` file,
    read strictly; one instance, so ``on_bad`` is not used), else Latin squares in any puzzle
    text layout (``on_bad`` and ``layout`` as in :func:`parse_puzzles`)."""
    if is_pls_text(text) or source.lower().endswith(".pls"):
        return [parse_pls(text, source)]
    return parse_puzzles(text, source, "latin", on_bad=on_bad, layout=layout)
