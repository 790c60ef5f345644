"""Reading instance text from a file or standard input, with errors a user can act on.

Examples
--------
>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
...     _ = handle.write("..3\\n")
>>> read_text(handle.name)[0]
'..3\\n'
>>> os.remove(handle.name)
"""

from __future__ import annotations

import sys

from ..errors import ParseError, UnreadableFileError

__all__ = ["read_text", "STDIN_NAME"]

STDIN_NAME = "<stdin>"


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
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            raise UnreadableFileError(f"cannot read {path}: no such file") from None
        except IsADirectoryError:
            raise UnreadableFileError(f"cannot read {path}: is a directory") from None
        except PermissionError:
            raise UnreadableFileError(f"cannot read {path}: permission denied") from None
        except OSError as err:
            raise UnreadableFileError(f"cannot read {path}: {err.strerror or err}") from None
    if isinstance(data, str):
        return data, source
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise ParseError(f"not UTF-8 text (byte 0x{data[err.start]:02x})", source,
                         line, column) from None
