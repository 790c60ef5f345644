"""``--solver takano``: Takano, de Freitas and Sá's constraint propagation on bit vectors.

The exact method the paper proposes (K. Takano, R. de Freitas, V. G. P. de Sá, "O jogo de
lógica Sudoku: modelagem teórica, NP-completude, algoritmos e heurísticas", section 4):
Norvig's propagation (:mod:`sudokit.solvers.norvig`) with the candidates of a cell as one bit
vector, the minimum-remaining-values cell found in O(1) through a bucket heap of the cells by
candidate count, and two further propagation cases. The paper does not say which two; here
they are

* **naked pairs**: two cells of a unit with the same two candidates take those two values, so
  no other cell of the unit can;
* **locked candidates** (pointing and claiming): when a complete unit (as many cells as values)
  can hold a value only in the cells it shares with another unit, the other unit's remaining
  cells cannot hold it (a box pointing along a line, a line claiming within a box).

Both work in the complete units (a grid's rows, columns and boxes; a Latin square has no two
units sharing two cells, so only naked pairs apply there, and a graph's edges take neither).

Propagation runs in tiers, the cheap rules first: naked singles (a cell fixed: its value leaves
its peers) through a queue, then hidden singles (a value with one place left in a complete
unit, found with "seen once / seen twice" masks over the units that changed), and only when
both are stuck, locked candidates and then naked pairs; whatever they remove sends the
propagation back to the singles. Search: the cell with the fewest candidates (the first such
cell in cell order), its values in increasing order, each child a copy of the level's masks
(the last value reuses the level in place). ``flags`` switch the heap and the two extra cases
(:data:`HEAP`, :data:`LOCKED`, :data:`NAKED_PAIRS`) for measuring each one; the registered
engine uses :data:`ALL`. The heap and the scan choose the same cell, so they give the same
search tree.

Everything runs unchanged as plain Python under ``NUMBA_DISABLE_JIT=1``.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.solvers.cp_engine import CPEngine
>>> with CPEngine("takano") as engine:
...     engine.count(sudoku(np.zeros((4, 4), dtype=int)))[0]
288
"""

from __future__ import annotations

import numpy as np

from .._numba import njit
from .cp_bits import lowest_bit_index, popcount

__all__ = ["NAKED_PAIRS", "LOCKED", "HEAP", "ALL", "start", "run", "batch", "root", "propagated"]

NAKED_PAIRS = 1
LOCKED = 2
HEAP = 4
ALL = NAKED_PAIRS | LOCKED | HEAP

EXPAND = 1
NEXT = 2
DONE = 0


@njit(inline="always")
def _change(c, old, new, cand, heap, words, buckets):
    """cand[c]: old -> new (old has at least two values); the heap follows."""
    cand[c] = new
    if heap:
        word = c >> 6
        bit = np.int64(1) << (c & 63)
        buckets[popcount(old) * words + word] &= ~bit
        count = popcount(new)
        if count >= 2:
            buckets[count * words + word] |= bit


@njit(inline="always")
def _mark(c, cell_hidden, changed, now):
    """The complete units of cell ``c`` changed at time ``now``."""
    for j in range(cell_hidden.shape[1]):
        u = cell_hidden[c, j]
        if u < 0:
            break
        changed[u] = now


@njit(inline="always")
def _remove(cells, x, cand, queue, qt, left, cell_hidden, changed, now, heap, words,
            buckets):
    """Remove the values ``x`` from ``cells`` (-1 padded); ``(qt, left, changed)``, left -1
    on a wipe-out."""
    removed = False
    for k in range(cells.shape[0]):
        c = cells[k]
        if c < 0:
            break
        m = cand[c]
        if m & x:
            new = m & ~x
            if new == 0:
                return qt, -1, removed
            _change(c, m, new, cand, heap, words, buckets)
            _mark(c, cell_hidden, changed, now)
            removed = True
            if (new & (new - 1)) == 0:
                queue[qt] = c
                qt += 1
                left -= 1
    return qt, left, removed


