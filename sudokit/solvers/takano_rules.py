"""The propagation of :mod:`sudokit.solvers.takano`: singles, locked candidates, naked pairs.

:func:`propagate` takes level ``d`` of the search (``cst[d]``: one int64 bit vector of
candidates per cell) from the cells just fixed to the fixpoint of the rules switched on,
cheapest first:

1. **naked singles** (Norvig's elimination): a fixed cell's value leaves its peers, through a
   queue of fixed cells;
2. **hidden singles** (Norvig's "only choice"): a value with one place left in a complete
   unit goes there. One pass over a unit ORs its masks into "seen once" and "seen twice";
   ``once & ~twice`` minus the values already fixed are the hidden singles, and a value
   missing from ``once`` is a contradiction;
3. only when both are stuck, **locked candidates** (:data:`LOCKED`, pointing and claiming)
   and then **naked pairs** (:data:`NAKED_PAIRS`); whatever they remove goes back to 1.

Each rule looks only where it can find something new since its own last pass: hidden singles
and locked candidates at the complete units whose cells lost a candidate, naked pairs at the
units where a cell was left with two values (a pair needs one). ``marks`` holds four rows of
``W`` int64 words, bit sets of units: for hidden singles (a change ORs in the cell's units,
row ``c`` of the ``bits`` table), for locked candidates (what the hidden singles passes
looked at), for naked pairs, and the segments locked candidates look at (row ``C + u`` of
``bits``: the segments of unit ``u``). ``marks`` is all zeros between calls: a caller marks
the cells it changed (:func:`_mark`) and propagates, which leaves it zeroed again.

Locked candidates read one OR mask per group of cells (the model's ``groups``: the cells a
line and a box share; each unit's other cells are a few such groups, ``links``). The ORs live
in the level, after the heap's buckets in ``bst[d]``, and a pass recomputes those of the
segments whose units changed: the others still hold (from this level, or the one it was
copied from). With :data:`HEAP`, every change also moves the cell between the heap's buckets
(one bit set of cells per candidate count), so the search finds its minimum-remaining-values
cell in O(1).

The fixpoint does not depend on the order the rules run in, so neither does the search tree.
The kernels index the levels (``cst[d, c]``) rather than take a level's row: a row is a view,
and numba counts references to views with atomic instructions. The index tables are unsigned
(``uint32``), so numba indexes with them without the code for negative indices.
"""

from __future__ import annotations

import numpy as np

from .._numba import njit
from .cp_bits import lowest_bit_index, popcount

__all__ = ["NAKED_PAIRS", "LOCKED", "HEAP", "ALL", "heap_size", "propagate"]

NAKED_PAIRS = 1
LOCKED = 2
HEAP = 4
ALL = NAKED_PAIRS | LOCKED | HEAP

#: ``TWO[popcount(m)]``: all ones for a mask of two values, else 0 (a table lookup where a
#: comparison would compile to a branch that guesses wrong half the time)
TWO = np.zeros(65, dtype=np.int64)
TWO[2] = -1


@njit
def heap_size(num_values, words):
    """int64 words of a level's heap buckets (counts 0 to ``num_values``, ``words`` each):
    the group ORs of locked candidates follow them in ``bst[d]``."""
    return (num_values + 1) * words


@njit(inline="always")
def _set(cst, bst, d, c, old, new, heap, words):
    """Cell ``c`` of level ``d``: ``old`` -> ``new`` (``old`` has at least two values); the
    heap follows."""
    cst[d, c] = new
    if heap:
        word = c >> 6
        bit = np.int64(1) << (c & 63)
        bst[d, popcount(old) * words + word] &= ~bit
        bst[d, popcount(new) * words + word] |= bit  # (count 1: a bucket never read)


@njit(inline="always")
def _changed(c, new, bits, nw, marks):
    """Cell ``c`` now holds ``new``: hidden singles look at its units again, and naked pairs
    when two values are left."""
    width = bits.shape[1]
    rest = new & (new - 1)
    pair = rest != 0 and (rest & (rest - 1)) == 0
    marks[0] |= bits[c, 0]                      # (the first word apart: most shapes have
    if pair:                                    # at most 64 complete units)
        marks[2 * width] |= bits[c, 0]
    for w in range(1, nw):
        marks[w] |= bits[c, w]
        if pair:
            marks[2 * width + w] |= bits[c, w]


@njit(inline="always")
def _pair_marks(c, bits, nw, marks):
    """Naked pairs look at the units of cell ``c`` again."""
    width = bits.shape[1]
    marks[2 * width] |= bits[c, 0]
    for w in range(1, nw):
        marks[2 * width + w] |= bits[c, w]


@njit(inline="always")
def _remove(cst, bst, d, c, x, queue, qt, left, bits, nw, marks, heap, words):
    """Remove the values ``x`` from cell ``c``; ``(qt, left)``, left -1 on a wipe-out."""
    m = cst[d, c]
    if m & x:
        new = m & ~x
        if new == 0:
            return qt, -1
        _set(cst, bst, d, c, m, new, heap, words)
        _changed(c, new, bits, nw, marks)
        if (new & (new - 1)) == 0:
            queue[qt] = c
            qt += 1
            left -= 1
    return qt, left


