"""Reading grid puzzles (Sudoku, Latin squares) from text: one-liners and multi-line grids.

A file is cut into *blocks* of consecutive content lines; blank lines, ``#`` comments,
``Grid NN`` headers (as in Norvig's sudoku.txt) and ``=====`` lines end a block. How a block
is read never depends on how many lines it has (``layout="auto"``, the default): it is grids
when it shows a grid's marks (``|``/``+`` separators in its rows, a horizontal rule such as
``---+---`` between two rows, or two or more rows of cells with spaces between them, as the
``grid`` writer puts them), or when it is ``n`` rows of ``n`` cells of which some row cannot
be a one-line puzzle (a nine-digit row with a digit above 3, a row of 6 cells); otherwise
every line is a one-line puzzle: ``n*n`` characters, ``n*n`` whitespace-separated integers,
or the ``hash puzzle rating`` line of the Sudoku Exchange collection. ``layout="grid"`` reads
every block as grids, ``layout="line"`` every line as a one-line puzzle. Any other line is an
error: nothing is skipped silently (``on_bad`` skips bad puzzles on request).

Symbols: ``.``, ``0`` and ``-`` are empty, ``1``-``9`` are 1..9 and ``A``-``Z`` (either case)
are 10..35. Larger grids are written as whitespace-separated integers (``0`` or ``.`` empty).

Variants (:mod:`sudokit.instances.variants`): a header line ``# variant: diagonal windoku``
gives the puzzles after it those variants, up to the next such line (``# variant: none``
goes back to the classic puzzle). A jigsaw's region map is either a ``regions:`` line of
``n*n`` region symbols, which holds for the puzzles after it up to the next ``regions:`` line,
or ``n`` rows of region symbols right after a puzzle grid's ``n`` rows (no blank line between),
which holds for that grid alone (:mod:`sudokit.instances.jigsaw`).

Examples
--------
>>> recs = parse_puzzles("1 . . .\\n. . 1 .\\n. 1 . .\\n. . . 1\\n", problem="latin")
>>> [r.style for r in recs], recs[0].instance.givens[1].tolist()
(['grid'], [0, 0, 1, 0])
>>> print(format_puzzle(recs[0].instance, "line"))
1.....1..1.....1
>>> [r.instance.n for r in parse_puzzles("1...\\n..1.\\n.1..\\n...1\\n", problem="latin")]
[2, 2, 2, 2]
>>> parse_puzzles("1...\\n..1.\\n.1..\\n...1\\n", problem="latin", layout="grid")[0].style
'grid'
>>> x = parse_puzzles("# variant: x\\n1 2 3 .\\n. . . .\\n. . . .\\n. . . 1\\n", problem="latin")
Traceback (most recent call last):
...
sudokit.errors.InstanceError: <string>:2: given 1 at row 4, column 4 repeats in diagonal 1 \
(also at row 1, column 1)
>>> jig = parse_puzzles("regions: AAAB CABB CCDB CDDD\\n" + "1" + "." * 15)[0].instance
>>> jig.variants, jig.regions[1].tolist()
(('jigsaw',), [2, 0, 1, 1])
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import numpy as np

from ..errors import InstanceError, ParseError, SudokitError, expect_text
from ..instances.grid import (
    GridPuzzle,
    default_box,
    grid_shape_key,
    grids_from_rows,
    latin_square,
    sudoku,
)
from ..instances.jigsaw import parse_region_map
from ..instances.variants import parse_variants
from .puzzle_grids import (
    LAYOUTS,
    LUT,
    ROW,
    RULE,
    char_cells,
    grid_layout,
    is_square,
    read_grids,
    read_jigsaw_grids,
    reads_as_line,
    region_grid_block,
    square_block,
    symbol_error,
)
from .puzzle_write import MAX_CHAR_N, SYMBOLS, format_puzzle
from .record import Record

__all__ = ["parse_puzzles", "parse_sudoku_records", "format_puzzle", "with_variants", "SYMBOLS",
           "OnBad", "line_kind", "SKIP", "HEAD"]

#: ``on_bad(error)``: told about each bad puzzle that is skipped instead of raised
OnBad = Callable[[ParseError], object]

_RULE_CHARS = "-+=| \t"
_GRID_HEADER = re.compile(r"grid\s*[0-9]+", re.IGNORECASE)
_HASH = re.compile(r"[0-9A-Fa-f]+")
_RATING = re.compile(r"[0-9]+(\.[0-9]+)?")
_TOKEN = re.compile(r"\S+")
_OTHER_LINES = "a comment (#) or a 'Grid NN' header"

#: the kinds of line (:func:`line_kind`) that end a block of grid lines, beside
#: :data:`~.puzzle_grids.RULE` and :data:`~.puzzle_grids.ROW`: blank, comment and region
#: map lines (``SKIP``), ``Grid NN`` and ``=====`` headers (``HEAD``)
SKIP, HEAD = "skip", "head"

#: ``# variant: NAMES``: the variants of the puzzles after it
VARIANT_HEADER = re.compile(r"#\s*variants?\s*:(.*)", re.IGNORECASE)
#: ``regions: SYMBOLS``: the region map of the (jigsaw) puzzles after it
REGIONS_LINE = re.compile(r"regions\s*:(.*)", re.IGNORECASE)
_ANY_CONTEXT = re.compile(r"^[ \t]*(#[ \t]*variants?[ \t]*:|regions[ \t]*:)",
                          re.IGNORECASE | re.MULTILINE)


def line_kind(text: str) -> str:
    """Classify one line (already without its line break): :data:`SKIP`, :data:`HEAD`,
    :data:`~.puzzle_grids.RULE` or :data:`~.puzzle_grids.ROW`.

    Examples
    --------
    >>> [line_kind(t) for t in ["# hard", "Grid 01", "------+------", "1.3|4.."]]
    ['skip', 'head', 'rule', 'row']
    """
    stripped = text.strip()
    if not stripped or stripped[0] == "#":
        return SKIP
    if stripped[0] in "rR" and REGIONS_LINE.match(stripped):
        return SKIP  # a region map line: read by _Context, a boundary for the blocks
    if not stripped.strip("=") or _GRID_HEADER.fullmatch(stripped):
        return HEAD  # "Grid 01" (Norvig) or "========" between puzzles
    if not stripped.strip(_RULE_CHARS):
        # a run of dashes of square length is an empty one-line puzzle, not a rule
        if stripped.strip("-") or not is_square(len(stripped)):
            return RULE
    return ROW


class _Problems:
    """Bad puzzles found while reading, kept so that they are raised (or handed to
    ``on_bad``) in file order."""

    def __init__(self, source: str):
        self.source = source
        #: (line, column, error to raise, the same as a ParseError for on_bad)
        self.items: list[tuple[int, int, SudokitError, ParseError]] = []

    def add(self, err: ParseError) -> None:
        self.items.append((err.line or 0, err.column or 0, err, err))

    def add_invalid(self, err: InstanceError, line: int) -> None:
        """A puzzle that breaks the rules (a repeated given): raised as an InstanceError
        prefixed ``source:line:``, reported to ``on_bad`` as a ParseError at that line."""
        located = InstanceError(f"{self.source}:{line}: {err}")
        plain = ParseError(str(err), self.source, line)
        if err.cli_message:
            located.with_cli(f"{self.source}:{line}: {err.cli_message}")
            plain.with_cli(err.cli_message)
        located.__cause__ = err
        self.items.append((line, 0, located, plain))

    def first_line(self) -> int | None:
        return min((item[0] for item in self.items), default=None)

    def on(self, lines: set[int]) -> bool:
        """Whether any problem is on one of ``lines``."""
        return any(item[0] in lines for item in self.items)

    def replace(self, lines: set[int], err: ParseError) -> None:
        """Put ``err`` in place of the problems on ``lines``."""
        self.items = [item for item in self.items if item[0] not in lines]
        self.add(err)

    def hint(self, lines: set[int], text: str) -> None:
        """Add ``text`` to the message of the first problem on one of ``lines``."""
        for item in sorted(self.items, key=lambda item: item[:2]):
            if item[0] in lines:
                self.items[self.items.index(item)] = (
                    item[0], item[1], _hinted(item[2], text), _hinted_parse(item[3], text))
                return

    def finish(self, on_bad: OnBad | None) -> int:
        """Raise the first problem, or report each to ``on_bad``; the number reported."""
        self.items.sort(key=lambda item: item[:2])
        if self.items and on_bad is None:
            raise self.items[0][2]
        for *_, plain in self.items:
            on_bad(plain)  # type: ignore[misc]
        return len(self.items)


def _hinted(err: SudokitError, text: str) -> SudokitError:
    """A copy of ``err`` with ``text`` after its message (and its command-line message)."""
    if isinstance(err, ParseError):
        return _hinted_parse(err, text)
    copy = type(err)(str(err) + text)
    if err.cli_message:
        copy.with_cli(err.cli_message + text)
    copy.__cause__ = err.__cause__
    return copy


def _hinted_parse(err: ParseError, text: str) -> ParseError:
    """:func:`_hinted` of a :class:`ParseError`, its location kept."""
    copy = ParseError(err.message + text, err.source, err.line, err.column)
    if err.cli_message:
        copy.with_cli(err.cli_message + text)
    copy.__cause__ = err.__cause__
    return copy


class _Context:
    """The variant header lines and ``regions:`` lines of a text, by line number: what holds
    for a puzzle starting at a given line."""

    def __init__(self, text: str, source: str):
        self.source = source
        self.headers: list[tuple[int, tuple[str, ...]]] = []   # (line, variants)
        self.maps: list[tuple[int, str]] = []                  # (line, the map's symbols)
        self._parsed: dict[tuple[int, int], np.ndarray] = {}
        if _ANY_CONTEXT.search(text) is None:
            return
        for number, line in enumerate(text.split("\n"), start=1):
            stripped = line.strip()
            header = VARIANT_HEADER.fullmatch(stripped)
            if header is not None:
                try:
                    self.headers.append((number, parse_variants(header.group(1))))
                except InstanceError as err:
                    raise InstanceError(f"{source}:{number}: {err}") from None
                continue
            regions = REGIONS_LINE.fullmatch(stripped)
            if regions is not None:
                self.maps.append((number, regions.group(1)))

    @property
    def uniform(self) -> bool:
        """No header or map line after the first puzzle line could start (all come first)."""
        return len(self.headers) <= 1 and len(self.maps) <= 1

    def variants(self, line: int) -> tuple[str, ...]:
        """The variants a header line before ``line`` gives."""
        found: tuple[str, ...] = ()
        for number, variants in self.headers:
            if number > line:
                break
            found = variants
        return found

    def regions(self, line: int, n: int) -> np.ndarray | None:
        """The region map of a ``regions:`` line before ``line``, for a side-``n`` grid."""
        found = None
        for number, raw in self.maps:
            if number > line:
                break
            found = (number, raw)
        if found is None or any(found[0] < at <= line and "jigsaw" not in variants
                                for at, variants in self.headers):
            return None   # no map, or a header without jigsaw came after it
        number, raw = found
        key = (number, n)
        if key not in self._parsed:
            try:
                self._parsed[key] = parse_region_map(raw, n)
            except InstanceError as err:
                raise _MapError(InstanceError(f"region map: {err}"), number) from None
        return self._parsed[key]


class _MapError(Exception):
    """A bad region map: the error, and the line of the map."""

    def __init__(self, error: InstanceError, line: int):
        super().__init__(str(error))
        self.error, self.line = error, line


class _Reader:
    """What every part of one ``parse_puzzles`` call shares."""

    def __init__(self, source: str, problem: str, box, on_bad: OnBad | None,
                 context: _Context | None = None):
        self.source, self.problem, self.box = source, problem, box
        self.context = context or _Context("", source)
        self.problems = _Problems(source)
        self.fail_fast = on_bad is None  # the first problem will be raised: stop building there
        self.found: list[Record] = []

    def build(self, givens, line: int, style: str, box=None, regions=None,
              regions_line: int | None = None) -> bool:
        """Add the puzzle of ``givens`` (False, and a problem noted, if it is invalid);
        ``regions``: a region map of its own (from ``regions_line``), else the one of a
        ``regions:`` line before it, if any."""
        try:
            if regions is None and self.problem != "solution":
                regions = self.context.regions(line, len(givens))
            puzzle = _BUILDERS[self.problem](givens, box if box is not None else self.box,
                                             self.context.variants(line), regions)
        except _MapError as bad:
            self.problems.add_invalid(bad.error, bad.line)
            return False
        except InstanceError as err:
            self.problems.add_invalid(err, regions_line if regions_line is not None and
                                      "region" in str(err) else line)
            return False
        self.found.append(Record(puzzle, line, style))
        return True

    def sizes(self) -> set[int]:
        """Cell counts of the puzzles read so far."""
        return {rec.instance.n ** 2 for rec in self.found}


def parse_puzzles(text: str, source: str = "<string>", problem: str = "sudoku",
                  box: tuple[int, int] | None = None,
                  on_bad: OnBad | None = None, layout: str = "auto") -> list[Record]:
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
    on_bad : callable, optional
        None: the first bad puzzle (in file order) raises. A callable: each bad puzzle line or
        grid is skipped and reported as ``on_bad(error)`` with a :class:`ParseError` located at
        its line (an invalid puzzle, such as a repeated given, too), and reading goes on.
    layout : {"auto", "grid", "line"}
        How blocks of lines are read (:data:`~.puzzle_grids.LAYOUTS`): ``"auto"`` by their
        own marks (:func:`~.puzzle_grids.grid_layout`; a block of ``n`` lines of ``n`` cells
        that all read as one-line puzzles is ``n`` one-line puzzles), ``"grid"`` every block as
        grids, ``"line"`` every line as a one-line puzzle.

    Returns
    -------
    list of Record
        In file order, each with its 1-based start line and style (``"line"``,
        ``"ints-line"``, ``"grid"`` or ``"ints-grid"``).

    Raises
    ------
    ParseError
        Bad symbols, wrong lengths, wrong row counts, a line that is no puzzle, comment or
        ``Grid NN`` header, empty input (or nothing left after skipping).
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
    >>> skipped = []
    >>> recs = parse_puzzles("1...\\nno puzzle\\n...1\\n", "s.txt", "latin", on_bad=skipped.append)
    >>> [r.line for r in recs], [str(err) for err in skipped]
    ([1, 3], ["s.txt:2: line has 2 fields; expected a puzzle line of 4 cells, \
a comment (#) or a 'Grid NN' header"])
    """
    expect_text(text, "parse_puzzles")
    if problem not in _BUILDERS:
        raise ValueError(f"parse_puzzles handles {', '.join(_BUILDERS)}, not {problem!r}")
    if layout not in LAYOUTS:
        raise ValueError(f"layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    context = _Context(text, source)
    quick = (None if layout == "grid" else
             _one_liners(text, problem, None if problem == "latin" else box, context))
    if quick is not None:
        return quick
    reader = _Reader(source, problem, None if problem == "latin" else box, on_bad, context)
    singles: list[tuple[int, str]] = []
    maybe_grids: list[tuple[int, list[tuple[int, str]]]] = []
    squares: list[tuple[int, list[int]]] = []   # n x n blocks read as n one-line puzzles
    for block in _blocks(text):
        if layout != "line" and region_grid_block(
                block, "jigsaw" in context.variants(block[0][0])):
            read_jigsaw_grids(reader, block)
            continue
        found = grid_layout(block, layout)
        if found is not None:
            read_grids(reader, block, found)
            _hint_lines(reader, block)
            continue
        if layout == "line":  # a rule line too is then a line that must be a puzzle
            singles.extend((number, line) for number, line, _ in block)
            continue
        rows = [(number, line) for number, line, kind in block if kind == ROW]
        singles.extend(rows)
        counts = {char_cells(line) for _, line in rows}
        if 2 <= len(rows) < (n := max(counts, default=0)) <= MAX_CHAR_N and len(counts) == 1:
            maybe_grids.append((n, rows))  # a grid with rows missing: say so if lines fail
        side = square_block(block)
        if side is not None:
            squares.append((side, [number for number, _ in rows]))
    if singles:
        _read_lines(reader, singles, maybe_grids)
    for side, lines in squares:
        reader.problems.hint(set(lines), f" (lines {lines[0]}-{lines[-1]} were read as "
                             f"{side} one-line puzzles; '--layout grid' reads them as one "
                             f"{side}x{side} grid)")
    skipped = reader.problems.finish(on_bad)
    if not reader.found:
        content = [line for line in text.splitlines()
                   if line.strip() and not line.lstrip().startswith("#")]
        what = ("empty input" if not content else "no puzzle found (only header lines)"
                if not skipped else f"no valid puzzle found ({skipped} skipped)")
        raise ParseError(f"{what}, no instance found", source)
    reader.found.sort(key=lambda rec: rec.line)
    return reader.found


def _hint_lines(reader: _Reader, block: list[tuple[int, str, str]]) -> None:
    """Say, in the first problem of a block read as grids whose every line would also read as
    a one-line puzzle, that ``--layout line`` reads it so."""
    rows = [(number, line) for number, line, kind in block if kind == ROW]
    lines = {number for number, _ in rows}
    if reader.problems.on(lines) and all(reads_as_line(line) for _, line in rows):
        reader.problems.hint(lines, " (read as grid rows; '--layout line' reads each line as "
                                    "a one-line puzzle)")


def _one_liners(text: str, problem: str, box, context: _Context) -> list[Record] | None:
    """The common case at numpy speed: a file of one-line puzzles of one length (blank and
    ``#`` lines between them), every puzzle valid, the variant header and region map (if
    any) before them all. None for anything else, which the general reader then reads, with
    its messages for whatever is wrong.

    """
    if not context.uniform:
        return None
    numbers: list[int] = []
    fields: list[str] = []
    length = 0
    for number, line in enumerate(text.split("\n"), start=1):
        field = line.strip()
        if not field or field[0] == "#" or (field[0] in "rR" and REGIONS_LINE.match(field)):
            continue
        if not length:
            length = len(field)
        if len(field) != length:
            return None
        numbers.append(number)
        fields.append(field)
    n = math.isqrt(length)
    if not fields or n * n != length or n > MAX_CHAR_N:
        return None
    try:
        raw = "".join(fields).encode("latin-1")
    except UnicodeEncodeError:
        return None
    values = LUT[np.frombuffer(raw, dtype=np.uint8)].reshape(len(fields), length)
    if (values > n).any():  # a bad symbol, or whitespace: several fields on a line
        return None
    if problem == "solution":
        return [Record(GridPuzzle.unchecked(row.reshape(n, n), box), number, "line")
                for row, number in zip(values, numbers, strict=True)]
    if any(line > numbers[0] for line, _ in context.headers + context.maps):
        return None
    variants = context.variants(numbers[0])
    try:
        regions = context.regions(numbers[0], n)
    except _MapError:
        return None
    if problem == "sudoku" and regions is None:
        try:
            box = box or default_box(n)
        except InstanceError:
            return None
        if box[0] * box[1] != n:
            return None
    elif regions is not None and box is not None:
        return None
    try:
        grids = grids_from_rows(values, box, variants, regions)
    except InstanceError:
        return None
    if grids is None:
        return None
    return [Record(grid, number, "line") for grid, number in zip(grids, numbers, strict=True)]


def _blocks(text: str) -> list[list[tuple[int, str, str]]]:
    """Runs of content lines ``(number, line, kind)``, cut at blank, comment and header lines."""
    blocks: list[list[tuple[int, str, str]]] = [[]]
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        kind = line_kind(line)
        if kind in (SKIP, HEAD):
            if blocks[-1]:
                blocks.append([])
        else:
            blocks[-1].append((number, line, kind))
    return [block for block in blocks if block]


def _latin(givens, box, variants, regions) -> GridPuzzle:
    """A Latin square; a region map makes it a jigsaw (a Latin square with regions)."""
    if regions is not None:
        return GridPuzzle(np.asarray(givens), None, variants=variants, regions=regions)
    return latin_square(givens, variants)


_BUILDERS: dict[str, Callable[..., GridPuzzle]] = {
    "sudoku": sudoku,
    "latin": _latin,
    # a candidate solution for ``sudokit check``: read as is, judged later by violations()
    "solution": lambda givens, box, variants, regions: GridPuzzle.unchecked(givens, box),
}


def _not_a_puzzle(count: int, unit: str, sizes: set[int], source: str, line: int):
    """A line of ``count`` cells, values or fields that is no puzzle of this file."""
    has = f"line has {count} {unit if count != 1 else unit[:-1]}"
    if sizes:
        cells = " or ".join(map(str, sorted(sizes)))
        return ParseError(f"{has}; expected a puzzle line of {cells} cells, {_OTHER_LINES}",
                          source, line)
    if unit == "fields":
        return ParseError(f"{has}; expected a puzzle line (n*n cells, n*n integers or "
                          f"'hash puzzle rating'), {_OTHER_LINES}", source, line)
    side = max(1, round(math.sqrt(count)))
    return ParseError(f"{has}; a puzzle needs a square number ({side * side} for "
                      f"{side}x{side})", source, line)


# -- one puzzle per line -----------------------------------------------------------------

def _puzzle_field(matches: list[re.Match]) -> re.Match | None:
    """The puzzle of a line of characters: its only field, or the middle of
    ``hash puzzle rating`` (the Sudoku Exchange layout); None for anything else."""
    if len(matches) == 1:
        return matches[0]
    if (len(matches) == 3 and _HASH.fullmatch(matches[0].group())
            and _RATING.fullmatch(matches[2].group())):
        return matches[1]
    return None


def _int_values(matches: list[re.Match], source: str, line: int) -> np.ndarray:
    """The ``(n, n)`` values of a line of ``n*n`` integers (``.`` is 0)."""
    n = math.isqrt(len(matches))
    values = []
    for m in matches:
        value = 0 if m.group() == "." else int(m.group())
        if value > n:
            raise ParseError(f"value {m.group()} is outside 0..{n}", source, line, m.start() + 1)
        values.append(value)
    return np.array(values, dtype=np.int64).reshape(n, n)


def _read_lines(reader: _Reader, rows, maybe_grids) -> None:
    """Read one-line puzzles: each line is a puzzle of characters or integers, or a problem."""
    by_length: dict[int, list[tuple[int, int, str]]] = {}  # cells -> (line, offset, field)
    pending: list[tuple[int, np.ndarray, str]] = []  # (line, givens, style)
    odd: list[tuple[int, int, str]] = []  # (line, count, unit) of lines that are no puzzle
    for number, line in rows:
        matches = list(_TOKEN.finditer(line))
        if len(matches) > 1 and all(m.group() == "." or m.group().isascii()
                                    and m.group().isdigit() for m in matches):
            if not is_square(len(matches)):
                odd.append((number, len(matches), "values"))
                continue
            try:
                pending.append((number, _int_values(matches, reader.source, number),
                                "ints-line"))
            except ParseError as err:
                reader.problems.add(err)
            continue
        field = _puzzle_field(matches)
        if field is None:
            odd.append((number, len(matches), "fields"))
        elif not is_square(len(field.group())):
            odd.append((number, len(field.group()), "cells"))
        else:
            by_length.setdefault(len(field.group()), []).append(
                (number, field.start(), field.group()))
    sizes = reader.sizes() | {givens.size for _, givens, _ in pending}
    symbol_errors = _char_lines(reader, by_length, pending, sizes)
    for length, number, symbol in symbol_errors:
        fits = not sizes or length in sizes  # else it is no puzzle of this file's size
        reader.problems.add(symbol if fits else _not_a_puzzle(length, "cells", sizes,
                                                              reader.source, number))
    for number, count, unit in odd:
        reader.problems.add(_not_a_puzzle(count, unit, sizes, reader.source, number))
    dropped = _missing_rows(reader, maybe_grids)
    _build_lines(reader, [item for item in pending if item[0] not in dropped])


def _char_lines(reader: _Reader, by_length, pending, sizes) -> list:
    """Look up the symbols of the one-liners of each length at once: puzzles go to
    ``pending`` and their lengths to ``sizes``; returns ``(length, line, error)`` of the
    lines with a bad symbol."""
    errors = []
    for length, entries in by_length.items():
        n = math.isqrt(length)
        raw = "".join(field for _, _, field in entries).encode("latin-1", "replace")
        values = LUT[np.frombuffer(raw, dtype=np.uint8)].reshape(len(entries), length)
        bad = values > n
        rows_bad = bad.any(axis=1)
        if not rows_bad.all():
            sizes.add(length)
        for i in np.flatnonzero(rows_bad).tolist():
            number, offset, field = entries[i]
            cell = int(np.argmax(bad[i]))
            errors.append((length, number, symbol_error(
                field[cell], int(values[i, cell]), n, reader.source, number, offset + cell + 1)))
        pending.extend((entries[i][0], values[i].reshape(n, n), "line")
                       for i in np.flatnonzero(~rows_bad).tolist())
    return errors


def _build_lines(reader: _Reader, pending) -> None:
    """Build the puzzles in file order; when the first problem will be raised, only those
    before it (the first invalid one is that problem)."""
    pending.sort(key=lambda item: item[0])
    limit = reader.problems.first_line() if reader.fail_fast else None
    for number, givens, style in pending:
        if limit is not None and number > limit:
            break
        if not reader.build(givens, number, style) and reader.fail_fast:
            break


def _missing_rows(reader: _Reader, maybe_grids) -> set[int]:
    """Blocks that failed as one-liners but are a grid with rows missing: one problem each
    instead of one per line; their lines."""
    dropped: set[int] = set()
    for n, rows in maybe_grids:
        lines = {number for number, _ in rows}
        if not reader.problems.on(lines) or not all(
                LUT[ord(ch)] <= n if ord(ch) < 256 else False
                for _, line in rows for ch in line if not ch.isspace() and ch not in "|+"):
            continue
        reader.problems.replace(lines, ParseError(
            f"grid has {len(rows)} rows of {n} cells; expected {n} rows", reader.source,
            rows[0][0]))
        dropped |= lines
    return dropped


def parse_sudoku_records(text: str, source: str, box=None, colors=None,
                         on_bad: OnBad | None = None, layout: str = "auto") -> list[Record]:
    """The ``sudoku`` kind's parser (see :mod:`sudokit.problems`): every puzzle in ``text``."""
    return parse_puzzles(text, source, "sudoku", box, on_bad=on_bad, layout=layout)


def with_variants(records: list[Record], names, source: str = "<string>") -> list[Record]:
    """The records with the units of variants ``names`` added to their grids' own (what
    ``--variant`` does); records of one shape in a row are checked at once.

    Raises
    ------
    InstanceError
        A variant that does not fit (windoku on a Latin square), or a given the new units
        repeat, prefixed ``source:line:`` of the record.

    Examples
    --------
    >>> recs = with_variants(parse_puzzles("1...............\\n"), ["x"])
    >>> recs[0].instance.variants
    ('diagonal',)
    >>> with_variants(parse_puzzles("1..............1\\n"), ["x"], "f.txt")
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: f.txt:1: given 1 at row 4, column 4 repeats in diagonal 1 \
(also at row 1, column 1)
    """
    names = parse_variants(names)
    out: list[Record] = []
    start = 0
    while start < len(records):
        first = records[start].instance
        key = grid_shape_key(first)
        stop = start + 1
        while stop < len(records) and grid_shape_key(records[stop].instance) == key:
            stop += 1
        group = records[start:stop]
        start = stop
        variants = parse_variants(first.variants + names)
        if variants == first.variants:
            out.extend(group)
            continue
        try:
            grids = grids_from_rows(np.stack([r.instance.flat_givens for r in group]),
                                    first.box, variants, first.regions)
        except InstanceError as err:
            raise _located(err, source, group[0].line) from None
        if grids is None or len(grids) != len(group):
            grids = []
            for record in group:
                try:
                    grids.append(GridPuzzle(record.instance.givens, first.box, variants=variants,
                                            regions=first.regions))
                except InstanceError as err:
                    raise _located(err, source, record.line) from None
        out.extend(Record(grid, r.line, r.style) for grid, r in zip(grids, group, strict=True))
    return out


def _located(err: InstanceError, source: str, line: int) -> InstanceError:
    located = InstanceError(f"{source}:{line}: {err}")
    if err.cli_message:
        located.with_cli(f"{source}:{line}: {err.cli_message}")
    return located
