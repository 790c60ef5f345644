"""Compiled bit helpers of the human kernels (:mod:`~sudokit.human.set_kernel`,
:mod:`~sudokit.human.chain_kernel`, :mod:`~sudokit.human.nested_kernel`): the number of
set bits of a mask and the index of its lowest one, over the candidate masks (bit ``v - 1``
for value ``v``) and the position masks the kernels build.

Examples
--------
>>> mask = 0b101000                  # values 4 and 6
>>> popcount(mask), lowest(mask), lowest(mask & (mask - 1))
(2, 3, 5)
"""

from __future__ import annotations

from .._accel.numba_cache import njit

__all__ = ["popcount", "lowest"]


@njit(cache=True)
def popcount(x):
    """The number of set bits of ``x``.

    Parameters
    ----------
    x : int
        A non-negative mask (``int64`` in the kernels).

    Returns
    -------
    int

    Examples
    --------
    >>> popcount(0), popcount(0b1011), popcount((1 << 62) - 1)
    (0, 3, 62)
    """
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def lowest(x):
    """The index of the lowest set bit of ``x``.

    Parameters
    ----------
    x : int
        A positive mask (``int64`` in the kernels): not 0, which has no set bit to find.

    Returns
    -------
    int

    Examples
    --------
    >>> lowest(1), lowest(0b1100), lowest(1 << 61)
    (0, 2, 61)
    """
    index = 0
    while not (x >> index) & 1:
        index += 1
    return index