@njit(inline="always")
def _naked_singles(cst, bst, d, queue, qh, qt, left, peer_starts, peers, bits, nw, marks,
                   heap, words):
    """The fixed cells ``queue[qh:qt]`` (and those they fix) leave their peers; ``(qt,
    left)``."""
    while qh < qt:
        c = queue[qh]
        qh += 1
        bit = cst[d, c]
        for t in range(peer_starts[c], peer_starts[c + 1]):
            q = peers[t]
            m = cst[d, q]
            if m & bit:
                new = m ^ bit
                if new == 0:
                    return qt, -1
                _set(cst, bst, d, q, m, new, heap, words)
                # hidden singles: only the units of q without c can have a new one (the
                # value is fixed in the others), and so for locked candidates
                rest = new & (new - 1)
                marks[0] |= bits[q, 0] & ~bits[c, 0]
                for w in range(1, nw):
                    marks[w] |= bits[q, w] & ~bits[c, w]
                if rest != 0 and (rest & (rest - 1)) == 0:
                    _pair_marks(q, bits, nw, marks)
                if rest == 0:
                    queue[qt] = q
                    qt += 1
                    left -= 1
    return qt, left


@njit(inline="always")
def _hidden_singles(cst, bst, d, queue, qt, left, marks, hidden_units, bits, nw, full, heap,
                    words):
    """One pass over the units marked for it, handed on to locked candidates; ``(qt, left,
    found)``."""
    width = bits.shape[1]
    size = hidden_units.shape[1]
    found = False
    for w in range(nw):
        todo = marks[w]
        if todo == 0:
            continue
        marks[w] = 0
        marks[width + w] |= todo
        while todo != 0:
            u = w * 64 + lowest_bit_index(todo)
            todo &= todo - 1
            once = np.int64(0)
            twice = np.int64(0)
            fixed = np.int64(0)
            for k in range(size):
                m = cst[d, hidden_units[u, k]]
                twice |= once & m
                once |= m
                if (m & (m - 1)) == 0:
                    fixed |= m
            if once != full:
                return qt, -1, found
            alone = once & ~twice & ~fixed
            while alone != 0:
                bit = alone & -alone
                alone ^= bit
                for k in range(size):
                    c = hidden_units[u, k]
                    m = cst[d, c]
                    if m & bit:
                        # two values alone in one cell: the second finds it taken, and the
                        # next pass over this unit sees that value gone
                        _set(cst, bst, d, c, m, bit, heap, words)
                        _changed(c, bit, bits, nw, marks)
                        queue[qt] = c
                        qt += 1
                        left -= 1
                        found = True
                        break
    return qt, left, found


@njit(inline="always")
def _group_or(cst, d, groups, g):
    x = np.int64(0)
    for k in range(groups.shape[1]):
        x |= cst[d, groups[g, k]]
    return x


@njit(inline="always")
def _rest_or(bst, d, ors, links, s, j):
    """The OR of the other cells of side ``j``'s unit of segment ``s``."""
    x = np.int64(0)
    for k in range(links[s, j, 1]):
        x |= bst[d, ors + links[s, j, 2 + k]]
    return x


@njit(inline="always")
def _locked_candidates(cst, bst, d, ors, queue, qt, left, marks, bits, nw, groups, links,
                       heap, words):
    """One pass over the segments of the units marked for it; ``(qt, left, found)``. The
    group ORs are at ``bst[d, ors + g]``."""
    width = bits.shape[1]
    cells = cst.shape[1]
    segments = links.shape[0]
    sw = (segments + 63) >> 6
    seen = 3 * width                            # the segments to look at
    for w in range(nw):
        todo = marks[width + w]
        marks[width + w] = 0
        while todo != 0:
            u = w * 64 + lowest_bit_index(todo)
            todo &= todo - 1
            for v in range(sw):
                marks[seen + v] |= bits[cells + u, v]
    for v in range(sw):
        todo = marks[seen + v]
        while todo != 0:
            s = v * 64 + lowest_bit_index(todo)
            todo &= todo - 1
            bst[d, ors + s] = _group_or(cst, d, groups, s)
    for g in range(segments, groups.shape[0]):  # groups that are not segments (not in grids)
        bst[d, ors + g] = _group_or(cst, d, groups, g)
    found = False
    for v in range(sw):
        todo = marks[seen + v]
        marks[seen + v] = 0
        while todo != 0:
            s = v * 64 + lowest_bit_index(todo)
            todo &= todo - 1
            shared = bst[d, ors + s]
            rest = (_rest_or(bst, d, ors, links, s, 0), _rest_or(bst, d, ors, links, s, 1))
            for j in range(2):
                # the values of one unit seen only where it meets the other, still in the
                # other's other cells: they go from there
                x = shared & ~rest[j] & rest[1 - j]
                if x == 0:
                    continue
                for k in range(links[s, 1 - j, 1]):
                    g = links[s, 1 - j, 2 + k]
                    for i in range(groups.shape[1]):
                        c = groups[g, i]
                        if cst[d, c] & x:
                            found = True
                            qt, left = _remove(cst, bst, d, c, x, queue, qt, left, bits, nw,
                                               marks, heap, words)
                            if left < 0:
                                return qt, left, found
    return qt, left, found


