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

Each rule looks only where it can find something new since its own last pass:

* hidden singles at the complete units whose cells lost a candidate;
* locked candidates at the segments (the cells a line and a box share) next to a segment
  whose candidates changed: a value of a unit becomes locked in one segment when it leaves
  the unit's other segments. Each segment's candidates are one OR mask, kept in the level
  after the heap's buckets (``bst[d, ors + s]``) and recomputed when a cell of it changed;
* naked pairs at the units where a cell was left with two values (a pair needs one), and
  only when the unit's two-value cells show two values twice, one of them in a third cell.

``marks`` holds four rows of ``h`` int64 words: the units for hidden singles, the units for
naked pairs, the segments whose ORs are stale, and scratch. The ``bits`` table gives, per
cell, its units (``h`` words) and its segments (``h`` words), and per segment ``s`` (row
``C + s``) the segments whose test reads its OR. ``marks`` is all zeros between calls: a
caller sets the cells it changes (:func:`set_cell`), marks them (:func:`mark_changed`) and
propagates, which leaves it zeroed again. With :data:`HEAP`, every change also moves the cell
between the heap's buckets (one bit set of cells per candidate count), so the search finds
its minimum-remaining-values cell in O(1).

The fixpoint does not depend on the order the rules run in, so neither does the search tree.
Written for the branch predictor: which peers still hold a value, which cells have two
values, where a hidden single sits, are hard to guess, so those are computed with masks and
table lookups (:data:`TWO`, :data:`MORE`) rather than branches. The kernels index the levels
(``cst[d, c]``) rather than take a level's row: a row is a view, and numba counts references
to views. The index tables are unsigned (``uint32``): numba then indexes without the code
for negative indices.
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from . import takano_layout
from .cp_bits import lowest_bit_index, popcount

__all__ = ["NAKED_PAIRS", "LOCKED", "HEAP", "REACH", "ALL", "heap_size", "propagate",
           "set_cell", "mark_changed"]

NAKED_PAIRS = 1
LOCKED = 2
HEAP = 4
#: the search's tie-break (:func:`sudokit.solvers.takano._choose`), not a propagation rule
REACH = 8
ALL = NAKED_PAIRS | LOCKED | HEAP | REACH

#: ``TWO[popcount(m)]``: all ones for a mask of two values, else 0
TWO = np.zeros(65, dtype=np.int64)
TWO[2] = -1
#: ``MORE[popcount(m)]``: all ones for a mask of three values or more, else 0
MORE = np.zeros(65, dtype=np.int64)
MORE[3:] = -1

# the rows of ``marks`` (times h words)
_HIDDEN, _PAIRS, _STALE, _SCRATCH = 0, 1, 2, 3


#: :func:`sudokit.solvers.takano_layout.heap_size` for the kernels
heap_size = njit(takano_layout.heap_size)


@njit(inline="always")
def set_cell(cst, bst, d, c, old, new, heap, words):
    """Cell ``c`` of level ``d``: ``old`` -> ``new`` (``old`` has at least two values); the
    heap follows (a cell left with one value goes to the bucket of count 1, never read)."""
    cst[d, c] = new
    if heap:
        word = c >> 6
        bit = np.int64(1) << (c & 63)
        bst[d, popcount(old) * words + word] &= ~bit
        bst[d, popcount(new) * words + word] |= bit


@njit(inline="always")
def mark_changed(c, new, bits, nw, sw, marks):
    """Cell ``c`` now holds ``new``: hidden singles look at its units, naked pairs too when
    two values are left, and its segments' ORs are stale."""
    h = bits.shape[1] >> 1
    two = TWO[popcount(new)]
    marks[0] |= bits[c, 0]                     # (the first word apart: most shapes have at
    marks[_PAIRS * h] |= bits[c, 0] & two      # most 64 units and 64 segments)
    marks[_STALE * h] |= bits[c, h]
    for w in range(1, nw):
        marks[w] |= bits[c, w]
        marks[_PAIRS * h + w] |= bits[c, w] & two
    for w in range(1, sw):
        marks[_STALE * h + w] |= bits[c, h + w]


@njit(inline="always")
def _remove(cst, bst, d, c, x, queue, qt, left, bits, nw, sw, marks, heap, words):
    """Remove the values ``x`` from cell ``c``; ``(qt, left)``, left -1 on a wipe-out."""
    m = cst[d, c]
    if m & x:
        new = m & ~x
        if new == 0:
            return qt, -1
        set_cell(cst, bst, d, c, m, new, heap, words)
        mark_changed(c, new, bits, nw, sw, marks)
        if (new & (new - 1)) == 0:
            queue[qt] = c
            qt += 1
            left -= 1
    return qt, left


@njit(inline="always")
def _naked_singles(cst, bst, d, queue, qh, qt, left, peer_starts, peers, bits, nw, sw, marks,
                   heap, words):
    """The fixed cells ``queue[qh:qt]`` (and those they fix) leave their peers; ``(qt,
    left)``. The value leaves up to 64 peers at a time without a branch, ``hits`` keeping
    which had it, and only those are looked at then."""
    while qh < qt:
        c = queue[qh]
        qh += 1
        bit = cst[d, c]
        value = lowest_bit_index(bit)
        end = peer_starts[c + 1]
        for base in range(peer_starts[c], end, 64):
            hits = np.int64(0)
            for k in range(min(64, end - base)):
                q = peers[base + k]
                m = cst[d, q]
                cst[d, q] = m & ~bit
                hits |= ((m >> value) & 1) << k
            while hits != 0:
                q = peers[base + lowest_bit_index(hits)]
                hits &= hits - 1
                new = cst[d, q]
                if new == 0:
                    return qt, -1
                count = popcount(new)
                if heap:
                    cell = np.int64(1) << (q & 63)
                    bst[d, (count + 1) * words + (q >> 6)] &= ~cell
                    bst[d, count * words + (q >> 6)] |= cell
                mark_changed(q, new, bits, nw, sw, marks)
                queue[qt] = q                   # left with one value: on the queue
                single = np.int64(count == 1)
                qt += single
                left -= single
    return qt, left


