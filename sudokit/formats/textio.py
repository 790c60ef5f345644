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

__all__ = ["read_text", "STDIN_NAME", "numbered_lines", "int_fields", "MAX_INT"]

STDIN_NAME = "<stdin>"
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
        data = stream.read() if stream is not None else sys.stdin.read()
    else:
        source = path
        with open_binary(path) as handle:
            data = handle.read()
    if isinstance(data, str):
        return data, source
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise ParseError(f"not UTF-8 text (byte 0x{data[err.start]:02x})", source,
                         line, column) from None