@njit(inline="always")
def _naked_pairs(cst, bst, d, queue, qt, left, marks, hidden_units, bits, nw, heap, words):
    """One pass over the units marked for it; ``(qt, left, found)``."""
    width = bits.shape[1]
    size = hidden_units.shape[1]
    found = False
    for w in range(nw):
        todo = marks[2 * width + w]
        marks[2 * width + w] = 0
        while todo != 0:
            u = w * 64 + lowest_bit_index(todo)
            todo &= todo - 1
            once = np.int64(0)                   # the values of the two-value cells, seen
            twice = np.int64(0)                  # once and twice: a pair's are seen twice
            for k in range(size):
                m = cst[d, hidden_units[u, k]]
                m &= TWO[popcount(m)]
                twice |= once & m
                once |= m
            if (twice & (twice - 1)) == 0:
                continue
            for k in range(1, size):
                m = cst[d, hidden_units[u, k]]
                if (m & twice) != m or popcount(m) != 2:
                    continue
                for k2 in range(k):
                    if cst[d, hidden_units[u, k2]] != m:
                        continue
                    for k3 in range(size):
                        c = hidden_units[u, k3]
                        if k3 != k and k3 != k2 and cst[d, c] & m:
                            found = True
                            qt, left = _remove(cst, bst, d, c, m, queue, qt, left, bits, nw,
                                               marks, heap, words)
                            if left < 0:
                                return qt, left, found
                    break
    return qt, left, found


@njit(inline="always")
def propagate(cst, bst, d, queue, qt, left, marks, peer_starts, peers, hidden_units, bits,
              groups, links, full, words, flags):
    """Propagate level ``d`` to a fixpoint from the fixed cells ``queue[:qt]`` and the units
    marked in ``marks``; the cells left open, or -1 on a contradiction."""
    heap = (flags & HEAP) != 0
    nw = (hidden_units.shape[0] + 63) >> 6
    ors = heap_size(popcount(full), words)
    qh = 0
    while True:
        qt, left = _naked_singles(cst, bst, d, queue, qh, qt, left, peer_starts, peers, bits,
                                  nw, marks, heap, words)
        qh = qt
        if left <= 0:
            break
        qt, left, found = _hidden_singles(cst, bst, d, queue, qt, left, marks, hidden_units,
                                          bits, nw, full, heap, words)
        if left < 0:
            break
        if found:
            continue
        if flags & LOCKED and links.shape[0] > 0:
            qt, left, found = _locked_candidates(cst, bst, d, ors, queue, qt, left, marks,
                                                 bits, nw, groups, links, heap, words)
            if left < 0:
                break
            if found:
                continue
        if flags & NAKED_PAIRS and hidden_units.shape[1] >= 3:
            qt, left, found = _naked_pairs(cst, bst, d, queue, qt, left, marks, hidden_units,
                                           bits, nw, heap, words)
            if left < 0:
                break
            if found:
                continue
        break
    for w in range(marks.shape[0]):
        marks[w] = 0
    return left


# the same on one level's rows (the calling convention of sudokit.generators.cp_removal) ----
@njit(inline="always")
def _change(c, old, new, cand, heap, words, buckets):
    """``cand[c]``: ``old`` -> ``new`` (``old`` has at least two values); the heap follows."""
    cand[c] = new
    if heap:
        word = c >> 6
        bit = np.int64(1) << (c & 63)
        buckets[popcount(old) * words + word] &= ~bit
        count = popcount(new)
        if count >= 2:
            buckets[count * words + word] |= bit


@njit(inline="always")
def _mark(c, bits, marks, now=0):
    """Cell ``c`` changed: every rule looks at its units again (``now``: unused, for callers
    written for a clock)."""
    width = bits.shape[1]
    for w in range(width):
        marks[w] |= bits[c, w]
        marks[2 * width + w] |= bits[c, w]


@njit(_nrt=False)
def _propagate(cand, buckets, queue, qt, left, marks, clock, peer_starts, peers,
               hidden_units, bits, groups, links, full, words, flags):
    """:func:`propagate` on the level whose rows are ``cand`` and ``buckets`` (``clock``:
    unused)."""
    return propagate(cand.reshape((1, cand.shape[0])), buckets.reshape((1, buckets.shape[0])),
                     0, queue, qt, left, marks, peer_starts, peers, hidden_units, bits, groups,
                     links, full, words, flags)
