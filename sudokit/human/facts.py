"""What one unit's candidates say, worked out once per distinct set of candidates.

The cheap techniques (singles, locked candidates, subsets, fish) are tried at every step
of a path, and a step changes only a few units: the others hold the same candidates as
at the previous step, where those techniques were already worked out. A unit's facts are a
pure function of its candidates in unit order (the tuple ``(cands[c] for c in unit)``),
so they are kept in a table keyed by that tuple (:func:`unit_facts`), with the places of
each value in the unit and what the subset finders found there; a finder looks them up
instead of working them out again. The table belongs to the :class:`~.board.Layout` (one
per grid shape) and is emptied when it grows past :data:`KEPT` entries.

Examples
--------
>>> facts = unit_facts({}, 4, (0b0011, 0b0011, 0b0111, 0b1100))
>>> [bin(p) for p in facts.places]            # value 1 in positions 0, 1, 2, ...
['0b111', '0b111', '0b1100', '0b1000']
>>> facts.naked(2), facts.hidden(2)           # the naked pair {1,2} at 0,1
(((0, 1), 3), None)
>>> unit_facts({}, 4, (0b0111, 0b0111, 0b0100, 0b1100)).hidden(2)   # 1,2 only at 0,1
((1, 2), (0, 1))
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

__all__ = ["UnitFacts", "unit_facts", "first_fish", "KEPT"]

#: entries a layout's tables keep before they are emptied (a path adds some dozens to
#: hundreds; at the cap a table holds about 10 MB)
KEPT = 1 << 14


class UnitFacts:
    """The candidates of one unit (in unit order, ``cands``), the places of each value
    (``places[v - 1]``: a mask of positions in the unit), the values with at least one
    place (``once``) and at least two (``twice``), and the subsets found (memoized)."""

    __slots__ = ("cands", "places", "once", "twice", "filled", "_found")

    def __init__(self, cands: tuple[int, ...], n: int):
        self.cands = cands
        places = [0] * n
        once = twice = filled = 0
        for pos, mask in enumerate(cands):
            if mask:
                filled += 1
                twice |= once & mask
                once |= mask
                bit = 1 << pos
                for value0 in _values0(mask):
                    places[value0] |= bit
        self.places = tuple(places)
        self.once = once
        self.twice = twice
        self.filled = filled          # positions with a candidate
        self._found: dict[Any, Any] = {}

    def memo(self, key: Any, build: Callable[[UnitFacts], Any]) -> Any:
        """``build(self)``, worked out once per ``key`` (keys other than the subsets'
        ``(bool, int)``; a finder's own fact of the unit)."""
        try:
            return self._found[key]
        except KeyError:
            found = self._found[key] = build(self)
            return found

    def naked(self, size: int) -> tuple[tuple[int, ...], int] | None:
        """The first naked subset of ``size`` positions (in the order of
        :func:`itertools.combinations` over the positions with 2 to ``size`` candidates)
        whose candidates another position of the unit also has: ``(positions, union of
        their candidates)``, or None."""
        key = (True, size)
        try:
            return self._found[key]            # type: ignore[return-value]
        except KeyError:
            pass
        cands = self.cands
        found = None
        small = [p for p, m in enumerate(cands) if 2 <= m.bit_count() <= size]
        if len(small) >= size:
            for group in combinations(small, size):
                union = 0
                for p in group:
                    union |= cands[p]
                if union.bit_count() != size:
                    continue
                if any(cands[p] & union for p in range(len(cands)) if p not in group):
                    found = (group, union)
                    break
        self._found[key] = found
        return found

    def hidden(self, size: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """The first hidden subset of ``size`` values (in the order of
        :func:`itertools.combinations` over the values with 2 to ``size`` places) whose
        places hold another candidate: ``(values, positions)``, or None. A unit with at
        most ``size`` positions holding candidates has none."""
        key = (False, size)
        try:
            return self._found[key]            # type: ignore[return-value]
        except KeyError:
            pass
        cands, places = self.cands, self.places
        found = None
        values = [v0 + 1 for v0, m in enumerate(places) if 2 <= m.bit_count() <= size]
        if len(values) >= size and self.filled > size:
            for group in combinations(values, size):
                union = keep = 0
                for v in group:
                    union |= places[v - 1]
                    keep |= 1 << (v - 1)
                if union.bit_count() != size:
                    continue
                positions = tuple(p for p in range(len(cands)) if union >> p & 1)
                if any(cands[p] & ~keep for p in positions):
                    found = (group, positions)
                    break
        self._found[key] = found
        return found


#: _values0() of each mask met so far (for sides up to 16)
_VALUES0: dict[int, tuple[int, ...]] = {}


def _values0(mask: int) -> tuple[int, ...]:
    """The 0-based values of a candidate mask, smallest first."""
    found = _VALUES0.get(mask)
    if found is None:
        found = tuple(v for v in range(mask.bit_length()) if mask >> v & 1)
        if mask < 1 << 16:
            _VALUES0[mask] = found
    return found


def unit_facts(table: dict, n: int, cands: tuple[int, ...]) -> UnitFacts:
    """The facts of a unit holding ``cands`` (positions in unit order) on a side-``n``
    grid, from ``table`` or worked out and kept there."""
    found = table.get(cands)
    if found is None:
        if len(table) >= KEPT:
            table.clear()
        found = table[cands] = UnitFacts(cands, n)
    return found


def first_fish(table: dict, size: int, masks: tuple[int, ...]
               ) -> tuple[tuple[int, ...], int] | None:
    """The first basic fish of ``size`` base lines in a value's places (``masks[line]``:
    the positions of the value across that line): ``(base lines, union of their
    positions)`` for the first group, in the order of :func:`itertools.combinations` over
    the lines with 2 to ``size`` places, whose union has ``size`` positions and meets
    another line; None when there is none. Kept in ``table``.

    Examples
    --------
    >>> first_fish({}, 2, (0b0101, 0b0111, 0b0101, 0b1000))
    ((0, 2), 5)
    """
    key = (size, masks)
    try:
        return table[key]
    except KeyError:
        pass
    found = None
    lines = [line for line, m in enumerate(masks) if 2 <= m.bit_count() <= size]
    if len(lines) >= size:
        for group in combinations(lines, size):
            union = 0
            for line in group:
                union |= masks[line]
            if union.bit_count() != size:
                continue
            if any(masks[line] & union for line in range(len(masks)) if line not in group):
                found = (group, union)
                break
    if len(table) >= KEPT:
        table.clear()
    table[key] = found
    return found
