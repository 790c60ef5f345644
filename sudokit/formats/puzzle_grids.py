"""Multi-line grids of puzzle text, and the cell symbols shared with the one-line reader.

:func:`grid_layout` says whether a block of content lines is a grid (``"char"``: one
character per cell, or ``"int"``: whitespace-separated integers, ``.`` empty) or a run of
one-line puzzles; :func:`read_grids` reads the grids of a block, noting each bad grid with the
reader (:mod:`sudokit.formats.puzzle_text`) instead of raising. :func:`region_grid_block` and
:func:`read_jigsaw_grids` do the same for jigsaw grids, each followed by its region map.

Examples
--------
>>> block = [(1, "1 . | . .", ROW), (2, ". . | 1 .", ROW), (3, "----+----", RULE),
...          (4, ". 1 | . .", ROW), (5, ". . | . 1", ROW)]
>>> grid_layout(block), grid_layout([(1, "1...", ROW), (2, "..1.", ROW)])
('char', None)
"""

from __future__ import annotations

import math
import re
from typing import Any, Protocol

import numpy as np

from ..errors import InstanceError, ParseError
from ..instances.jigsaw import parse_region_map
from .puzzle_write import MAX_CHAR_N, SYMBOLS

__all__ = ["GridReader", "LUT", "UNKNOWN", "RULE", "ROW", "is_square", "char_cells", "symbol_error",
           "grid_layout", "read_grids", "LAYOUTS", "reads_as_line", "square_block",
           "spaced_cells", "spaced_row", "region_grid_block", "read_jigsaw_grids"]

class GridReader(Protocol):
    """What the grid readers here need of the reader that calls them (the one
    :func:`sudokit.formats.puzzle_text.parse_puzzles` keeps): where the text comes from, the
    problem and box asked for, where problems are noted, and how a puzzle is built."""

    source: str
    problem: str
    box: Any
    problems: Any

    def build(self, givens: Any, line: int, style: str, box: Any = None, regions: Any = None,
              regions_line: int | None = None) -> bool: ...


#: ``LUT[byte]``: the value of a cell character (0 empty), UNKNOWN for any other byte
UNKNOWN = 255
LUT = np.full(256, UNKNOWN, dtype=np.uint8)
for _value, _char in enumerate(SYMBOLS):
    LUT[ord(_char)] = _value
    LUT[ord(_char.lower())] = _value
LUT[[ord("0"), ord("-")]] = 0

#: how a file's blocks are read (``--layout``): ``auto`` by their own marks (see
#: :func:`grid_layout`), ``grid`` as grids, ``line`` as one-line puzzles
LAYOUTS = ("auto", "grid", "line")

#: kinds of content line: a rule (``---+---``) and anything else (a row or a puzzle)
RULE, ROW = "rule", "row"

_TOKEN = re.compile(r"\S+")
_HASH = re.compile(r"[0-9A-Fa-f]+")
_RATING = re.compile(r"[0-9]+(\.[0-9]+)?")
_NOT_CELL = re.compile(r"[\s|+]")


def is_square(k: int) -> bool:
    return k >= 1 and math.isqrt(k) ** 2 == k


def _int_like(token: str) -> bool:
    # integers are written without leading zeros; "003020600" is a row of characters
    return token.isascii() and token.isdigit() and (len(token) == 1 or token[0] != "0")


def _int_cell(token: str) -> bool:
    """A cell of an integer grid: an integer or ``.`` (empty)."""
    return token == "." or _int_like(token)


def char_cells(text: str) -> int:
    """Cells of a line read one character per cell (separators and spaces left out)."""
    return len(_NOT_CELL.sub("", text))


def symbol_error(char: str, value: int, n: int, source: str, line: int,
                 column: int) -> ParseError:
    if value == UNKNOWN:
        return ParseError(f"unknown symbol {char!r}", source, line, column)
    return ParseError(f"symbol {char!r} ({value}) is outside 1..{n}", source, line, column)


