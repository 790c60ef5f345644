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
unit, found with "seen once / seen twice" masks over the units that marks), and only when
both are stuck, locked candidates and then naked pairs; whatever they remove sends the
propagation back to the singles. Search: a cell with the fewest candidates; of the first
:data:`TIES` such cells, the one whose value reaches the most open peers still holding one of
its candidates (:data:`REACH`; our addition, not the paper's: it cuts the nodes on the forum's
hardest 9x9 puzzles by about 40 %); its values in increasing order, each child a copy of the
level's masks (the last value reuses the level in place). ``flags`` switch the heap, the
tie-break and the two extra cases (:data:`HEAP`, :data:`REACH`, :data:`LOCKED`,
:data:`NAKED_PAIRS`) for measuring each one; the registered engine uses :data:`ALL`, without
the heap up to 16x16 (:meth:`~sudokit.solvers.cp_engine.SearchMethod.flags_for`). The heap
and the scan choose the same cell, so they give the same search tree (the scan is the faster
of the two up to 16x16: 0.37 s against 0.42 s for the uniqueness of the 49,158 17-clue
puzzles in one batch); without the tie-break
the search is Norvig's (the first cell of the fewest candidates).

Everything runs unmarks as plain Python under ``NUMBA_DISABLE_JIT=1``.

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

from .._accel.numba_cache import njit
from .cp_bits import lowest_bit_index, popcount
from .cp_search import search_kernels
from .takano_layout import grow, level_bytes, model_args, slice_nodes, work  # noqa: F401
from .takano_rules import (
    ALL,
    HEAP,
    LOCKED,
    NAKED_PAIRS,
    REACH,
    heap_size,
    mark_changed,
    propagate,
    set_cell,
)

__all__ = ["NAKED_PAIRS", "LOCKED", "HEAP", "REACH", "ALL", "start", "run", "batch", "root",
           "propagated"]

#: how many cells of the fewest candidates :func:`_branch_cell` weighs against each other
TIES = 8


@njit(inline="always")
def _reach(cst, d, c, m, peer_starts, peers):
    """The open peers of cell ``c`` (candidates ``m``) that share a candidate with it: the
    cells that fixing ``c`` acts on."""
    k = 0
    for i in range(peer_starts[c], peer_starts[c + 1]):
        q = cst[d, peers[i]]
        k += np.int64(((q & (q - 1)) != 0) & ((q & m) != 0))
    return k


@njit(inline="always")
def _branch_cell(cst, bst, d, words, num_values, heap, peer_starts, peers, ties_of):
    """The open cell of level ``d`` to branch on: of the cells with the fewest candidates
    (the first ``ties_of`` in cell order), the one whose value acts on the most open peers
    (the first on ties). With ``ties_of`` 1: plain MRV, the first cell in cell order."""
    best = -1
    score = -1
    ties = 0
    if heap:
        for count in range(2, num_values + 1):
            for word in range(words):
                x = bst[d, count * words + word]
                while x != 0 and ties < ties_of:
                    c = word * 64 + lowest_bit_index(x)
                    x &= x - 1
                    ties += 1
                    k = _reach(cst, d, c, cst[d, c], peer_starts, peers)
                    if k > score:
                        score = k
                        best = c
            if best >= 0:
                return best
        return -1
    fewest = 1 << 30
    for c in range(cst.shape[1]):
        m = cst[d, c]
        if (m & (m - 1)) != 0:
            count = popcount(m)
            if count <= fewest:
                if count < fewest:
                    fewest = count
                    ties = 0
                    score = -1
                if ties < ties_of:
                    ties += 1
                    k = _reach(cst, d, c, m, peer_starts, peers)
                    if k > score:
                        score = k
                        best = c
    return best


