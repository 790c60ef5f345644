"""Compiled searches of the rating's set techniques: "is there one, and which is first?".

The finders of :mod:`~sudokit.human.subsets`, :mod:`~sudokit.human.intersections`,
:mod:`~sudokit.human.wings` and :mod:`~sudokit.human.exclusion` are tried at almost every step
of a path and mostly find nothing. These numba kernels run their searches over the candidates
as an ``int64`` array (bit ``v - 1`` for value ``v``, one entry per cell) and the shape's tables
(:mod:`~sudokit.human.tables`), in the finders' own order, and return only what identifies the
first find (or, for the wings, the best one); the finder builds its
:class:`~sudokit.human.step.Step` (text, pattern, rating) from that in Python, as before, so
the steps are the same. Masks are ``int64``: sides up to :data:`MAX_SIDE`.

Examples
--------
>>> import numpy as np
>>> units = np.array([[0, 1, 2, 3]], dtype=np.int64)      # one unit of four cells
>>> cands = np.array([0b0011, 0b0111, 0b1100, 0b1000], dtype=np.int64)
>>> direct_hidden_find(cands, units, 4, 2).tolist()   # 1,2 in cells 0,1: 3 left in cell 2
[0, 3, 3, 3, 2]
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from ..solvers.cp_bits import lowest_bit_index, popcount

__all__ = ["MAX_SIDE", "direct_hidden_find", "direct_locked_find", "als_wing_find",
           "aligned_pair_find", "naked_find", "hidden_find", "locked_find", "fish_find"]

#: the largest side whose candidate masks an ``int64`` holds
MAX_SIDE = 62


@njit
def _unit_places(cands, units, u, n, places):
    """``places[v]``: the mask of the positions of value ``v + 1`` in unit ``u``."""
    for v in range(n):
        places[v] = 0
    for p in range(units.shape[1]):
        mask = cands[units[u, p]]
        while mask:
            v = lowest_bit_index(mask)
            mask &= mask - 1
            places[v] |= np.int64(1) << p


@njit
def direct_hidden_find(cands, units, n, size):
    """The first direct hidden subset of ``size`` values (Sudoku Explainer's direct hidden
    pair and triple, :func:`~sudokit.human.subsets.direct_hidden`): units in index order,
    the groups of values with 2 to ``size`` places in combination order, the other values
    in increasing order. ``[unit, values mask, positions mask, value placed, cell]``, or
    ``unit = -1`` when there is none."""
    out = np.full(5, -1, dtype=np.int64)
    places = np.zeros(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    pick = np.empty(size, dtype=np.int64)
    width = units.shape[1]
    for u in range(units.shape[0]):
        _unit_places(cands, units, u, n, places)
        k = _small(places, size, values, pick)
        if k < size:
            continue
        while True:
            union, group = _picked(places, values, pick, size)
            if popcount(union) == size:
                for other in range(n):
                    where = places[other]
                    if where == 0 or (group >> other) & 1:
                        continue
                    left = where & ~union
                    if where == left or left & (left - 1):
                        continue
                    # no place left outside (a broken board): the unit's last cell, as the
                    # finder's ``unit[left.bit_length() - 1]`` reads it
                    position = lowest_bit_index(left) if left else width - 1
                    out[0] = u
                    out[1] = group
                    out[2] = union
                    out[3] = other + 1
                    out[4] = units[u, position]
                    return out
            if not _next_pick(pick, size, k):
                break
    return out


@njit
def _holds_all(member, unit, cells, found):
    """Whether ``unit`` holds every one of the first ``found`` cells (the first is known to
    lie in it)."""
    for i in range(1, found):
        if not member[unit, cells[i]]:
            return False
    return True


@njit
def direct_locked_find(cands, units, cell_units, member, kind, first):
    """The first direct pointing or claiming (:func:`~sudokit.human.intersections.direct_pointing`):
    for each unit ``first`` marks, in index order, each value with two or more places there,
    in increasing order, each other unit holding all of them (index order) that loses the
    value somewhere, and each unit of the first one's ``kind`` crossing those removals (index
    order) where the value is left one place. ``[first unit, other unit, third unit, cell,
    value]``, or ``first unit = -1``. ``member[u, c]``: cell ``c`` is in unit ``u``."""
    out = np.full(5, -1, dtype=np.int64)
    count_units, width = units.shape
    cells = np.empty(width, dtype=np.int64)
    removed = np.zeros(cands.shape[0], dtype=np.bool_)
    removed_cells = np.empty(width, dtype=np.int64)
    crossed = np.zeros(count_units, dtype=np.bool_)
    for index in range(count_units):
        if not first[index]:
            continue
        present = 0
        for p in range(width):
            present |= cands[units[index, p]]
        while present:
            value0 = lowest_bit_index(present)
            present &= present - 1
            low = np.int64(1) << value0
            found = 0
            for p in range(width):
                if cands[units[index, p]] & low:
                    cells[found] = units[index, p]
                    found += 1
            if found < 2:
                continue
            for slot in range(cell_units.shape[1]):
                other = cell_units[cells[0], slot]
                if other < 0:
                    break
                if other == index:
                    continue
                if not _holds_all(member, other, cells, found):
                    continue
                lost = 0
                for p in range(width):
                    c = units[other, p]
                    if not member[index, c] and cands[c] & low:
                        removed[c] = True
                        removed_cells[lost] = c
                        lost += 1
                if lost == 0:
                    continue
                for i in range(lost):
                    for slot2 in range(cell_units.shape[1]):
                        u = cell_units[removed_cells[i], slot2]
                        if u < 0:
                            break
                        if u != index and kind[u] == kind[index]:
                            crossed[u] = True
                hit = -1
                for third in range(count_units):
                    if not crossed[third]:
                        continue
                    places = 0
                    left = 0
                    where = -1
                    for p in range(width):
                        c = units[third, p]
                        if cands[c] & low:
                            places += 1
                            if not removed[c]:
                                left += 1
                                where = c
                    if places > 1 and left == 1:
                        hit = third
                        out[0] = index
                        out[1] = other
                        out[2] = third
                        out[3] = where
                        out[4] = value0 + 1
                        break
                for i in range(lost):
                    removed[removed_cells[i]] = False
                crossed[:] = False
                if hit >= 0:
                    return out
    return out


@njit
def _seen_by_all(peer, c, holders, count):
    for i in range(count):
        if not peer[c, holders[i]]:
            return False
    return True


@njit
def _wing_removals(cands, peer, group, size, pivot, union):
    """How many candidates an almost locked set ``group`` and bivalue ``pivot`` remove
    (0 when no value of the pivot is restricted): the count of
    :func:`~sudokit.human.wings.als_wing`'s ``removed``."""
    pm = cands[pivot]
    holders = np.empty(size, dtype=np.int64)
    restricted = 0
    rest = pm
    while rest:
        v = lowest_bit_index(rest)
        rest &= rest - 1
        ok = True
        for i in range(size):
            if (cands[group[i]] >> v) & 1 and not peer[pivot, group[i]]:
                ok = False
                break
        if ok:
            restricted |= np.int64(1) << v
    if restricted == 0:
        return 0
    total = 0
    cells = cands.shape[0]
    rest = restricted
    while rest:
        x = lowest_bit_index(rest)
        rest &= rest - 1
        z = lowest_bit_index(pm & ~(np.int64(1) << x))
        count = 0
        for i in range(size):
            if (cands[group[i]] >> z) & 1:
                holders[count] = group[i]
                count += 1
        for c in range(cells):
            if c == pivot or not (cands[c] >> z) & 1 or not peer[c, pivot]:
                continue
            if _seen_by_all(peer, c, holders, count) and not _inside(group, size, c):
                total += 1
    if popcount(restricted) == 2:            # doubly linked: every value of the set locked
        rest = union & ~pm
        while rest:
            w = lowest_bit_index(rest)
            rest &= rest - 1
            count = 0
            for i in range(size):
                if (cands[group[i]] >> w) & 1:
                    holders[count] = group[i]
                    count += 1
            for c in range(cells):
                if c == pivot or not (cands[c] >> w) & 1:
                    continue
                if _seen_by_all(peer, c, holders, count) and not _inside(group, size, c):
                    total += 1
    return total


