"""Standard streams that were closed when sudokit started (``>&-``, ``<&-``, ``2>&-``).

Python sets such a stream to None, and its first use failed with an ``AttributeError``
(exit 70). :func:`stand_in_for_closed_streams` puts the null device on each closed descriptor,
so that no file sudokit opens later (an ``-o`` file) takes its number and no C library writes
into one, and sets ``sys.stdin``, ``sys.stdout`` or ``sys.stderr`` to a stream that fails the
way docs/exit-codes.md says: reading a closed standard input is exit 3 (an
:class:`~sudokit.errors.UnreadableFileError`), writing to a closed standard output exit 7 (an
:class:`~sudokit.errors.OutputError`); what is written to a closed standard error is dropped.

Examples
--------
>>> out = ClosedOutput("standard output")
>>> out.write("")
0
>>> out.write("42\\n")
Traceback (most recent call last):
...
sudokit.errors.OutputError: cannot write standard output: it is closed
"""

from __future__ import annotations

import io
import os
import sys
from typing import Any

from ..errors import OutputError, UnreadableFileError

__all__ = ["ClosedInput", "ClosedOutput", "stand_in_for_closed_streams"]


class _Closed(io.RawIOBase):
    """A stand-in for a standard stream whose descriptor was closed; text and bytes alike
    (it is its own ``buffer``)."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    @property
    def buffer(self) -> _Closed:
        return self

    def isatty(self) -> bool:
        return False


class ClosedInput(_Closed):
    """Standard input that was closed: every read is an
    :class:`~sudokit.errors.UnreadableFileError` (exit 3)."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise UnreadableFileError(f"cannot read {self.name}: it is closed")


class ClosedOutput(_Closed):
    """Standard output that was closed: writing anything is an
    :class:`~sudokit.errors.OutputError` (exit 7), unless ``drop`` (standard error, where
    there is no one left to tell)."""

    def __init__(self, name: str, drop: bool = False) -> None:
        super().__init__(name)
        self.drop = drop

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if len(data) and not self.drop:
            raise OutputError(f"cannot write {self.name}: it is closed")
        return len(data)


def _is_open(descriptor: int) -> bool:
    try:
        os.fstat(descriptor)
    except OSError:
        return False
    return True


def stand_in_for_closed_streams() -> None:
    """For each standard descriptor that is closed: the null device on it, and for a Python
    stream that is None (Python found the descriptor closed at start) a stand-in."""
    for descriptor in (0, 1, 2):
        if not _is_open(descriptor):
            null = os.open(os.devnull, os.O_RDWR)   # the lowest free number: this one
            if null != descriptor:
                os.dup2(null, descriptor)
                os.close(null)
    if sys.stdin is None:
        sys.stdin = ClosedInput("standard input")  # type: ignore[assignment]
    if sys.stdout is None:
        sys.stdout = ClosedOutput("standard output")  # type: ignore[assignment]
    if sys.stderr is None:
        sys.stderr = ClosedOutput("standard error", drop=True)  # type: ignore[assignment]
