"""Singles: the last empty cell of a unit, a value with one place in a unit, a cell with
one candidate.

Sudoku Explainer's ratings: last value in a unit (full house) 1.0, hidden single in a box
1.2, in a row or column 1.5, naked single 2.3. A variant's units (diagonals, windows, ...)
count as lines.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from .board import Board
>>> board = Board.of(sudoku(np.array([[1, 2, 3, 0], [0, 0, 0, 0], [0, 0, 0, 0],
...                                   [0, 0, 0, 0]])))
>>> full_house(board).text
'r1c4 = 4 (full house in row 1)'
"""

from __future__ import annotations

from .board import Board
from .step import Step, make_step, placement_text

__all__ = ["full_house", "hidden_single_box", "hidden_single", "naked_single"]


def _single(board: Board, technique: str, rating: float, cell: int, value: int,
            unit: int | None, what: str) -> Step:
    houses = () if unit is None else (board.layout.unit_names[unit],)
    where = f" in {houses[0]}" if houses else ""
    return make_step(board, technique, rating, place=[(cell, value)],
                     pattern=[(cell, value)], houses=houses,
                     text=f"{placement_text(board.n, cell, value)} ({what}{where})")


def full_house(board: Board) -> Step | None:
    """The one empty cell left in a unit."""
    values = board.values
    for index, unit in enumerate(board.layout.units):
        empty = [c for c in unit if not values[c]]
        if len(empty) == 1 and len(unit) == board.n:
            cell = empty[0]
            missing = board.layout.full
            for c in unit:
                if values[c]:
                    missing &= ~(1 << (values[c] - 1))
            if missing & board.cands[cell] and missing & (missing - 1) == 0:
                return _single(board, "full-house", 1.0, cell, missing.bit_length(), index,
                               "full house")
    return None


def _hidden(board: Board, units, technique: str, rating: float) -> Step | None:
    cands = board.cands
    all_units = board.layout.units
    for index in units:
        once = twice = 0
        unit = all_units[index]
        for cell in unit:
            mask = cands[cell]
            twice |= once & mask
            once |= mask
        single = once & ~twice
        if single:
            low = single & -single
            value = low.bit_length()
            cell = next(c for c in unit if cands[c] & low)
            return _single(board, technique, rating, cell, value, index, "hidden single")
    return None


def hidden_single_box(board: Board) -> Step | None:
    """A value with one place left in a box (or a jigsaw's region)."""
    return _hidden(board, board.layout.boxes, "hidden-single-box", 1.2)


def hidden_single(board: Board) -> Step | None:
    """A value with one place left in a row, a column or a variant's unit."""
    layout = board.layout
    boxes = set(layout.boxes)
    return _hidden(board, [u for u in range(len(layout.units)) if u not in boxes],
                   "hidden-single", 1.5)


def naked_single(board: Board) -> Step | None:
    """A cell with one candidate left."""
    for cell, mask in enumerate(board.cands):
        if mask and mask & (mask - 1) == 0:
            return _single(board, "naked-single", 2.3, cell, mask.bit_length(), None,
                           "naked single")
    return None
