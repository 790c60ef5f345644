"""Progress on stderr: one line, drawn by tqdm, for the commands and for library callers.

A :class:`Progress` is told how far a run is (``progress(done)``), what it is doing before
the first answer (:meth:`Progress.phase`: ``starting 2 workers``, ``compiling the takano
kernels``, ``filling the grid``), where in a regular file it stands
(:meth:`Progress.position`: the line of the last answer out of the file's lines, counted
ahead) and, from inside one long count, how many solutions the engine has found
(:func:`tell_found`, which the engines' sliced searches call between slices). It draws a line
with tqdm's meter: percent, bar, elapsed time and time left when the total is known (the
instances of a file read in one chunk, else the file's lines), a count and a rate when it is
not (standard input), and a spinner with the elapsed time and the solutions found while one
instance takes long.

Whether anything is drawn: :func:`configure` (the command line's ``--progress`` or
``--quiet``) wins; else ``SUDOKIT_NO_PROGRESS=1`` turns it off; else it is on when stderr is a
terminal. On a terminal the line is rewritten in place at most four times a second; with
``--progress`` on a pipe or a log, one line every 10 seconds. Nothing is drawn in the first
2 seconds (a quick run prints nothing).

Examples
--------
>>> import io
>>> progress = Progress(10, "counting", show=True, stream=io.StringIO(), clock=lambda: 0.0)
>>> progress(4)
>>> progress.line(8.0)
'counting:  40% 4/10 [00:08<00:12] (0.5/s)'
>>> progress.close()
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import IO, ClassVar

__all__ = ["Progress", "configure", "count_lines", "enabled", "quiet", "tell_found"]

#: what :func:`configure` was told: True (``--progress``), False (``--quiet``) or None
_setting: dict[str, bool | None] = {"show": None}

#: the environment variable that turns progress (and the notes that go with it) off
NO_PROGRESS = "SUDOKIT_NO_PROGRESS"


def configure(show: bool | None) -> None:
    """Turn progress on (True: also when stderr is no terminal), off (False), or back to the
    default (None: on a terminal unless ``SUDOKIT_NO_PROGRESS=1``)."""
    _setting["show"] = show


def quiet() -> bool:
    """Whether progress and the notes that go with it were turned off on purpose (``--quiet``,
    or ``SUDOKIT_NO_PROGRESS=1`` without ``--progress``)."""
    show = _setting["show"]
    return show is False or (show is None and os.environ.get(NO_PROGRESS) == "1")


def enabled(stream: IO[str] | None = None) -> bool:
    """Whether progress is drawn on ``stream`` (default stderr): see the module.

    >>> configure(False); enabled()
    False
    >>> configure(None)
    """
    show = _setting["show"]
    if show is not None:
        return show
    if os.environ.get(NO_PROGRESS) == "1":
        return False
    return _is_terminal(stream or sys.stderr)


def _is_terminal(stream: IO[str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def tell_found(count: int) -> None:
    """An engine inside one long count has found ``count`` solutions so far (called between
    slices of its search); the progress shown now says so. Costs nothing when none is shown.
    """
    current = Progress.current
    if current is not None:
        current.found = count


def count_lines(path: str, block: int = 1 << 20) -> int:
    """The lines of the file ``path`` (a last line without a newline counts), counted in
    blocks: about a second a gigabyte, so cheap next to answering them.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", delete=False) as handle:
    ...     _ = handle.write("a\\nb\\nc")
    >>> count_lines(handle.name)
    3
    >>> os.remove(handle.name)
    """
    lines, last = 0, b"\n"
    with open(path, "rb") as handle:
        while chunk := handle.read(block):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")


_SPINNER = "|/-\\"


class Progress:
    """One progress line (see the module).

    Parameters
    ----------
    total : int or None
        Instances in all, None when unknown (a stream).
    label : str
        What the run does: ``counting``, ``grading``.
    delay : float, optional
        Seconds before anything is drawn (default :attr:`DELAY`).
    ticking : bool
        Keep the line moving from a thread while no answer comes (when it is drawn: in place
        on a terminal, a line every 10 s elsewhere): how long the next answer has been waited
        for, a spinner and the solutions found so far.
    noun : str
        What ``total`` counts, for the line of a file's position (``12,990 instances``).
    found_noun : str
        What :func:`tell_found` counts (``solutions found``).
    show : bool, optional
        Draw or not, whatever :func:`enabled` says.
    stream : file, optional
        Where to draw (default: stderr at the time of each write).
    clock : callable
        Seconds, monotonic (tests drive it).
    """

    #: seconds without an answer before the line names the instance being waited for
    patience = 1.0
    #: seconds before anything is drawn, by default: a quick run prints nothing
    DELAY = 2.0
    #: the progress shown now: one made while another is open (the classes of one count)
    #: takes the line until it closes
    current: ClassVar[Progress | None] = None

    def __init__(self, total: int | None, label: str, delay: float | None = None,
                 ticking: bool = False, noun: str = "instances",
                 found_noun: str = "solutions found", show: bool | None = None,
                 stream: IO[str] | None = None, clock: Callable[[], float] = time.monotonic):
        self.total, self.label, self.noun, self.found_noun = total, label, noun, found_noun
        self.clock = clock
        self.started = clock()
        self.delay = self.DELAY if delay is None else delay
        self.stream = stream
        self.quiet = not (enabled(stream) if show is None else show)
        self.tty = _is_terminal(self._out())
        self.interval = 0.25 if self.tty else 10.0
        self.last = self.started + self.delay - self.interval
        self.shown = False
        self.done = 0
        self.answered = self.started   # when ``done`` last grew
        self.found: int | None = None  # solutions found in the instance counted now
        self.doing: str | None = None  # the phase before the first answer
        self.lines: int | None = None  # the file's lines, when its position is shown
        self.at_line = 0
        self.ticks = 0
        self.printer: Callable[[str], None] | None = None
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.ticker: threading.Thread | None = None
        self.outer, Progress.current = Progress.current, self
        if ticking and not self.quiet:
            self.ticker = threading.Thread(target=self._tick, name="sudokit-progress",
                                           daemon=True)
            self.ticker.start()

    def _out(self) -> IO[str]:
        return self.stream if self.stream is not None else sys.stderr

    # what the run tells --------------------------------------------------------------------
    def __call__(self, done: int) -> None:
        """``done`` instances are answered."""
        with self.lock:
            now = self.clock()
            if done != self.done:
                self.done, self.answered, self.found = done, now, None
                self.doing = None
            self._show(now)

    def phase(self, doing: str | None) -> None:
        """What the run does before its next answer (``starting 2 workers``); None: back to
        the count (as the next answer does)."""
        with self.lock:
            self.doing = doing
            self._show(self.clock())

    def position(self, line: int, lines: int) -> None:
        """The last answer read came from line ``line`` of a file of ``lines`` lines."""
        self.at_line, self.lines = line, lines

    # drawing -------------------------------------------------------------------------------
    def _tick(self) -> None:
        while not self.stopped.wait(min(self.interval, 0.25)):
            with self.lock:
                self.ticks += 1
                self._show(self.clock())

    def _show(self, now: float) -> None:
        if (self.quiet or Progress.current is not self or now - self.last < self.interval
                or now - self.started < self.delay):
            return
        self.last = now
        text = self.line(now)
        if self.tty:
            if self.printer is None:
                from tqdm import tqdm

                self.printer = tqdm.status_printer(self._out())
            self.printer(text)
        else:
            self._out().write(text + "\n")
            self._out().flush()
        self.shown = True

    def line(self, now: float) -> str:
        """The line drawn at time ``now`` (what tests check)."""
        from tqdm import tqdm

        elapsed = max(0.0, now - self.started)
        done, waited = self.done, now - self.answered
        turning = self.ticker is not None and self.tty   # a log gets no spinner
        spin = _SPINNER[self.ticks % len(_SPINNER)] + " " if turning else ""
        if self.doing is not None:
            return f"{self.label}: {spin}{self.doing} [{tqdm.format_interval(elapsed)}]"
        waiting = ""
        if waited >= self.patience and (self.ticker is not None or self.found is not None) \
                and (self.total is None or done < self.total):
            waiting = f" {spin}#{done + 1} for {int(waited)} s"
            if self.found is not None:
                waiting += f", {self.found:,} {self.found_noun}"
        rate = self.rate(done, elapsed)
        bar = "|{bar}|" if self.tty else ""
        width = _columns(self._out()) if self.tty else None
        if self.total is not None:
            return tqdm.format_meter(
                done, self.total, elapsed, ncols=width, prefix=self.label,
                bar_format="{desc}: {percentage:3.0f}%" + bar + " {n:,}/{total:,} "
                           "[{elapsed}<{remaining}]" + _braced(rate + waiting))
        if self.lines:
            return tqdm.format_meter(
                self.at_line, self.lines, elapsed, ncols=width, prefix=self.label,
                bar_format="{desc}: {percentage:3.0f}%" + bar + " [{elapsed}<{remaining}] "
                           + _braced(f"{done:,} {self.noun}{rate}{waiting}"))
        return f"{self.label}: {done:,} [{tqdm.format_interval(elapsed)}]{rate}{waiting}"

    @staticmethod
    def rate(done: int, elapsed: float) -> str:
        """`` (1,234/s)``, `` (2.5/s)`` or `` (0.4/s)``; empty before the first item is done
        or the first second has passed (a rate of ``0/s`` says nothing).

        >>> Progress.rate(5000, 1.25), Progress.rate(1, 2.5), Progress.rate(0, 9.0)
        (' (4,000/s)', ' (0.4/s)', '')
        """
        if done < 1 or elapsed < 1.0:
            return ""
        rate = done / elapsed
        return f" ({rate:,.0f}/s)" if rate >= 10 else f" ({rate:.2g}/s)"

    def close(self) -> None:
        """Stop the ticker, give the line back to the progress this one opened inside, and
        end the line on a terminal."""
        self.stopped.set()
        if self.ticker is not None:
            self.ticker.join()
        if Progress.current is self:
            Progress.current = self.outer
        if self.shown and self.tty:
            self._out().write("\n")
            self._out().flush()

    def note(self, text: str) -> None:
        """A line of its own (``sudokit: note ...``) that the progress line does not cover."""
        with self.lock:
            if self.shown and self.tty:
                self._out().write("\n")
                self.printer = None
                self.shown = False
            self._out().write(f"sudokit: {text}\n")
            self._out().flush()


def _braced(text: str) -> str:
    """``text`` as literal text of a tqdm ``bar_format`` (its braces doubled)."""
    return text.replace("{", "{{").replace("}", "}}")


def _columns(stream: IO[str]) -> int | None:
    """The terminal's width, None when it says none (0, as a bare pseudo-terminal does: tqdm
    would then drop all but the count)."""
    try:
        return os.get_terminal_size(stream.fileno()).columns or None
    except (AttributeError, OSError, ValueError):
        return None
