"""The search of the engine ``cp``: binary branching, restarts, counting; resumable kernels.

A decision sets a cell to a value (the *left* branch); when its subtree is done (failed, or
counted) the search takes the *right* branch, the value removed from that cell, at the level
above. Every left and right branch is a node, and so is the root. Propagation after each
branch is :func:`~sudokit.solvers.hard_propagate.propagate`, the choice
:func:`~sudokit.solvers.hard_choice.choose`.

Flags (``flags`` of :func:`run`): :data:`MATCHING` (AllDifferent by matching; without it,
forward checking alone), :data:`RESTARTS` (Luby restarts, only while looking for the first
solution: ``limit == 1``), :data:`DOMWDEG` (dom/wdeg picks the cell for every decision, not
only for cells in no complete unit), :data:`LAST_CONFLICT` (the cell of the last failed
decision is branched on first while it stays open; Lecoutre et al. 2009), :data:`NOGOODS`
(with restarts: each restart records the reduced nld-nogoods of the branch it leaves,
propagated by watched literals from then on; :mod:`~sudokit.solvers.hard_nogood`),
:data:`BLOCKING` (with restarts and nogoods: counting to a limit above 1 restarts too, each
solution found blocked by a pinned nogood, :func:`~sudokit.solvers.hard_nogood.block`, and a
restart after it; the search ends when no solution is left that is not blocked),
:data:`GUIDED` (after a first solution, the chosen cell takes its value first:
:func:`~sudokit.solvers.hard_choice.choose`).

Restarts: after ``base * luby(i)`` failures the search returns to the root and starts again,
keeping the units' failure weights and every value refuted at the root (a right branch taken
at depth 0 has been proved to hold no solution: kept as a unit nogood), with the choice's
``noise`` on (:mod:`~sudokit.solvers.hard_choice`) and, with :data:`NOGOODS`, the
nogoods of the branch left behind (a nogood false at the root ends the search: no
solution). The Luby sequence grows without bound, so
the search stays complete. Counting to a limit above 1 without :data:`BLOCKING` never
restarts: it is one exhaustive search. Either way a count below the limit is exact.

``start`` sets up one instance; ``run`` searches until ``limit`` solutions (1), the end of
the search (0) or ``stop`` nodes (-1: call ``run`` again to go on, a resumable slice; a
slice may pass ``stop`` by the failures of one backtrack).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.solvers.hard_layout import hard_model, new_work, S_NODES
>>> model = hard_model(latin_square(np.zeros((3, 3), dtype=int)))
>>> work = new_work(model)
>>> start(*model.args(), *work.args(), np.zeros(9, dtype=np.int32), 3, MATCHING, 7)
>>> int(run(*model.args(), *work.args(), 100, 10**6, MATCHING, 100, 0.0)), int(work.state[2])
(0, 12)
>>> luby_term(7), luby_term(8)
(4, 1)
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_bits import lowest_bit_index
from .hard_choice import choose
from .hard_layout import (
    FINISHED,
    RUNNING,
    S_CELLS,
    S_DEPTH,
    S_FAILS,
    S_LAST,
    S_LUBY,
    S_NODES,
    S_PHASE,
    S_RESTARTS,
    S_RNG,
    S_ROOT,
    S_SINCE,
    S_SOLUTIONS,
    S_TRAIL,
    S_UNITS,
    STATE_SIZE,
)
from .hard_nogood import block, pop_refuted, push_refuted, rebuild, record
from .hard_propagate import change, clear_queues, propagate, undo

__all__ = ["BLOCKING", "DOMWDEG", "GUIDED", "LAST_CONFLICT", "MATCHING", "NOGOODS",
           "RESTARTS",
           "luby_term", "run", "start"]

MATCHING = 1
RESTARTS = 2
DOMWDEG = 4
LAST_CONFLICT = 8
NOGOODS = 16
BLOCKING = 32
GUIDED = 64


@njit
def luby_term(i):
    """The ``i``-th term (from 1) of Luby, Sinclair and Zuckerman's restart sequence.

    >>> [int(luby_term(i)) for i in range(1, 10)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1]
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1


