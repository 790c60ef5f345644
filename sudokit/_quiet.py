"""Keep a C library's own printing off standard output.

Some back ends write to the process's standard output (file descriptor 1) from C or C++,
below Python and before any option can turn it off: HiGHS 1.16 prints its banner while a
``Highs`` object is built. Standard output carries sudokit's answers (``solve | check``,
``--json``), so :func:`c_stdout_silenced` points descriptor 1 at the null device for the
length of such a call and restores it after, flushing Python's and C's buffers on both sides
so that no byte moves across. This module imports nothing of sudokit.

Examples
--------
>>> with c_stdout_silenced():
...     pass
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterator

__all__ = ["c_stdout_silenced"]


def _flush_c_streams() -> None:
    """``fflush(NULL)``: whatever C's stdio holds goes to the descriptor it belongs to now."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # no C library to reach (not Linux or macOS)
        pass


@contextlib.contextmanager
def c_stdout_silenced() -> Iterator[None]:
    """Descriptor 1 goes to the null device in the block (Python's ``sys.stdout`` is flushed
    first and the C library's buffers on both sides); without a usable descriptor 1, nothing
    changes."""
    try:
        sys.stdout.flush()
    except (AttributeError, OSError, ValueError):
        pass
    _flush_c_streams()
    try:
        saved = os.dup(1)
    except OSError:  # descriptor 1 is closed: nothing to protect
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
        finally:
            os.close(null)
        try:
            yield
        finally:
            _flush_c_streams()
            os.dup2(saved, 1)
    finally:
        os.close(saved)
