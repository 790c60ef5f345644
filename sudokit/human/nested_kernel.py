"""Compiled kernels of the nested forcing chains (:mod:`~sudokit.human.nested`): Sudoku
Explainer's dynamic chaining with the rules it nests inside, over arrays of a board's
candidates and its layout's tables.

A *potential* is a candidate assumed on or off: ``2 * node + 1`` on, ``2 * node`` off, a
node being ``cell * n + value - 1``. :func:`dynamic_chain` follows one assumption as
Sudoku Explainer's ``Chaining.doChaining`` does in its dynamic mode: an "on" potential turns
off the other candidates of its cell and its value in the cell's peers; an "off" potential
turns on the last candidate of its cell and the last place of its value in each of its
units, and is then taken from the grid (so later singles see the grid the chain made). Each
potential keeps its parents (the potentials it follows from; a single also names the
candidates taken from its cell or unit since the start), so a contradiction is measured as
Sudoku Explainer measures it: the number of ancestors of the potential found on and of the
one found off, plus the complexity of every nested chain among them (SE's
``getComplexity``). When the singles are spent the chain asks the nested rules, in Sudoku
Explainer's order, on the grid as the chain made it, and the first rule that finds
something turns off what all its finds remove, each with the candidates the chain took that
the find needs as parents (SE's ``getRuleParents``; a find that needs none is left out):

- level 1 and up: locked candidates, hidden pairs, naked pairs, X-wings;
- level 2 and up: forcing chains (SE's non-dynamic ``Chaining(false, false, false, 0)``: a
  candidate whose alternating chain of links comes back to it, on to off or off to on);
- level 3: multiple forcing chains (SE's ``Chaining(true, false, false, 0)``: what every
  candidate of a cell of three or more, or every place of a value in a unit, implies by
  the links).

Examples
--------
>>> import numpy as np
>>> from sudokit.formats import parse_puzzles
>>> from .board import Board
>>> from .tables import layout_arrays
>>> b = Board.of(parse_puzzles("12..........3...")[0].instance)
>>> t = layout_arrays(b.layout)
>>> cands = np.array(b.cands, dtype=np.int64)
>>> [int(x) for x in nested_search(cands, b.n, t.units, t.cell_units, 1, 0, 16)]
[5, 41, 1]
>>> [int(x) for x in assumption(cands, b.n, t.units, t.cell_units, 1, 41, True)]  # 2r4c4 both
[5, 3, 2, 0, 61]
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from ..solvers.cp_bits import lowest_bit_index, popcount

__all__ = ["nested_search", "assumption"]


@njit(cache=True)
def _ancestors(pid, pstart, pcount, pbuf, nest, ncplx, mark, nmark, stamp, stack):
    """``(ancestors, nested)``: how many potentials ``pid`` follows from, itself included,
    and the complexity of the nested chains among them not yet marked with ``stamp``
    (``nmark``: the caller counts each nested chain once over several walks)."""
    count = 0
    nested = 0
    top = 0
    if mark[pid] != stamp:
        mark[pid] = stamp
        stack[top] = pid
        top += 1
    while top:
        top -= 1
        x = stack[top]
        count += 1
        k = nest[x]
        if k >= 0 and nmark[k] != stamp:
            nmark[k] = stamp
            nested += ncplx[k]
        for i in range(pcount[x]):
            y = pbuf[pstart[x] + i]
            if mark[y] != stamp:
                mark[y] = stamp
                stack[top] = y
                top += 1
    return count, nested


@njit(cache=True)
def _grow(pbuf, need):
    """``pbuf``, or a copy with room for ``need`` entries."""
    if need <= pbuf.shape[0]:
        return pbuf
    out = np.zeros(max(need, 2 * pbuf.shape[0]), dtype=np.int64)
    out[:pbuf.shape[0]] = pbuf
    return out


# -- the rules nested in a chain ------------------------------------------------------------
#
# Each rule writes its finds to ``res``: rows ``(node, parents start, parents count,
# complexity)`` (complexity 0: not a chain), the parents (off potentials) in ``rpar``; it
# returns the number of rows (``-1`` when ``rpar`` is full: the caller grows it and asks
# again).


@njit(cache=True, inline="always")
def _emit(res, rows, cand, start, count, cplx):
    """Row ``rows`` of ``res``: ``cand`` (cell * n + value) removed, its parents
    ``rpar[start:start + count]``, its complexity; the next row, or -1 when ``res`` is full."""
    if rows >= res.shape[0]:
        return -1
    res[rows, 0] = cand
    res[rows, 1] = start
    res[rows, 2] = count
    res[rows, 3] = cplx
    return rows + 1


@njit(cache=True, inline="always")
def _push(rpar, top, cand):
    """Put the parent "``cand`` off" (``2 * cand``, cand being cell * n + value) at
    ``rpar[top]``; the next top, or -1 when ``rpar`` is full."""
    if top >= rpar.shape[0]:
        return -1
    rpar[top] = 2 * cand
    return top + 1


@njit(cache=True)
def _removed(cands0, grid, cell, v):
    """Whether the chain took value index ``v`` from ``cell``."""
    return (cands0[cell] >> v & 1) and not (grid[cell] >> v & 1)


@njit(cache=True)
def _locking(cands0, grid, n, units, cell_units, res, rpar):
    rows = 0
    top = 0
    for u1 in range(units.shape[0]):
        for v in range(n):
            bit = 1 << v
            count = 0
            first = -1
            for k in range(n):
                c = units[u1, k]
                if grid[c] & bit:
                    count += 1
                    if first < 0:
                        first = c
            if count < 2:
                continue
            for j in range(cell_units.shape[1]):
                u2 = cell_units[first, j]
                if u2 < 0 or u2 == u1:
                    continue
                inside = True          # every place of v in u1 is in u2
                for k in range(n):
                    c = units[u1, k]
                    if grid[c] & bit:
                        found = False
                        for m in range(n):
                            if units[u2, m] == c:
                                found = True
                        if not found:
                            inside = False
                if not inside:
                    continue
                start = top
                for k in range(n):         # parents: v taken from u1 outside u2
                    c = units[u1, k]
                    if not _removed(cands0, grid, c, v):
                        continue
                    found = False
                    for m in range(n):
                        if units[u2, m] == c:
                            found = True
                    if not found:
                        top = _push(rpar, top, c * n + v)
                        if top < 0:
                            return -1
                if top == start:
                    continue
                for m in range(n):         # removed: v in u2 outside u1
                    c = units[u2, m]
                    if not grid[c] & bit:
                        continue
                    found = False
                    for k in range(n):
                        if units[u1, k] == c:
                            found = True
                    if not found:
                        rows = _emit(res, rows, c * n + v, start, top - start, 0)
                        if rows < 0:
                            return -1
    return rows


@njit(cache=True)
def _hidden_pair(cands0, grid, n, units, res, rpar):
    rows = 0
    top = 0
    for u in range(units.shape[0]):
        for v1 in range(n):
            p1 = 0
            for k in range(n):
                if grid[units[u, k]] >> v1 & 1:
                    p1 |= 1 << k
            if popcount(p1) != 2:
                continue
            for v2 in range(v1 + 1, n):
                p2 = 0
                for k in range(n):
                    if grid[units[u, k]] >> v2 & 1:
                        p2 |= 1 << k
                if p2 != p1:
                    continue
                keep = (1 << v1) | (1 << v2)
                extra = False
                for k in range(n):
                    if p1 >> k & 1 and grid[units[u, k]] & ~keep:
                        extra = True
                if not extra:
                    continue
                start = top
                for k in range(n):
                    if p1 >> k & 1:
                        continue
                    c = units[u, k]
                    for v in (v1, v2):
                        if cands0[c] >> v & 1:
                            top = _push(rpar, top, c * n + v)
                            if top < 0:
                                return -1
                if top == start:
                    continue
                for k in range(n):
                    if not p1 >> k & 1:
                        continue
                    c = units[u, k]
                    m = grid[c] & ~keep
                    while m:
                        v = lowest_bit_index(m)
                        m &= m - 1
                        rows = _emit(res, rows, c * n + v, start, top - start, 0)
                        if rows < 0:
                            return -1
    return rows


@njit(cache=True)
def _naked_pair(cands0, grid, n, units, res, rpar):
    rows = 0
    top = 0
    for u in range(units.shape[0]):
        for i in range(n):
            a = units[u, i]
            pair = grid[a]
            if popcount(pair) != 2:
                continue
            for j in range(i + 1, n):
                b = units[u, j]
                if grid[b] != pair:
                    continue
                hit = False
                for k in range(n):
                    c = units[u, k]
                    if c != a and c != b and grid[c] & pair:
                        hit = True
                if not hit:
                    continue
                start = top
                for c in (a, b):
                    m = cands0[c] & ~pair
                    while m:
                        v = lowest_bit_index(m)
                        m &= m - 1
                        top = _push(rpar, top, c * n + v)
                        if top < 0:
                            return -1
                if top == start:
                    continue
                for k in range(n):
                    c = units[u, k]
                    if c == a or c == b:
                        continue
                    m = grid[c] & pair
                    while m:
                        v = lowest_bit_index(m)
                        m &= m - 1
                        rows = _emit(res, rows, c * n + v, start, top - start, 0)
                        if rows < 0:
                            return -1
    return rows


@njit(cache=True)
def _x_wing(cands0, grid, n, res, rpar):
    """X-wings on rows (then columns): a value's two places in two lines, the same two
    crossing lines (rows ``r*n+c``; the grid's rows and columns are its first units)."""
    rows = 0
    top = 0
    for side in range(2):
        for v in range(n):
            bit = 1 << v
            for l1 in range(n):
                m1 = 0
                for k in range(n):
                    c = l1 * n + k if side == 0 else k * n + l1
                    if grid[c] & bit:
                        m1 |= 1 << k
                if popcount(m1) != 2:
                    continue
                for l2 in range(l1 + 1, n):
                    m2 = 0
                    for k in range(n):
                        c = l2 * n + k if side == 0 else k * n + l2
                        if grid[c] & bit:
                            m2 |= 1 << k
                    if m2 != m1:
                        continue
                    hit = False
                    for k in range(n):
                        if not m1 >> k & 1:
                            continue
                        for line in range(n):
                            if line == l1 or line == l2:
                                continue
                            c = line * n + k if side == 0 else k * n + line
                            if grid[c] & bit:
                                hit = True
                    if not hit:
                        continue
                    start = top
                    for line in (l1, l2):
                        for k in range(n):
                            if m1 >> k & 1:
                                continue
                            c = line * n + k if side == 0 else k * n + line
                            if _removed(cands0, grid, c, v):
                                top = _push(rpar, top, c * n + v)
                                if top < 0:
                                    return -1
                    if top == start:
                        continue
                    for k in range(n):
                        if not m1 >> k & 1:
                            continue
                        for line in range(n):
                            if line == l1 or line == l2:
                                continue
                            c = line * n + k if side == 0 else k * n + line
                            if grid[c] & bit:
                                rows = _emit(res, rows, c * n + v, start, top - start, 0)
                                if rows < 0:
                                    return -1
    return rows


@njit(cache=True)
def _closure(grid, n, units, cell_units, start_pid, depth, via, cause, queue, stamp, seen,
             alternate_only):
    """The potentials that follow from ``start_pid`` by the links of ``grid`` as they
    stand (Sudoku Explainer's non-dynamic chaining): ``seen[pid] == stamp`` marks them,
    ``depth[pid]`` counts the potentials of the chain to it (the start is 1), ``via[pid]``
    its parent, ``cause[pid]`` how an "on" one followed (-1 the cell's last candidate, else
    the unit; -2 the start). Stops at the first potential found both on and off (SE's
    ``doChaining``) unless ``alternate_only`` (SE's ``doForcingChains``, which only looks
    for the start's opposite): returns the potential that completes the start's opposite
    when ``alternate_only``, else -1 (and the number of potentials reached)."""
    head = 0
    tail = 0
    seen[start_pid] = stamp
    depth[start_pid] = 1
    via[start_pid] = -1
    cause[start_pid] = -2
    queue[tail] = start_pid
    tail += 1
    opposite = start_pid ^ 1
    while head < tail:
        pid = queue[head]
        head += 1
        nd = pid >> 1
        cell = nd // n
        v = nd % n
        if pid & 1:                        # on: the cell's others and the value's peers off
            m = grid[cell] & ~(1 << v)
            while m:
                w = lowest_bit_index(m)
                m &= m - 1
                q = 2 * (cell * n + w)
                if seen[q] != stamp:
                    if not alternate_only and seen[q + 1] == stamp:
                        return -1, tail
                    seen[q] = stamp
                    depth[q] = depth[pid] + 1
                    via[q] = pid
                    if alternate_only and q == opposite:
                        return q, tail
                    queue[tail] = q
                    tail += 1
            bit = 1 << v
            for j in range(cell_units.shape[1]):
                u = cell_units[cell, j]
                if u < 0:
                    continue
                for k in range(n):
                    c = units[u, k]
                    if c == cell or not grid[c] & bit:
                        continue
                    q = 2 * (c * n + v)
                    if seen[q] != stamp:
                        if not alternate_only and seen[q + 1] == stamp:
                            return -1, tail
                        seen[q] = stamp
                        depth[q] = depth[pid] + 1
                        via[q] = pid
                        if alternate_only and q == opposite:
                            return q, tail
                        queue[tail] = q
                        tail += 1
        else:                              # off: a bivalue cell's other, a unit's other place
            m = grid[cell]
            if popcount(m) == 2:
                w = lowest_bit_index(m & ~(1 << v))
                q = 2 * (cell * n + w) + 1
                if seen[q] != stamp:
                    if not alternate_only and seen[q - 1] == stamp:
                        return -1, tail
                    seen[q] = stamp
                    depth[q] = depth[pid] + 1
                    via[q] = pid
                    cause[q] = -1
                    if alternate_only and q == opposite:
                        return q, tail
                    queue[tail] = q
                    tail += 1
            bit = 1 << v
            for j in range(cell_units.shape[1]):
                u = cell_units[cell, j]
                if u < 0:
                    continue
                other = -1
                count = 0
                for k in range(n):
                    c = units[u, k]
                    if c != cell and grid[c] & bit:
                        other = c
                        count += 1
                if count != 1:
                    continue
                q = 2 * (other * n + v) + 1
                if seen[q] != stamp:
                    if not alternate_only and seen[q - 1] == stamp:
                        return -1, tail
                    seen[q] = stamp
                    depth[q] = depth[pid] + 1
                    via[q] = pid
                    cause[q] = u
                    if alternate_only and q == opposite:
                        return q, tail
                    queue[tail] = q
                    tail += 1
    return -1, tail


@njit(cache=True)
def _chain_parents(cands0, grid, n, units, target, via, cause, start_cause, rpar, top):
    """Write the rule parents of the chain ending at ``target`` (SE's
    ``collectRuleParents``): for each "on" potential of the chain, the candidates the outer
    chain took from its cell (a cell's last candidate) or the value's places it took from
    its unit; the start counts as ``start_cause`` (-3: none). Returns the new top, -1 when
    ``rpar`` is full."""
    pid = target
    while pid >= 0:
        nd = pid >> 1
        cell = nd // n
        v = nd % n
        how = cause[pid] if via[pid] >= 0 else start_cause
        if pid & 1 or via[pid] < 0:
            if how == -1:
                m = cands0[cell] & ~grid[cell]
                while m:
                    w = lowest_bit_index(m)
                    m &= m - 1
                    top = _push(rpar, top, cell * n + w)
                    if top < 0:
                        return -1
            elif how >= 0:
                for k in range(n):
                    c = units[how, k]
                    if _removed(cands0, grid, c, v):
                        top = _push(rpar, top, c * n + v)
                        if top < 0:
                            return -1
        pid = via[pid]
    return top


@njit(cache=True)
def _forcing_chains(cands0, grid, n, units, cell_units, res, rpar, depth, via, cause, queue,
                    seen, stamp):
    """SE's non-dynamic forcing chains on ``grid``: a candidate whose chain from it "on"
    comes back "off" (removed), or from it "off" comes back "on" (its cell's others
    removed). Returns ``(rows, stamp)``."""
    rows = 0
    top = 0
    for cell in range(grid.shape[0]):
        mask = grid[cell]
        if popcount(mask) < 2:
            continue
        for v in range(n):
            if not mask >> v & 1:
                continue
            nd = cell * n + v
            for on in (1, 0):
                stamp += 1
                found, _ = _closure(grid, n, units, cell_units, 2 * nd + on, depth, via,
                                    cause, queue, stamp, seen, True)
                if found < 0:
                    continue
                start = top
                top = _chain_parents(cands0, grid, n, units, found, via, cause, -3, rpar, top)
                if top < 0:
                    return -1, stamp
                if top == start:
                    continue
                if on:
                    targets = 1 << v
                else:
                    targets = mask & ~(1 << v)
                while targets:
                    w = lowest_bit_index(targets)
                    targets &= targets - 1
                    rows = _emit(res, rows, cell * n + w, start, top - start, depth[found])
                    if rows < 0:
                        return -1, stamp
    return rows, stamp


@njit(cache=True)
def _reduction(cands0, grid, n, units, count, start_cause, hits, res, rpar, rows,
               top, bdepth, bvia, bcause, bseen, stamps):
    """The finds of one group of branches (a cell's candidates, or a value's places in a
    unit), each followed by :func:`_closure` into row ``b`` of the ``b*`` tables: what all
    of them make on (the cell's others removed) or off (removed); the complexity is the sum
    of the branches' chains. Returns ``(rows, top)``."""
    nodes = grid.shape[0] * n
    pots = 2 * nodes
    for pid in range(pots):
        hits[pid] = 0
    for b in range(count):
        for pid in range(pots):
            if bseen[b, pid] == stamps[b]:
                hits[pid] += 1
    for pid in range(pots):
        if hits[pid] != count:
            continue
        nd = pid >> 1
        cell = nd // n
        v = nd % n
        if pid & 1:
            removable = grid[cell] & ~(1 << v)
        else:
            removable = grid[cell] & (1 << v)
        if not removable:
            continue
        start = top
        cplx = 0
        for b in range(count):
            cplx += bdepth[b, pid]
            top = _chain_parents(cands0, grid, n, units, pid, bvia[b], bcause[b],
                                 start_cause[b], rpar, top)
            if top < 0:
                return -1, -1
        if top == start:
            continue
        while removable:
            w = lowest_bit_index(removable)
            removable &= removable - 1
            rows = _emit(res, rows, cell * n + w, start, top - start, cplx)
            if rows < 0:
                return -1, -1
    return rows, top


@njit(cache=True)
def _multiple_chains(cands0, grid, n, units, cell_units, res, rpar, hits, bdepth, bvia,
                     bcause, bseen, stamps, queue, start_cause, stamp):
    """SE's non-dynamic multiple forcing chains on ``grid`` (cell forcing chains from the
    cells of three candidates or more, and unit forcing chains met from such a cell).
    Returns ``(rows, stamp)``."""
    rows = 0
    top = 0
    for cell in range(grid.shape[0]):
        mask = grid[cell]
        if popcount(mask) < 3:
            continue
        count = 0
        for v in range(n):
            if mask >> v & 1:
                stamp += 1
                stamps[count] = stamp
                _closure(grid, n, units, cell_units, 2 * (cell * n + v) + 1, bdepth[count],
                         bvia[count], bcause[count], queue, stamp, bseen[count], False)
                start_cause[count] = -1
                count += 1
        rows, top = _reduction(cands0, grid, n, units, count, start_cause, hits,
                               res, rpar, rows, top, bdepth, bvia, bcause, bseen, stamps)
        if rows < 0:
            return -1, stamp
        for v in range(n):
            if not mask >> v & 1:
                continue
            bit = 1 << v
            for j in range(cell_units.shape[1]):
                u = cell_units[cell, j]
                if u < 0:
                    continue
                first = -1
                places = 0
                for k in range(n):
                    if grid[units[u, k]] & bit:
                        places += 1
                        if first < 0:
                            first = units[u, k]
                if places < 2 or first != cell:
                    continue
                count = 0
                for k in range(n):
                    c = units[u, k]
                    if grid[c] & bit:
                        stamp += 1
                        stamps[count] = stamp
                        _closure(grid, n, units, cell_units, 2 * (c * n + v) + 1,
                                 bdepth[count], bvia[count], bcause[count], queue, stamp,
                                 bseen[count], False)
                        start_cause[count] = u
                        count += 1
                rows, top = _reduction(cands0, grid, n, units, count, start_cause,
                                       hits, res, rpar, rows, top, bdepth, bvia, bcause,
                                       bseen, stamps)
                if rows < 0:
                    return -1, stamp
    return rows, stamp


# -- the dynamic chain ----------------------------------------------------------------------


@njit(cache=True)
def _scratch(nodes, n):
    """The arrays the nested rules work in."""
    pots = 2 * nodes
    return (np.zeros((4 * nodes, 4), dtype=np.int64),       # res
            np.zeros(64 * nodes, dtype=np.int64),           # rpar
            np.zeros(pots, dtype=np.int64),                 # hits
            np.zeros((n, pots), dtype=np.int64),            # bdepth
            np.zeros((n, pots), dtype=np.int64),            # bvia
            np.zeros((n, pots), dtype=np.int64),            # bcause
            np.zeros((n, pots), dtype=np.int64),            # bseen
            np.zeros(n, dtype=np.int64),                    # stamps
            np.zeros(pots, dtype=np.int64),                 # queue
            np.zeros(n, dtype=np.int64))                    # start causes


@njit(cache=True)
def _add(pid, parents, k, pstart, pcount, pbuf, counters):
    """Record ``pid``'s parents (``parents[:k]``) at the buffer's top; returns pbuf."""
    top = counters[1]
    pbuf = _grow(pbuf, top + k)
    for i in range(k):
        pbuf[top + i] = parents[i]
    pstart[pid] = top
    pcount[pid] = k
    counters[1] = top + k
    return pbuf


@njit(cache=True)
def _measure(on_pid, off_pid, pstart, pcount, pbuf, nest, ncplx, mark, nmark, stack, counters):
    """SE's complexity of a contradiction: the ancestors of the potential found on, those
    of the one found off, and the nested chains among them, each once."""
    counters[2] += 1
    stamp = counters[2]
    a, na = _ancestors(on_pid, pstart, pcount, pbuf, nest, ncplx, mark, nmark, stamp, stack)
    counters[2] += 1
    stamp2 = counters[2]
    # the second walk counts its own ancestors, the nested chains once over both
    for k in range(nmark.shape[0]):
        if nmark[k] == stamp:
            nmark[k] = stamp2
    b, nb = _ancestors(off_pid, pstart, pcount, pbuf, nest, ncplx, mark, nmark, stamp2,
                       stack)
    counters[4] = a
    counters[5] = b
    counters[6] = na + nb
    counters[7] = on_pid >> 1 if on_pid < off_pid else off_pid >> 1
    return a + b + na + nb


@njit(cache=True)
def _dynamic(cands0, n, units, cell_units, level, start, start_on, grid, on_st, off_st,
             pstart, pcount, pbuf, nest, ncplx, mark, nmark, stack, qon, qoff, counters,
             res, rpar, hits, bdepth, bvia, bcause, bseen, stamps, queue, start_cause):
    """The complexity of the contradiction that follows from candidate node ``start``
    assumed on (``start_on``) or off, by dynamic chaining with the rules of ``level``
    nested (see the module), 0 when none follows: ``(complexity, pbuf)`` (the parents'
    buffer, grown when a chain needed more)."""
    cells = cands0.shape[0]
    nodes = cells * n
    tmp = 2 * nodes                        # the potential that completes a contradiction
    for c in range(cells):
        grid[c] = cands0[c]
    counters[0] += 1
    stamp = counters[0]
    counters[1] = 0
    nnest = 0
    parents = np.empty(2 * n + 2, dtype=np.int64)
    hon = ton = hoff = toff = 0
    pid0 = 2 * start + (1 if start_on else 0)
    nest[pid0] = -1
    pcount[pid0] = 0
    if start_on:
        on_st[start] = stamp
        qon[ton] = start
        ton += 1
    else:
        off_st[start] = stamp
        qoff[toff] = start
        toff += 1
    while True:
        if hon < ton:
            nd = qon[hon]
            hon += 1
            cell = nd // n
            v = nd % n
            parents[0] = 2 * nd + 1
            m = grid[cell] & ~(1 << v)
            bit = 1 << v
            # the cell's other candidates, then the value in the cell's units
            q = -1
            while True:
                if m:
                    w = lowest_bit_index(m)
                    m &= m - 1
                    q = cell * n + w
                else:
                    break
                if on_st[q] == stamp:
                    nest[tmp] = -1
                    pbuf = _add(tmp, parents, 1, pstart, pcount, pbuf, counters)
                    return _measure(2 * q + 1, tmp, pstart, pcount, pbuf, nest, ncplx, mark,
                                    nmark, stack, counters), pbuf
                if off_st[q] != stamp:
                    off_st[q] = stamp
                    nest[2 * q] = -1
                    pbuf = _add(2 * q, parents, 1, pstart, pcount, pbuf, counters)
                    qoff[toff] = q
                    toff += 1
            for j in range(cell_units.shape[1]):
                u = cell_units[cell, j]
                if u < 0:
                    continue
                for k in range(n):
                    c = units[u, k]
                    if c == cell or not grid[c] & bit:
                        continue
                    q = c * n + v
                    if on_st[q] == stamp:
                        nest[tmp] = -1
                        pbuf = _add(tmp, parents, 1, pstart, pcount, pbuf, counters)
                        return _measure(2 * q + 1, tmp, pstart, pcount, pbuf, nest, ncplx,
                                        mark, nmark, stack, counters), pbuf
                    if off_st[q] != stamp:
                        off_st[q] = stamp
                        nest[2 * q] = -1
                        pbuf = _add(2 * q, parents, 1, pstart, pcount, pbuf, counters)
                        qoff[toff] = q
                        toff += 1
            continue
        if hoff < toff:
            nd = qoff[hoff]
            hoff += 1
            cell = nd // n
            v = nd % n
            bit = 1 << v
            m = grid[cell]
            if popcount(m) == 2 and m & bit:
                q = cell * n + lowest_bit_index(m & ~bit)
                parents[0] = 2 * nd
                k = 1
                gone = cands0[cell] & ~grid[cell]
                while gone:
                    w = lowest_bit_index(gone)
                    gone &= gone - 1
                    parents[k] = 2 * (cell * n + w)
                    k += 1
                if off_st[q] == stamp:
                    nest[tmp] = -1
                    pbuf = _add(tmp, parents, k, pstart, pcount, pbuf, counters)
                    return _measure(tmp, 2 * q, pstart, pcount, pbuf, nest, ncplx, mark,
                                    nmark, stack, counters), pbuf
                if on_st[q] != stamp:
                    on_st[q] = stamp
                    nest[2 * q + 1] = -1
                    pbuf = _add(2 * q + 1, parents, k, pstart, pcount, pbuf, counters)
                    qon[ton] = q
                    ton += 1
            for j in range(cell_units.shape[1]):
                u = cell_units[cell, j]
                if u < 0:
                    continue
                other = -1
                count = 0
                for i in range(n):
                    c = units[u, i]
                    if c != cell and grid[c] & bit:
                        other = c
                        count += 1
                if count != 1:
                    continue
                q = other * n + v
                parents[0] = 2 * nd
                k = 1
                for i in range(n):
                    c = units[u, i]
                    if _removed(cands0, grid, c, v):
                        parents[k] = 2 * (c * n + v)
                        k += 1
                if off_st[q] == stamp:
                    nest[tmp] = -1
                    pbuf = _add(tmp, parents, k, pstart, pcount, pbuf, counters)
                    return _measure(tmp, 2 * q, pstart, pcount, pbuf, nest, ncplx, mark,
                                    nmark, stack, counters), pbuf
                if on_st[q] != stamp:
                    on_st[q] = stamp
                    nest[2 * q + 1] = -1
                    pbuf = _add(2 * q + 1, parents, k, pstart, pcount, pbuf, counters)
                    qon[ton] = q
                    ton += 1
            grid[cell] &= ~bit
            continue
        if level < 1:
            return 0, pbuf
        rows = 0
        for rule in range(6):
            if rule == 4 and level < 2 or rule == 5 and level < 3:
                break
            while True:
                if rule == 0:
                    rows = _locking(cands0, grid, n, units, cell_units, res, rpar)
                elif rule == 1:
                    rows = _hidden_pair(cands0, grid, n, units, res, rpar)
                elif rule == 2:
                    rows = _naked_pair(cands0, grid, n, units, res, rpar)
                elif rule == 3:
                    rows = _x_wing(cands0, grid, n, res, rpar) if \
                        units.shape[0] >= 2 * n else 0
                elif rule == 4:
                    rows, st = _forcing_chains(cands0, grid, n, units, cell_units, res,
                                               rpar, bdepth[0], bvia[0], bcause[0], queue,
                                               bseen[0], counters[3])
                    counters[3] = st
                else:
                    rows, st = _multiple_chains(cands0, grid, n, units, cell_units, res,
                                                rpar, hits, bdepth, bvia, bcause, bseen,
                                                stamps, queue, start_cause, counters[3])
                    counters[3] = st
                if rows >= 0:
                    break
                res = np.zeros((2 * res.shape[0], 4), dtype=np.int64)
                rpar = np.zeros(2 * rpar.shape[0], dtype=np.int64)
            if rows > 0:
                break
        added = False
        for r in range(rows):
            q = res[r, 0]
            if off_st[q] == stamp:
                continue
            # the shortest find of q among the rows (SE sorts a rule's finds by complexity
            # and keeps the first of each candidate)
            best = r
            for r2 in range(r + 1, rows):
                if res[r2, 0] == q and res[r2, 3] < res[best, 3]:
                    best = r2
            off_st[q] = stamp
            k = res[best, 2]
            pbuf = _grow(pbuf, counters[1] + k)
            pstart[2 * q] = counters[1]
            pcount[2 * q] = k
            for i in range(k):
                pbuf[counters[1] + i] = rpar[res[best, 1] + i]
            counters[1] += k
            if res[best, 3] > 0:
                ncplx[nnest] = res[best, 3]
                nest[2 * q] = nnest
                nnest += 1
            else:
                nest[2 * q] = -1
            qoff[toff] = q
            toff += 1
            added = True
        if not added:
            return 0, pbuf


@njit(cache=True)
def nested_search(cands0, n, units, cell_units, level, first, last):
    """The easiest contradiction of an assumption on a candidate of the cells ``first`` to
    ``last - 1`` at ``level``: ``(complexity, node, on)`` of the assumption with the least
    complexity (candidates in order, "on" before "off"; the first of equal ones), ``(0, -1,
    0)`` when none."""
    cells = cands0.shape[0]
    nodes = cells * n
    pots = 2 * nodes + 2
    grid = np.zeros(cells, dtype=np.int64)
    on_st = np.zeros(nodes, dtype=np.int64)
    off_st = np.zeros(nodes, dtype=np.int64)
    pstart = np.zeros(pots, dtype=np.int64)
    pcount = np.zeros(pots, dtype=np.int64)
    pbuf = np.zeros(pots * 24, dtype=np.int64)
    nest = np.full(pots, -1, dtype=np.int64)
    ncplx = np.zeros(pots + 1, dtype=np.int64)
    mark = np.zeros(pots, dtype=np.int64)
    nmark = np.zeros(pots + 1, dtype=np.int64)
    stack = np.zeros(pots, dtype=np.int64)
    qon = np.zeros(nodes, dtype=np.int64)
    qoff = np.zeros(nodes, dtype=np.int64)
    counters = np.zeros(8, dtype=np.int64)
    s = _scratch(nodes, n)
    best, best_node, best_on = 0, -1, 0
    for cell in range(first, last):
        mask = cands0[cell]
        if popcount(mask) < 2:
            continue
        for v in range(n):
            if not mask >> v & 1:
                continue
            for on in (1, 0):
                cplx, pbuf = _dynamic(cands0, n, units, cell_units, level, cell * n + v,
                                      on == 1, grid, on_st, off_st, pstart, pcount, pbuf,
                                      nest, ncplx, mark, nmark, stack, qon, qoff, counters,
                                      s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8],
                                      s[9])
                if cplx and (best == 0 or cplx < best):
                    best, best_node, best_on = cplx, cell * n + v, on
    return best, best_node, best_on


@njit(cache=True)
def assumption(cands0, n, units, cell_units, level, node, on):
    """What candidate ``node`` assumed on (``on``) or off leads to at ``level``:
    ``(complexity, ancestors of the potential found on, of the one found off, nested
    complexity, the node found both)``, zeros and -1 when no contradiction follows."""
    cells = cands0.shape[0]
    nodes = cells * n
    pots = 2 * nodes + 2
    counters = np.zeros(8, dtype=np.int64)
    s = _scratch(nodes, n)
    cplx, _ = _dynamic(cands0, n, units, cell_units, level, node, on, np.zeros(cells, np.int64),
                       np.zeros(nodes, np.int64), np.zeros(nodes, np.int64),
                       np.zeros(pots, np.int64), np.zeros(pots, np.int64),
                       np.zeros(pots * 24, np.int64), np.full(pots, -1, np.int64),
                       np.zeros(pots + 1, np.int64), np.zeros(pots, np.int64),
                       np.zeros(pots + 1, np.int64), np.zeros(pots, np.int64),
                       np.zeros(nodes, np.int64), np.zeros(nodes, np.int64), counters,
                       s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9])
    if not cplx:
        return 0, 0, 0, 0, -1
    return cplx, counters[4], counters[5], counters[6], counters[7]