@njit
def start(units, complete, cell_units, peer_starts, peers, peer_unit, segments, unit_segs, log_f,
          dom, trail,
          levels, cell_queue, in_queue, unit_queue, dirty, matches, weights, scratch, density,
          negs, ng_lits, ng_info, watch_head, watch_next, first, state, givens, num_values,
          matching, rng):
    """Level 0 of one instance: the givens (``(C,)``, 0 = empty, values ``1..num_values``)
    and their propagation
    (``matching`` as the flag :data:`MATCHING`); a clash finishes the search with no
    solution. ``rng`` is the random state (:func:`~sudokit.solvers.hard_layout.seed_state`)."""
    for i in range(STATE_SIZE):
        state[i] = 0
    state[S_RNG] = rng
    state[S_LUBY] = 1
    state[S_LAST] = -1
    state[S_NODES] = 1
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    matches[:, :] = -1
    weights[:] = 1.0
    in_queue[:] = 0
    dirty[:] = 0
    first[:] = 0
    for c in range(dom.shape[0]):
        g = givens[c]
        dom[c] = full if g == 0 else np.int64(1) << (g - 1)
        if g != 0 or num_values == 1:         # a one-value domain: forward checking
            in_queue[c] = 1
            cell_queue[state[S_CELLS]] = c
            state[S_CELLS] += 1
    for u in range(units.shape[0]):
        if complete[u]:
            dirty[u] = 1
            unit_queue[state[S_UNITS]] = u
            state[S_UNITS] += 1
    failed = propagate(units, complete, cell_units, peer_starts, peers, peer_unit, segments,
                       unit_segs, dom, trail,
                       levels, cell_queue, in_queue, unit_queue, dirty, matches, weights,
                       scratch, ng_lits, ng_info, watch_head, watch_next, state, matching)
    if failed >= 0:
        clear_queues(cell_queue, in_queue, unit_queue, dirty, state)
        state[S_PHASE] = FINISHED
    else:
        state[S_PHASE] = RUNNING
    state[S_ROOT] = state[S_TRAIL]


@njit
def _fail(weights, state, unit):
    weights[unit] += 1.0
    state[S_FAILS] += 1
    state[S_SINCE] += 1


@njit
def _backtrack(units, complete, cell_units, peer_starts, peers, peer_unit, segments, unit_segs,
               dom, trail, levels,
               cell_queue, in_queue, unit_queue, dirty, matches, weights, scratch, negs,
               ng_lits, ng_info, watch_head, watch_next, state, matching, nogoods):
    """Take the right branch of the deepest open decision; False when none is left.
    ``nogoods``: keep the branch's negative decisions (for :func:`record`)."""
    one = np.int64(1)
    while True:
        clear_queues(cell_queue, in_queue, unit_queue, dirty, state)
        depth = state[S_DEPTH]
        if depth == 0:
            return False
        depth -= 1
        state[S_DEPTH] = depth
        undo(dom, trail, state, levels[depth, 0])
        c = levels[depth, 1]
        left = dom[c] & ~(one << levels[depth, 2])
        state[S_NODES] += 1
        if nogoods:
            pop_refuted(negs, state, depth)
        if left == 0:
            state[S_FAILS] += 1
            state[S_SINCE] += 1
            continue
        change(dom, c, left, trail, state, cell_queue, in_queue)
        failed = propagate(units, complete, cell_units, peer_starts, peers, peer_unit, segments,
                           unit_segs, dom,
                           trail, levels, cell_queue, in_queue, unit_queue, dirty, matches,
                           weights, scratch, ng_lits, ng_info, watch_head, watch_next, state,
                           matching)
        if failed >= 0:
            _fail(weights, state, failed)
            continue
        if depth == 0:
            state[S_ROOT] = state[S_TRAIL]     # a value refuted at the root stays refuted
        elif nogoods:
            push_refuted(negs, state, depth, c, levels[depth, 2])
        return True


