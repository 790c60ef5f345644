"""Strong and weak links between candidates, the material of chains and forcing chains.

A candidate is a node ``cell * n + value - 1``. Two candidates are *weakly* linked when
they cannot both be true (one cell, or one value in two cells that see each other); they
are *strongly* linked when they cannot both be false (the two candidates of a bivalue cell,
the two places of a value in a unit).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from .board import Board
>>> board = Board.of(latin_square(np.array([[1, 0], [0, 0]])))
>>> links = Links(board)
>>> sorted(links.strong_of(node(board, 1, 1)))         # r1c2 holds 2 only: no link
[]
>>> links.label(node(board, 3, 1))
'1r2c2'
"""

from __future__ import annotations

import functools
from typing import Any

from .board import Board, cell_text

__all__ = ["Links", "node", "length_bonus"]


def node(board: Board, cell: int, value: int) -> int:
    """The node of candidate ``value`` in ``cell``."""
    return cell * board.n + value - 1


def length_bonus(length: int) -> float:
    """What Sudoku Explainer adds to a chain's base rating for its length: 0.1 each time the
    length passes the next of 4, 6, 8, 12, 16, 24, 32, ...

    Examples
    --------
    >>> [length_bonus(k) for k in (4, 5, 6, 7, 9, 13, 20)]
    [0.0, 0.1, 0.1, 0.2, 0.3, 0.4, 0.5]
    """
    added, ceil, odd = 0.0, 4, False
    while length > ceil:
        added += 0.1
        ceil = ceil * 4 // 3 if odd else ceil * 3 // 2
        odd = not odd
    return round(added, 1)


class Links:
    """The links of a board's candidates as it is now (rebuild after each step, or ask
    :meth:`of`, which keeps the last board's)."""

    #: the last links built by :meth:`of`, with the board and its candidates then
    _last: tuple[Board, tuple[int, ...], Links] | None = None

    @classmethod
    def of(cls, board: Board) -> Links:
        """The links of ``board`` as it is now: the last ones built when it has not changed
        since (the finders of one step share them)."""
        key = tuple(board.cands)
        last = cls._last
        if last is not None and last[0] is board and last[1] == key:
            return last[2]
        links = cls(board)
        cls._last = (board, key, links)
        return links

    def __init__(self, board: Board):
        self.board = board
        self.n = board.n
        self._weak: dict[tuple[int, bool, bool], list[int]] = {}
        self._strong_lists: dict[tuple[bool, bool], dict[int, list[int]]] = {}
        self._weak_lists: dict[tuple[bool, bool], dict[int, list[int]]] = {}
        self._weak_sets: dict[int, set[int]] = {}
        #: what the finders of one board derive from its links, by a key of their own
        self.kept: dict[tuple, Any] = {}

    @functools.cached_property
    def strong_cell(self) -> dict[int, int]:
        """Each candidate of a bivalue cell: the cell's other candidate (built on first
        use: the compiled chain searches read the candidates instead)."""
        n = self.n
        found: dict[int, int] = {}
        for cell, mask in enumerate(self.board.cands):
            if mask and mask & (mask - 1) and (mask & (mask - 1)) & ((mask & (mask - 1)) - 1) == 0:
                low = mask & -mask
                a, b = low.bit_length(), (mask ^ low).bit_length()
                found[cell * n + a - 1] = cell * n + b - 1
                found[cell * n + b - 1] = cell * n + a - 1
        return found

    @functools.cached_property
    def strong_unit(self) -> dict[int, set[int]]:
        """Each candidate with one other place in a unit: those places (its conjugates),
        added unit by unit (built on first use)."""
        n, cands = self.n, self.board.cands
        found: dict[int, set[int]] = {}
        for unit in self.board.layout.units:
            once = twice = thrice = 0
            for cell in unit:
                mask = cands[cell]
                thrice |= twice & mask
                twice |= once & mask
                once |= mask
            pairs = twice & ~thrice
            while pairs:
                low = pairs & -pairs
                pairs ^= low
                value = low.bit_length()
                a, b = (c for c in unit if cands[c] & low)
                found.setdefault(a * n + value - 1, set()).add(b * n + value - 1)
                found.setdefault(b * n + value - 1, set()).add(a * n + value - 1)
        return found

    def strong_of(self, nd: int, cells: bool = True, units: bool = True) -> set[int]:
        out: set[int] = set()
        if cells and nd in self.strong_cell:
            out.add(self.strong_cell[nd])
        if units and nd in self.strong_unit:
            out |= self.strong_unit[nd]
        return out

    def strong_list(self, cells: bool = True, units: bool = True):
        """``strong_of`` as a list, kept: one call per node of ``(node) -> list``, in the
        order ``strong_of`` gives (the chain searches walk it per start)."""
        kept: dict[int, list[int]] = self._strong_lists.setdefault((cells, units), {})
        strong_of = self.strong_of

        def of(nd: int) -> list[int]:
            found = kept.get(nd)
            if found is None:
                found = kept[nd] = list(strong_of(nd, cells, units))
            return found
        return of

    def weak_list(self, cells: bool = True, units: bool = True):
        """``weak_of`` with fixed kinds of link, as one call ``(node) -> list`` (kept)."""
        kept: dict[int, list[int]] = self._weak_lists.setdefault((cells, units), {})
        weak_of = self._weak_of

        def of(nd: int) -> list[int]:
            found = kept.get(nd)
            if found is None:
                found = kept[nd] = weak_of(nd, cells, units)
            return found
        return of

    def weak_set(self, nd: int) -> set[int]:
        """The set of ``weak_of(nd)`` (every kind of link), kept."""
        found = self._weak_sets.get(nd)
        if found is None:
            found = self._weak_sets[nd] = set(self.weak_of(nd))
        return found

    def weak_of(self, nd: int, cells: bool = True, units: bool = True) -> list[int]:
        """The candidates that are false when ``nd`` is true (kept: the board must not change
        while this object is in use)."""
        key = (nd, cells, units)
        found = self._weak.get(key)
        if found is None:
            found = self._weak[key] = self._weak_of(nd, cells, units)
        return found

    def _weak_of(self, nd: int, cells: bool, units: bool) -> list[int]:
        n, cands = self.n, self.board.cands
        cell, value0 = divmod(nd, n)
        out = []
        if cells:
            mask = cands[cell] & ~(1 << value0)
            while mask:
                low = mask & -mask
                mask ^= low
                out.append(cell * n + low.bit_length() - 1)
        if units:
            bit = 1 << value0
            out.extend(p * n + value0 for p in self.board.layout.peers[cell] if cands[p] & bit)
        return out

    def sees(self, a: int, b: int) -> bool:
        """Candidates ``a`` and ``b`` cannot both be true (weakly linked), a != b."""
        ca, va = divmod(a, self.n)
        cb, vb = divmod(b, self.n)
        if ca == cb:
            return va != vb
        return va == vb and cb in self.board.layout.peers[ca]

    def label(self, nd: int) -> str:
        """``5r3c4``: value then cell."""
        cell, value0 = divmod(nd, self.n)
        return f"{value0 + 1}{cell_text(self.n, cell)}"

    def pair(self, nd: int) -> tuple[int, int]:
        """``(cell, value)`` of a node."""
        cell, value0 = divmod(nd, self.n)
        return cell, value0 + 1
