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

:func:`shave_slice` is the same shaving, resumable: it stops once it has run a given number
of propagations, so its caller reads the clock, and Python sees a signal, between slices
(:mod:`~sudokit.grading.runs`).

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

__all__ = ["shave", "shave_slice", "propagate_scheme", "SHAVE_STATE", "SUSPENDED", "NO_STOP"]


#: the length of a shaving state (:func:`shave_slice`): started, cell, quiet cells, cells
#: visited, propagations run
SHAVE_STATE = 5
#: :func:`shave_slice` stopped at its ``stop`` (call it again with the same state)
SUSPENDED = -2
#: a ``stop`` no run reaches
NO_STOP = 1 << 62


@njit
def shave(dom, flags, units, cell_units, seg_cells, same_pairs, line_units, box_units,
          n, full, passes=0):
    """Shave ``dom`` in place with base scheme ``flags``, to the fixpoint (``passes=0``) or for
    ``passes`` rounds over the cells; returns -1, 0 or 1 like
    :func:`~sudokit.grading.engine.propagate`."""
    state = np.zeros(SHAVE_STATE, dtype=np.int64)
    return shave_slice(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                       box_units, n, full, passes, state, NO_STOP)


@njit
def shave_slice(dom, flags, units, cell_units, seg_cells, same_pairs, line_units, box_units,
                n, full, passes, state, stop):
    """:func:`shave`, resumable: run until the propagations counted in ``state[4]`` reach
    ``stop``, then return :data:`SUSPENDED` (-2) at the next cell; call again with the same
    ``dom`` and ``state`` (:data:`SHAVE_STATE` zeros at the start) to go on. Returns -1, 0 or
    1 once done."""
    if state[0] == 0:
        state[0] = 1
        state[4] += 1
        r = propagate(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                      box_units, n, full)
        if r != 0:
            return r
    work = np.empty_like(dom)
    one = np.int64(1)
    size = dom.shape[0]
    # cycle over the cells; stop after a full round of cells without a removal
    cell, quiet, visits = state[1], state[2], state[3]
    while quiet < size:
        if passes > 0 and visits == passes * size:
            break
        if state[4] >= stop:
            state[1], state[2], state[3] = cell, quiet, visits
            return SUSPENDED
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
            state[4] += 1
            if propagate(work, flags, units, cell_units, seg_cells, same_pairs,
                         line_units, box_units, n, full, cell) >= 0:
                continue
            dom[cell] = d & ~bit
            removed = True
            state[4] += 1
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
