"""Unique rectangles: a puzzle with one solution never leaves a deadly pattern.

Four empty cells in two rows, two columns and two boxes that could all take only ``x`` and
``y`` would let the two values swap, giving a second solution. So, when the puzzle is known
to have one solution (checked first), the pattern must be broken:

- type 1 (Sudoku Explainer 4.5): three corners are ``xy``; the fourth loses ``x`` and ``y``;
- type 2 (4.6): two corners on one line are ``xy``, the other two ``xyz``; one of those is
  ``z``, so the cells that see both lose ``z``;
- type 4 (4.5): two corners on one line are ``xy``; in a unit holding the other two, ``x``
  has no other place, so those two lose ``y``.

Bivalue universal grave (BUG+1, Sudoku Explainer 5.6): when every empty cell but one has
two candidates, that cell's candidate seen three times in one of its units must be placed:
otherwise each value would have two places in every unit, and such a grid has no solution
or two.

Only for grids with boxes and no variant (a variant's units break the swap).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from .board import Board
>>> board = Board.of(sudoku(np.zeros((4, 4), dtype=int)))
>>> for cell in (0, 1, 8):
...     board.cands[cell] = 0b0011
>>> unique_rectangle(board).text
'unique rectangle type 1 on 1,2 at r1c1 r1c2 r3c1 r3c2: -1 r3c2; -2 r3c2'
"""

from __future__ import annotations

from itertools import combinations

from .board import Board, bits, cell_text, cells_text
from .step import Step, elimination_step, make_step

__all__ = ["unique_rectangle", "bug"]


def _rectangles(board: Board):
    """Each rectangle of empty cells in two boxes: ``(corners, pair mask)`` for each pair of
    values all four corners still have."""
    n = board.n
    cands, box_of = board.cands, board.layout.box_of
    for r1, r2 in combinations(range(n), 2):
        # the columns where both rows still share two values, in order: only those pair up
        both = [(c, cands[r1 * n + c] & cands[r2 * n + c]) for c in range(n)]
        both = [(c, mask) for c, mask in both if mask & (mask - 1)]
        for (c1, m1), (c2, m2) in combinations(both, 2):
            common = m1 & m2
            if common.bit_count() < 2:
                continue
            corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            if len({box_of[c] for c in corners}) != 2:
                continue
            for x, y in combinations(bits(common), 2):
                yield corners, (1 << (x - 1)) | (1 << (y - 1))


def unique_rectangle(board: Board) -> Step | None:
    """A unique rectangle of type 1, 2 or 4 (see the module)."""
    cands, layout = board.cands, board.layout
    n = board.n
    for corners, pair in _rectangles(board):
        values = ",".join(map(str, bits(pair)))
        where = f"on {values} at {cells_text(n, corners)}"
        pattern = [(c, v) for c in corners for v in bits(pair)]
        exact = [c for c in corners if cands[c] == pair]
        if len(exact) == 3:
            extra = next(c for c in corners if c not in exact)
            removed = [(extra, v) for v in bits(pair)]
            return elimination_step(board, "unique-rectangle", 4.5, removed, pattern, (),
                                    f"unique rectangle type 1 {where}")
        if len(exact) != 2:
            continue
        roof = [c for c in corners if c not in exact]
        shared = set(layout.cell_units[roof[0]]) & set(layout.cell_units[roof[1]])
        if not any(layout.kind[u] in ("row", "column") for u in shared):
            continue
        extra_a, extra_b = cands[roof[0]] & ~pair, cands[roof[1]] & ~pair
        if extra_a == extra_b and extra_a.bit_count() == 1:
            z = extra_a.bit_length()
            removed = [(c, z) for c in layout.peers[roof[0]] & layout.peers[roof[1]]
                       if cands[c] & extra_a]
            if removed:
                return elimination_step(board, "unique-rectangle", 4.6, removed,
                                        pattern + [(c, z) for c in roof], (),
                                        f"unique rectangle type 2 {where}")
        for unit in sorted(shared):
            for strong in bits(pair):
                if len(board.cells_with(unit, strong)) == 2:
                    other = (pair & ~(1 << (strong - 1))).bit_length()
                    removed = [(c, other) for c in roof]
                    return elimination_step(
                        board, "unique-rectangle", 4.5, removed, pattern,
                        (layout.unit_names[unit],),
                        f"unique rectangle type 4 {where} ({strong} only there in "
                        f"{layout.unit_names[unit]})")
    return None


def bug(board: Board) -> Step | None:
    """BUG+1: one cell with three candidates, every other empty cell with two."""
    cands = board.cands
    extra = -1
    for cell, mask in enumerate(cands):
        if not mask:
            continue
        count = mask.bit_count()
        if count == 3 and extra < 0:
            extra = cell
        elif count != 2:
            return None
    if extra < 0:
        return None
    for value in bits(cands[extra]):
        if _grave_without(board, extra, value):
            pattern = [(c, v) for c, m in enumerate(cands) if m for v in bits(m)]
            return make_step(board, "bug", 5.6, place=[(extra, value)], pattern=pattern,
                             text=f"{cell_text(board.n, extra)} = {value} (bivalue universal "
                                  f"grave + 1: without {value} every candidate would have two "
                                  f"places in each of its units)")
    return None


def _grave_without(board: Board, cell: int, value: int) -> bool:
    """Whether, with ``value`` taken from ``cell``, every value left in a unit has exactly
    two places there (the grave: no solution or two)."""
    cands = list(board.cands)
    cands[cell] &= ~(1 << (value - 1))
    for unit in board.layout.units:
        once = twice = thrice = 0
        for c in unit:
            mask = cands[c]
            thrice |= twice & mask
            twice |= once & mask
            once |= mask
        if thrice or once & ~twice:
            return False
    return True
