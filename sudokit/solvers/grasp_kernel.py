"""Numba kernels of the GRASP engine: randomized greedy construction and hill climbing.

The search state is flat arrays (see :mod:`sudokit.solvers.grasp` for how an instance maps to
them):

- ``values[cell]``: the current value of every cell (givens never change);
- ``counts[unit, value]``: how many cells of each *cost unit* hold each value; the cost is
  the number of repetitions, ``sum max(0, counts - 1)`` over every cost unit and value;
- ``cell_ptr``/``cell_units``: the cost units through each cell (CSR);
- ``block_ptr``/``block_cells``/``block_values``: the free cells of each *block* and the
  values it must take. In *permutation* mode (grids) a block's cells hold a permutation of
  its values (the values its givens leave), so the block itself is never broken; a move swaps
  two cells of one block. In *recolor* mode (graphs) every free cell is its own block; its
  values are its domain (``dom_ptr``/``dom_values``) and a move recolors one cell.

:func:`grasp_slice` runs GRASP iterations until the cost is 0 or a number of iterations is
done, so the caller reads the clock between slices. The random numbers come from a xorshift32
generator kept in ``rng[0]`` (int64 arithmetic, no overflow), so the plain-Python run
(``NUMBA_DISABLE_JIT=1``) draws the same numbers and finds the same solution.

Examples
--------
>>> import numpy as np
>>> rng = np.array([7], dtype=np.int64)
>>> first = [int(next_random(rng, 10)) for _ in range(5)]
>>> rng[0] = 7
>>> first == [int(next_random(rng, 10)) for _ in range(5)], all(0 <= x < 10 for x in first)
(True, True)
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit

__all__ = ["next_random", "grasp_slice", "MODE_PERMUTATION", "MODE_RECOLOR"]

MODE_PERMUTATION = 0
MODE_RECOLOR = 1
_MASK32 = 0xFFFFFFFF


@njit
def next_random(rng, bound):
    """A number in ``0..bound-1`` from the xorshift32 state ``rng[0]`` (Marsaglia 2003)."""
    x = rng[0]
    x ^= (x << 13) & _MASK32
    x ^= x >> 17
    x ^= (x << 5) & _MASK32
    rng[0] = x
    return x % bound


@njit
def _gain(counts, cell_ptr, cell_units, cell, value):
    """Repetitions that putting ``value`` into ``cell`` adds (the greedy cost)."""
    total = 0
    for p in range(cell_ptr[cell], cell_ptr[cell + 1]):
        if counts[cell_units[p], value] >= 1:
            total += 1
    return total


@njit
def _place(counts, cell_ptr, cell_units, cell, value, step):
    for p in range(cell_ptr[cell], cell_ptr[cell + 1]):
        counts[cell_units[p], value] += step


@njit
def _change_delta(counts, cell_ptr, cell_units, cell, old, new, skip_cell):
    """Cost change of ``cell`` going from ``old`` to ``new``, leaving out the units it shares
    with ``skip_cell`` (a swap partner: those units keep both values)."""
    delta = 0
    for p in range(cell_ptr[cell], cell_ptr[cell + 1]):
        unit = cell_units[p]
        shared = False
        if skip_cell >= 0:
            for q in range(cell_ptr[skip_cell], cell_ptr[skip_cell + 1]):
                if cell_units[q] == unit:
                    shared = True
        if shared:
            continue
        if counts[unit, old] >= 2:
            delta -= 1
        if counts[unit, new] >= 1:
            delta += 1
    return delta


@njit
def _construct(values, counts, cell_ptr, cell_units, block_ptr, block_cells, block_values,
               dom_ptr, dom_values, allowed, mode, alpha, rng, order, avail, gains):
    """One greedy randomized construction; returns its cost.

    Blocks in order; the free cells of a block in a random order; for each cell the candidate
    values (the block's values not placed yet, or the cell's domain) are scored by the
    repetitions they add, and the restricted candidate list keeps those within
    ``alpha * (worst - best)`` of the best; one of them is drawn at random.
    """
    cost = 0
    for b in range(len(block_ptr) - 1):
        start, stop = block_ptr[b], block_ptr[b + 1]
        size = stop - start
        for i in range(size):
            order[i] = block_cells[start + i]
            avail[i] = block_values[start + i]
        for i in range(size - 1, 0, -1):           # Fisher-Yates
            j = next_random(rng, i + 1)
            order[i], order[j] = order[j], order[i]
        left = size
        for i in range(size):
            cell = order[i]
            if mode == MODE_PERMUTATION:
                num = left
                eligible = 0
                for c in range(num):
                    if allowed[cell, avail[c]]:
                        eligible += 1
                for c in range(num):
                    if eligible == 0 or allowed[cell, avail[c]]:
                        gains[c] = _gain(counts, cell_ptr, cell_units, cell, avail[c])
                    else:
                        gains[c] = -1     # ruled out by a given while another value is not
            else:
                num = dom_ptr[cell + 1] - dom_ptr[cell]
                for c in range(num):
                    gains[c] = _gain(counts, cell_ptr, cell_units, cell,
                                     dom_values[dom_ptr[cell] + c])
            best, worst = -1, -1
            for c in range(num):
                if gains[c] >= 0:
                    best = gains[c] if best < 0 else min(best, gains[c])
                    worst = max(worst, gains[c])
            threshold = best + alpha * (worst - best)
            listed = 0
            for c in range(num):
                if 0 <= gains[c] <= threshold:
                    listed += 1
            pick = next_random(rng, listed)
            chosen = -1
            for c in range(num):
                if 0 <= gains[c] <= threshold:
                    if pick == 0:
                        chosen = c
                        break
                    pick -= 1
            if mode == MODE_PERMUTATION:
                value = avail[chosen]
                left -= 1
                avail[chosen] = avail[left]
            else:
                value = dom_values[dom_ptr[cell] + chosen]
            cost += gains[chosen]
            values[cell] = value
            _place(counts, cell_ptr, cell_units, cell, value, 1)
    return cost


@njit
def _in_conflict(values, counts, cell_ptr, cell_units, cell):
    for p in range(cell_ptr[cell], cell_ptr[cell + 1]):
        if counts[cell_units[p], values[cell]] >= 2:
            return True
    return False


@njit
def _climb_swaps(values, counts, cell_ptr, cell_units, block_ptr, block_cells, allowed, cost):
    """Steepest descent over the swaps of two cells of one block; returns the local optimum's
    cost."""
    conflict = np.zeros(len(block_cells), dtype=np.bool_)
    while cost > 0:
        for i in range(len(block_cells)):
            conflict[i] = _in_conflict(values, counts, cell_ptr, cell_units, block_cells[i])
        best, best_a, best_b = 0, -1, -1
        for b in range(len(block_ptr) - 1):
            for i in range(block_ptr[b], block_ptr[b + 1]):
                a = block_cells[i]
                for j in range(i + 1, block_ptr[b + 1]):
                    if not (conflict[i] or conflict[j]):
                        continue      # a swap of two cells in no conflict cannot lower the cost
                    c = block_cells[j]
                    va, vc = values[a], values[c]
                    if not (allowed[a, vc] and allowed[c, va]):
                        continue      # a value a given of the cell's units rules out
                    delta = (_change_delta(counts, cell_ptr, cell_units, a, va, vc, c)
                             + _change_delta(counts, cell_ptr, cell_units, c, vc, va, a))
                    if delta < best:
                        best, best_a, best_b = delta, a, c
        if best_a < 0:
            break
        va, vc = values[best_a], values[best_b]
        _place(counts, cell_ptr, cell_units, best_a, va, -1)
        _place(counts, cell_ptr, cell_units, best_b, vc, -1)
        values[best_a], values[best_b] = vc, va
        _place(counts, cell_ptr, cell_units, best_a, vc, 1)
        _place(counts, cell_ptr, cell_units, best_b, va, 1)
        cost += best
    return cost


@njit
def _climb_recolor(values, counts, cell_ptr, cell_units, block_cells, dom_ptr, dom_values,
                   cost):
    """Steepest descent over recoloring one conflicting cell within its domain."""
    while cost > 0:
        best, best_cell, best_value = 0, -1, -1
        for i in range(len(block_cells)):
            cell = block_cells[i]
            if not _in_conflict(values, counts, cell_ptr, cell_units, cell):
                continue
            old = values[cell]
            for p in range(dom_ptr[cell], dom_ptr[cell + 1]):
                new = dom_values[p]
                if new == old:
                    continue
                delta = _change_delta(counts, cell_ptr, cell_units, cell, old, new, -1)
                if delta < best:
                    best, best_cell, best_value = delta, cell, new
        if best_cell < 0:
            break
        _place(counts, cell_ptr, cell_units, best_cell, values[best_cell], -1)
        values[best_cell] = best_value
        _place(counts, cell_ptr, cell_units, best_cell, best_value, 1)
        cost += best
    return cost


@njit
def grasp_slice(values, counts, cell_ptr, cell_units, block_ptr, block_cells, block_values,
                dom_ptr, dom_values, allowed, mode, alpha, iterations, rng, stats):
    """Run up to ``iterations`` GRASP iterations (construction, then hill climbing).

    Returns True when one reached cost 0 (``values`` is then a solution). ``stats`` holds
    ``[iterations done in total, best cost so far]`` and is updated. On entry the free cells
    may hold the values of an earlier iteration (``counts`` includes them; all 0 at first).
    """
    width = 1
    for b in range(len(block_ptr) - 1):
        width = max(width, block_ptr[b + 1] - block_ptr[b])
    for cell in range(len(dom_ptr) - 1):
        width = max(width, dom_ptr[cell + 1] - dom_ptr[cell])
    order = np.empty(width, dtype=np.int64)
    avail = np.empty(width, dtype=np.int64)
    gains = np.empty(width, dtype=np.int64)
    for _ in range(iterations):
        for i in range(len(block_cells)):          # undo the previous iteration
            cell = block_cells[i]
            if values[cell] > 0:
                _place(counts, cell_ptr, cell_units, cell, values[cell], -1)
                values[cell] = 0
        cost = _construct(values, counts, cell_ptr, cell_units, block_ptr, block_cells,
                          block_values, dom_ptr, dom_values, allowed, mode, alpha, rng, order,
                          avail, gains)
        if mode == MODE_PERMUTATION:
            cost = _climb_swaps(values, counts, cell_ptr, cell_units, block_ptr, block_cells,
                                allowed, cost)
        else:
            cost = _climb_recolor(values, counts, cell_ptr, cell_units, block_cells, dom_ptr,
                                  dom_values, cost)
        stats[0] += 1
        if stats[1] < 0 or cost < stats[1]:
            stats[1] = cost
        if cost == 0:
            return True
    return False
