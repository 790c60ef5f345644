"""Basic fish: X-wing, swordfish, jellyfish.

A value whose places in ``k`` rows lie in ``k`` columns: each of those columns holds the
value in one of these rows, so the columns' other cells lose it (and the same with rows and
columns swapped). Sudoku Explainer: X-wing 3.2, swordfish 3.8, jellyfish 5.2. Rows and
columns are all-different in every grid sudokit knows, so fish hold for Latin squares and
every variant.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from .board import Board
>>> board = Board.of(latin_square(np.zeros((4, 4), dtype=int)))
>>> for cell in (1, 2, 13, 14):
...     board.eliminate(cell, 1)
>>> x_wing(board).text
'X-wing on 1 in rows 1,4, columns 1,4: -1 r2c1 r2c4 r3c1 r3c4'
"""

from __future__ import annotations

from itertools import combinations

from .board import Board
from .step import Step, elimination_step

__all__ = ["x_wing", "swordfish", "jellyfish", "fish"]

_NAMES = {2: ("X-wing", "x-wing"), 3: ("swordfish", "swordfish"), 4: ("jellyfish", "jellyfish")}


def fish(board: Board, size: int, rating: float) -> Step | None:
    """The first basic fish of ``size`` lines that removes a candidate."""
    n = board.n
    cands = board.cands
    word, technique = _NAMES[size]
    for value in range(1, n + 1):
        bit = 1 << (value - 1)
        for by_rows in (True, False):
            lines = []     # (line, mask of cross positions)
            for line in range(n):
                mask = 0
                for k in range(n):
                    cell = line * n + k if by_rows else k * n + line
                    if cands[cell] & bit:
                        mask |= 1 << k
                if 2 <= mask.bit_count() <= size:
                    lines.append((line, mask))
            if len(lines) < size:
                continue
            for group in combinations(lines, size):
                union = 0
                for _, mask in group:
                    union |= mask
                if union.bit_count() != size:
                    continue
                base = {line for line, _ in group}
                cross = [k for k in range(n) if union >> k & 1]

                def at(line, k, by_rows=by_rows):
                    return line * n + k if by_rows else k * n + line
                removed = [(at(line, k), value) for k in cross for line in range(n)
                           if line not in base and cands[at(line, k)] & bit]
                if removed:
                    pattern = [(at(line, k), value) for line in base for k in cross
                               if cands[at(line, k)] & bit]
                    first, second = ("rows", "columns") if by_rows else ("columns", "rows")
                    one = first[:-1]
                    other = second[:-1]
                    houses = tuple(f"{one} {line + 1}" for line in sorted(base)) + tuple(
                        f"{other} {k + 1}" for k in cross)
                    return elimination_step(
                        board, technique, rating, removed, pattern, houses,
                        f"{word} on {value} in {first} "
                        f"{','.join(str(line + 1) for line in sorted(base))}, {second} "
                        f"{','.join(str(k + 1) for k in cross)}")
    return None


def x_wing(board: Board) -> Step | None:
    """A value's places in two rows in two columns (or the other way round)."""
    return fish(board, 2, 3.2)


def swordfish(board: Board) -> Step | None:
    """A value's places in three rows in three columns (or the other way round)."""
    return fish(board, 3, 3.8)


def jellyfish(board: Board) -> Step | None:
    """A value's places in four rows in four columns (or the other way round)."""
    return fish(board, 4, 5.2)