@njit
def _inside(group, size, c):
    for i in range(size):
        if group[i] == c:
            return True
    return False


@njit
def als_wing_find(cands, units, peer, size, ratings):
    """The easiest almost-locked-set wing of ``size`` cells (:func:`~sudokit.human.wings.als_wing`):
    the sets of ``size`` cells of one unit (index order, combinations of the cells with 2
    to ``size + 1`` candidates in order) holding ``size + 1`` values, each bivalue cell
    outside the set whose candidates are among them (cell order); the lowest
    ``ratings[largest cell size of the set]`` first, then the most removals, the first
    found on a tie. ``[pivot, set cells...]``, or ``pivot = -1``. ``peer[c, d]``: the
    cells see each other."""
    best = np.full(size + 1, -1, dtype=np.int64)
    best_rating = np.inf
    best_removed = 0
    cells = cands.shape[0]
    limit = size + 1
    bivalue = np.empty(cells, dtype=np.int64)
    count_bivalue = 0
    for c in range(cells):
        if popcount(cands[c]) == 2:
            bivalue[count_bivalue] = c
            count_bivalue += 1
    if count_bivalue == 0:
        return best
    width = units.shape[1]
    small = np.empty(width, dtype=np.int64)
    pick = np.empty(size, dtype=np.int64)
    unions = np.empty(size, dtype=np.int64)
    group = np.empty(size, dtype=np.int64)
    for u in range(units.shape[0]):
        m = 0
        for p in range(width):
            c = units[u, p]
            k = popcount(cands[c])
            if 2 <= k <= limit:
                small[m] = c
                m += 1
        if m < size:
            continue
        depth = 0
        pick[0] = -1
        while depth >= 0:
            pick[depth] += 1
            j = pick[depth]
            if j > m - size + depth:
                depth -= 1
                continue
            union = cands[small[j]] | (unions[depth - 1] if depth > 0 else 0)
            if popcount(union) > limit:
                continue
            if depth < size - 1:
                unions[depth] = union
                depth += 1
                pick[depth] = j
                continue
            if popcount(union) != limit:
                continue
            biggest = 0
            for i in range(size):
                group[i] = small[pick[i]]
                biggest = max(biggest, popcount(cands[group[i]]))
            rating = ratings[biggest]
            if rating > best_rating:
                continue                             # cannot beat the best found
            for i in range(count_bivalue):
                pivot = bivalue[i]
                if cands[pivot] & ~union or _inside(group, size, pivot):
                    continue
                total = _wing_removals(cands, peer, group, size, pivot, union)
                if total == 0:
                    continue
                if rating < best_rating or (rating == best_rating and total > best_removed):
                    best_rating = rating
                    best_removed = total
                    best[0] = pivot
                    best[1:] = group
    return best