def _fits(counts: list[int], rows: int, ruled: bool) -> bool:
    n = counts[0]
    if n < 2 or any(c != n for c in counts):
        return False  # a 1x1 puzzle is read as a one-liner
    return rows == n if not ruled else rows % n == 0


def spaced_cells(text: str) -> int:
    """The cells of a row of whitespace-separated cells (each one character or an integer;
    ``|`` and ``+`` left out), 0 for anything else (characters without spaces, fields).

    Examples
    --------
    >>> spaced_cells("1 . | . 4"), spaced_cells("10 . 3"), spaced_cells("1..4")
    (4, 3, 0)
    """
    tokens = [tok for tok in text.split() if tok not in ("|", "+")]
    if len(tokens) < 2 or not all(len(tok) == 1 or _int_cell(tok) for tok in tokens):
        return 0
    return len(tokens)


def spaced_row(text: str) -> bool:
    """A row as the grid writers put one: 2 to 35 cells with spaces between them (``1 . . 4``),
    or integers right-aligned in columns of two or more characters (``36  0  5``, a row of a
    grid from 36x36 up), never a one-line puzzle of characters.

    Examples
    --------
    >>> [spaced_row(t) for t in ["1 . . 4", " 0 36  5", "1..4", "0 36 5" + " 1" * 40]]
    [True, True, False, False]
    """
    cells = spaced_cells(text)
    if 2 <= cells <= MAX_CHAR_N:
        return True
    if not cells or "|" in text or "+" in text:
        return False
    found = [(m.end(), len(m.group())) for m in _TOKEN.finditer(text)]
    step = found[1][0] - found[0][0]   # a column: the widest value and one space
    return step >= 3 and found[0][0] >= step - 1 and all(
        end - found[0][0] == index * step and size < step
        for index, (end, size) in enumerate(found))


def _ruled(block: list[tuple[int, str, str]], rows: list[str]) -> bool:
    """A ``|`` or ``+`` in a row, or a rule line between two rows."""
    positions = [i for i, (_, _, kind) in enumerate(block) if kind == ROW]
    return any("|" in t or "+" in t for t in rows) or any(
        kind == RULE and positions[0] < i < positions[-1]
        for i, (_, text, kind) in enumerate(block))


def reads_as_line(text: str) -> bool:
    """Whether ``text`` reads as a one-line puzzle by its shape and symbols: one field of
    ``n*n`` symbols within ``0..n`` (or the middle field of ``hash puzzle rating``), or
    ``n*n`` integers within ``0..n``.

    Examples
    --------
    >>> [reads_as_line(t) for t in ["1...", "1.3.", "1 0 0 2", "003020600", "12|34"]]
    [True, False, True, False, False]
    """
    tokens = text.split()
    if len(tokens) > 1 and all(tok == "." or tok.isascii() and tok.isdigit() for tok in tokens):
        side = math.isqrt(len(tokens))
        return side * side == len(tokens) and all(
            tok == "." or int(tok) <= side for tok in tokens)
    if len(tokens) == 3 and _HASH.fullmatch(tokens[0]) and _RATING.fullmatch(tokens[2]):
        tokens = tokens[1:2]
    if len(tokens) != 1 or not is_square(len(tokens[0])):
        return False
    side = math.isqrt(len(tokens[0]))
    return all(ord(ch) < 256 and LUT[ord(ch)] <= side for ch in tokens[0])


