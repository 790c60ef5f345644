"""Nogoods from restarts for the engine ``cp`` (Lecoutre, Sais, Tabary and Vidal 2007).

The search branches on ``cell = value`` (a *positive* decision) and, once that subtree is
done, on ``cell != value`` (a *negative* one). While it looks for one solution, a refuted
subtree holds none, so each negative decision of the branch, with the positive decisions
above it, is a *nogood*: those positive decisions and ``cell = value`` cannot all hold. Its
*reduced nld-nogood* keeps only the positive decisions (each negative one above is implied
by the positive ones above it), a clause of ``cell != value`` literals. At each restart
(:mod:`~sudokit.solvers.hard_search`) :func:`record` stores those of the branch being left
(not the ones without a positive decision: those values are refuted at the root for good),
and :func:`rebuild` simplifies every stored nogood at the root (a literal true there
satisfies it for good, one false there is dropped: with one literal left its value leaves
the cell at the root, with none the instance has no solution) and sets its two watched
literals, which :func:`~sudokit.solvers.hard_propagate.propagate` then keeps.

The store is bounded (:func:`~sudokit.solvers.hard_layout.nogood_capacity`): when a nogood
does not fit, the least used half goes (uses: the times a nogood removed a value or failed;
the oldest first among equals) and the kept ones' uses are halved.

Nogoods are valid for the satisfiability search only. Counting to a small limit is made one
by :func:`block` (the flag :data:`~sudokit.solvers.hard_search.BLOCKING`): each solution
found becomes a *pinned* nogood (never forgotten) that keeps it out, and the search restarts
to look for a solution that is not blocked; a refuted subtree then holds no solution but
blocked ones, so the recorded nogoods stay valid and the count stays exact. Counting without
it never restarts and so never records one (its search is exhaustive and its count exact).

Examples
--------
>>> import numpy as np
>>> from sudokit.solvers.hard_layout import S_NEGS, S_NG_LITS, S_NOGOODS, STATE_SIZE
>>> levels = np.array([[0, 3, 1], [0, 5, 0], [0, 0, 0]])       # 3 = 1, then 5 = 0
>>> negs = np.array([[0, 2, 2], [1, 4, 2], [2, 6, 1]], dtype=np.int32)
>>> ng_lits, ng_info = np.zeros(16, dtype=np.int32), np.zeros((4, 3), dtype=np.int64)
>>> state = np.zeros(STATE_SIZE, dtype=np.int64); state[S_NEGS] = 3
>>> record(levels, negs, ng_lits, ng_info, state)
>>> int(state[S_NOGOODS]), [divmod(int(x), 64) for x in ng_lits[:state[S_NG_LITS]]]
(2, [(4, 2), (3, 1), (6, 1), (5, 0), (3, 1)])
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_bits import lowest_bit_index
from .hard_layout import S_NEGS, S_NG_LITS, S_NOGOODS, S_RECORDED
from .hard_propagate import change

__all__ = ["PINNED", "block", "forget", "pop_refuted", "push_refuted", "rebuild", "record"]

#: the uses of a pinned nogood (a blocked solution): :func:`forget` keeps it
PINNED = np.int64(1) << 62


@njit(inline="always")
def pop_refuted(negs, state, depth):
    """Drop the refuted values below ``depth`` positive decisions (backtracking there)."""
    n = state[S_NEGS]
    while n > 0 and negs[n - 1, 0] > depth:
        n -= 1
    state[S_NEGS] = n


@njit(inline="always")
def push_refuted(negs, state, depth, c, v):
    """The branch now has ``c != v`` after ``depth`` positive decisions."""
    n = state[S_NEGS]
    negs[n, 0] = depth
    negs[n, 1] = c
    negs[n, 2] = v
    state[S_NEGS] = n + 1


@njit
def forget(ng_lits, ng_info, state, nogoods, literals):
    """Delete the least used nogoods (the oldest among equals) until at most ``nogoods``
    and ``literals`` are left, never a pinned one; halve the uses of the others kept."""
    count = state[S_NOGOODS]
    keys = np.empty(count, dtype=np.int64)
    for i in range(count):
        keys[i] = min(ng_info[i, 2], PINNED // (count + 1)) * count + i
    order = np.argsort(keys)
    keep = np.ones(count, dtype=np.bool_)
    kept = count
    size = state[S_NG_LITS]
    for r in range(count):
        if kept <= nogoods and size <= literals:
            break
        i = order[r]
        if ng_info[i, 2] >= PINNED:
            continue
        keep[i] = False
        kept -= 1
        size -= ng_info[i, 1]
    write = 0
    at = 0
    for i in range(count):
        if not keep[i]:
            continue
        s = ng_info[i, 0]
        n = ng_info[i, 1]
        for j in range(n):
            ng_lits[at + j] = ng_lits[s + j]
        ng_info[write, 0] = at
        ng_info[write, 1] = n
        ng_info[write, 2] = ng_info[i, 2] if ng_info[i, 2] >= PINNED else ng_info[i, 2] // 2
        write += 1
        at += n
    state[S_NOGOODS] = write
    state[S_NG_LITS] = at


@njit
def record(levels, negs, ng_lits, ng_info, state):
    """Store the reduced nld-nogoods of the branch (``levels``: its positive decisions,
    ``negs[:state[S_NEGS]]``: its negative ones) and empty ``negs``; a full store first
    forgets half (:func:`forget`)."""
    most = ng_info.shape[0]
    room = ng_lits.shape[0]
    for r in range(state[S_NEGS]):
        above = negs[r, 0]
        if above == 0:
            continue
        n = above + 1
        if n > room // 2:
            continue
        if state[S_NOGOODS] >= most or state[S_NG_LITS] + n > room:
            forget(ng_lits, ng_info, state, most // 2, room // 2)
        i = state[S_NOGOODS]
        s = state[S_NG_LITS]
        ng_info[i, 0] = s
        ng_info[i, 1] = n
        ng_info[i, 2] = 0
        # the refuted value and the deepest decision first: the likely watches
        ng_lits[s] = negs[r, 1] * 64 + negs[r, 2]
        for j in range(above):
            d = above - 1 - j
            ng_lits[s + 1 + j] = levels[d, 1] * 64 + levels[d, 2]
        state[S_NOGOODS] = i + 1
        state[S_NG_LITS] = s + n
        state[S_RECORDED] += 1
    state[S_NEGS] = 0


@njit
def block(dom, ng_lits, ng_info, state):
    """Store the pinned nogood of the solution in ``dom`` (every cell at its value), which
    the next :func:`rebuild` watches; a full store first forgets half (:func:`forget`).
    The caller keeps the pinned nogoods within half of the store (the engine blocks only
    then), so forgetting always makes room."""
    n = dom.shape[0]
    if state[S_NOGOODS] >= ng_info.shape[0] or state[S_NG_LITS] + n > ng_lits.shape[0]:
        forget(ng_lits, ng_info, state, ng_info.shape[0] // 2, ng_lits.shape[0] // 2)
    i = state[S_NOGOODS]
    s = state[S_NG_LITS]
    ng_info[i, 0] = s
    ng_info[i, 1] = n
    ng_info[i, 2] = PINNED
    for c in range(n):
        ng_lits[s + c] = c * 64 + lowest_bit_index(dom[c])
    state[S_NOGOODS] = i + 1
    state[S_NG_LITS] = s + n


@njit
def rebuild(dom, ng_lits, ng_info, watch_head, watch_next, trail, state, cell_queue, in_queue):
    """Simplify the stored nogoods on the root's domains and watch two literals of each (see
    the module); the removals it makes are queued. False when a nogood is false at the
    root (no solution)."""
    one = np.int64(1)
    watch_head[:] = -1
    write = 0
    at = 0
    for i in range(state[S_NOGOODS]):
        s = ng_info[i, 0]
        n = ng_info[i, 1]
        uses = ng_info[i, 2]
        kept = 0
        holds = False
        for j in range(s, s + n):
            lit = ng_lits[j]
            d = dom[lit >> 6]
            bit = one << (lit & 63)
            if (d & bit) == 0:
                holds = True
                break
            if d != bit:
                ng_lits[at + kept] = lit
                kept += 1
        if holds:
            continue
        if kept == 0:
            state[S_NOGOODS] = write
            state[S_NG_LITS] = at
            return False
        if kept == 1:
            lit = ng_lits[at]
            c = lit >> 6
            change(dom, c, dom[c] & ~(one << (lit & 63)), trail, state, cell_queue, in_queue)
            continue
        ng_info[write, 0] = at
        ng_info[write, 1] = kept
        ng_info[write, 2] = uses
        for k in range(2):
            lit = ng_lits[at + k]
            watch_next[2 * write + k] = watch_head[lit]
            watch_head[lit] = 2 * write + k
        write += 1
        at += kept
    state[S_NOGOODS] = write
    state[S_NG_LITS] = at
    return True
