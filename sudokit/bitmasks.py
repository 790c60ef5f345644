"""Candidate sets as bit masks: bit ``v - 1`` of an ``int64`` stands for value ``v``.

Shared by the grading engine and the generators (values up to 64).

Examples
--------
>>> bin(int(full_domain(4))), int(full_domain(64))
('0b1111', -1)
"""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_VALUES", "full_domain"]

#: the most values a mask holds: the bits of an ``int64`` (so the largest side of a grid that
#: the mask kernels fill or grade)
MAX_VALUES = 64


def full_domain(n: int) -> np.int64:
    """The bitmask of all values ``1..n`` (``n <= 64``; for 64 it is -1, every bit set)."""
    return np.int64(-1) if n == 64 else np.int64((1 << n) - 1)