def grid_layout(block: list[tuple[int, str, str]], layout: str = "auto") -> str | None:
    """``"int"``/``"char"`` for a grid block, None for a block of one-line puzzles.

    ``layout`` (one of :data:`LAYOUTS`): ``"line"`` makes every block one-line puzzles,
    ``"grid"`` every block grids; ``"auto"`` reads a block as grids when it shows a grid's
    marks (``|`` or ``+`` in a row, a rule line between rows, or two or more rows of spaced
    cells), or when it is ``n`` rows of ``n`` cells of which some row is no one-line puzzle
    (:func:`reads_as_line`); as one-line puzzles otherwise, however many lines it has.
    """
    rows = [text for _, text, kind in block if kind == ROW]
    if not rows or layout == "line":
        return None
    marked = layout == "grid" or _ruled(block, rows) or (
        len(rows) > 1 and all(spaced_row(t) for t in rows))
    if len(rows) > MAX_CHAR_N and not marked and not _int_cell(rows[0].split()[0]):
        return None  # fast exit for long files of one-liners
    found = _cells_layout(rows, marked)
    if found is None or marked or not all(reads_as_line(t) for t in rows):
        return found
    return None  # n one-line puzzles of n cells each: one-line puzzles are one-line puzzles


def square_block(block: list[tuple[int, str, str]]) -> int | None:
    """``n`` when the block is ``n`` rows of ``n`` cells without a grid's marks (it reads
    both as one-line puzzles and as one grid), else None."""
    rows = [text for _, text, kind in block if kind == ROW]
    if len(rows) < 2 or _ruled(block, rows) or all(spaced_row(t) for t in rows):
        return None
    if len(rows) > MAX_CHAR_N and not _int_cell(rows[0].split()[0]):
        return None
    return len(rows) if _cells_layout(rows, False) is not None else None


def _char_symbols(rows: list[str]) -> bool:
    """Every row of ``rows`` is one field, or fields of one character each (no integer of
    two digits or more between spaces)."""
    fields = ([tok for tok in t.split() if tok not in ("|", "+")] for t in rows)
    return all(len(toks) <= 1 or all(len(tok) == 1 for tok in toks) for toks in fields)


def _cells_layout(rows: list[str], ruled: bool) -> str | None:
    """``"char"`` or ``"int"`` when ``rows`` make grids (``ruled``: any number of grids one
    after the other; else exactly one), else None."""
    chars = [char_cells(t) for t in rows]
    if chars[0] <= MAX_CHAR_N and (_fits(chars, len(rows), ruled) or ruled and chars[0] >= 2
                                   and len(set(chars)) == 1 and _char_symbols(rows)):
        return "char"   # (marked grids: one character a cell however many rows there are)
    split = [[tok for tok in t.split() if tok not in ("|", "+")] for t in rows]
    if all(split) and all(_int_cell(tok) for toks in split for tok in toks) and (
            ruled or _fits([len(toks) for toks in split], len(rows), ruled)):
        return "int"
    return "char" if ruled else None


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
        if text == ".":
            return 0
        if not (text.isascii() and text.isdigit()):
            raise ParseError(f"unknown symbol {text!r}", source, line, column)
        if int(text) > n:
            raise ParseError(f"value {text} is outside 0..{n}", source, line, column)
        return int(text)
    value = int(LUT[ord(text)]) if ord(text) < 256 else UNKNOWN
    if value > n:
        raise symbol_error(text, value, n, source, line, column)
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


def read_grids(reader: GridReader, block: list[tuple[int, str, str]], layout: str) -> None:
    """Read the grids of one block; a row of the wrong length gives up on the rest of it."""
    rows: list[list[tuple[str, int]]] = []
    lines: list[int] = []
    bars: set[int] = set()
    rules: set[int] = set()
    n = 0
    for index, (number, line, kind) in enumerate(block):
        if kind == RULE:
            if rows:
                rules.add(len(rows))
            continue
        cells, row_bars = _split_row(line, layout)
        if not rows:
            n = len(cells)
        elif len(cells) != n:
            reader.problems.add(ParseError(f"row has {len(cells)} cells; expected {n} like the "
                                           f"grid's first row (line {lines[0]})",
                                           reader.source, number))
            _skip_rest(reader, block[index + 1:])
            return
        rows.append(cells)
        lines.append(number)
        bars |= row_bars
        if len(rows) == n:
            try:
                givens, box = _grid_values(reader, rows, lines, bars, rules, layout)
            except ParseError as err:
                reader.problems.add(err)
            else:
                reader.build(givens, lines[0], "grid" if layout == "char" else "ints-grid", box)
            rows, lines, bars, rules = [], [], set(), set()
    if rows:
        reader.problems.add(ParseError(f"grid has {len(rows)} rows of {n} cells; expected "
                                       f"{n} rows", reader.source, lines[0]))


