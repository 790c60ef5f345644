"""Reading instance text from a file or standard input, with errors a user can act on, and the
small pieces every reader shares: numbered lines and located integer fields.

Examples
--------
>>> list(numbered_lines("a\\r\\nb\\x0cc"))
[(1, 'a'), (2, 'b\\x0cc')]
>>> int_fields("1 -2 x", "m.txt", 3)
Traceback (most recent call last):
...
sudokit.errors.ParseError: m.txt:3:6: not an integer: 'x'
>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
...     _ = handle.write("..3\\n")
>>> read_text(handle.name)[0]
'..3\\n'
>>> os.remove(handle.name)
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator

import numpy as np

from ..errors import ParseError, UnreadableFileError

__all__ = ["read_text", "STDIN_NAME", "numbered_lines", "int_fields", "MAX_INT", "MAX_LINE",
           "read_line", "too_long"]

STDIN_NAME = "<stdin>"
#: the longest line any reader takes, in bytes (with a ``\r`` before its line break, if
#: any): 1 MiB, four times the longest line of the largest instance a solver here could take
#: on, a one-line 256x256 puzzle of integers (65,536 cells of up to three digits and a space:
#: 262,144 bytes; the CP engines stop at 64 values, a ``.pls`` row, a clause, an edge or an
#: exact cover option is far shorter). A longer line, or a file with no line break, is an
#: error at once, read no further.
MAX_LINE = 1 << 20
#: how much a whole-file read takes at a time (less than :data:`MAX_LINE`)
_BLOCK = 1 << 18
#: the largest integer field: literals, vertices and colors are stored as int32
MAX_INT = 2**31 - 1

_TOKEN = re.compile(r"\S+")
_INT = re.compile(r"[+-]?[0-9]+")


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(number, line)`` for every line, numbered from 1 as an editor does: only ``\\n``
    ends a line (``\\r\\n`` too, its ``\\r`` dropped; a form feed does not)."""
    for number, line in enumerate(text.split("\n"), start=1):
        yield number, line[:-1] if line.endswith("\r") else line


def int_fields(line: str, source: str, number: int, bound: int = MAX_INT) -> np.ndarray:
    """The whitespace-separated integers of ``line`` (int64), each within ``-bound..bound``;
    a ParseError at the column of the first field that is not."""
    fields = line.split()
    try:
        values = np.array(fields, dtype=np.int64)
    except (ValueError, OverflowError):
        values = None
    if values is not None and (values.size == 0 or (values <= bound).all()
                               and (values >= -bound).all()):
        return values
    for m in _TOKEN.finditer(line):
        token, column = m.group(), m.start() + 1
        if not _INT.fullmatch(token):
            raise ParseError(f"not an integer: {token!r}", source, number, column)
        if abs(int(token)) > bound:
            raise ParseError(f"{int(token)} is outside -{bound}..{bound}", source, number,
                             column)
    raise ParseError("malformed line of integers", source, number)  # not reached


def too_long(source: str, line: int) -> ParseError:
    """The error for line ``line`` of ``source``, longer than :data:`MAX_LINE` bytes."""
    return ParseError(f"line longer than {MAX_LINE:,} bytes (the longest line of any instance"
                      " is far shorter): not instance text, or no line breaks", source, line)


def read_line(stream, source: str, number: int) -> bytes:
    """The next line of the binary ``stream`` with its line break (``b""`` at the end), read
    with a bounded length: a :func:`too_long` error for line ``number`` past
    :data:`MAX_LINE` bytes."""
    raw = stream.readline(MAX_LINE + 1)
    if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
        raise too_long(source, number)
    return raw


def _read_bounded(stream, source: str) -> bytes:
    """All of ``stream``, a block at a time, raising :func:`too_long` as soon as a line is
    longer than :data:`MAX_LINE` bytes (so ``/dev/zero`` costs one line, not all memory).
    A block is shorter than a line may be, so only the line running across blocks needs
    watching."""
    parts: list[bytes] = []
    lines = 0      # line breaks read so far
    current = 0    # bytes of the line being read
    while block := stream.read(_BLOCK):
        first = block.find(b"\n")
        if first < 0:
            current += len(block)
        elif current + first > MAX_LINE:
            raise too_long(source, lines + 1)
        else:
            lines += block.count(b"\n")
            current = len(block) - block.rfind(b"\n") - 1
        if current > MAX_LINE:
            raise too_long(source, lines + 1)
        parts.append(block)
    return b"".join(parts)


def open_binary(path: str):
    """``open(path, "rb")``, its failures as one :class:`UnreadableFileError` line.

    Examples
    --------
    >>> open_binary("/nonexistent/p.txt")
    Traceback (most recent call last):
    ...
    sudokit.errors.UnreadableFileError: cannot read /nonexistent/p.txt: no such file
    """
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise UnreadableFileError(f"cannot read {path}: no such file") from None
    except IsADirectoryError:
        raise UnreadableFileError(f"cannot read {path}: is a directory") from None
    except PermissionError:
        raise UnreadableFileError(f"cannot read {path}: permission denied") from None
    except OSError as err:
        raise UnreadableFileError(f"cannot read {path}: {err.strerror or err}") from None


def read_text(path: str) -> tuple[str, str]:
    """Return ``(text, source_name)`` of ``path``; ``"-"`` reads standard input.

    Parameters
    ----------
    path : str
        A file name, or ``"-"`` for standard input.

    Returns
    -------
    text : str
        The decoded UTF-8 text (a leading byte-order mark is dropped).
    source_name : str
        ``path`` itself, or ``"<stdin>"``; used as the prefix of error messages.

    Raises
    ------
    UnreadableFileError
        The file is missing, a directory or not readable.
    ParseError
        The bytes are not UTF-8.

    Examples
    --------
    >>> read_text("/nonexistent/p.txt")
    Traceback (most recent call last):
    ...
    sudokit.errors.UnreadableFileError: cannot read /nonexistent/p.txt: no such file
    """
    path = str(path)
    if path == "-":
        source = STDIN_NAME
        stream = getattr(sys.stdin, "buffer", None)
        data = _read_bounded(stream, source) if stream is not None else sys.stdin.read()
    else:
        source = path
        with open_binary(path) as handle:
            data = _read_bounded(handle, source)
    if isinstance(data, str):
        return data, source
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise ParseError(f"not UTF-8 text (byte 0x{data[err.start]:02x})", source,
                         line, column) from None
