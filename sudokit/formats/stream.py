"""Reading a file of many puzzles in chunks, so that memory stays flat on files of millions.

:func:`read_instance_chunks` yields the records of FILE (``-``: standard input, read as it
arrives) a chunk at a time: about :data:`CHUNK_LINES` lines, cut only where no puzzle can
straddle the cut (after a blank, ``#`` or header line; or between two lines of a block that
can be no grid across the cut, :class:`_Cutter`; the lines after such a cut are read as that
block is). Each chunk is parsed by the kind's own parser, its line numbers (records, errors,
skipped lines) shifted to the whole file's, so the records are the ones
:func:`~sudokit.formats.read_instances` gives.
Inputs that hold one instance (``.pls``, ``.col``, DIMACS, DLX) are read whole, as before.

Memory stays bounded on bad input too: every line is read with a bounded length (a line
longer than :data:`~sudokit.formats.textio.MAX_LINE` is an error at once), a piece ends past
:data:`CHUNK_BYTES` as well as past :data:`CHUNK_LINES`, and a block of lines is cut as soon
as no grid can straddle the cut, so ``yes | sudokit count -`` fails on its first chunk
instead of holding the stream.

With ``columns=True`` a file of one-line puzzles of 9x9 and up comes as
:class:`~sudokit.formats.columns.ColumnChunk` arrays instead of records, as long as every line
is a valid puzzle, a comment or blank (:func:`~sudokit.formats.columns.column_chunk`); from the
first piece that holds anything else, the rest of the file is read as records, as without.

Examples
--------
>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
...     _ = handle.write("# two 2x2 Latin squares\\n1...\\n\\n.2..\\n")
>>> [[r.line for r in chunk] for chunk in read_instance_chunks(handle.name, "latin",
...                                                              chunk_lines=2)]
[[2], [4]]
>>> os.remove(handle.name)
"""

from __future__ import annotations

import contextlib
import math
import re
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ..errors import InstanceError, ParseError
from ..problems import problem_kind, sniff_kind
from . import parse_instances
from .columns import ColumnChunk, column_chunk, column_width
from .pls import is_pls_text
from .puzzle_grids import LAYOUTS, RULE, char_cells, spaced_cells, spaced_row
from .puzzle_text import HEAD, REGIONS_LINE, SKIP, VARIANT_HEADER, OnBad, line_kind
from .puzzle_write import MAX_CHAR_N
from .record import Record
from .textio import STDIN_NAME, open_binary, read_line

__all__ = ["CHUNK_LINES", "CHUNK_BYTES", "MIN_CUT_WIDTH", "read_instance_chunks"]

#: lines per chunk (a chunk is cut at the first safe place from here on)
CHUNK_LINES = 1 << 14
#: bytes per chunk (likewise: whichever of the two comes first)
CHUNK_BYTES = 1 << 24

#: a line of one field longer than this is no grid row (a character grid's row is at most 35
#: cells and their separators): the column road (:mod:`.columns`) reads only such lines
MIN_CUT_WIDTH = 72