@njit(inline="always")
def _hidden_singles(cst, bst, d, queue, qt, left, marks, hidden_units, bits, nw, sw, full,
                    heap, words):
    """One pass over the units marked for it; ``(qt, left, found)``."""
    size = hidden_units.shape[1]
    found = False
    for w in range(nw):
        todo = marks[w]
        marks[w] = 0
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
                value = lowest_bit_index(alone)
                alone &= alone - 1
                where = np.int64(0)             # the value's place
                for k in range(size):
                    where |= ((cst[d, hidden_units[u, k]] >> value) & 1) << k
                if where == 0:                  # two values alone in one cell: the first
                    return qt, -1, found        # took it
                c = hidden_units[u, lowest_bit_index(where)]
                bit = np.int64(1) << value
                set_cell(cst, bst, d, c, cst[d, c], bit, heap, words)
                mark_changed(c, bit, bits, nw, sw, marks)
                queue[qt] = c
                qt += 1
                left -= 1
                found = True
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
def _locked_candidates(cst, bst, d, ors, queue, qt, left, marks, bits, nw, sw, groups, links,
                       heap, words):
    """One pass; ``(qt, left, found)``. The stale segment ORs are recomputed, and the
    segments next to those that changed are tested."""
    h = bits.shape[1] >> 1
    cells = cst.shape[1]
    segments = links.shape[0]
    stale = _STALE * h
    test = _SCRATCH * h                         # the segments to test
    for v in range(sw):
        todo = marks[stale + v]
        marks[stale + v] = 0
        while todo != 0:
            s = v * 64 + lowest_bit_index(todo)
            todo &= todo - 1
            x = _group_or(cst, d, groups, s)
            if x != bst[d, ors + s]:
                bst[d, ors + s] = x
                for t in range(sw):
                    marks[test + t] |= bits[cells + s, t]
    for g in range(segments, groups.shape[0]):  # groups that are not segments (not in grids)
        x = _group_or(cst, d, groups, g)
        if x != bst[d, ors + g]:
            bst[d, ors + g] = x
            for s in range(segments):
                marks[test + (s >> 6)] |= np.int64(1) << (s & 63)
    found = False
    for v in range(sw):
        todo = marks[test + v]
        marks[test + v] = 0
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
                                               sw, marks, heap, words)
                            if left < 0:
                                return qt, left, found
    return qt, left, found


@njit(inline="always")
def _naked_pairs(cst, bst, d, queue, qt, left, marks, hidden_units, bits, nw, sw, heap,
                 words):
    """One pass over the units marked for it; ``(qt, left, found)``."""
    h = bits.shape[1] >> 1
    size = hidden_units.shape[1]
    found = False
    for w in range(nw):
        todo = marks[_PAIRS * h + w]
        marks[_PAIRS * h + w] = 0
        while todo != 0:
            u = w * 64 + lowest_bit_index(todo)
            todo &= todo - 1
            # the values of the two-value cells seen once, twice and three times, and those
            # of the cells with more: a pair's two values are seen twice, and it removes
            # something only if one of them is in a third cell
            once = np.int64(0)
            twice = np.int64(0)
            thrice = np.int64(0)
            more = np.int64(0)
            for k in range(size):
                m = cst[d, hidden_units[u, k]]
                count = popcount(m)
                two = m & TWO[count]
                more |= m & MORE[count]
                thrice |= twice & two
                twice |= once & two
                once |= two
            if (twice & (twice - 1)) == 0 or twice & (thrice | more) == 0:
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
                        if cst[d, c] & m and k3 != k and k3 != k2:
                            found = True
                            qt, left = _remove(cst, bst, d, c, m, queue, qt, left, bits, nw,
                                               sw, marks, heap, words)
                            if left < 0:
                                return qt, left, found
                    break
    return qt, left, found


@njit(inline="always")
def propagate(cst, bst, d, queue, qt, left, marks, peer_starts, peers, hidden_units, bits,
              groups, links, full, words, flags):
    """Propagate level ``d`` to a fixpoint from the fixed cells ``queue[:qt]`` and what
    ``marks`` holds; the cells left open, or -1 on a contradiction."""
    heap = (flags & HEAP) != 0
    nw = (hidden_units.shape[0] + 63) >> 6
    sw = (links.shape[0] + 63) >> 6
    ors = heap_size(popcount(full), words)
    qh = 0
    while True:
        qt, left = _naked_singles(cst, bst, d, queue, qh, qt, left, peer_starts, peers, bits,
                                  nw, sw, marks, heap, words)
        qh = qt
        if left <= 0:
            break
        qt, left, found = _hidden_singles(cst, bst, d, queue, qt, left, marks, hidden_units,
                                          bits, nw, sw, full, heap, words)
        if left < 0:
            break
        if found:
            continue
        if flags & LOCKED and sw > 0:
            qt, left, found = _locked_candidates(cst, bst, d, ors, queue, qt, left, marks,
                                                 bits, nw, sw, groups, links, heap, words)
            if left < 0:
                break
            if found:
                continue
        if flags & NAKED_PAIRS and hidden_units.shape[1] >= 3:
            qt, left, found = _naked_pairs(cst, bst, d, queue, qt, left, marks, hidden_units,
                                           bits, nw, sw, heap, words)
            if left < 0:
                break
            if found:
                continue
        break
    for w in range(marks.shape[0]):
        marks[w] = 0
    return left
