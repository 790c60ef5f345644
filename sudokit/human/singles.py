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
    values, layout, n = board.values, board.layout, board.n
    for index, get in enumerate(layout.unit_of):
        held = get(values)
        if len(held) != n or held.count(0) != 1:
            continue
        cell = layout.units[index][held.index(0)]
        missing = layout.full
        for value in held:
            if value:
                missing &= ~(1 << (value - 1))
        if missing & board.cands[cell] and missing & (missing - 1) == 0:
            return _single(board, "full-house", 1.0, cell, missing.bit_length(), index,
                           "full house")
    return None


def _hidden(board: Board, units, technique: str, rating: float) -> Step | None:
    cands, unit_of = board.cands, board.layout.unit_of
    for index in units:
        held = unit_of[index](cands)
        once = twice = 0
        for mask in held:
            twice |= once & mask
            once |= mask
        single = once & ~twice
        if single:
            low = single & -single
            value = low.bit_length()
            cell = next(c for c in board.layout.units[index] if cands[c] & low)
            return _single(board, technique, rating, cell, value, index, "hidden single")
    return None


def hidden_single_box(board: Board) -> Step | None:
    """A value with one place left in a box (or a jigsaw's region)."""
    return _hidden(board, board.layout.boxes, "hidden-single-box", 1.2)


def hidden_single(board: Board) -> Step | None:
    """A value with one place left in a row, a column or a variant's unit."""
    return _hidden(board, board.layout.lines, "hidden-single", 1.5)


def naked_single(board: Board) -> Step | None:
    """A cell with one candidate left."""
    cands = board.cands
    first = len(cands)
    for value in range(board.n):        # each one-candidate mask, looked for in C
        mask = 1 << value
        if mask in cands:
            first = min(first, cands.index(mask))
    if first < len(cands):
        mask = cands[first]
        return _single(board, "naked-single", 2.3, first, mask.bit_length(), None,
                       "naked single")
    return None