@njit
def run(units, complete, cell_units, peer_starts, peers, peer_unit, segments, unit_segs, log_f,
        dom, trail, levels,
        cell_queue, in_queue, unit_queue, dirty, matches, weights, scratch, density, negs,
        ng_lits, ng_info, watch_head, watch_next, first, state, limit, stop, flags, base,
        noise):
    """Search on (see the module): 1 at ``limit`` solutions, 0 at the end, -1 at ``stop``
    nodes."""
    matching = flags & MATCHING
    blocking = (flags & BLOCKING) != 0 and (flags & NOGOODS) != 0
    restarting = (flags & RESTARTS) != 0 and (limit == 1 or blocking)
    nogoods = restarting and (flags & NOGOODS) != 0
    one = np.int64(1)
    if state[S_PHASE] == FINISHED:
        return 0
    while True:
        if state[S_SOLUTIONS] >= limit:
            return 1
        if state[S_NODES] >= stop:
            return -1
        if restarting and state[S_SINCE] >= base * luby_term(state[S_LUBY]):
            undo(dom, trail, state, state[S_ROOT])
            state[S_DEPTH] = 0
            state[S_LUBY] += 1
            state[S_SINCE] = 0
            state[S_RESTARTS] += 1
            state[S_LAST] = -1
            if nogoods:
                record(levels, negs, ng_lits, ng_info, state)
                if not rebuild(dom, ng_lits, ng_info, watch_head, watch_next, trail, state,
                               cell_queue, in_queue) or propagate(
                        units, complete, cell_units, peer_starts, peers, peer_unit, segments,
                        unit_segs, dom, trail, levels, cell_queue, in_queue, unit_queue, dirty,
                        matches, weights, scratch, ng_lits, ng_info, watch_head, watch_next,
                        state, matching) >= 0:
                    clear_queues(cell_queue, in_queue, unit_queue, dirty, state)
                    state[S_PHASE] = FINISHED
                    return 0
                state[S_ROOT] = state[S_TRAIL]
        shake = noise if state[S_RESTARTS] > 0 else 0.0
        last = state[S_LAST] if flags & LAST_CONFLICT else -1
        pick = choose(units, complete, cell_units, peer_starts, peers, peer_unit, segments,
                      unit_segs, log_f, dom,
                      trail, levels, cell_queue, in_queue, unit_queue, dirty, matches, weights,
                      scratch, density, negs, ng_lits, ng_info, watch_head, watch_next, first,
                      state, shake, last, (flags & DOMWDEG) != 0, (flags & GUIDED) != 0)
        if pick < 0:
            state[S_SOLUTIONS] += 1
            if state[S_SOLUTIONS] == 1:
                for c in range(dom.shape[0]):
                    first[c] = lowest_bit_index(dom[c]) + 1
            if state[S_SOLUTIONS] >= limit:
                return 1
            if restarting:        # BLOCKING: a nogood keeps this solution out, then restart
                block(dom, ng_lits, ng_info, state)
                state[S_SINCE] = base * luby_term(state[S_LUBY])
                continue
            if not _backtrack(units, complete, cell_units, peer_starts, peers, peer_unit, segments,
                              unit_segs, dom,
                              trail, levels, cell_queue, in_queue, unit_queue, dirty, matches,
                              weights, scratch, negs, ng_lits, ng_info, watch_head,
                              watch_next, state, matching, nogoods):
                state[S_PHASE] = FINISHED
                return 0
            continue
        c = pick >> 6
        v = pick & 63
        state[S_NODES] += 1
        depth = state[S_DEPTH]
        levels[depth, 0] = state[S_TRAIL]
        levels[depth, 1] = c
        levels[depth, 2] = v
        state[S_DEPTH] = depth + 1
        change(dom, c, one << v, trail, state, cell_queue, in_queue)
        failed = propagate(units, complete, cell_units, peer_starts, peers, peer_unit, segments,
                           unit_segs, dom,
                           trail, levels, cell_queue, in_queue, unit_queue, dirty, matches,
                           weights, scratch, ng_lits, ng_info, watch_head, watch_next, state,
                           matching)
        if failed >= 0:
            _fail(weights, state, failed)
            state[S_LAST] = c
            if not _backtrack(units, complete, cell_units, peer_starts, peers, peer_unit, segments,
                              unit_segs, dom,
                              trail, levels, cell_queue, in_queue, unit_queue, dirty, matches,
                              weights, scratch, negs, ng_lits, ng_info, watch_head,
                              watch_next, state, matching, nogoods):
                state[S_PHASE] = FINISHED
                return 0
        elif state[S_LAST] == c:
            state[S_LAST] = -1