@njit
def _allowed(mine, other, near, count, cands):
    """The values of ``mine`` that some different value of ``other`` pairs with, the pairs
    of the bivalue cells ``near[:count]`` aside."""
    allowed = 0
    rest_mine = mine
    while rest_mine:
        x = lowest_bit_index(rest_mine)
        rest_mine &= rest_mine - 1
        bit = np.int64(1) << x
        rest = other & ~bit
        for i in range(count):
            pair = cands[near[i]]
            if pair & bit:
                rest &= ~(pair ^ bit)
        if rest:
            allowed |= bit
    return allowed


@njit
def aligned_pair_find(cands, peer):
    """The first aligned pair exclusion that removes a candidate
    (:func:`~sudokit.human.exclusion.aligned_pair_exclusion`): cells ``a`` in order, then
    their peers ``b > a``. ``[a, b]``, or ``[-1, -1]``."""
    cells = cands.shape[0]
    out = np.full(2, -1, dtype=np.int64)
    bivalue = np.zeros(cells, dtype=np.bool_)
    for c in range(cells):
        bivalue[c] = popcount(cands[c]) == 2
    near = np.empty(cells, dtype=np.int64)
    for a in range(cells):
        ma = cands[a]
        if popcount(ma) < 2:
            continue
        any_near = False
        for c in range(cells):
            if bivalue[c] and peer[a, c]:
                any_near = True
                break
        if not any_near:
            continue
        for b in range(a + 1, cells):
            mb = cands[b]
            if not peer[a, b] or popcount(mb) < 2:
                continue
            count = 0
            for c in range(cells):
                if bivalue[c] and peer[a, c] and peer[b, c]:
                    near[count] = c
                    count += 1
            if count == 0:
                continue
            if ma & ~_allowed(ma, mb, near, count, cands) or \
                    mb & ~_allowed(mb, ma, near, count, cands):
                out[0] = a
                out[1] = b
                return out
    return out


