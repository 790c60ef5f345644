"""Shaving (Simonis 2005, section 5.5): singleton tests on top of a propagation scheme.

For each open cell and each value of its domain, assign the value on a copy and propagate with
the base scheme; a failure proves the value impossible, so it is removed and the base scheme
propagates the reduced domains. By default the tests cycle over the cells until a whole round
of cells removes nothing (singleton consistency of the base scheme, whose fixpoint does not
depend on the order). FCV, BCV and HACV shave with FC, BC and HAC.

``passes`` (bits 8 and up of the scheme flags, see
:func:`~sudokit.grading.lattice.scheme_flags`) stops after that many rounds over the cells
instead. One pass is what reproduces Simonis's figures (17-clue set: FCV 0.45% and BCV 99.6%
on the first 2,000 puzzles against the paper's 0.62% and 99.89%; the fixpoint gives 13% and
100%), so the paper's shaving evidently tried each value once.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.grading.domains import grid_tables, initial_domains
>>> from sudokit.grading.engine import FC
>>> p = sudoku(np.array([[1, 2, 3, 0], [3, 4, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]]))
>>> t = grid_tables(p)
>>> dom = initial_domains(p)
>>> shave(dom, FC, *t.kernel_args(), t.n, t.full)   # 0: open cells remain
0
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .engine import propagate

__all__ = ["shave", "propagate_scheme"]


@njit
def shave(dom, flags, units, cell_units, seg_cells, same_pairs, line_units, box_units,
          n, full, passes=0):
    """Shave ``dom`` in place with base scheme ``flags``, to the fixpoint (``passes=0``) or for
    ``passes`` rounds over the cells; returns -1, 0 or 1 like
    :func:`~sudokit.grading.engine.propagate`."""
    r = propagate(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                  box_units, n, full)
    if r != 0:
        return r
    work = np.empty_like(dom)
    one = np.int64(1)
    size = dom.shape[0]
    # cycle over the cells; stop after a full round of cells without a removal
    cell = 0
    quiet = 0
    visits = 0
    while quiet < size:
        if passes > 0 and visits == passes * size:
            break
        visits += 1
        removed = False
        for v in range(n):
            d = dom[cell]
            if d & (d - 1) == 0:
                break
            bit = one << v
            if d & bit == 0:
                continue
            work[:] = dom
            work[cell] = bit
            if propagate(work, flags, units, cell_units, seg_cells, same_pairs,
                         line_units, box_units, n, full, cell) >= 0:
                continue
            dom[cell] = d & ~bit
            removed = True
            r = propagate(dom, flags, units, cell_units, seg_cells, same_pairs,
                          line_units, box_units, n, full, cell)
            if r != 0:
                return r
        quiet = 0 if removed else quiet + 1
        cell = cell + 1 if cell + 1 < size else 0
    return 0


@njit
def propagate_scheme(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                     box_units, n, full):
    """:func:`shave` when ``flags`` has V (128), else plain propagation. Bits 8 and up of
    ``flags`` hold the shaving passes (0: to the fixpoint)."""
    if flags & 128:
        return shave(dom, flags & 127, units, cell_units, seg_cells, same_pairs,
                     line_units, box_units, n, full, flags >> 8)
    return propagate(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                     box_units, n, full)