@njit(inline="always")
def _setup(head, givens, state):
    """Level 0 from ``givens`` (one row, 0 = empty), propagated; its open cells in ``lst[0]``
    (-1 when the givens clash)."""
    cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units, bits, \
        groups, links, num_values, flags = head
    cells = cst.shape[1]
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    words = max(1, (cells + 63) // 64)
    heap = (flags & HEAP) != 0
    for i in range(bst.shape[1]):
        bst[0, i] = 0
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
        cst[0, c] = m
        if (m & (m - 1)) == 0:
            queue[qt] = c
            qt += 1
            left -= 1
        elif heap:
            bst[0, popcount(m) * words + (c >> 6)] |= np.int64(1) << (c & 63)
    clock[0] += 1
    if ok:
        h = bits.shape[1] >> 1                      # every rule looks at everything
        for u in range(hidden_units.shape[0]):
            marks[u >> 6] |= np.int64(1) << (u & 63)
            marks[h + (u >> 6)] |= np.int64(1) << (u & 63)
        for s in range(links.shape[0]):
            marks[2 * h + (s >> 6)] |= np.int64(1) << (s & 63)
        left = propagate(cst, bst, 0, queue, qt, left, marks, peer_starts, peers,
                         hidden_units, bits, groups, links, full, words, flags)
    lst[0] = left if ok else -1
    return ok and left >= 0


@njit(inline="always")
def _solved(head, d, size):
    cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units, bits, \
        groups, links, num_values, flags = head
    return lst[d] == 0


@njit(inline="always")
def _record(head, d, first):
    cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units, bits, \
        groups, links, num_values, flags = head
    for c in range(cst.shape[1]):
        first[c] = lowest_bit_index(cst[d, c]) + 1


@njit(inline="always")
def _choose(head, d, size):
    """The cell to branch on (:func:`_branch_cell`), every candidate untried."""
    cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units, bits, \
        groups, links, num_values, flags = head
    words = max(1, (cst.shape[1] + 63) // 64)
    heap = (flags & HEAP) != 0
    ties_of = TIES if flags & REACH else 1
    c = _branch_cell(cst, bst, d, words, num_values, heap, peer_starts, peers, ties_of)
    bcell[d] = c
    brest[d] = cst[d, c]


@njit(inline="always")
def _pick(head, d):
    """The lowest untried candidate's bit (0: none)."""
    cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units, bits, \
        groups, links, num_values, flags = head
    r = brest[d]
    return r & -r


@njit(inline="always")
def _crowded(head, d, bit):
    """A value with others still untried needs the next level for its copy."""
    cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units, bits, \
        groups, links, num_values, flags = head
    return (brest[d] ^ bit) != 0 and d + 1 == cst.shape[0]


@njit(inline="always")
def _place(head, d, bit):
    """Candidate ``bit`` of the level's cell, propagated, in a copy of the level (in the level
    itself for the last candidate): the child's level, or -1 on a contradiction."""
    cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units, bits, \
        groups, links, num_values, flags = head
    cells = cst.shape[1]
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    words = max(1, (cells + 63) // 64)
    heap = (flags & HEAP) != 0
    r = brest[d] ^ bit
    brest[d] = r
    target = d
    if r != 0:                     # more values to try: the child gets a copy
        target = d + 1
        for i in range(cells):
            cst[target, i] = cst[d, i]
        if (flags & (HEAP | LOCKED)) != 0:
            kept = 0 if heap else heap_size(num_values, words)   # the part a child needs
            for i in range(kept, bst.shape[1]):
                bst[target, i] = bst[d, i]
    c = bcell[d]
    set_cell(cst, bst, target, c, cst[target, c], bit, heap, words)
    queue[0] = c
    mark_changed(c, bit, bits, (hidden_units.shape[0] + 63) >> 6, (links.shape[0] + 63) >> 6,
                 marks)
    left = propagate(cst, bst, target, queue, 1, lst[d] - 1, marks, peer_starts, peers,
                     hidden_units, bits, groups, links, full, words, flags)
    if left < 0:
        return -1
    lst[target] = left
    return target


start, run, batch = search_kernels(__name__, _setup, _solved, _record, _choose, _pick, _place,
                                   _crowded)


@njit(_nrt=False)
def root(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units,
         bits, groups, links, num_values, flags, givens, state):
    """Level 0 after propagation: the candidate masks (row 0 of ``cst``), or -1 in
    ``lst[0]`` on a contradiction (what tests check the extra cases against)."""
    start(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units,
          bits, groups, links, num_values, flags, givens, state)
    return lst[0]


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