@njit
def _next_pick(pick, size, k):
    """Move ``pick`` to the next combination of ``size`` of ``k`` items, in lexicographic
    order; False past the last."""
    i = size - 1
    while i >= 0 and pick[i] == k - size + i:
        i -= 1
    if i < 0:
        return False
    pick[i] += 1
    for j in range(i + 1, size):
        pick[j] = pick[j - 1] + 1
    return True


@njit
def _small(masks, size, items, pick):
    """The subset search's start: ``items`` gets the indices of ``masks`` with 2 to ``size``
    bits, in order, ``pick`` the first combination of ``size`` of them; their number."""
    k = 0
    for i in range(masks.shape[0]):
        count = popcount(masks[i])
        if 2 <= count <= size:
            items[k] = i
            k += 1
    for i in range(size):
        pick[i] = i
    return k


@njit
def _picked(masks, items, pick, size):
    """The union of the picked masks and the bits of the picked items' indices."""
    union = 0
    chosen = 0
    for i in range(size):
        union |= masks[items[pick[i]]]
        chosen |= np.int64(1) << items[pick[i]]
    return union, chosen


@njit
def naked_find(cands, units, size):
    """The first naked subset of ``size`` cells that removes a candidate
    (:meth:`~sudokit.human.facts.UnitFacts.naked` unit by unit, in index order): the
    combinations of the positions with 2 to ``size`` candidates, in order. ``[unit,
    positions mask, values mask]``, or ``unit = -1``."""
    out = np.full(3, -1, dtype=np.int64)
    width = units.shape[1]
    masks = np.empty(width, dtype=np.int64)
    small = np.empty(width, dtype=np.int64)
    pick = np.empty(size, dtype=np.int64)
    for u in range(units.shape[0]):
        for p in range(width):
            masks[p] = cands[units[u, p]]
        k = _small(masks, size, small, pick)
        if k < size:
            continue
        while True:
            union, positions = _picked(masks, small, pick, size)
            if popcount(union) == size:
                for p in range(width):
                    if not (positions >> p) & 1 and cands[units[u, p]] & union:
                        out[0] = u
                        out[1] = positions
                        out[2] = union
                        return out
            if not _next_pick(pick, size, k):
                break
    return out


