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
propagation back to the singles. Search: the cell with the fewest candidates (the first such
cell in cell order), its values in increasing order, each child a copy of the level's masks
(the last value reuses the level in place). ``flags`` switch the heap and the two extra cases
(:data:`HEAP`, :data:`LOCKED`, :data:`NAKED_PAIRS`) for measuring each one; the registered
engine uses :data:`ALL`. The heap and the scan choose the same cell, so they give the same
search tree.

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

import weakref

import numpy as np

from .._numba import njit
from .cp_bits import lowest_bit_index, popcount
from .takano_rules import (
    ALL,
    HEAP,
    LOCKED,
    NAKED_PAIRS,
    _set,
    heap_size,
    propagate,
)

__all__ = ["NAKED_PAIRS", "LOCKED", "HEAP", "ALL", "start", "run", "batch", "root", "propagated"]

EXPAND = 1
NEXT = 2
DONE = 0


@njit(inline="always")
def _choose(cst, bst, d, words, num_values, heap):
    """The open cell of level ``d`` with the fewest candidates, the first in cell order on
    ties."""
    if heap:
        for count in range(2, num_values + 1):
            for word in range(words):
                x = bst[d, count * words + word]
                if x != 0:
                    return word * 64 + lowest_bit_index(x)
        return -1
    best = -1
    fewest = 1 << 30
    for c in range(cst.shape[1]):
        m = cst[d, c]
        if (m & (m - 1)) != 0:
            count = popcount(m)
            if count < fewest:
                fewest = count
                best = c
                if count == 2:
                    break
    return best


@njit(_nrt=False)
def start(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers,
          hidden_units, bits, groups, links, num_values, flags, givens, state):
    """Set up level 0 from ``givens`` (one row, 0 = empty) and propagate; ``state`` is
    ``[depth, phase, solutions, nodes]``."""
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
        width = bits.shape[1]
        for u in range(hidden_units.shape[0]):      # every rule looks at every unit
            marks[u >> 6] |= np.int64(1) << (u & 63)
            marks[2 * width + (u >> 6)] |= np.int64(1) << (u & 63)
        left = propagate(cst, bst, 0, queue, qt, left, marks, peer_starts, peers,
                         hidden_units, bits, groups, links, full, words, flags)
    lst[0] = left if ok else -1
    state[0] = 0
    state[1] = EXPAND if ok and left >= 0 else DONE
    state[2] = 0
    state[3] = 1


@njit(_nrt=False)
def run(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units,
        bits, groups, links, num_values, flags, state, limit, stop, first):
    """Search on from ``state`` until ``limit`` solutions (1), the end (0), ``stop`` nodes
    (-1) or the last level (-2: grow the levels and call again); the first solution's values
    go into ``first``."""
    cells = cst.shape[1]
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    words = max(1, (cells + 63) // 64)
    heap = (flags & HEAP) != 0
    copy_bst = (flags & (HEAP | LOCKED)) != 0
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
            c = _choose(cst, bst, d, words, num_values, heap)
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
                for i in range(cells):
                    cst[target, i] = cst[d, i]
                if copy_bst:
                    for i in range(bst.shape[1]):
                        bst[target, i] = bst[d, i]
            c = bcell[d]
            _set(cst, bst, target, c, cst[target, c], bit, heap, words)
            queue[0] = c
            for w in range(bits.shape[1]):
                marks[w] |= bits[c, w]
            left = propagate(cst, bst, target, queue, 1, lst[d] - 1, marks, peer_starts, peers,
                             hidden_units, bits, groups, links, full, words, flags)
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


@njit(_nrt=False)
def batch(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers,
          hidden_units, bits, groups, links, num_values, flags, givens, begin,
          limit, cap_each, cap_call, counts, firsts, unknown, nodes, state):
    """Count puzzles ``begin, begin+1, ...`` of ``givens`` up to ``limit`` with at most
    ``cap_each`` nodes each, until ``cap_call`` nodes are spent; returns the next puzzle."""
    spent = 0
    p = begin
    while p < givens.shape[0]:
        start(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers,
              hidden_units, bits, groups, links, num_values, flags, givens[p], state)
        result = run(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers,
                     hidden_units, bits, groups, links, num_values, flags, state, limit,
                     cap_each, firsts[p])
        counts[p] = state[2]
        nodes[p] = state[3]
        unknown[p] = -result if result < 0 else 0
        spent += state[3]
        p += 1
        if spent >= cap_call:
            break
    return p


@njit(_nrt=False)
def root(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units,
         bits, groups, links, num_values, flags, givens, state):
    """Level 0 after propagation: the candidate masks (row 0 of ``cst``), or -1 in
    ``lst[0]`` on a contradiction (what tests check the extra cases against)."""
    start(cst, bst, lst, bcell, brest, queue, marks, clock, peer_starts, peers, hidden_units,
          bits, groups, links, num_values, flags, givens, state)
    return lst[0]


# what the engine (sudokit.solvers.cp_engine) needs to drive these kernels ------------------
_ARGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def model_args(model):
    """The model arrays the kernels take, in order: the peer lists and complete units as
    ``uint32``, the ``bits`` table (per cell its complete units, then per complete unit its
    segments, as bit sets) and the groups and links of locked candidates."""
    args = _ARGS.get(model)
    if args is None:
        units, segments = len(model.hidden_units), len(model.links)
        width = max(model.unit_bits.shape[1], (segments + 63) // 64, 1)
        bits = np.zeros((model.num_cells + units, width), dtype=np.uint64)
        bits[:model.num_cells, :model.unit_bits.shape[1]] = model.unit_bits.view(np.uint64)
        for s in range(segments):
            for u in model.links[s, :, 0]:
                bits[model.num_cells + u, s // 64] |= np.uint64(1) << np.uint64(s % 64)
        args = (model.peer_starts.astype(np.uint32), model.peers.astype(np.uint32),
                model.hidden_units.astype(np.uint32), bits.view(np.int64), model.groups,
                model.links)
        _ARGS[model] = args
    return args


def work(model, depth):
    """Scratch for a search of ``depth`` levels: candidate masks; heap buckets and group ORs;
    open cells, branch cell and untried values per level; the queue of fixed cells, the
    ``marks`` of :mod:`~sudokit.solvers.takano_rules` and a clock (unused)."""
    cells = model.num_cells
    width = model_args(model)[3].shape[1]
    return (np.zeros((depth, cells), dtype=np.int64),
            np.zeros((depth, heap_size(model.num_values, model.words) + len(model.groups)),
                     dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(cells + 1, dtype=np.int64),
            np.zeros(4 * width, dtype=np.int64), np.zeros(1, dtype=np.int64))


def grow(work, depth):
    """``work`` with ``depth`` levels, the levels so far copied."""
    return (*(_deeper(a, depth) for a in work[:5]), *work[5:])


def _deeper(levels, depth):
    more = np.zeros((depth, *levels.shape[1:]), dtype=levels.dtype)
    more[:len(levels)] = levels
    return more


def level_bytes(model):
    """Bytes per search level."""
    return 8 * (model.num_cells + heap_size(model.num_values, model.words) + len(model.groups)
                + 3)


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