@njit
def _propagate(cand, buckets, queue, qt, left, changed, clock, peer_starts, peers,
               hidden_units, cell_hidden, segments, segment_units, full, words, flags):
    """Propagate to a fixpoint from the fixed cells ``queue[:qt]``; the cells left open, or
    -1 on a contradiction.

    ``changed[u]`` is the time complete unit ``u`` last lost a candidate; ``clock[0]`` is the
    time now. Every rule looks only at the units changed since its own last pass (all those
    changed since ``clock[0]`` at the start).
    """
    heap = (flags & HEAP) != 0
    now = clock[0]
    seen_hidden = now
    seen_locked = now
    seen_pairs = now
    qh = 0
    width = hidden_units.shape[1]
    while True:
        while qh < qt:                                   # naked singles
            c = queue[qh]
            qh += 1
            bit = cand[c]
            for t in range(peer_starts[c], peer_starts[c + 1]):
                q = peers[t]
                m = cand[q]
                if m & bit:
                    new = m ^ bit
                    if new == 0:
                        clock[0] = now
                        return -1
                    _change(q, m, new, cand, heap, words, buckets)
                    _mark(q, cell_hidden, changed, now)
                    if (new & (new - 1)) == 0:
                        queue[qt] = q
                        qt += 1
                        left -= 1
        if left == 0:
            break
        since = seen_hidden                              # hidden singles
        now += 1
        seen_hidden = now
        found = False
        for u in range(hidden_units.shape[0]):
            if changed[u] < since:
                continue
            once = np.int64(0)
            twice = np.int64(0)
            fixed = np.int64(0)
            for k in range(width):
                m = cand[hidden_units[u, k]]
                twice |= once & m
                once |= m
                if (m & (m - 1)) == 0:
                    fixed |= m
            if once != full:
                left = -1
                break
            alone = once & ~twice & ~fixed
            while alone != 0:
                bit = alone & -alone
                alone ^= bit
                for k in range(width):
                    c = hidden_units[u, k]
                    m = cand[c]
                    if m & bit:
                        # two values alone in one cell: the second finds it taken, and the
                        # next sweep of this unit sees that value gone
                        _change(c, m, bit, cand, heap, words, buckets)
                        _mark(c, cell_hidden, changed, now)
                        queue[qt] = c
                        qt += 1
                        left -= 1
                        found = True
                        break
        if left < 0:
            break
        if found or qh < qt:
            continue
        if flags & LOCKED:                               # locked candidates
            since = seen_locked
            now += 1
            seen_locked = now
            for s in range(segments.shape[0]):
                a = segment_units[s, 0]
                b = segment_units[s, 1]
                if changed[a] < since and changed[b] < since:
                    continue
                both = np.int64(0)                       # (explicit loops: an inlined
                first = np.int64(0)                      # helper here ran 40% slower)
                second = np.int64(0)
                for k in range(segments.shape[2]):
                    c = segments[s, 0, k]
                    if c < 0:
                        break
                    both |= cand[c]
                for k in range(segments.shape[2]):
                    c = segments[s, 1, k]
                    if c < 0:
                        break
                    first |= cand[c]
                for k in range(segments.shape[2]):
                    c = segments[s, 2, k]
                    if c < 0:
                        break
                    second |= cand[c]
                locked = both & ~first & second          # the first unit's values seen only
                if locked != 0:                          # where it meets the second
                    qt, left, removed = _remove(segments[s, 2], locked, cand, queue, qt, left,
                                                cell_hidden, changed, now, heap, words,
                                                buckets)
                    if left < 0:
                        break
                    found = True
                    second &= ~locked
                locked = both & ~second & first
                if locked != 0:
                    qt, left, removed = _remove(segments[s, 1], locked, cand, queue, qt, left,
                                                cell_hidden, changed, now, heap, words,
                                                buckets)
                    if left < 0:
                        break
                    found = True
            if left < 0:
                break
            if found:
                continue
        if flags & NAKED_PAIRS and width >= 3:           # naked pairs
            since = seen_pairs
            now += 1
            seen_pairs = now
            for u in range(hidden_units.shape[0]):
                if changed[u] < since:
                    continue
                for k in range(1, width):
                    m = cand[hidden_units[u, k]]
                    if popcount(m) != 2:
                        continue
                    for k2 in range(k):
                        if cand[hidden_units[u, k2]] != m:
                            continue
                        for k3 in range(width):
                            if k3 == k or k3 == k2:
                                continue
                            c = hidden_units[u, k3]
                            m3 = cand[c]
                            if m3 & m:
                                new = m3 & ~m
                                if new == 0:
                                    left = -1
                                    break
                                _change(c, m3, new, cand, heap, words, buckets)
                                _mark(c, cell_hidden, changed, now)
                                found = True
                                if (new & (new - 1)) == 0:
                                    queue[qt] = c
                                    qt += 1
                                    left -= 1
                        break
                    if left < 0:
                        break
                if left < 0:
                    break
            if left < 0:
                break
            if found:
                continue
        break
    clock[0] = now
    return left