@njit
def hidden_find(cands, units, n, size):
    """The first hidden subset of ``size`` values that removes a candidate
    (:meth:`~sudokit.human.facts.UnitFacts.hidden` unit by unit, in index order): the
    combinations of the values with 2 to ``size`` places, in order, in units with more than
    ``size`` positions holding candidates. ``[unit, values mask, positions mask]``, or
    ``unit = -1``."""
    out = np.full(3, -1, dtype=np.int64)
    width = units.shape[1]
    places = np.zeros(n, dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    pick = np.empty(size, dtype=np.int64)
    for u in range(units.shape[0]):
        filled = 0
        for p in range(width):
            if cands[units[u, p]]:
                filled += 1
        if filled <= size:
            continue
        _unit_places(cands, units, u, n, places)
        k = _small(places, size, values, pick)
        if k < size:
            continue
        while True:
            union, keep = _picked(places, values, pick, size)
            if popcount(union) == size:
                for p in range(width):
                    if (union >> p) & 1 and cands[units[u, p]] & ~keep:
                        out[0] = u
                        out[1] = keep
                        out[2] = union
                        return out
            if not _next_pick(pick, size, k):
                break
    return out


@njit
def locked_find(cands, units, cell_units, member, first):
    """The first pointing or claiming that removes a candidate
    (:func:`~sudokit.human.intersections.pointing`): each unit ``first`` marks, in index
    order, each value with two or more places there, in increasing order, each other unit
    holding all of them, in index order, that has the value outside the first unit.
    ``[first unit, value, other unit]``, or ``first unit = -1``."""
    out = np.full(3, -1, dtype=np.int64)
    count_units, width = units.shape
    cells = np.empty(width, dtype=np.int64)
    for index in range(count_units):
        if not first[index]:
            continue
        present = 0
        twice = 0
        for p in range(width):
            mask = cands[units[index, p]]
            twice |= present & mask
            present |= mask
        while twice:
            value0 = lowest_bit_index(twice)
            twice &= twice - 1
            low = np.int64(1) << value0
            found = 0
            for p in range(width):
                if cands[units[index, p]] & low:
                    cells[found] = units[index, p]
                    found += 1
            for slot in range(cell_units.shape[1]):
                other = cell_units[cells[0], slot]
                if other < 0:
                    break
                if other == index:
                    continue
                if not _holds_all(member, other, cells, found):
                    continue
                for p in range(width):
                    c = units[other, p]
                    if not member[index, c] and cands[c] & low:
                        out[0] = index
                        out[1] = value0 + 1
                        out[2] = other
                        return out
    return out


@njit
def fish_find(cands, n, size):
    """The first basic fish of ``size`` lines that removes a candidate
    (:func:`~sudokit.human.fish.fish`, :func:`~sudokit.human.facts.first_fish`): values in
    increasing order, base lines rows then columns, the combinations of the lines with 2 to
    ``size`` places in order. ``[value, 1 for rows (0 for columns), base lines mask, cover
    lines mask]``, or ``value = -1``. Rows and columns are the grid's first ``2n`` units,
    cell ``row * n + column``."""
    out = np.full(4, -1, dtype=np.int64)
    places = np.zeros(n, dtype=np.int64)
    lines = np.empty(n, dtype=np.int64)
    pick = np.empty(size, dtype=np.int64)
    for value0 in range(n):
        low = np.int64(1) << value0
        for by_rows in (1, 0):
            for line in range(n):
                mask = 0
                for k in range(n):
                    cell = line * n + k if by_rows else k * n + line
                    if cands[cell] & low:
                        mask |= np.int64(1) << k
                places[line] = mask
            count = 0
            for line in range(n):
                if 2 <= popcount(places[line]) <= size:
                    lines[count] = line
                    count += 1
            if count < size:
                continue
            for i in range(size):
                pick[i] = i
            while True:
                union = 0
                base = 0
                for i in range(size):
                    union |= places[lines[pick[i]]]
                    base |= np.int64(1) << lines[pick[i]]
                if popcount(union) == size:
                    for line in range(n):
                        if not (base >> line) & 1 and places[line] & union:
                            out[0] = value0 + 1
                            out[1] = by_rows
                            out[2] = base
                            out[3] = union
                            return out
                if not _next_pick(pick, size, count):
                    break
    return out
