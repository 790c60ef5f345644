"""Locked candidates: a value confined, within one unit, to cells that another unit shares.

Pointing: in a box the value's places lie on one line, so the rest of the line loses it
(Sudoku Explainer 2.6). Claiming: in a line they lie in one box, so the rest of the box
loses it (2.8). Any two units that meet do the same (a diagonal and a box, a window and a
row): a box first is pointing, a line first is claiming. The direct forms (SE: direct
pointing 1.7, direct claiming 1.9) are tried before the naked single: locked candidates
whose removals leave the value one place in another unit of the first unit's kind, where
it is placed.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from .board import Board
>>> board = Board.of(sudoku(np.array([[0, 0, 0, 0], [3, 4, 0, 0], [0, 0, 0, 0],
...                                   [0, 0, 0, 0]])))
>>> pointing(board).text
'pointing 1 in box 1 on row 1: -1 r1c3 r1c4'
"""

from __future__ import annotations

from functools import partial

from .board import Board
from .facts import UnitFacts
from .set_kernel import MAX_SIDE, direct_locked_find, locked_find
from .step import Step, elimination_step, make_step, placement_text
from .tables import cands_array, layout_arrays

__all__ = ["pointing", "claiming", "direct_pointing", "direct_claiming"]


def _locked(board: Board, first: tuple[int, ...], technique: str, rating: float,
            name: str) -> Step | None:
    """The first locked candidates of the units ``first`` (in index order) that remove a
    candidate (compiled: :func:`~sudokit.human.set_kernel.locked_find`; the unit facts'
    search past :data:`~sudokit.human.set_kernel.MAX_SIDE`)."""
    layout = board.layout
    cands = board.cands
    if board.n <= MAX_SIDE:
        arrays = layout_arrays(layout)
        index, value, other = locked_find(board.kept(cands_array), arrays.units,
                                          arrays.cell_units, arrays.member,
                                          arrays.of_units(first)).tolist()
        if index < 0:
            return None
    else:
        found = _locked_loops(board, first)
        if found is None:
            return None
        index, value, other = found
    low = 1 << (value - 1)
    unit = layout.units[index]
    cells = [c for c in unit if cands[c] & low]
    inside = set(unit)
    removed = [(c, value) for c in layout.units[other] if c not in inside and cands[c] & low]
    names = (layout.unit_names[index], layout.unit_names[other])
    return elimination_step(
        board, technique, rating, removed, [(c, value) for c in cells],
        names, f"{name} {value} in {names[0]} on {names[1]}")


def _locked_loops(board: Board, first: tuple[int, ...]) -> tuple[int, int, int] | None:
    """:func:`_locked`'s search on the unit facts, for sides the kernel's masks do not
    hold: ``(first unit, value, other unit)``."""
    cands = board.cands
    facts = board.kept(Board.unit_facts)
    for index in first:
        for value0, _, targets in facts[index].memo(("locked", index),
                                                    partial(_confined, board, index)):
            low = 1 << value0
            for other, outside in targets:
                if any(cands[c] & low for c in outside):
                    return index, value0 + 1, other
    return None


def _confined(board: Board, index: int, facts: UnitFacts) -> tuple:
    """``(value - 1, places, other units)`` of each value whose two or more places in the
    unit all lie in other units too (:meth:`~sudokit.human.board.Board.locked_targets`)."""
    out = []
    for value0, where in enumerate(facts.places):
        if where & (where - 1):     # no place, or one: a single's business
            targets = board.locked_targets(index, where)
            if targets:
                out.append((value0, where, targets))
    return tuple(out)


def pointing(board: Board) -> Step | None:
    """A box's places of a value on one line (or in another unit): the rest of it loses it."""
    return _locked(board, board.layout.boxes, "pointing", 2.6, "pointing")


def claiming(board: Board) -> Step | None:
    """A line's places of a value in one box (or another unit): the rest of it loses it."""
    return _locked(board, board.layout.lines, "claiming", 2.8, "claiming")


def _direct(board: Board, first_kinds: tuple[str, ...], technique: str, rating: float,
            name: str) -> Step | None:
    """A locked candidate whose removals leave the value one place in another unit of the
    first unit's kind that crosses the second unit: that hidden single is placed (Sudoku
    Explainer's direct pointing and claiming). The search is compiled
    (:func:`~sudokit.human.set_kernel.direct_locked_find`; plain loops past
    :data:`~sudokit.human.set_kernel.MAX_SIDE`), the step built here."""
    layout = board.layout
    if board.n <= MAX_SIDE:
        arrays = layout_arrays(layout)
        first = arrays.of_kinds(layout, first_kinds)
        index, other, third, cell, value = (int(x) for x in direct_locked_find(
            board.kept(cands_array), arrays.units, arrays.cell_units, arrays.member,
            arrays.kind, first))
        if index < 0:
            return None
    else:
        found = _direct_loops(board, first_kinds)
        if found is None:
            return None
        index, other, third, cell, value = found
    low = 1 << (value - 1)
    cells = [c for c in layout.units[index] if board.cands[c] & low]
    names = (layout.unit_names[index], layout.unit_names[other], layout.unit_names[third])
    return make_step(
        board, technique, rating, place=[(cell, value)],
        pattern=[(c, value) for c in cells], houses=names,
        text=f"{placement_text(board.n, cell, value)} ({name} {value} in "
             f"{names[0]} on {names[1]}, then hidden single in {names[2]})")


def _direct_loops(board: Board, first_kinds: tuple[str, ...]
                  ) -> tuple[int, int, int, int, int] | None:
    """:func:`_direct`'s search in Python, for sides the kernel's masks do not hold:
    ``(first unit, other unit, third unit, cell, value)``."""
    layout, cands = board.layout, board.cands
    for index, unit in enumerate(layout.units):
        if layout.kind[index] not in first_kinds:
            continue
        present = 0
        for cell in unit:
            present |= cands[cell]
        while present:
            low = present & -present
            present ^= low
            value = low.bit_length()
            cells = [c for c in unit if cands[c] & low]
            if len(cells) < 2:
                continue
            shared = set(layout.cell_units[cells[0]])
            for cell in cells[1:]:
                shared.intersection_update(layout.cell_units[cell])
            shared.discard(index)
            inside = set(unit)
            for other in sorted(shared):
                removed = {c for c in layout.units[other] if c not in inside and cands[c] & low}
                if not removed:
                    continue
                kind = layout.kind[index]
                crossed = {u for c in removed for u in layout.cell_units[c]
                           if u != index and layout.kind[u] == kind}
                for third in sorted(crossed):
                    places = board.cells_with(third, value)
                    left = [c for c in places if c not in removed]
                    if len(places) > 1 and len(left) == 1 and len(places) > len(left):
                        return index, other, third, left[0], value
    return None


def direct_pointing(board: Board) -> Step | None:
    """A pointing whose removals make a hidden single in a box (SE 1.7)."""
    return _direct(board, ("box", "region"), "direct-pointing", 1.7, "pointing")


def direct_claiming(board: Board) -> Step | None:
    """A claiming whose removals make a hidden single in a line (SE 1.9)."""
    kinds = tuple(k for k in set(board.layout.kind) if k not in ("box", "region"))
    return _direct(board, kinds, "direct-claiming", 1.9, "claiming")
