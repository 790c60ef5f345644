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
from .puzzle_text import parse_puzzles
from .record import Record

__all__ = ["parse_pls", "parse_latin_records", "format_pls", "is_pls_text"]

_TOKEN = re.compile(r"\S+")
_INT = re.compile(r"[+-]?\d+")


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
        A symbol repeated in a row or column, prefixed with ``source:line:``.

    Examples
    --------
    >>> parse_pls("order 2\\n0 1\\n1 2\\n", "x.pls")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: x.pls:3:3: value 2 is outside -1..1 (-1 is a hole)
    """
    lines = [line.rstrip("\r") for line in text.split("\n")]
    content = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]
    if not content:
        raise ParseError("empty input, no instance found", source)
    header_line, header = content[0]
    fields = header.split()
    if len(fields) != 2 or fields[0].lower() != "order":
        raise ParseError(f"expected 'order N' as the first line, got {header.strip()!r}",
                         source, header_line, 1)
    if not fields[1].isdigit() or int(fields[1]) < 1:
        raise ParseError(f"order must be a positive integer, got {fields[1]!r}", source,
                         header_line, header.index(fields[1]) + 1)
    n = int(fields[1])
    rows = content[1:]
    if len(rows) != n:
        where = rows[n][0] if len(rows) > n else (rows[-1][0] if rows else header_line)
        raise ParseError(f"order {n} needs {n} rows, found {len(rows)}", source, where)
    givens = np.empty((n, n), dtype=np.int64)
    for i, (number, line) in enumerate(rows):
        tokens = list(_TOKEN.finditer(line))
        if len(tokens) != n:
            raise ParseError(f"row has {len(tokens)} entries; order {n} needs {n}",
                             source, number)
        for j, m in enumerate(tokens):
            token = m.group()
            if not _INT.fullmatch(token):
                raise ParseError(f"{token!r} is not an integer", source, number, m.start() + 1)
            value = int(token)
            if not -1 <= value < n:
                raise ParseError(f"value {value} is outside -1..{n - 1} (-1 is a hole)",
                                 source, number, m.start() + 1)
            givens[i, j] = value + 1
    try:
        puzzle = latin_square(givens) if validate else GridPuzzle.unchecked(givens)
    except InstanceError as err:
        raise InstanceError(f"{source}:{header_line}: {err}") from err
    return Record(puzzle, header_line, "pls")


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


def parse_latin_records(text: str, source: str, box=None, colors=None) -> list[Record]:
    """The ``latin`` kind's parser: ``.pls`` text (an ``order`` line, or a ``.pls`` file,
    read strictly), else Latin squares in any puzzle text layout."""
    if is_pls_text(text) or source.lower().endswith(".pls"):
        return [parse_pls(text, source)]
    return parse_puzzles(text, source, "latin")
