"""Forward checking on the binary decomposition (naked singles) and channeling (hidden singles).

FC (Simonis 2005, section 4): each all-different unit is read as the clique of binary
disequalities, and a fixed cell removes its value from the other cells of the unit. FCI adds
the channeling to the dual model (one position variable per value and unit), which under
forward checking amounts to *hidden singles*: a value with one possible cell in a unit is
placed there, and a value with no possible cell is a failure.

Examples
--------
>>> import numpy as np
>>> dom = np.array([0b001, 0b011, 0b111], dtype=np.int64)
>>> cell_units = np.zeros((3, 1), dtype=np.int64)
>>> dirty = np.zeros(3, dtype=np.int8)
>>> fc_unit(dom, np.arange(3), cell_units, dirty), dom.tolist()
(1, [1, 2, 4])
>>> dom = np.array([0b011, 0b011, 0b111], dtype=np.int64)
>>> hidden_unit(dom, np.arange(3), np.int64(0b111), cell_units, dirty), dom.tolist()
(1, [3, 3, 4])
"""

from __future__ import annotations

from .._accel.numba_cache import njit
from .domains import narrow

__all__ = ["fc_unit", "hidden_unit"]


@njit
def fc_unit(dom, cells, cell_units, dirty):
    """Naked singles in one unit, to the unit's fixpoint. Returns -1 on a wipe-out, else
    1 if a domain shrank, 0 if not."""
    changed = 0
    again = True
    while again:
        again = False
        for i in range(cells.shape[0]):
            d = dom[cells[i]]
            if d == 0:
                return -1
            if d & (d - 1) != 0:
                continue
            for j in range(cells.shape[0]):
                if j != i:
                    other = cells[j]
                    if dom[other] & d:
                        r = narrow(dom, other, dom[other] & ~d, cell_units, dirty)
                        if r < 0:
                            return -1
                        changed = 1
                        again = True
    return changed


@njit
def hidden_unit(dom, cells, full, cell_units, dirty):
    """Hidden singles in one unit of ``n`` cells over ``n`` values (``full`` = all values).

    Returns -1 if a value has no cell left or a cell must take two values, else 1 if a
    domain shrank, 0 if not."""
    once = dom[cells[0]] & 0
    twice = once
    for i in range(cells.shape[0]):
        d = dom[cells[i]]
        twice |= once & d
        once |= d
    if once != full:
        return -1
    singles = once & ~twice
    if singles == 0:
        return 0
    changed = 0
    for i in range(cells.shape[0]):
        cell = cells[i]
        hit = dom[cell] & singles
        if hit != 0 and hit != dom[cell]:
            if hit & (hit - 1) != 0:
                return -1
            narrow(dom, cell, hit, cell_units, dirty)
            changed = 1
    return changed
