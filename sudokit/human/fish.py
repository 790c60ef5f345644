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

from .board import Board
from .facts import first_fish
from .set_kernel import MAX_SIDE, fish_find
from .step import Step, elimination_step
from .tables import cands_array

__all__ = ["x_wing", "swordfish", "jellyfish", "fish"]

_NAMES = {2: ("X-wing", "x-wing"), 3: ("swordfish", "swordfish"), 4: ("jellyfish", "jellyfish")}


def _line_places(board: Board) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Each value's places, line by line: ``(by_rows, by_columns)``, where
    ``by_rows[v - 1][row]`` is the mask of the columns of ``row`` that have ``v`` (and the
    other way round): the rows' and columns' unit facts (units ``0..n-1`` are the rows,
    cell by cell, then the columns)."""
    n = board.n
    facts = board.kept(Board.unit_facts)
    rows = [facts[r].places for r in range(n)]
    columns = [facts[n + c].places for c in range(n)]
    return [tuple(p[v] for p in rows) for v in range(n)], \
        [tuple(p[v] for p in columns) for v in range(n)]


def fish(board: Board, size: int, rating: float) -> Step | None:
    """The first basic fish of ``size`` lines that removes a candidate (compiled:
    :func:`~sudokit.human.set_kernel.fish_find`; the unit facts' search past
    :data:`~sudokit.human.set_kernel.MAX_SIDE`)."""
    n = board.n
    cands = board.cands
    word, technique = _NAMES[size]
    if n <= MAX_SIDE:
        value, rows, base_mask, union = fish_find(board.kept(cands_array), n, size).tolist()
        if value < 0:
            return None
        by_rows = bool(rows)
        base = {line for line in range(n) if base_mask >> line & 1}
    else:
        found = _fish_loops(board, size)
        if found is None:
            return None
        value, by_rows, lines, union = found
        base = set(lines)
    bit = 1 << (value - 1)
    cross = [k for k in range(n) if union >> k & 1]

    def at(line, k):
        return line * n + k if by_rows else k * n + line
    removed = [(at(line, k), value) for k in cross for line in range(n)
               if line not in base and cands[at(line, k)] & bit]
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


def _fish_loops(board: Board, size: int) -> tuple[int, bool, tuple[int, ...], int] | None:
    """:func:`fish`'s search on the unit facts, for sides the kernel's masks do not hold:
    ``(value, by rows, base lines, cover lines mask)``."""
    table = board.layout.fish
    by_row_places, by_column_places = board.kept(_line_places)
    for value in range(1, board.n + 1):
        for by_rows in (True, False):
            masks = (by_row_places if by_rows else by_column_places)[value - 1]
            found = first_fish(table, size, masks)
            if found is not None:
                return value, by_rows, found[0], found[1]
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