def read_instance_chunks(path: str, problem: str | None = None,
                         box: tuple[int, int] | None = None, colors: int | None = None,
                         on_bad: OnBad | None = None, chunk_lines: int | None = None,
                         columns: bool = False, layout: str = "auto"
                         ) -> Iterator[list[Record] | ColumnChunk]:
    """Yield the records of FILE a chunk at a time (see the module); arguments as in
    :func:`~sudokit.formats.read_instances`, whose errors and messages it gives too, except
    that an error in a later chunk comes after the earlier chunks were yielded.
    ``columns``: clean pieces of one-line puzzles as arrays (see the module; not with
    ``layout="grid"``); ``chunk_lines``: by default :data:`CHUNK_LINES` (read at each call)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    chunk_lines = chunk_lines or CHUNK_LINES
    path = str(path)
    source = STDIN_NAME if path == "-" else path
    with _open(path) as stream:
        lines = _decoded_lines(stream, source)
        head: list[str] = []
        for line in lines:  # up to the first significant line, which names the kind
            head.append(line)
            if _significant(line):
                break
        text = "".join(head)
        kind = sniff_kind(source, text, problem)
        # kinds of many one-line instances are read in chunks (``.pls`` text is one instance)
        if (not problem_kind(kind).column_chunks or is_pls_text(text)
                or source.lower().endswith(".pls")):
            text += "".join(lines)
            yield parse_instances(text, source, kind, box, colors, on_bad=on_bad,
                                  layout=layout)
            return
        reading = _Reading(source, kind, box, colors, on_bad, layout)
        shape = (_column_shape(head[-1], kind, box) if columns and head and layout != "grid"
                 else None)
        if shape is None:
            yield from _chunks(_Cutter(chunk_lines, layout).cut(_chain(head, lines)), reading)
            return
        yield from _column_chunks(stream, head, shape, chunk_lines, reading)


def _carried(carry: list[str], piece: list[str]) -> list[str]:
    """The variant header and ``regions:`` lines in force after ``piece`` (the last of each,
    in file order), which the next piece is read under."""
    last: dict[str, tuple[int, str]] = {}
    for index, line in enumerate(carry + piece):
        stripped = line.strip()
        if VARIANT_HEADER.fullmatch(stripped):
            last["header"] = (index, line)
        elif stripped[:1] in ("r", "R") and REGIONS_LINE.fullmatch(stripped):
            last["regions"] = (index, line)
    return [line for _, line in sorted(last.values())]


def _column_shape(line: str, kind: str, box):
    """``(width, box)`` for the fast path when ``line`` (the first puzzle) allows it."""
    width = column_width(line)
    if width is None:
        return None
    n = math.isqrt(width)
    if "box" not in problem_kind(kind).options:   # a Latin square: no boxes
        return width, None
    box = box or (math.isqrt(n),) * 2
    return (width, box) if box[0] * box[1] == n else None


class _Reading:
    """What every piece of one file is parsed with."""

    def __init__(self, source: str, kind: str, box, colors, on_bad: OnBad | None,
                 layout: str):
        self.source, self.kind, self.box, self.colors = source, kind, box, colors
        self.on_bad, self.layout = on_bad, layout


def _raw_piece(stream, source: str, start: int, size: int) -> list[bytes]:
    """Raw lines from ``stream`` (the first being line ``start``) up to about ``size`` bytes,
    each read with a bounded length."""
    piece: list[bytes] = []
    total = 0
    while total < size:
        raw = read_line(stream, source, start + len(piece))
        if not raw:
            break
        piece.append(raw)
        total += len(raw)
    return piece


def _column_chunks(stream, head, shape, chunk_lines, reading: _Reading):
    """Arrays for the clean pieces of the file; records (the general reader) from the first
    piece on that is not clean (:func:`~sudokit.formats.columns.column_chunk`)."""
    width, grid_box = shape
    source = reading.source
    pending = [line.encode("utf-8") for line in head]
    offset = found = 0
    size = min(max(chunk_lines * (width + 1) - 1, 1), CHUNK_BYTES)
    while True:
        piece = pending + _raw_piece(stream, source, offset + len(pending) + 1, size)
        pending = []
        if not piece:
            return
        chunk = column_chunk(piece, offset, width, reading.kind, grid_box)
        if chunk is None:
            break
        found += len(chunk)
        offset += len(piece)
        yield chunk
    start = offset + 1
    text = [_decoded(raw, source, start + index) for index, raw in enumerate(piece)]
    rest = _decoded_lines(stream, source, start + len(piece))
    yield from _chunks(_Cutter(chunk_lines, reading.layout).cut(_chain(text, rest), offset),
                       reading, found)


def _decoded(raw: bytes, source: str, number: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ParseError(f"not UTF-8 text (byte 0x{raw[err.start]:02x})", source, number,
                         err.start + 1) from None


def _chunks(pieces, reading: _Reading, found=0):
    skipped = 0
    content = False
    carry: list[str] = []   # a variant header and region map from the pieces before
    for offset, piece, lead, lead_layout in pieces:
        before, carry = carry, _carried(carry, piece)
        if not any(line_kind(line.rstrip("\n")) != SKIP for line in piece):
            continue  # blank and comment lines only: nothing to parse
        content = True
        records: list[Record] = []
        # the lines that go on with a block cut before the piece, read as that block is
        parts = [(offset, piece[:lead], lead_layout), (offset + lead, piece[lead:], None)]
        for start, lines, layout in parts:
            if lines:
                got, count = _parsed(before, lines, start, reading, layout)
                records.extend(got)
                skipped += count
        found += len(records)
        if records:
            yield records
    if not found:
        what = ("empty input" if not content else "no puzzle found (only header lines)"
                if not skipped else f"no valid puzzle found ({skipped} skipped)")
        raise ParseError(f"{what}, no instance found", reading.source)


def _parsed(before: list[str], lines: list[str], offset: int, reading: _Reading,
            layout: str | None) -> tuple[list[Record], int]:
    """The records of ``lines`` (the first being line ``offset + 1``), read after the
    carried ``before`` lines, in ``layout`` (None: the file's); and how many were skipped."""
    source = reading.source
    offset -= len(before)   # the carried lines are read as if just before the piece
    shifted = None if reading.on_bad is None else _shift_reports(reading.on_bad, offset)
    try:
        records = parse_instances("".join(before + lines), source, reading.kind, reading.box,
                                  reading.colors, on_bad=shifted,
                                  layout=layout or reading.layout)
    except ParseError as err:
        if err.line is None and err.message.endswith("no instance found"):
            return [], getattr(shifted, "count", 0)  # the file may hold more
        raise _shifted(err, offset) from None
    except InstanceError as err:  # a rule broken, its message prefixed 'source:line:'
        raise _shifted_instance(err, source, offset) from None
    if offset:
        records = [Record(r.instance, r.line + offset, r.style) for r in records]
    return records, getattr(shifted, "count", 0)


class _shift_reports:
    """``on_bad`` for a chunk: each report's line shifted to the file's, and counted."""

    def __init__(self, on_bad: OnBad, offset: int):
        self.on_bad, self.offset, self.count = on_bad, offset, 0

    def __call__(self, err: ParseError) -> None:
        self.count += 1
        self.on_bad(_shifted(err, self.offset))


def _shifted(err: ParseError, offset: int) -> ParseError:
    if not offset or err.line is None:
        return err
    copy = ParseError(err.message, err.source, err.line + offset, err.column)
    copy.cli_message = err.cli_message
    return copy


def _shifted_instance(err: InstanceError, source: str, offset: int) -> InstanceError:
    prefix = re.compile(re.escape(source) + r":(\d+):")

    def shift(text: str) -> str:
        return prefix.sub(lambda m: f"{source}:{int(m.group(1)) + offset}:", text, count=1)

    if not offset or not prefix.match(str(err)):
        return err
    copy = InstanceError(shift(str(err)))
    if err.cli_message:
        copy.with_cli(shift(err.cli_message))
    return copy


class _Cutter:
    """Cuts lines into pieces of about ``chunk_lines`` lines (or :data:`CHUNK_BYTES`), only
    where no puzzle straddles the cut: after a blank, ``#`` or header line; or inside a block
    of content lines where the reader would not see a grid across the cut (:meth:`_inside`).
    Each piece comes with how its first lines, which go on with a block cut before it, are
    to be read (the layout that block has for certain)."""

    def __init__(self, chunk_lines: int, layout: str):
        self.chunk_lines, self.layout = chunk_lines, layout
        self._new_block()

    def _new_block(self) -> None:
        self.rows = 0           # content rows of the block so far
        self.cells = 0          # cells of its first row
        self.uniform = True     # every row has that many cells
        self.ruled = False      # a separator or a rule line
        self.spaced = True      # every row is spaced as a grid writer spaces them
        self.plain_long = False  # a row without spaces longer than any grid row
        self.grid_n = 0         # the side of the grid being read (as read_grids does)
        self.grid_rows = 0      # its rows so far
        self.grids = 0          # grids complete so far
        self.broken = False     # a grid row of another length: read_grids reads no further

    def _add(self, line: str, kind: str) -> None:
        if kind == RULE:
            self.ruled = self.ruled or self.rows > 0
            return
        text = line.strip()
        plain = " " not in text and "\t" not in text   # one field: the common case, quickly
        spaced = 0 if plain else spaced_cells(text)
        cells = spaced or char_cells(text)
        self.rows += 1
        self.cells = self.cells or cells
        self.broken = self.broken or bool(self.grid_rows) and cells != self.grid_n
        self.grid_n = self.grid_n if self.grid_rows else cells
        self.grid_rows += 1
        if self.grid_rows >= self.grid_n:
            self.grid_rows, self.grids = 0, self.grids + 1
        self.uniform = self.uniform and cells == self.cells
        self.spaced = self.spaced and not plain and spaced_row(text)
        self.ruled = self.ruled or "|" in text or "+" in text
        self.plain_long = self.plain_long or (plain and cells > MAX_CHAR_N)

    def _inside(self) -> str | None:
        """The layout of the block so far when a cut here leaves no grid across it, else
        None. ``line``: any cut. ``grid`` (or a block with a grid's marks): after a whole
        grid (as :func:`~.puzzle_grids.read_grids` counts them), once the block is no
        jigsaw grid and its map (``2 * cells`` rows of ``cells`` cells). ``auto``, unmarked: once
        the block is no grid whatever follows (rows too long, of different lengths, or more
        than ``2 * cells`` of them).

        What no cut can know is the rest of the block: a block whose rows change kind after
        the cut (spaced rows, then rows without spaces; rows without separators, then a row
        with ``|``) is read as its first part says. With cuts only past :data:`CHUNK_LINES`
        lines or :data:`CHUNK_BYTES`, that takes such a block of over 16,384 lines."""
        if self.layout == "line":
            return "line"
        if self.layout == "grid" or self.ruled or (self.spaced and self.rows > 1):
            jigsaw = self.uniform and not self.ruled and self.rows <= 2 * self.cells
            return "grid" if self.grid_rows == 0 and not (jigsaw or self.broken) else None
        if self.plain_long or not self.uniform or self.rows > 2 * self.cells:
            return "line"
        return None

    def cut(self, lines: Iterable[str], offset: int = 0
            ) -> Iterator[tuple[int, list[str], int, str | None]]:
        """``(lines before, piece, lead, lead layout)`` for consecutive pieces; ``lead``: the
        first lines of the piece that go on with a block cut before it; ``offset``: lines
        before the first."""
        piece: list[str] = []
        size = 0
        lead_layout: str | None = None
        for line in lines:
            piece.append(line)
            size += len(line)
            kind = line_kind(line.rstrip("\n").rstrip("\r"))
            boundary = kind in (SKIP, HEAD)
            if boundary:
                self._new_block()
            else:
                self._add(line, kind)
            if len(piece) < self.chunk_lines and size < CHUNK_BYTES:
                continue
            inside = None if boundary else self._inside()
            if boundary or inside is not None:
                yield offset, piece, _lead(piece, lead_layout), lead_layout
                offset += len(piece)
                piece, size, lead_layout = [], 0, inside
        if piece:
            yield offset, piece, _lead(piece, lead_layout), lead_layout


def _lead(piece: list[str], layout: str | None) -> int:
    """How many lines of ``piece`` come before its first blank, comment or header line (0
    when the piece starts a block: ``layout`` None)."""
    if layout is None:
        return 0
    for index, line in enumerate(piece):
        if line_kind(line.rstrip("\n").rstrip("\r")) in (SKIP, HEAD):
            return index
    return len(piece)


def _chain(head: list[str], rest: Iterable[str]) -> Iterator[str]:
    yield from head
    yield from rest


def _significant(line: str) -> bool:
    """A line that :func:`~sudokit.problems.sniff_kind` reads (not blank, ``#`` or ``c``)."""
    stripped = line.strip().lower()
    return bool(stripped) and not stripped.startswith(("#", "c ")) and stripped != "c"


def _decoded_lines(stream: IO[bytes], source: str, start: int = 1) -> Iterator[str]:
    """The lines of ``stream`` (with their line breaks) as text, the first being line
    ``start``, each read with a bounded length (:func:`~sudokit.formats.textio.read_line`);
    UTF-8 errors as :func:`~sudokit.formats.read_text` reports them (a leading byte-order
    mark dropped)."""
    number = start
    while raw := read_line(stream, source, number):
        shift = 3 if number == 1 and raw.startswith(b"\xef\xbb\xbf") else 0
        try:
            text = raw[shift:].decode("utf-8")
        except UnicodeDecodeError as err:
            at = err.start + shift
            raise ParseError(f"not UTF-8 text (byte 0x{raw[at]:02x})", source, number,
                             at + 1) from None
        yield text
        number += 1


def _open(path: str) -> contextlib.AbstractContextManager[Any]:
    """The input as a binary stream (standard input unclosed); errors as
    :func:`~sudokit.formats.read_text` words them."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text-only stdin (click's test runner gives bytes)
            import io

            return io.BytesIO(sys.stdin.read().encode())
        return contextlib.nullcontext(stream)  # left open
    return open_binary(path)
