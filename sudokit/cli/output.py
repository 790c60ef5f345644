"""Writing results: stdout or an atomic ``-o`` file, JSON lines, the progress flags, and
values written as the input numbers them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

import click

from ..errors import OutputError
from ..formats.styles import STYLES, output_style
from ..progress import configure

__all__ = ["ZERO_BASED_STYLES", "emit_json", "output_option", "output_stream",
           "progress_option", "speak_values", "write_output", "written_value"]


def emit_json(obj, file=None) -> None:
    """One JSON object on one line (results go out in blocks, not a flush per line)."""
    (file or sys.stdout).write(json.dumps(obj, separators=(",", ":")) + "\n")


# -- values as the input numbers them ----------------------------------------------------

#: Record styles whose files number values from 0 (their ``zero_based`` in the styles registry,
#: :mod:`sudokit.formats.styles`); inside sudokit, and in every other style, values are 1..n.
ZERO_BASED_STYLES = frozenset(name for name, style in STYLES.items() if style.zero_based)


def written_value(style: str, value: Any) -> Any:
    """A value (an int or an array of them) as a record of ``style`` writes it: ``.pls``
    numbers symbols 0..n-1 (and a hole -1), everything else 1..n (0 empty)."""
    return output_style(style).written(value)


#: The messages of ``GridPuzzle.violations`` that quote values; the named groups ``value``,
#: ``given``, ``low`` and ``high`` hold one each.
_VALUE_MESSAGES = (
    re.compile(r".+ holds (?P<value>-?\d+), not a value in (?P<low>-?\d+)\.\.(?P<high>\d+)"),
    re.compile(r"given (?P<given>\d+) at .+ was changed to (?P<value>-?\d+)"),
    re.compile(r"value (?P<value>\d+) repeats in .+"),
)


def speak_values(message: str, style: str) -> str:
    """A violation message with its values numbered as a record of ``style`` numbers them
    (positions stay 1-based: rows and columns are not values)."""
    if not output_style(style).zero_based:
        return message
    for pattern in _VALUE_MESSAGES:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        pieces, end = [], 0
        for name, text in match.groupdict().items():
            if text is None:
                continue
            start, stop = match.span(name)
            pieces += [message[end:start], str(written_value(style, int(text)))]
            end = stop
        return "".join(pieces) + message[end:]
    return message


def progress_option(func):
    """``--progress/--quiet``: draw the progress line on stderr even when it is no terminal
    (a log gets a line every 10 s), or never; left out, it is drawn on a terminal unless
    ``SUDOKIT_NO_PROGRESS=1`` (:mod:`sudokit.progress`). Either flag wins over the variable.
    """
    return click.option(
        "--progress/--quiet", "show_progress", default=None, expose_value=False,
        callback=lambda ctx, param, value: configure(value),
        help="Progress on stderr: --progress draws it even when stderr is no terminal (a line "
             "every 10 s), --quiet never (nor the notes on compiling kernels and starting "
             "workers). Default: on a terminal, unless SUDOKIT_NO_PROGRESS=1.")(func)


def output_option(func):
    """``-o OUT``: write the results to OUT instead of stdout."""
    return click.option("-o", "--output", metavar="OUT",
                        help="Write to OUT instead of stdout.")(func)


@contextlib.contextmanager
def output_stream(path: str | None, binary: bool = False, inputs: Sequence[str] = ()):
    """A stream for results: stdout when ``path`` is None or ``-``, else a file written
    atomically.

    The file is written next to its final place and renamed over ``path`` only when the block
    ends without an error, so an interrupted or failed run leaves the old file (or none), never
    a prefix. A file replaced keeps its mode and, where the user may set them, its owner and
    group (:func:`_take_over`). ``path`` must not be an existing directory, device or symbolic
    link, nor a file the user may not write, nor one of ``inputs`` (the files the command
    reads). Failures are one :class:`~sudokit.errors.OutputError` line.
    """
    if path is None or path == "-":
        yield sys.stdout.buffer if binary else sys.stdout
        sys.stdout.flush()
        return
    _check_output_path(path, inputs)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".sudokit-", suffix=".part")
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None
    try:
        with os.fdopen(handle, "wb" if binary else "w") as stream:
            yield stream
        _take_over(temporary, path)
        os.replace(temporary, path)   # a link put at ``path`` meanwhile is replaced, not followed
    except OSError as err:
        raise OutputError(f"cannot write {path}: {err.strerror}") from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _check_output_path(path: str, inputs: Sequence[str]) -> None:
    for source in inputs:
        if source != "-" and os.path.exists(path) and os.path.exists(source) \
                and os.path.samefile(path, source):
            raise OutputError(f"cannot write {path}: it is the input file")
    if os.path.islink(path):
        raise OutputError(f"cannot write {path}: it is a symbolic link (to "
                          f"{os.readlink(path)}); name the file itself")
    if os.path.isdir(path):
        raise OutputError(f"cannot write {path}: it is a directory")
    if os.path.exists(path) and not os.path.isfile(path):
        raise OutputError(f"cannot write {path}: not a regular file (a device or a pipe); "
                          "leave out -o to write to stdout")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise OutputError(f"cannot write {path}: Permission denied")


def _take_over(temporary: str, path: str) -> None:
    """Give ``temporary`` the mode, owner and group of the file ``path`` it will replace (the
    owner and group as far as the user may set them), or, for a new file, the mode
    ``open()`` would give it."""
    try:
        old = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        os.chmod(temporary, 0o666 & ~_umask())
        return
    for owner in ((old.st_uid, old.st_gid), (-1, old.st_gid)):
        try:
            os.chown(temporary, *owner)
            break
        except PermissionError:
            continue
    os.chmod(temporary, stat.S_IMODE(old.st_mode))   # after chown, which clears set-id bits


def write_output(path: str | None, data: str | bytes | None = None, writer=None,
                 inputs: Sequence[str] = ()) -> None:
    """Write ``data`` (or what ``writer(stream)`` writes to a binary stream) to ``path``, or to
    stdout when ``path`` is None (see :func:`output_stream`)."""
    with output_stream(path, binary=True, inputs=inputs) as stream:
        if writer is not None:
            writer(stream)
        elif data is not None:
            stream.write(data.encode() if isinstance(data, str) else data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
