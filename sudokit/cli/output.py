"""Writing results: stdout or an atomic ``-o`` file, JSON lines, progress on stderr, and
values written as the input numbers them."""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import Any

import click

from ..errors import OutputError
from ..formats.styles import STYLES, output_style

__all__ = ["Progress", "ZERO_BASED_STYLES", "emit_json", "output_option", "output_stream",
           "speak_values", "write_output", "written_value"]


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


class Progress:
    """Progress on stderr for batches that run longer than a couple of seconds.

    On a terminal the line is rewritten in place; otherwise one line every 10 seconds. The
    rate appears once it means something: after the first item and the first second. With
    ``ticking``, on a terminal, a thread keeps the line going while no answer comes and says
    how long the next one in order has been waited for (``counting: 3/39 (0.2/s), #4 for
    12 s``), so one long instance never looks like a hang (a log gets its lines as answers
    come, as before). ``SUDOKIT_NO_PROGRESS=1`` turns it all off.
    """

    #: seconds without an answer before the line names the instance being waited for
    patience = 1.0
    #: the progress shown now: one made while another is open (the classes of one count)
    #: takes the line until it closes
    current: Progress | None = None

    def __init__(self, total: int, label: str, delay: float = 2.0,
                 ticking: bool = False):
        self.total, self.label = total, label
        self.started = time.monotonic()
        self.delay = delay
        self.tty = sys.stderr.isatty()
        self.interval = 0.25 if self.tty else 10.0
        self.last = self.started + delay - self.interval
        self.shown = False
        self.quiet = os.environ.get("SUDOKIT_NO_PROGRESS") == "1"
        self.done = 0
        self.answered = self.started  # when ``done`` last grew
        self.width = 0
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.ticker: threading.Thread | None = None
        self.outer, Progress.current = Progress.current, self
        if ticking and self.tty and not self.quiet:
            self.ticker = threading.Thread(target=self._tick, name="sudokit-progress",
                                           daemon=True)
            self.ticker.start()

    def __call__(self, done: int) -> None:
        with self.lock:
            now = time.monotonic()
            if done != self.done:
                self.done, self.answered = done, now
            self._show(now)

    def _tick(self) -> None:
        while not self.stopped.wait(min(self.interval, 0.25)):
            with self.lock:
                self._show(time.monotonic())

    def _show(self, now: float) -> None:
        if (self.quiet or Progress.current is not self or now - self.last < self.interval
                or now - self.started < self.delay):
            return
        self.last = now
        done = self.done
        of = "" if self.total is None else f"/{self.total}"  # None: a stream, total unknown
        line = (f"{self.label}: {done}{of}{self.rate(done, now - self.started)}"
                f"{self.eta(done, self.total, now - self.started)}")
        waited = now - self.answered
        if self.ticker is not None and waited >= self.patience and (
                self.total is None or done < self.total):
            line += f", #{done + 1} for {waited:.0f} s"
        if self.tty:
            sys.stderr.write(line.ljust(self.width) + "\r")
            self.width = len(line)
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()
        self.shown = True

    @staticmethod
    def rate(done: int, elapsed: float) -> str:
        """`` (1,234/s)``, `` (2.5/s)`` or `` (0.4/s)``; empty before the first item is done
        or the first second has passed (a rate of ``0/s`` says nothing)."""
        if done < 1 or elapsed < 1.0:
            return ""
        rate = done / elapsed
        return f" ({rate:,.0f}/s)" if rate >= 10 else f" ({rate:.2g}/s)"

    @staticmethod
    def eta(done: int, total: int | None, elapsed: float) -> str:
        """``, about 4 min left`` from the rate so far, once something is done and the
        total is known; empty otherwise.

        >>> Progress.eta(3, 7, 90.0), Progress.eta(0, 7, 9.0), Progress.eta(7, 7, 9.0)
        (', about 2 min left', '', '')
        """
        if not total or done < 1 or done >= total:
            return ""
        left = elapsed / done * (total - done)
        return (f", about {left:.0f} s left" if left < 90 else
                f", about {left / 60:.0f} min left" if left < 5400 else
                f", about {left / 3600:.1f} h left")

    def close(self) -> None:
        self.stopped.set()
        if self.ticker is not None:
            self.ticker.join()
        if Progress.current is self:
            Progress.current = self.outer
        if self.shown and self.tty:
            sys.stderr.write("\n")


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
