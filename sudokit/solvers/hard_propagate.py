"""Propagation for the engine ``cp``: bit domains, a trail, forward checking and matching.

Every domain change goes through :func:`change`, which writes the old mask on the trail (so
a backtrack restores it) and queues the cell. :func:`propagate` then empties two queues:

1. the cells: a changed cell marks its complete units *dirty*; a cell down to one value
   removes it from its peers (forward checking: arc consistency of the binary "differ"
   constraints, all there is for a graph's edges) and, as the literal ``cell != value`` is
   now false, visits the nogoods watching that literal (two watched literals, as in a SAT
   solver: a nogood moves its watch to another literal that is not false, or, with none
   left, makes its other watched literal true: the value leaves that cell; both false is a
   failure, charged to the cell's first unit);
2. the dirty units, one at a time once no cell is queued: AllDifferent by matching
   (:func:`~sudokit.solvers.hard_match.unit_prune`), then locked candidates on the unit's
   segments (the cells a line and a box share: a value the line holds there only leaves
   the rest of the box, and the other way round; matching on each unit alone misses it),
   whose removals queue cells again.

So matching runs only on the units whose domains changed since it last ran on them, after
the cheap rule has done what it can, and starts from the unit's last matching. A failure
returns the unit it happened in (its dom/wdeg weight goes up); -1 means a fixpoint.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.solvers.hard_layout import hard_model, new_work, S_TRAIL
>>> model = hard_model(latin_square(np.zeros((3, 3), dtype=int)))
>>> work = new_work(model)
>>> work.dom[:] = 0b111
>>> change(work.dom, 0, 0b001, work.trail, work.state, work.cell_queue, work.in_queue)
>>> change(work.dom, 4, 0b010, work.trail, work.state, work.cell_queue, work.in_queue)
>>> int(propagate(*model.args()[:8], *work.args()[:10], *work.nogood_args(), work.state, 1))
-1
>>> work.dom.reshape(3, 3).tolist()     # a fixpoint: 1 . . / . 2 . / . . . -> one completion
[[1, 4, 2], [4, 2, 1], [2, 1, 4]]
>>> undo(work.dom, work.trail, work.state, 0); work.dom.tolist() == [7] * 9
True
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_bits import lowest_bit_index
from .hard_layout import (
    S_CELLS,
    S_MATCHINGS,
    S_NG_PRUNES,
    S_NOGOODS,
    S_PROPAGATIONS,
    S_TRAIL,
    S_UNITS,
)
from .hard_match import unit_prune

__all__ = ["change", "clear_queues", "propagate", "undo"]


@njit(inline="always")
def change(dom, c, new, trail, state, cell_queue, in_queue):
    """Set ``dom[c]`` to ``new`` (a subset), trailed, and queue ``c``."""
    t = state[S_TRAIL]
    trail[t, 0] = c
    trail[t, 1] = dom[c]
    state[S_TRAIL] = t + 1
    dom[c] = new
    if in_queue[c] == 0:
        in_queue[c] = 1
        cell_queue[state[S_CELLS]] = c
        state[S_CELLS] += 1


@njit
def undo(dom, trail, state, length):
    """Restore the domains to when the trail was ``length`` long."""
    t = state[S_TRAIL]
    while t > length:
        t -= 1
        dom[trail[t, 0]] = trail[t, 1]
    state[S_TRAIL] = length


@njit
def clear_queues(cell_queue, in_queue, unit_queue, dirty, state):
    """Empty both queues (after a failure)."""
    for i in range(state[S_CELLS]):
        in_queue[cell_queue[i]] = 0
    for i in range(state[S_UNITS]):
        dirty[unit_queue[i]] = 0
    state[S_CELLS] = 0
    state[S_UNITS] = 0


@njit(inline="always")
def _or(dom, cells):
    found = np.int64(0)
    for c in cells:
        if c < 0:
            break
        found |= dom[c]
    return found


@njit(inline="always")
def _remove(dom, cells, values, trail, state, cell_queue, in_queue):
    """Remove ``values`` from ``cells``; False when a domain empties."""
    for c in cells:
        if c < 0:
            break
        if dom[c] & values:
            left = dom[c] & ~values
            if left == 0:
                return False
            change(dom, c, left, trail, state, cell_queue, in_queue)
    return True


@njit
def _locked(dom, segment, trail, state, cell_queue, in_queue):
    """Locked candidates on one segment (``(3, w)``: the cells a line and a box share, the
    line's other cells, the box's other cells): a value the line holds only in the segment
    leaves the rest of the box, and the other way round. False on a wipe-out."""
    shared = _or(dom, segment[0])
    first = _or(dom, segment[1])
    second = _or(dom, segment[2])
    if not _remove(dom, segment[2], shared & ~first, trail, state, cell_queue, in_queue):
        return False
    return _remove(dom, segment[1], shared & ~second, trail, state, cell_queue, in_queue)


@njit
def _watch(lit, dom, ng_lits, ng_info, watch_head, watch_next, trail, state, cell_queue,
           in_queue):
    """Visit the nogoods watching ``lit`` (``cell * 64 + value``), just made false: -1, or
    the cell of a nogood whose literals are all false."""
    one = np.int64(1)
    prev = -1
    w = watch_head[lit]
    while w >= 0:
        following = watch_next[w]
        i = w >> 1
        k = w & 1
        s = ng_info[i, 0]
        n = ng_info[i, 1]
        other = ng_lits[s + 1 - k]
        oc = other >> 6
        ov = one << (other & 63)
        if (dom[oc] & ov) == 0:                     # the other literal holds
            prev = w
            w = following
            continue
        moved = False
        for j in range(s + 2, s + n):
            lj = ng_lits[j]
            if dom[lj >> 6] != one << (lj & 63):     # not false: watch it instead
                ng_lits[j] = ng_lits[s + k]
                ng_lits[s + k] = lj
                if prev < 0:
                    watch_head[lit] = following
                else:
                    watch_next[prev] = following
                watch_next[w] = watch_head[lj]
                watch_head[lj] = w
                moved = True
                break
        if moved:
            w = following
            continue
        ng_info[i, 2] += 1
        state[S_NG_PRUNES] += 1
        if dom[oc] == ov:
            return oc
        change(dom, oc, dom[oc] & ~ov, trail, state, cell_queue, in_queue)
        prev = w
        w = following
    return -1


@njit
def propagate(units, complete, cell_units, peer_starts, peers, peer_unit, segments, unit_segs, dom,
              trail, levels,
              cell_queue, in_queue, unit_queue, dirty, matches, weights, scratch, ng_lits,
              ng_info, watch_head, watch_next, state, matching):
    """Run the queued work to a fixpoint (see the module): -1, or the unit that failed.

    ``matching`` 0 runs forward checking alone. ``levels`` and ``weights`` are not used
    (they are in the argument list so that the work arrays pass in their usual order).
    """
    state[S_PROPAGATIONS] += 1
    width = cell_units.shape[1]
    while True:
        while state[S_CELLS] > 0:
            n = state[S_CELLS] - 1
            state[S_CELLS] = n
            c = cell_queue[n]
            in_queue[c] = 0
            for j in range(width):
                u = cell_units[c, j]
                if u < 0:
                    break
                if complete[u] and dirty[u] == 0:
                    dirty[u] = 1
                    unit_queue[state[S_UNITS]] = u
                    state[S_UNITS] += 1
            d = dom[c]
            if (d & (d - 1)) == 0:
                for k in range(peer_starts[c], peer_starts[c + 1]):
                    p = peers[k]
                    if dom[p] & d:
                        left = dom[p] & ~d
                        if left == 0:
                            return peer_unit[k]
                        change(dom, p, left, trail, state, cell_queue, in_queue)
                if state[S_NOGOODS] > 0:
                    bad = _watch(c * 64 + lowest_bit_index(d), dom, ng_lits, ng_info,
                                 watch_head, watch_next, trail, state, cell_queue, in_queue)
                    if bad >= 0:
                        return max(cell_units[bad, 0], 0)
        if state[S_UNITS] == 0:
            return -1
        n = state[S_UNITS] - 1
        state[S_UNITS] = n
        u = unit_queue[n]
        dirty[u] = 0
        if matching == 0:
            continue
        state[S_MATCHINGS] += 1
        k = unit_prune(dom, units[u], matches[u], scratch)
        if k < 0:
            return u
        for i in range(k):
            change(dom, units[u, scratch[5, i]], scratch[1, i], trail, state, cell_queue,
                   in_queue)
        for j in range(unit_segs.shape[1]):
            s = unit_segs[u, j]
            if s < 0:
                break
            if not _locked(dom, segments[s], trail, state, cell_queue, in_queue):
                return u
