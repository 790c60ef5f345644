"""Blocks that a Ctrl-C (or SIGTERM) must not cut in two.

Python raises ``KeyboardInterrupt`` between any two bytecodes. Some steps leave broken state
when cut there: a Dask cluster half started, or a PySAT solver whose C object is freed but
whose Python handle still points at it (its destructor then frees it again and the process
aborts: ``munmap_chunk(): invalid pointer``). :func:`signals_deferred` holds the signal until
the block ends.

:func:`signals_held` keeps the signals instead, until :func:`take_held_signal` asks: the
command line loads and parses its arguments under it, so that a Ctrl-C in its first tenths
of a second ends it with its one line and exit 130 (143 for SIGTERM), not a traceback of
whatever import it landed in.

Examples
--------
>>> with signals_deferred():
...     pass
>>> with signals_held():
...     signal.raise_signal(signal.SIGINT)
>>> take_held_signal() == signal.SIGINT, take_held_signal()
(True, None)
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

__all__ = ["signals_deferred", "signals_held", "take_held_signal"]

#: SIGINT and SIGTERM received under :func:`signals_held` and not taken yet, in order
_HELD: list[int] = []


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """SIGINT and SIGTERM received in the block are delivered when it ends (to the handlers
    in place before it); outside the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = {signum: signal.signal(signum, lambda signum, frame: received.append(signum))
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if received:
            signal.raise_signal(received[0])


def _hold(signum: int, frame: object) -> None:
    _HELD.append(signum)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM received in the block are kept for :func:`take_held_signal`, not
    raised; a signal ignored when the block starts stays ignored; outside the main thread,
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _hold)
                for signum in (signal.SIGINT, signal.SIGTERM)
                if signal.getsignal(signum) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def take_held_signal() -> int | None:
    """The first signal :func:`signals_held` kept since the last call (the others are
    forgotten with it), or None."""
    first = _HELD[0] if _HELD else None
    _HELD.clear()
    return first
