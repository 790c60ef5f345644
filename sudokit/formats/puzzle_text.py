"""Text forms of grid puzzles (Sudoku, Latin squares): one-liners and multi-line grids.

A file is cut into *blocks* of consecutive content lines; blank lines, ``#`` comments and
header lines such as ``Grid 01`` end a block. A block is a multi-line grid when its rows
carry ``|``/``+`` separators, when a horizontal rule (``---+---``) lies between two rows, or
when it has as many rows as each row has cells; otherwise every line is a one-line puzzle.

Symbols: ``.``, ``0`` and ``-`` are empty, ``1``-``9`` are 1..9 and ``A``-``Z`` (either case)
are 10..35. Larger grids are written as whitespace-separated integers.

Examples
--------
>>> recs = parse_puzzles("1...\\n..1.\\n.1..\\n...1\\n", problem="latin")
>>> [r.style for r in recs], recs[0].instance.givens[1].tolist()
(['grid'], [0, 0, 1, 0])
>>> print(format_puzzle(recs[0].instance, "line"))
1.....1..1.....1
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..errors import InstanceError, ParseError
from ..instances.grid import GridPuzzle, latin_square, sudoku
from .record import Record

__all__ = ["parse_puzzles", "parse_sudoku_records", "format_puzzle", "SYMBOLS"]

#: Character of each value: index 0 is the empty cell.
SYMBOLS = ".123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_MAX_CHAR_N = len(SYMBOLS) - 1
_UNKNOWN = 255

_LUT = np.full(256, _UNKNOWN, dtype=np.uint8)
for _value, _char in enumerate(SYMBOLS):
    _LUT[ord(_char)] = _value
    _LUT[ord(_char.lower())] = _value
_LUT[[ord("0"), ord("-")]] = 0

_RULE_CHARS = "-+=| \t"
_HEADER = re.compile(r"[A-Za-z]{2,}[:.]?(\s|$)")
_TOKEN = re.compile(r"\S+")

_SKIP, _HEAD, _RULE, _ROW = range(4)


def _is_square(k: int) -> bool:
    return k >= 1 and math.isqrt(k) ** 2 == k


def _kind(text: str) -> int:
    """Classify one line (already without its line break)."""
    stripped = text.strip()
    if not stripped or stripped[0] == "#":
        return _SKIP
    if not stripped.strip("="):
        return _HEAD  # "========" between puzzles, as in some collections
    if not stripped.strip(_RULE_CHARS):
        # a run of dashes of square length is an empty one-line puzzle, not a rule
        if stripped.strip("-") or not _is_square(len(stripped)):
            return _RULE
    # an all-letter first word can never be a puzzle (a row needs the value 1)
    if _HEADER.match(stripped) and "|" not in stripped and len(stripped.split()) <= 3:
        return _HEAD
    return _ROW


def _int_like(token: str) -> bool:
    # integers are written without leading zeros; "003020600" is a row of characters
    return token.isascii() and token.isdigit() and (len(token) == 1 or token[0] != "0")


def _char_cells(text: str) -> int:
    return len(text) - sum(text.count(ch) for ch in " \t|+")


def _fits(counts: list[int], rows: int, ruled: bool) -> bool:
    n = counts[0]
    if n < 2 or any(c != n for c in counts):
        return False  # a 1x1 puzzle is read as a one-liner
    return rows == n if not ruled else rows % n == 0


def _layout(block: list[tuple[int, str, int]]) -> str | None:
    """``"int"``/``"char"`` for a grid block, None for a block of one-line puzzles."""
    rows = [text for _, text, kind in block if kind == _ROW]
    if not rows:
        return None
    positions = [i for i, (_, _, kind) in enumerate(block) if kind == _ROW]
    ruled = any("|" in t or "+" in t for t in rows) or any(
        kind == _RULE and positions[0] < i < positions[-1]
        for i, (_, text, kind) in enumerate(block))
    if len(rows) > _MAX_CHAR_N and not ruled and not _int_like(rows[0].split()[0]):
        return None  # fast exit for long files of one-liners
    chars = [_char_cells(t) for t in rows]
    if chars[0] <= _MAX_CHAR_N and _fits(chars, len(rows), ruled):
        return "char"
    split = [[tok for tok in t.split() if tok not in ("|", "+")] for t in rows]
    if all(split) and all(_int_like(tok) for toks in split for tok in toks) and (
            ruled or _fits([len(toks) for toks in split], len(rows), ruled)):
        return "int"
    return "char" if ruled else None


def parse_puzzles(text: str, source: str = "<string>", problem: str = "sudoku",
                  box: tuple[int, int] | None = None) -> list[Record]:
    """Parse every grid puzzle in ``text``.

    Parameters
    ----------
    text : str
        File contents: one-line puzzles and/or multi-line grids.
    source : str
        Name used in error messages.
    problem : {"sudoku", "latin", "solution"}
        ``"latin"`` builds Latin squares (no boxes); ``"solution"`` reads grids without
        checking them (candidate solutions for :meth:`GridPuzzle.violations`).
    box : tuple of int, optional
        ``(rows, cols)`` of a Sudoku box (the user's ``--box``); overrides what the grid's
        separators suggest and the square default.

    Returns
    -------
    list of Record
        In file order, each with its 1-based start line and style (``"line"``,
        ``"ints-line"``, ``"grid"`` or ``"ints-grid"``).

    Raises
    ------
    ParseError
        Bad symbols, wrong lengths, wrong row counts, empty input.
    InstanceError
        A given repeated in a unit or a box that does not tile, prefixed ``source:line:``.

    Examples
    --------
    >>> parse_puzzles("1.3.\\n", "p.txt", problem="latin")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: p.txt:1:3: symbol '3' (3) is outside 1..2
    >>> rec = parse_puzzles("# hash puzzle rating\\nab12 1..2............  4.0\\n")[0]
    >>> rec.line, rec.style, rec.instance.box
    (2, 'line', (2, 2))
    """
    if problem not in _BUILDERS:
        raise ValueError(f"parse_puzzles handles {', '.join(_BUILDERS)}, not {problem!r}")
    if problem == "latin":
        box = None
    blocks: list[list[tuple[int, str, int]]] = [[]]
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        kind = _kind(line)
        if kind in (_SKIP, _HEAD):
            if blocks[-1]:
                blocks.append([])
        else:
            blocks[-1].append((number, line, kind))
    found: list[Record] = []
    singles: list[tuple[int, str]] = []
    maybe_grid: dict[int, tuple] = {}
    for block in blocks:
        layout = _layout(block) if block else None
        if layout is not None:
            found.extend(_parse_grids(block, layout, source, problem, box))
            continue
        rows = [(number, line) for number, line, kind in block if kind == _ROW]
        singles.extend(rows)
        counts = {_char_cells(line) for _, line in rows}
        if 2 <= len(rows) < (n := max(counts)) <= _MAX_CHAR_N and len(counts) == 1:
            for number, _ in rows:  # maybe a grid with rows missing: say so if lines fail
                maybe_grid[number] = (rows[0][0], len(rows), n, rows)
    if singles:
        found.extend(_parse_lines(singles, source, problem, box, maybe_grid))
    if not found:
        content = [line for line in text.splitlines()
                   if line.strip() and not line.lstrip().startswith("#")]
        what = "no puzzle found (only header lines)" if content else "empty input"
        raise ParseError(f"{what}, no instance found", source)
    found.sort(key=lambda rec: rec.line)
    return found


_BUILDERS = {
    "sudoku": sudoku,
    "latin": lambda givens, box: latin_square(givens),
    # a candidate solution for ``sudokit check``: read as is, judged later by violations()
    "solution": GridPuzzle.unchecked,
}


def _build(givens, problem: str, box, source: str, line: int) -> GridPuzzle:
    try:
        return _BUILDERS[problem](givens, box)
    except InstanceError as err:
        located = InstanceError(f"{source}:{line}: {err}")
        if err.cli_message:
            located.with_cli(f"{source}:{line}: {err.cli_message}")
        raise located from err


def _symbol_error(char: str, value: int, n: int, source: str, line: int, column: int):
    if value == _UNKNOWN:
        return ParseError(f"unknown symbol {char!r}", source, line, column)
    return ParseError(f"symbol {char!r} ({value}) is outside 1..{n}", source, line, column)


# -- one puzzle per line -----------------------------------------------------------------

def _parse_lines(rows, source, problem, box, maybe_grid) -> list[Record]:
    by_length: dict[int, list[tuple[int, int, str]]] = {}
    found: list[Record] = []
    errors: list[ParseError] = []
    for number, line in rows:
        tokens = line.split()
        if len(tokens) > 1 and _is_square(len(tokens)) and all(
                t.isascii() and t.isdigit() for t in tokens):
            try:
                found.append(_parse_int_line(number, line, source, problem, box))
            except ParseError as err:
                errors.append(err)
            continue
        if len(tokens) == 1:
            field = tokens[0]
        else:
            fitting = [t for t in tokens if len(t) >= 4 and _is_square(len(t))]
            field = max(fitting or tokens, key=len)
        if not _is_square(len(field)):
            side = max(1, round(math.sqrt(len(field))))
            errors.append(ParseError(f"line has {len(field)} cells; a puzzle needs a square "
                                     f"number ({side * side} for {side}x{side})", source, number))
            continue
        by_length.setdefault(len(field), []).append((number, line.find(field), field))
    pending = []
    for length, entries in by_length.items():
        n = math.isqrt(length)
        raw = "".join(field for _, _, field in entries).encode("latin-1", "replace")
        values = _LUT[np.frombuffer(raw, dtype=np.uint8)].reshape(len(entries), n, n)
        bad = values.reshape(len(entries), -1) > n
        if bad.any():
            first = int(np.argmax(bad.any(axis=1)))
            cell = int(np.argmax(bad[first]))
            number, offset, field = entries[first]
            errors.append(_symbol_error(field[cell], int(values.reshape(len(entries), -1)
                                                         [first, cell]), n, source, number,
                                        offset + cell + 1))
        pending.append((entries, values))
    if errors:
        earliest = min(errors, key=lambda err: (err.line or 0, err.column or 0))
        start, count, n, block = maybe_grid.get(earliest.line, (0, 0, 0, ()))
        if block and all(_LUT[ord(ch)] <= n if ord(ch) < 256 else False
                         for _, line in block for ch in line if ch not in " \t|+"):
            raise ParseError(f"grid has {count} rows of {n} cells; expected {n} rows",
                             source, start)
        raise earliest
    for entries, values in pending:
        for (number, _, _), givens in zip(entries, values, strict=True):
            found.append(Record(_build(givens, problem, box, source, number), number, "line"))
    return found


def _parse_int_line(number, line, source, problem, box) -> Record:
    matches = list(_TOKEN.finditer(line))
    n = math.isqrt(len(matches))
    values = np.array([int(m.group()) for m in matches], dtype=np.int64)
    too_big = np.flatnonzero(values > n)
    if too_big.size:
        m = matches[too_big[0]]
        raise ParseError(f"value {m.group()} is outside 0..{n}", source, number, m.start() + 1)
    givens = values.reshape(n, n)
    return Record(_build(givens, problem, box, source, number), number, "ints-line")


# -- multi-line grids --------------------------------------------------------------------

def _split_row(line: str, layout: str) -> tuple[list[tuple[str, int]], set[int]]:
    """Cells ``(text, column)`` of a grid row and the cell counts before each ``|``/``+``."""
    cells: list[tuple[str, int]] = []
    bars: set[int] = set()
    if layout == "char":
        for column, char in enumerate(line, start=1):
            if char in "|+":
                bars.add(len(cells))
            elif not char.isspace():
                cells.append((char, column))
    else:
        for m in _TOKEN.finditer(line):
            if m.group() in ("|", "+"):
                bars.add(len(cells))
            else:
                cells.append((m.group(), m.start() + 1))
    return cells, bars


def _cell_value(text: str, n: int, layout: str, source: str, line: int, column: int) -> int:
    if layout == "int":
        if not (text.isascii() and text.isdigit()):
            raise ParseError(f"unknown symbol {text!r}", source, line, column)
        if int(text) > n:
            raise ParseError(f"value {text} is outside 0..{n}", source, line, column)
        return int(text)
    value = int(_LUT[ord(text)]) if ord(text) < 256 else _UNKNOWN
    if value > n:
        raise _symbol_error(text, value, n, source, line, column)
    return value


def _band(cuts: set[int], n: int, what: str, source: str, line: int) -> int | None:
    """Size of equal bands marked by separators after ``cuts`` cells/rows (None if none)."""
    inner = sorted(c for c in cuts if 0 < c < n)
    if not inner:
        return None
    size = inner[0]
    if n % size or inner != list(range(size, n, size)):
        raise ParseError(f"{what} separators do not split the {n}x{n} grid into equal boxes",
                         source, line)
    return size


def _parse_grids(block, layout, source, problem, box) -> list[Record]:
    found: list[Record] = []
    rows: list[list[tuple[str, int]]] = []
    lines: list[int] = []
    bars: set[int] = set()
    rules: set[int] = set()
    n = 0
    for number, line, kind in block:
        if kind == _RULE:
            if rows:
                rules.add(len(rows))
            continue
        cells, row_bars = _split_row(line, layout)
        if not rows:
            n = len(cells)
        elif len(cells) != n:
            raise ParseError(f"row has {len(cells)} cells; expected {n} like the grid's "
                             f"first row (line {lines[0]})", source, number)
        rows.append(cells)
        lines.append(number)
        bars |= row_bars
        if len(rows) == n:
            found.append(_grid_record(rows, lines, bars, rules, layout, source, problem, box))
            rows, lines, bars, rules = [], [], set(), set()
    if rows:
        raise ParseError(f"grid has {len(rows)} rows of {n} cells; expected {n} rows",
                         source, lines[0])
    return found


def _grid_record(rows, lines, bars, rules, layout, source, problem, box) -> Record:
    n = len(rows)
    givens = np.array([[_cell_value(text, n, layout, source, number, column)
                        for text, column in cells]
                       for cells, number in zip(rows, lines, strict=True)],
                      dtype=np.int64).reshape(n, n)
    if problem == "sudoku" and box is None:
        cols = _band(bars, n, "column", source, lines[0])
        band = _band(rules, n, "row", source, lines[0])
        if cols or band:
            box = (band or n // (cols or 1), cols or n // (band or 1))
    style = "grid" if layout == "char" else "ints-grid"
    return Record(_build(givens, problem, box, source, lines[0]), lines[0], style)


# -- writing -----------------------------------------------------------------------------

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
    if grid.shape[0] > _MAX_CHAR_N:
        return _write_int_line(grid, box)
    return "".join(SYMBOLS[v] for v in grid.reshape(-1).tolist())


def _write_int_line(grid, box) -> str:
    return " ".join(map(str, grid.reshape(-1).tolist()))


def _write_int_grid(grid, box) -> str:
    width = len(str(grid.shape[0]))
    return "\n".join(" ".join(str(v).rjust(width) for v in row) for row in grid.tolist())


def _write_grid(grid, box) -> str:
    n = grid.shape[0]
    if n > _MAX_CHAR_N:
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


def parse_sudoku_records(text: str, source: str, box=None, colors=None) -> list[Record]:
    """The ``sudoku`` kind's parser (see :mod:`sudokit.problems`): every puzzle in ``text``."""
    return parse_puzzles(text, source, "sudoku", box)
