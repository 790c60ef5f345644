"""Branching for the engine ``cp``: maxSD from solution densities, dom/wdeg as the fallback.

**maxSD** (Zanarini and Pesant, "Solution counting algorithms for constraint-centered search
heuristics", CP 2007 and Constraints 14, 2009): branch on the cell and value with the highest
*solution density* in any unit, the share of the unit's solutions that give the cell that
value. A unit's solutions are the perfect matchings of its open cells and values, counted by
the permanent of its 0-1 matrix, approximated by the Minc-Bregman bound
``prod_j f(r_j)`` with ``f(r) = (r!)^(1/r)`` (``r_j`` the domain size of cell ``j``). Fixing
cell ``i`` to ``v`` cuts ``v`` from every other row holding it, so (as in their paper) the
density of ``i = v`` is proportional to ``exp(S_v)``, ``S_v = sum over open j holding v of
log f(r_j - 1) - log f(r_j)``, normalized over the values of ``i``: one pass over a unit
gives every density of it.

**dom/wdeg** (Boussemart et al. 2004): the open cell of smallest domain size over the sum of
its units' failure weights (a unit's weight goes up each time propagation fails in it). It
is the rule for cells in no complete unit (a graph's vertices) and, by choice, for all.

Ties go to the smaller domain, then the first cell. With ``noise > 0`` (after a restart) each
score is multiplied by ``1 + noise * u``, ``u`` uniform in [0, 1) from the search's xorshift
state, so each restart explores elsewhere while a seed makes it reproducible. A cell given
as ``last`` (the last conflict) is chosen first while it is open.

**Solution-guided values** (``guided``, after Beck's solution-guided search, 2007): once a
solution has been found (``first``, values from 1), the chosen cell takes that solution's
value while it is still in its domain. Counting to 2 then looks for a second solution near
the first, where one mostly is (two completions of a partial Latin square differ by a
Latin trade, often small). Only the value changes: the cells are chosen as before.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.solvers.hard_layout import hard_model, new_work
>>> model = hard_model(latin_square(np.zeros((3, 3), dtype=int)))
>>> work = new_work(model)
>>> work.dom[:] = 0b111
>>> work.dom[0], work.dom[1] = 0b011, 0b011      # row 0: {1,2} {1,2} {1,2,3}
>>> pick = int(choose(*model.args(), *work.args(), 0.0, -1, 0, 0))
>>> divmod(pick, 64)     # cells 0 and 2 tie at density 1/2: the smaller domain, value 1
(0, 0)
>>> int(choose(*model.args(), *work.args(), 0.0, 2, 0, 0)) // 64   # the last conflict
2
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from .cp_bits import lowest_bit_index, popcount
from .hard_layout import S_RNG, S_SOLUTIONS

__all__ = ["choose", "uniform"]


@njit(inline="always")
def uniform(state):
    """A uniform float in [0, 1) from the xorshift64 state ``state[S_RNG]`` (advanced)."""
    x = state[S_RNG]
    x ^= x << 13
    x ^= (x >> 7) & np.int64(0x01FFFFFFFFFFFFFF)
    x ^= x << 17
    state[S_RNG] = x
    return ((x >> 11) & np.int64(0x1FFFFFFFFFFFFF)) / 9007199254740992.0


@njit(inline="always")
def _unit_densities(units, u, dom, log_f, density):
    """``density[u, v] = exp(S_v - max S)`` for the values of unit ``u`` (see the module);
    False when the unit has no open cell."""
    width = units.shape[1]
    for v in range(64):
        density[u, v] = 0.0
    held = np.int64(0)
    for pos in range(width):
        c = units[u, pos]
        if c < 0:
            break
        d = dom[c]
        if (d & (d - 1)) != 0:
            r = popcount(d)
            delta = log_f[r - 1] - log_f[r]
            held |= d
            while d != 0:
                v = lowest_bit_index(d)
                d &= d - 1
                density[u, v] += delta
    if held == 0:
        return False
    top = -1e300
    rest = held
    while rest != 0:
        v = lowest_bit_index(rest)
        rest &= rest - 1
        if density[u, v] > top:
            top = density[u, v]
    rest = held
    while rest != 0:
        v = lowest_bit_index(rest)
        rest &= rest - 1
        density[u, v] = np.exp(density[u, v] - top)
    return True


@njit
def choose(units, complete, cell_units, peer_starts, peers, peer_unit, segments, unit_segs, log_f,
           dom, trail,
           levels, cell_queue, in_queue, unit_queue, dirty, matches, weights, scratch,
           density, negs, ng_lits, ng_info, watch_head, watch_next, first, state, noise, last,
           domwdeg, guided):
    """The next decision as ``cell * 64 + value`` (value from 0), or -1 when every cell has
    one value (a solution). See the module for ``noise``, ``last``, ``domwdeg`` and
    ``guided``."""
    count = units.shape[0]
    width = cell_units.shape[1]
    for u in range(count):
        if complete[u]:
            _unit_densities(units, u, dom, log_f, density)
    best_cell = -1
    best_value = -1
    best_score = -1.0
    best_size = 65
    begin = 0
    end = dom.shape[0]
    if last >= 0:
        d = dom[last]
        if (d & (d - 1)) != 0:
            begin = last
            end = last + 1
    for c in range(begin, end):
        d = dom[c]
        if (d & (d - 1)) == 0:
            continue
        size = popcount(d)
        # the best value by density over the cell's complete units
        value = -1
        sd = -1.0
        wdeg = 0.0
        for j in range(width):
            u = cell_units[c, j]
            if u < 0:
                break
            wdeg += weights[u]
            if complete[u] == 0:
                continue
            total = 0.0
            top = -1.0
            arg = -1
            rest = d
            while rest != 0:
                v = lowest_bit_index(rest)
                rest &= rest - 1
                e = density[u, v]
                total += e
                if e > top:
                    top = e
                    arg = v
            if total > 0.0 and top / total > sd:
                sd = top / total
                value = arg
        if value < 0:                       # in no complete unit: the lowest value
            value = lowest_bit_index(d)
        if domwdeg or sd < 0.0:
            score = wdeg / size
        else:
            score = sd
        if noise > 0.0:
            score *= 1.0 + noise * uniform(state)
        if score > best_score * (1.0 + 1e-12) or (
                score >= best_score * (1.0 - 1e-12) and size < best_size):
            best_score = score
            best_cell = c
            best_value = value
            best_size = size
    if best_cell < 0:
        return -1
    if guided and state[S_SOLUTIONS] > 0:
        guide = first[best_cell] - 1
        if guide >= 0 and (dom[best_cell] >> guide) & 1:
            best_value = guide
    return best_cell * 64 + best_value
