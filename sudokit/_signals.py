"""Blocks that a Ctrl-C (or SIGTERM) must not cut in two.

Python raises ``KeyboardInterrupt`` between any two bytecodes. Some steps leave broken state
when cut there: a Dask cluster half started, or a PySAT solver whose C object is freed but
whose Python handle still points at it (its destructor then frees it again and the process
aborts: ``munmap_chunk(): invalid pointer``). :func:`signals_deferred` holds the signal until
the block ends.

Examples
--------
>>> with signals_deferred():
...     pass
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

__all__ = ["signals_deferred"]


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
