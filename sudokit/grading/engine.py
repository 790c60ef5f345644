"""The propagation engine: one fixpoint loop that runs the chosen propagators.

A scheme is a set of flags (see :mod:`sudokit.grading.lattice` for the names):

======  =====  ==========================================================================
flag    bit    propagator
======  =====  ==========================================================================
FC      1      naked singles on every unit (always on: every scheme contains FC)
I       2      channeling to the dual model (value -> position in a unit): hidden singles
               (:mod:`~sudokit.grading.fc`), and with BC also BC on the dual
               (:func:`~sudokit.grading.bounds.bc_dual_unit`)
BC      4      bound-consistent all-different (:mod:`~sudokit.grading.bounds`)
HAC     8      hyper-arc-consistent all-different (:mod:`~sudokit.grading.hac`)
S       16     "same" constraints of line and box segments (:mod:`~sudokit.grading.redundant`)
C       32     colored matrix, per value rows x columns
T       64     per value line x box matchings ("3")
V       128    shaving of the scheme without V (:mod:`~sudokit.grading.shaving`)
======  =====  ==========================================================================

The loop keeps one dirty flag per unit and stage: the cheap unit propagators run to their
fixpoint first (FC and BC, then hidden singles, I), then HAC on the units a change touched,
then the global redundant propagators; any change sends the loop back to the cheap stage. HAC
subsumes FC and hidden singles, so running those first changes no fixpoint, only the time to
reach it. BC (ECLiPSe's, see :mod:`~sudokit.grading.bounds`) is the one propagator whose
result depends on the order of events, through the parts it splits a unit into; running hidden
singles only once FC and BC are quiet makes BCI start from BC's own fixpoint, so a puzzle BC
solves is always solved by BCI (interleaving them broke that on 4 of the 49,158 17-clue
puzzles).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.grading.domains import grid_tables, initial_domains
>>> p = sudoku(np.array([[0, 0, 3, 0], [0, 4, 1, 0], [2, 0, 0, 3], [0, 3, 0, 0]]))
>>> t = grid_tables(p)
>>> dom = initial_domains(p)
>>> propagate(dom, FC, *t.kernel_args(), t.n, t.full)   # 1: every cell fixed
1
>>> dom.reshape(4, 4).tolist()[3]                         # bitmasks of 4 3 2 1
[8, 4, 2, 1]
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .bounds import bc_dual_unit, bc_unit
from .domains import mark_dirty
from .fc import fc_unit, hidden_unit
from .hac import hac_unit
from .redundant import bands_prop, colored_prop, same_prop

__all__ = ["propagate", "FC", "I", "BC", "HAC", "S", "C", "T", "V", "FAILED", "OPEN", "SOLVED"]

FC, I, BC, HAC, S, C, T, V = 1, 2, 4, 8, 16, 32, 64, 128  # noqa: E741 (Simonis's letters)

#: results of :func:`propagate`: a wipe-out, a fixpoint with open cells, every cell fixed
FAILED, OPEN, SOLVED = -1, 0, 1


@njit
def _all_fixed(dom):
    for i in range(dom.shape[0]):
        d = dom[i]
        if d & (d - 1) != 0:
            return False
    return True


@njit
def propagate(dom, flags, units, cell_units, seg_cells, same_pairs, line_units, box_units,
              n, full, seed=-1):
    """Propagate ``dom`` in place to the fixpoint of scheme ``flags`` (without V).

    ``seed >= 0`` says ``dom`` was at the fixpoint before cell ``seed`` changed, so only that
    cell's units start dirty (shaving uses this). Returns -1 (failure), 0 (fixpoint with an
    open cell) or 1 (every cell fixed).
    """
    num_units = units.shape[0]
    if seed < 0:
        dirty = np.ones(2 * num_units + 1, dtype=np.int8)
    else:
        dirty = np.zeros(2 * num_units + 1, dtype=np.int8)
        mark_dirty(seed, cell_units, dirty)
    adj = np.empty(n, dtype=np.int64)
    parts = np.zeros(units.shape, dtype=np.int64)     # BC's split constraints, per unit
    dual_parts = np.zeros(units.shape, dtype=np.int64)
    hidden_due = np.zeros(num_units, dtype=np.int8)
    for i in range(dom.shape[0]):
        if dom[i] == 0:
            return -1
    while True:
        if _unit_stage(dom, flags, units, cell_units, full, dirty, parts, dual_parts,
                       hidden_due) < 0:
            return -1
        if _hac_stage(dom, flags, units, cell_units, adj, dirty) < 0:
            return -1
        if _any_dirty(dirty, num_units):
            continue
        if flags & (S | C | T) and dirty[2 * num_units]:
            dirty[2 * num_units] = 0
            if _redundant_stage(dom, flags, n, seg_cells, same_pairs, box_units, cell_units,
                                dirty) < 0:
                return -1
            if _any_dirty(dirty, num_units):
                continue
        break
    return 1 if _all_fixed(dom) else 0


@njit(inline="always")
def _unit_stage(dom, flags, units, cell_units, full, dirty, parts, dual_parts, hidden_due):
    """Stage 1: FC and BC on the dirty units to their fixpoint, then hidden singles (and BC
    on the dual, BCI) on the units touched since their last run, and again while that
    changes anything; -1 on a wipe-out."""
    num_units = units.shape[0]
    busy = True
    while busy:
        busy = False
        for u in range(num_units):
            if dirty[u] == 0:
                continue
            dirty[u] = 0
            busy = True
            hidden_due[u] = 1
            cells = units[u]
            if fc_unit(dom, cells, cell_units, dirty) < 0:
                return -1
            if flags & BC and bc_unit(dom, cells, parts[u], cell_units, dirty) < 0:
                return -1
        if not busy and flags & I:
            for u in range(num_units):
                if hidden_due[u]:
                    hidden_due[u] = 0
                    if hidden_unit(dom, units[u], full, cell_units, dirty) < 0:
                        return -1
                    if flags & BC and bc_dual_unit(dom, units[u], dual_parts[u], cell_units,
                                                   dirty) < 0:
                        return -1
            busy = _any_unit_dirty(dirty, num_units)
    return 0


@njit(inline="always")
def _hac_stage(dom, flags, units, cell_units, adj, dirty):
    """Stage 2: HAC on the units touched since their last HAC run, until one leaves a unit
    dirty for stage 1 (without HAC: their flags cleared); -1 on a wipe-out."""
    num_units = units.shape[0]
    if not flags & HAC:
        for u in range(num_units):
            dirty[num_units + u] = 0
        return 0
    for u in range(num_units):
        if dirty[num_units + u] == 0:
            continue
        dirty[num_units + u] = 0
        if hac_unit(dom, units[u], adj, cell_units, dirty) < 0:
            return -1
        if dirty[u]:
            break
    return 0


@njit(inline="always")
def _redundant_stage(dom, flags, n, seg_cells, same_pairs, box_units, cell_units, dirty):
    """Stage 3: the redundant constraints S, then C and 3 unless a unit is dirty already; -1
    on a wipe-out."""
    num_units = (dirty.shape[0] - 1) // 2
    if flags & S and same_prop(dom, same_pairs, cell_units, dirty) < 0:
        return -1
    if flags & C and not _any_dirty(dirty, num_units):
        if colored_prop(dom, n, cell_units, dirty) < 0:
            return -1
    if flags & T and not _any_dirty(dirty, num_units):
        if bands_prop(dom, n, seg_cells, box_units.shape[0], cell_units, dirty) < 0:
            return -1
    return 0


@njit(inline="always")
def _any_unit_dirty(dirty, num_units):
    """Whether stage 1 has a unit to run again."""
    for u in range(num_units):
        if dirty[u]:
            return True
    return False


@njit
def _any_dirty(dirty, num_units):
    for u in range(2 * num_units):
        if dirty[u]:
            return True
    return False
