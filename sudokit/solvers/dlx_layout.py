"""The DLX1 arrays of :mod:`sudokit.solvers.dlx_kernel` without its kernels: the search's
step codes, the ``COVERED`` mark, the arrays allocated for a problem and the primary items
of each option, with numpy alone (:mod:`sudokit._accel.native` may run the kernels without
numba).

Examples
--------
>>> import numpy as np
>>> from sudokit.solvers.dlx_kernel import build_links
>>> links = build_links(2, 1, np.array([0, 1, 2, 4]), np.array([0, 1, 0, 1]))
>>> primary_counts(links[2], links[5], 1).tolist()   # option 1 covers only the secondary
[1, 0, 1]
"""

from __future__ import annotations

import numpy as np

__all__ = ["COVERED", "STEP_DONE", "STEP_ENTER", "build_links", "primary_counts"]

# Step codes of the resumable search (Knuth's step labels).
STEP_ENTER = 2    # X2: enter level l
STEP_TRY = 5      # X5: try x_l
STEP_AGAIN = 6    # X6: try again
STEP_BACK = 7     # X7: backtrack
STEP_LEAVE = 8    # X8: leave level l
STEP_DONE = 0     # the search is over
COVERED = 1 << 29  # added to LEN(i) while item i is covered (see dlx_kernel's notes)


def build_links(num_items, num_primary, starts, items, fill):
    """Build the DLX1 arrays (X1, "initialise") in one compiled pass over the options.

    Parameters
    ----------
    num_items, num_primary : int
        Items ``0..num_primary-1`` are primary, the rest secondary.
    starts : array of int, length ``num_options + 1``
        Option ``k`` is ``items[starts[k]:starts[k + 1]]``.
    items : array of int
        0-based item indices (no repeats inside an option).
    fill : callable
        The kernel that links them (``dlx_kernel._fill_links``, or its numba-free copy).

    Returns
    -------
    tuple of ndarray
        ``(llink, rlink, top, ulink, dlink, spacers)``: the five ``int32`` link arrays and
        the ``int64`` node index of each spacer (``num_options + 1`` of them).
    """
    n = int(num_items)
    starts = np.asarray(starts, dtype=np.int64)
    items = np.asarray(items, dtype=np.int64)
    size = n + 2 + len(items) + len(starts) - 1
    llink = np.zeros(n + 2, dtype=np.int32)
    rlink = np.zeros(n + 2, dtype=np.int32)
    top = np.zeros(size, dtype=np.int32)
    ulink = np.zeros(size, dtype=np.int32)
    dlink = np.zeros(size, dtype=np.int32)
    spacers = np.zeros(len(starts), dtype=np.int64)
    fill(n, int(num_primary), starts, items, llink, rlink, top, ulink, dlink, spacers)
    return llink, rlink, top, ulink, dlink, spacers


def primary_counts(top, spacers, num_primary):
    """How many primary items each option covers: the nodes between consecutive spacers
    whose TOP is a primary item (1..``num_primary``)."""
    primary = (top >= 1) & (top <= num_primary)
    before = np.concatenate(([0], np.cumsum(primary, dtype=np.int64)))
    return np.diff(before[np.asarray(spacers) + 1])
