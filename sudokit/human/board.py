"""The pencil-marks of a grid: values placed so far and each empty cell's candidates.

A :class:`Board` is what every technique reads: candidates are Python-int bitmasks (bit
``v - 1`` for value ``v``), one per cell, and the shape's tables (units, their names, the
units and peers of each cell) are a :class:`Layout` built once per grid shape and kept with
it (:meth:`~sudokit.instances.shapes.GridShape.derived`). Units are the grid's own: rows,
columns, boxes (a jigsaw's regions) and the variants' units, so a technique that reasons on
units holds for every variant.

Cells are flat 0-based indices ``row * n + column``; text is 1-based (``r3c5``).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> board = Board.of(sudoku(np.array([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]])))
>>> board.candidates(1), cell_text(board.n, 1)
([2, 3, 4], 'r1c2')
>>> board.layout.unit_names[:3], board.layout.kind[8]
(('row 1', 'row 2', 'row 3'), 'box')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TypeVar

import numpy as np

from ..instances.shapes import GridShape, grid_shape
from ..instances.variants import VARIANTS, variant_units
from .facts import KEPT, UnitFacts, unit_facts

T = TypeVar("T")

__all__ = ["Board", "Layout", "cell_text", "cells_text", "bits", "popcount", "layout_of"]


def bits(mask: int) -> tuple[int, ...]:
    """The values (1-based) of a candidate mask, smallest first (kept for sides up to 16).

    Examples
    --------
    >>> bits(0b10110)
    (2, 3, 5)
    """
    found = _BITS.get(mask)
    if found is None:
        out = []
        value, rest = 1, mask
        while rest:
            if rest & 1:
                out.append(value)
            rest >>= 1
            value += 1
        found = tuple(out)
        if mask < 1 << 16:
            _BITS[mask] = found
    return found


#: bits() of each mask met so far, for sides up to 16 (512 entries at most for a 9x9)
_BITS: dict[int, tuple[int, ...]] = {}


def popcount(mask: int) -> int:
    """Number of candidates in a mask.

    Examples
    --------
    >>> popcount(0b1011)
    3
    """
    return mask.bit_count()


def cell_text(n: int, cell: int) -> str:
    """``r3c5``: a cell in the notation of solvers (1-based).

    Examples
    --------
    >>> cell_text(9, 22)
    'r3c5'
    """
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def cells_text(n: int, cells) -> str:
    """Cells in solver notation, space-separated, in row-major order.

    Examples
    --------
    >>> cells_text(9, [10, 0])
    'r1c1 r2c2'
    """
    return " ".join(cell_text(n, c) for c in sorted(cells))


@dataclass(frozen=True, eq=False)
class Layout:
    """The tables of one grid shape the techniques read (see the module)."""

    n: int
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]
    kind: tuple[str, ...]                 #: "row", "column", "box", "region", ...
    cell_units: tuple[tuple[int, ...], ...]
    peers: tuple[frozenset[int], ...]
    rows: tuple[int, ...]                 #: unit indices of the rows
    columns: tuple[int, ...]
    boxes: tuple[int, ...]                #: boxes or a jigsaw's regions (empty for Latin)
    box_of: tuple[int, ...]               #: each cell's box unit, -1 without boxes
    has_boxes: bool
    variants: tuple[str, ...]
    #: the units that are not boxes (rows, columns, a variant's units), in index order
    lines: tuple[int, ...] = ()
    #: each unit's cells as one call (``unit_of[u](cands)``: the unit's entries, in order)
    unit_of: tuple = ()
    #: the tables the finders keep their work in (see :mod:`~sudokit.human.facts`)
    facts: dict = field(default_factory=dict, repr=False)
    fish: dict = field(default_factory=dict, repr=False)
    locks: dict = field(default_factory=dict, repr=False)

    @property
    def full(self) -> int:
        """The mask of every value."""
        return (1 << self.n) - 1


def _build_layout(shape: GridShape) -> Layout:
    n = shape.n
    units = tuple(tuple(int(c) for c in row) for row in shape.units.tolist())
    variants: tuple[str, ...] = next((p for p in shape.key[3:] if isinstance(p, tuple)), ())
    has_boxes = shape.box is not None or shape.regions_key is not None
    kinds = ["row"] * n + ["column"] * n
    if shape.box is not None:
        kinds += ["box"] * n
    regions = None if shape.regions_key is None else \
        np.frombuffer(shape.regions_key, dtype=np.int16).astype(np.int64).reshape(n, n)
    for name in variants:
        kinds += [VARIANTS[name].unit_kind] * len(variant_units(name, n, shape.box, regions))
    counters: dict[str, int] = {}
    names = []
    for kind in kinds:
        counters[kind] = counters.get(kind, 0) + 1
        names.append(f"{kind} {counters[kind]}")
    cell_units: list[list[int]] = [[] for _ in range(n * n)]
    for index, unit in enumerate(units):
        for cell in unit:
            cell_units[cell].append(index)
    peers = tuple(frozenset(c for u in cell_units[cell] for c in units[u]) - {cell}
                  for cell in range(n * n))
    boxes = tuple(i for i, k in enumerate(kinds) if k in ("box", "region"))
    box_of = [-1] * (n * n)
    for b in boxes:
        for cell in units[b]:
            box_of[cell] = b
    if not all(units[r] == tuple(r * n + k for k in range(n)) and
               units[n + r] == tuple(k * n + r for k in range(n)) for r in range(n)):
        raise ValueError("a grid shape lists its rows, then its columns, cell by cell")
    return Layout(n, units, tuple(names), tuple(kinds), tuple(tuple(u) for u in cell_units),
                  peers, tuple(range(n)), tuple(range(n, 2 * n)), boxes, tuple(box_of),
                  has_boxes, variants,
                  lines=tuple(u for u in range(len(units)) if u not in set(boxes)),
                  unit_of=tuple(_getter(u) for u in units))


def _getter(cells: tuple[int, ...]):
    """``get(seq) -> tuple``: the entries of ``seq`` at ``cells``, in order."""
    if len(cells) == 1:
        return lambda seq, c=cells[0]: (seq[c],)
    return itemgetter(*cells)


def layout_of(puzzle) -> Layout:
    """The :class:`Layout` of a grid puzzle's shape (built once per shape)."""
    return grid_shape(puzzle).derived(_build_layout)