def _skip_rest(reader: GridReader, rest: list[tuple[int, str, str]]) -> None:
    """Say that the rows after a bad row are not read (they cannot be told apart from the
    next grid's rows)."""
    numbers = [number for number, _, kind in rest if kind == ROW]
    if numbers:
        reader.problems.add(ParseError(f"lines {numbers[0]}-{numbers[-1]} not read: the rows "
                                       "after a bad grid row cannot be aligned",
                                       reader.source, numbers[0]))


def _grid_values(reader: GridReader, rows, lines, bars, rules, layout):
    """The givens of a complete grid and the box its separators show (None if none)."""
    n, source = len(rows), reader.source
    givens = np.array([[_cell_value(text, n, layout, source, number, column)
                        for text, column in cells]
                       for cells, number in zip(rows, lines, strict=True)],
                      dtype=np.int64).reshape(n, n)
    box = None
    if reader.problem == "sudoku" and reader.box is None:
        cols = _band(bars, n, "column", source, lines[0])
        band = _band(rules, n, "row", source, lines[0])
        if cols or band:
            box = (band or n // (cols or 1), cols or n // (band or 1))
    return givens, box


# -- jigsaw grids: n puzzle rows, then n rows of region symbols ----------------------------

def _row_cells(line: str) -> int:
    """Cells of a row: characters, or whitespace-separated integers for big grids."""
    tokens = line.split()
    if len(tokens) > 1 and all(_int_cell(tok) for tok in tokens) and \
            len(tokens) > MAX_CHAR_N:
        return len(tokens)
    return len("".join(tokens))


def region_grid_block(block: list[tuple[int, str, str]], jigsaw: bool) -> bool:
    """Whether ``block`` is a jigsaw grid, ``n`` rows of ``n`` cells followed by ``n`` rows
    of its region map (no separators): under a ``jigsaw`` header always, else unless
    every line of it reads as a one-line puzzle (the older meaning of such a block)."""
    if any(kind != ROW or "|" in line or "+" in line for _, line, kind in block):
        return False
    counts = {_row_cells(line) for _, line, _ in block}
    if len(counts) != 1:
        return False
    n = counts.pop()
    if n < 2 or len(block) != 2 * n:
        return False   # one grid and its map; grids after it are a block of their own
    if jigsaw:
        return True
    side = math.isqrt(n)
    return side * side != n or any(
        ord(ch) > 255 or LUT[ord(ch)] > side
        for _, line, _ in block for ch in line if not ch.isspace())


def read_jigsaw_grids(reader: GridReader, block: list[tuple[int, str, str]]) -> None:
    """Read the jigsaw grids of a block that :func:`region_grid_block` accepted."""
    n = _row_cells(block[0][1])
    layout = "char" if len("".join(block[0][1].split())) == n else "int"
    for start in range(0, len(block), 2 * n):
        rows = block[start:start + n]
        regions = block[start + n:start + 2 * n]
        try:
            givens = np.array([[_cell_value(text, n, layout, reader.source, number, column)
                                for text, column in _split_row(line, layout)[0]]
                               for number, line, _ in rows], dtype=np.int64)
        except ParseError as err:
            reader.problems.add(err)
            continue
        try:
            region_map = parse_region_map([line for _, line, _ in regions], n)
        except InstanceError as err:
            reader.problems.add_invalid(InstanceError(f"region map: {err}"), regions[0][0])
            continue
        reader.build(givens, rows[0][0], "grid" if layout == "char" else "ints-grid",
                     regions=region_map, regions_line=regions[0][0])