@njit(inline="always")
def _choose(cand, buckets, words, num_values, heap):
    """The open cell with the fewest candidates, the first in cell order on ties."""
    if heap:
        for count in range(2, num_values + 1):
            for word in range(words):
                x = buckets[count * words + word]
                if x != 0:
                    return word * 64 + lowest_bit_index(x)
        return -1
    best = -1
    fewest = 1 << 30
    for c in range(cand.shape[0]):
        m = cand[c]
        if (m & (m - 1)) != 0:
            count = popcount(m)
            if count < fewest:
                fewest = count
                best = c
                if count == 2:
                    break
    return best


@njit
def start(cst, bst, lst, bcell, brest, queue, changed, clock, peer_starts, peers,
          hidden_units, cell_hidden, segments, segment_units, num_values, flags, givens,
          state):
    """Set up level 0 from ``givens`` (one row, 0 = empty) and propagate; ``state`` is
    ``[depth, phase, solutions, nodes]``."""
    cells = cst.shape[1]
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    words = max(1, (cells + 63) // 64)
    heap = (flags & HEAP) != 0
    cand = cst[0]
    buckets = bst[0]
    buckets[:] = 0
    qt = 0
    left = cells
    ok = True
    for c in range(cells):
        g = givens[c]
        m = full
        if g > 0:
            if g > num_values:
                ok = False
            m = np.int64(1) << (g - 1)
        cand[c] = m
        if (m & (m - 1)) == 0:
            queue[qt] = c
            qt += 1
            left -= 1
        elif heap:
            buckets[popcount(m) * words + (c >> 6)] |= np.int64(1) << (c & 63)
    clock[0] += 1
    changed[:] = clock[0]
    if ok:
        left = _propagate(cand, buckets, queue, qt, left, changed, clock, peer_starts, peers,
                          hidden_units, cell_hidden, segments, segment_units, full, words,
                          flags)
    lst[0] = left if ok else -1
    state[0] = 0
    state[1] = EXPAND if ok and left >= 0 else DONE
    state[2] = 0
    state[3] = 1


@njit
def run(cst, bst, lst, bcell, brest, queue, changed, clock, peer_starts, peers, hidden_units,
        cell_hidden, segments, segment_units, num_values, flags, state, limit, stop, first):
    """Search on from ``state`` until ``limit`` solutions (1), the end (0), ``stop`` nodes
    (-1) or the last level (-2: grow the levels and call again); the first solution's values
    go into ``first``."""
    cells = cst.shape[1]
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    words = max(1, (cells + 63) // 64)
    heap = (flags & HEAP) != 0
    d = state[0]
    phase = state[1]
    found = state[2]
    nodes = state[3]
    result = 0
    while True:
        if phase == EXPAND:
            if lst[d] == 0:
                found += 1
                if found == 1:
                    for c in range(cells):
                        first[c] = lowest_bit_index(cst[d, c]) + 1
                if found >= limit:
                    phase = DONE
                    result = 1
                    break
                brest[d] = 0
                phase = NEXT
                continue
            c = _choose(cst[d], bst[d], words, num_values, heap)
            bcell[d] = c
            brest[d] = cst[d, c]
            phase = NEXT
        elif phase == NEXT:
            r = brest[d]
            if r == 0:
                if d == 0:
                    phase = DONE
                    result = 0
                    break
                d -= 1
                continue
            bit = r & -r
            r ^= bit
            if r != 0 and d + 1 == cst.shape[0]:
                result = -2                # no level left for a copy: the engine grows them
                break
            if nodes >= stop:
                result = -1
                break
            nodes += 1
            brest[d] = r
            target = d
            if r != 0:                     # more values to try: the child gets a copy
                target = d + 1
                cst[target, :] = cst[d, :]
                if heap:
                    bst[target, :] = bst[d, :]
            cand = cst[target]
            buckets = bst[target]
            c = bcell[d]
            _change(c, cand[c], bit, cand, heap, words, buckets)
            queue[0] = c
            clock[0] += 1
            _mark(c, cell_hidden, changed, clock[0])
            left = _propagate(cand, buckets, queue, 1, lst[d] - 1, changed, clock,
                              peer_starts, peers, hidden_units, cell_hidden, segments,
                              segment_units, full, words, flags)
            if left >= 0:
                d = target
                lst[d] = left
                phase = EXPAND
            # else: a contradiction; the next value (or back up: the in-place level is spent)
        else:
            break
    state[0] = d
    state[1] = phase
    state[2] = found
    state[3] = nodes
    return result


@njit
def batch(cst, bst, lst, bcell, brest, queue, changed, clock, peer_starts, peers,
          hidden_units, cell_hidden, segments, segment_units, num_values, flags, givens, begin,
          limit, cap_each, cap_call, counts, firsts, unknown, nodes, state):
    """Count puzzles ``begin, begin+1, ...`` of ``givens`` up to ``limit`` with at most
    ``cap_each`` nodes each, until ``cap_call`` nodes are spent; returns the next puzzle."""
    spent = 0
    p = begin
    while p < givens.shape[0]:
        start(cst, bst, lst, bcell, brest, queue, changed, clock, peer_starts, peers,
              hidden_units, cell_hidden, segments, segment_units, num_values, flags, givens[p],
              state)
        result = run(cst, bst, lst, bcell, brest, queue, changed, clock, peer_starts, peers,
                     hidden_units, cell_hidden, segments, segment_units, num_values, flags,
                     state, limit, cap_each, firsts[p])
        counts[p] = state[2]
        nodes[p] = state[3]
        unknown[p] = -result if result < 0 else 0
        spent += state[3]
        p += 1
        if spent >= cap_call:
            break
    return p


@njit
def root(cst, bst, lst, bcell, brest, queue, changed, clock, peer_starts, peers, hidden_units,
         cell_hidden, segments, segment_units, num_values, flags, givens, state):
    """Level 0 after propagation: the candidate masks (row 0 of ``cst``), or -1 in
    ``lst[0]`` on a contradiction (what tests check the extra cases against)."""
    start(cst, bst, lst, bcell, brest, queue, changed, clock, peer_starts, peers, hidden_units,
          cell_hidden, segments, segment_units, num_values, flags, givens, state)
    return lst[0]


# what the engine (sudokit.solvers.cp_engine) needs to drive these kernels ------------------
def model_args(model):
    """The model arrays the kernels take, in order."""
    return (model.peer_starts, model.peers, model.hidden_units, model.cell_hidden,
            model.segments, model.segment_units)


def work(model, depth):
    """Scratch for a search of ``depth`` levels: masks, heap buckets, open cells, branch cell
    and untried values per level, the queue of fixed cells, when each complete unit last
    changed and the clock."""
    cells = model.num_cells
    return (np.zeros((depth, cells), dtype=np.int64),
            np.zeros((depth, (model.num_values + 1) * model.words), dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(cells + 1, dtype=np.int64),
            np.zeros(len(model.hidden_units), dtype=np.int64), np.zeros(1, dtype=np.int64))


def grow(work, depth):
    """``work`` with ``depth`` levels, the levels so far copied."""
    return (*(_deeper(a, depth) for a in work[:5]), *work[5:])


def _deeper(levels, depth):
    more = np.zeros((depth, *levels.shape[1:]), dtype=levels.dtype)
    more[:len(levels)] = levels
    return more


def level_bytes(model):
    """Bytes per search level."""
    return 8 * (model.num_cells + (model.num_values + 1) * model.words + 3)


def slice_nodes(model):
    """Nodes per kernel call between clock readings (a node costs about a pass over the
    cells)."""
    return max(64, (1 << 21) // max(model.num_cells, 1))


def propagated(model, givens, flags=ALL):
    """The candidate masks (int64, bit ``v - 1`` for value ``v``) left by propagating one row
    of ``givens`` before any search, or None when propagation finds a contradiction.

    Examples
    --------
    >>> from sudokit.instances import sudoku
    >>> from sudokit.solvers.unit_model import unit_model
    >>> model = unit_model(sudoku(np.zeros((4, 4), dtype=int)))
    >>> [int(m) for m in propagated(model, [1, 2, 3] + [0] * 13)[:4]]
    [1, 2, 4, 8]
    """
    scratch = work(model, 2)
    state = np.zeros(6, dtype=np.int64)
    with np.errstate(all="ignore"):
        left = root(*scratch, *model_args(model), model.num_values, flags,
                    np.asarray(givens, dtype=np.int32), state)
    return None if left < 0 else scratch[0][0].copy()