class Board:
    """Values and candidates of one grid on its way to a solution (see the module)."""

    __slots__ = ("layout", "n", "values", "cands", "_kept_for", "_kept")

    def __init__(self, layout: Layout, values: list[int], cands: list[int]):
        self.layout = layout
        self.n = layout.n
        self.values = values
        self.cands = cands
        self._kept_for: tuple[int, ...] | None = None     # the candidates _kept holds for
        self._kept: dict = {}

    @classmethod
    def of(cls, puzzle) -> Board:
        """The board of a grid puzzle's givens: every value no peer holds is a candidate."""
        layout = layout_of(puzzle)
        values = [int(v) for v in puzzle.flat_givens.tolist()]
        full = layout.full
        cands = []
        for cell, value in enumerate(values):
            if value:
                cands.append(0)
                continue
            mask = full
            for peer in layout.peers[cell]:
                if values[peer]:
                    mask &= ~(1 << (values[peer] - 1))
            cands.append(mask)
        return cls(layout, values, cands)

    def copy(self) -> Board:
        return Board(self.layout, list(self.values), list(self.cands))

    def candidates(self, cell: int) -> list[int]:
        return list(bits(self.cands[cell]))

    def place(self, cell: int, value: int) -> None:
        """Set ``cell`` to ``value`` and take the value from its peers' candidates."""
        self.values[cell] = value
        self.cands[cell] = 0
        clear = ~(1 << (value - 1))
        cands = self.cands
        for peer in self.layout.peers[cell]:
            cands[peer] &= clear

    def eliminate(self, cell: int, value: int) -> None:
        self.cands[cell] &= ~(1 << (value - 1))

    @property
    def solved(self) -> bool:
        return all(self.values)

    def broken(self) -> bool:
        """An empty cell without candidates, or a unit where a missing value has no place."""
        values, cands = self.values, self.cands
        if any(not v and not c for v, c in zip(values, cands, strict=True)):
            return True
        full = self.layout.full
        for unit in self.layout.units:
            seen = 0
            for cell in unit:
                seen |= cands[cell] | (1 << (values[cell] - 1) if values[cell] else 0)
            if seen != full and len(unit) == self.n:
                return True
        return False

    def cells_with(self, unit: int, value: int) -> list[int]:
        """The cells of a unit that still have ``value`` as a candidate."""
        bit = 1 << (value - 1)
        cands = self.cands
        return [c for c in self.layout.units[unit] if cands[c] & bit]

    def text(self, cell: int) -> str:
        return cell_text(self.n, cell)

    def kept(self, build: Callable[[Board], T]) -> T:
        """``build(self)``, worked out once while the candidates stay as they are (what
        several finders read at one step of a path).

        Examples
        --------
        >>> from sudokit.instances import latin_square
        >>> board = Board.of(latin_square(np.zeros((2, 2), dtype=int)))
        >>> board.kept(Board.unit_facts) is board.kept(Board.unit_facts)
        True
        >>> board.eliminate(0, 1)
        >>> [bin(f.places[0]) for f in board.kept(Board.unit_facts)]
        ['0b10', '0b11', '0b10', '0b11']
        """
        now = tuple(self.cands)
        if now != self._kept_for:
            self._kept_for = now
            self._kept = {}
        found = self._kept.get(build)
        if found is None:
            found = self._kept[build] = build(self)
        return found

    def unit_facts(self) -> tuple[UnitFacts, ...]:
        """The :class:`~sudokit.human.facts.UnitFacts` of every unit's candidates as they
        are now, by unit index: the places of each value, and the subsets found there
        (each worked out once per distinct set of candidates of a unit, for every board
        of the shape; ``kept(Board.unit_facts)`` keeps them for the step)."""
        layout, n, cands = self.layout, self.n, self.cands
        table = layout.facts
        return tuple(unit_facts(table, n, get(cands)) for get in layout.unit_of)

    def locked_targets(self, unit: int, places: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The other units that hold every cell of ``unit`` at the positions ``places`` (a
        mask), in index order, each with its cells outside ``unit``."""
        layout = self.layout
        key = (unit, places)
        found = layout.locks.get(key)
        if found is None:
            cells = [c for p, c in enumerate(layout.units[unit]) if places >> p & 1]
            shared = set(layout.cell_units[cells[0]])
            for cell in cells[1:]:
                shared.intersection_update(layout.cell_units[cell])
            shared.discard(unit)
            inside = set(layout.units[unit])
            found = tuple((other, tuple(c for c in layout.units[other] if c not in inside))
                          for other in sorted(shared))
            if len(layout.locks) >= KEPT:
                layout.locks.clear()
            layout.locks[key] = found
        return found
