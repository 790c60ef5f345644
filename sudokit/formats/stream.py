"""Reading a file of many puzzles in chunks, so that memory stays flat on files of millions.

:func:`read_instance_chunks` yields the records of FILE (``-``: standard input, read as it
arrives) a chunk at a time: about :data:`CHUNK_LINES` lines, cut only where no puzzle can
straddle the cut (after a blank, ``#`` or header line; or, in a run of one-line puzzles of more
than :data:`MIN_CUT_WIDTH` characters, between two lines: no grid row is that long). Each chunk
is parsed by the kind's own parser, its line numbers (records, errors, skipped lines) shifted to
the whole file's, so the records are the ones :func:`~sudokit.formats.read_instances` gives.
Inputs that hold one instance (``.pls``, ``.col``, DIMACS, DLX) are read whole, as before.

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
from .puzzle_text import HEAD, REGIONS_LINE, SKIP, VARIANT_HEADER, OnBad, line_kind
from .record import Record
from .textio import STDIN_NAME, open_binary

__all__ = ["CHUNK_LINES", "MIN_CUT_WIDTH", "read_instance_chunks"]

#: lines per chunk (a chunk is cut at the first safe place from here on)
CHUNK_LINES = 1 << 14

#: a run of equal lines without spaces may be cut between two lines when they are longer than
#: this: a character grid's row is at most 36 cells and its separators
MIN_CUT_WIDTH = 72

_SPACE = re.compile(r"\s")


def read_instance_chunks(path: str, problem: str | None = None,
                         box: tuple[int, int] | None = None, colors: int | None = None,
                         on_bad: OnBad | None = None, chunk_lines: int | None = None,
                         columns: bool = False) -> Iterator[list[Record] | ColumnChunk]:
    """Yield the records of FILE a chunk at a time (see the module); arguments as in
    :func:`~sudokit.formats.read_instances`, whose errors and messages it gives too, except
    that an error in a later chunk comes after the earlier chunks were yielded.
    ``columns``: clean pieces of one-line puzzles as arrays (see the module);
    ``chunk_lines``: by default :data:`CHUNK_LINES` (read at each call)."""
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
            yield parse_instances(text, source, kind, box, colors, on_bad=on_bad)
            return
        shape = _column_shape(head[-1], kind, box) if columns and head else None
        if shape is None:
            yield from _chunks(_cut(_chain(head, lines), chunk_lines), source, kind, box,
                               colors, on_bad)
            return
        yield from _column_chunks(stream, head, shape, chunk_lines, source, kind, box,
                                  colors, on_bad)


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


def _column_chunks(stream, head, shape, chunk_lines, source, kind, box, colors, on_bad):
    """Arrays for the clean pieces of the file; records (the general reader) from the first
    piece on that is not clean (:func:`~sudokit.formats.columns.column_chunk`)."""
    width, grid_box = shape
    pending = [line.encode("utf-8") for line in head]
    offset = found = 0
    while True:
        piece = pending + stream.readlines(max(chunk_lines * (width + 1) - 1, 1))
        pending = []
        if not piece:
            return
        chunk = column_chunk(piece, offset, width, kind, grid_box)
        if chunk is None:
            break
        found += len(chunk)
        offset += len(piece)
        yield chunk
    start = offset + 1
    text = [_decoded(raw, source, start + index) for index, raw in enumerate(piece)]
    rest = _decoded_lines(stream, source, start + len(piece))
    yield from _chunks(_cut(_chain(text, rest), chunk_lines, offset), source, kind, box,
                       colors, on_bad, found)


def _decoded(raw: bytes, source: str, number: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ParseError(f"not UTF-8 text (byte 0x{raw[err.start]:02x})", source, number,
                         err.start + 1) from None


def _chunks(pieces, source, kind, box, colors, on_bad, found=0):
    skipped = 0
    content = False
    carry: list[str] = []   # a variant header and region map from the pieces before
    for offset, piece in pieces:
        before, carry = carry, _carried(carry, piece)
        if not any(line_kind(line.rstrip("\n")) != SKIP for line in piece):
            continue  # blank and comment lines only: nothing to parse
        content = True
        offset -= len(before)   # the carried lines are read as if just before the piece
        shifted = None if on_bad is None else _shift_reports(on_bad, offset)
        try:
            records = parse_instances("".join(before + piece), source, kind, box, colors,
                                      on_bad=shifted)
        except ParseError as err:
            if err.line is None and err.message.endswith("no instance found"):
                skipped += getattr(shifted, "count", 0)
                continue  # only headers or skipped lines here; the file may hold more
            raise _shifted(err, offset) from None
        except InstanceError as err:  # a rule broken, its message prefixed 'source:line:'
            raise _shifted_instance(err, source, offset) from None
        skipped += getattr(shifted, "count", 0)
        found += len(records)
        if offset:
            records = [Record(r.instance, r.line + offset, r.style) for r in records]
        yield records
    if not found:
        what = ("empty input" if not content else "no puzzle found (only header lines)"
                if not skipped else f"no valid puzzle found ({skipped} skipped)")
        raise ParseError(f"{what}, no instance found", source)


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


def _cut(lines: Iterable[str], chunk_lines: int, offset: int = 0
         ) -> Iterator[tuple[int, list[str]]]:
    """``(lines before, piece)`` for consecutive pieces of about ``chunk_lines`` lines, cut
    where no puzzle straddles the cut (see the module); ``offset``: lines before the first."""
    piece: list[str] = []
    width = 0  # the common length of the current run of lines without spaces (-1: none)
    for line in lines:
        piece.append(line)
        bare = line.strip()
        boundary = line_kind(line.rstrip("\n").rstrip("\r")) in (SKIP, HEAD)
        own = -1 if _SPACE.search(bare) else len(bare)
        if boundary:
            width = 0
        elif width == 0:
            width = own
        elif width != own:
            width = -1
        if len(piece) >= chunk_lines and (boundary or width > MIN_CUT_WIDTH):
            yield offset, piece
            offset += len(piece)
            piece = []
    if piece:
        yield offset, piece


def _chain(head: list[str], rest: Iterable[str]) -> Iterator[str]:
    yield from head
    yield from rest


def _significant(line: str) -> bool:
    """A line that :func:`~sudokit.problems.sniff_kind` reads (not blank, ``#`` or ``c``)."""
    stripped = line.strip().lower()
    return bool(stripped) and not stripped.startswith(("#", "c ")) and stripped != "c"


def _decoded_lines(stream: IO[bytes], source: str, start: int = 1) -> Iterator[str]:
    """The lines of ``stream`` (with their line breaks) as text, the first being line
    ``start``; UTF-8 errors as :func:`~sudokit.formats.read_text` reports them (a leading
    byte-order mark dropped)."""
    for number, raw in enumerate(stream, start=start):
        shift = 3 if number == 1 and raw.startswith(b"\xef\xbb\xbf") else 0
        try:
            text = raw[shift:].decode("utf-8")
        except UnicodeDecodeError as err:
            start = err.start + shift
            raise ParseError(f"not UTF-8 text (byte 0x{raw[start]:02x})", source, number,
                             start + 1) from None
        yield text


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
