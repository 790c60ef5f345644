"""Locked candidates: a value confined, within one unit, to cells that another unit shares.

Pointing: in a box the value's places lie on one line, so the rest of the line loses it
(Sudoku Explainer 2.6). Claiming: in a line they lie in one box, so the rest of the box
loses it (2.8). Any two units that meet do the same (a diagonal and a box, a window and a
row): a box first is pointing, a line first is claiming.

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
from .step import Step, elimination_step

__all__ = ["pointing", "claiming"]


def _locked(board: Board, first: tuple[int, ...], technique: str, rating: float,
            name: str) -> Step | None:
    layout = board.layout
    cands = board.cands
    facts = board.kept(Board.unit_facts)
    for index in first:
        for value0, where, targets in facts[index].memo(("locked", index),
                                                        partial(_confined, board, index)):
            low = 1 << value0
            for other, outside in targets:
                removed = [(c, value0 + 1) for c in outside if cands[c] & low]
                if removed:
                    unit = layout.units[index]
                    cells = [c for p, c in enumerate(unit) if where >> p & 1]
                    names = (layout.unit_names[index], layout.unit_names[other])
                    return elimination_step(
                        board, technique, rating, removed, [(c, value0 + 1) for c in cells],
                        names, f"{name} {value0 + 1} in {names[0]} on {names[1]}")
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
