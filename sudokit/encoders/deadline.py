"""A deadline the encoders read between their steps, set by whoever holds the budget.

An exact cover of a 200x200 Sudoku takes seconds of numpy work to build; the engine that
builds it under a ``--time-limit`` sets the deadline around the call (:func:`encoding_deadline`)
and the encoder calls :func:`check_deadline` between its steps, so the budget holds while it
encodes, not only once it is done. No encoder signature carries it: the registries' encoders
keep one signature whatever their kind.

Examples
--------
>>> import time
>>> with encoding_deadline(time.monotonic() - 1):
...     check_deadline()
Traceback (most recent call last):
...
sudokit.errors.BudgetExhausted: the time budget ran out while encoding
>>> check_deadline()   # outside: no deadline
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar

from ..errors import BudgetExhausted

__all__ = ["check_deadline", "encoding_deadline"]

_DEADLINE: ContextVar[float | None] = ContextVar("encoding_deadline", default=None)


@contextlib.contextmanager
def encoding_deadline(at: float | None) -> Iterator[None]:
    """Encoders called in the block stop at ``at`` (a :func:`time.monotonic` time; None: no
    deadline) with :class:`~sudokit.errors.BudgetExhausted`."""
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_deadline() -> None:
    """Raise :class:`~sudokit.errors.BudgetExhausted` once the deadline has passed."""
    at = _DEADLINE.get()
    if at is not None and time.monotonic() >= at:
        raise BudgetExhausted("the time budget ran out while encoding", 0)
