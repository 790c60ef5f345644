"""Simple colouring (single-value colouring, "colour wrap" and "colour trap").

For one value, the conjugate pairs (units where the value has two places) form a graph;
colour each connected part in two colours, alternating along its links. In each part one
colour is true and the other false. Colour wrap: a colour seen twice in a unit is the false
one, so every cell of that colour loses the value. Colour trap: a cell outside the part
that sees both colours loses the value. Sudoku Explainer finds these as X-cycles and
X-chains (6.5 and up, by length); so are they rated here.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from .board import Board
>>> board = Board.of(latin_square(np.zeros((4, 4), dtype=int)))
>>> for cell in (2, 3, 4, 7, 9, 11, 12, 13):      # 1: r1c1|r1c2, r2c2|r2c3, r3c1|r3c3
...     board.eliminate(cell, 1)
>>> simple_colouring(board).text
'simple colouring on 1, colour trap (r1c1 r2c2 r3c3 | r1c2 r2c3 r3c1): -1 r4c3'
"""

from __future__ import annotations

import numpy as np

from .board import Board, cells_text
from .chain_kernel import sees_table, simple_colouring_kernel, unit_table
from .links import length_bonus
from .step import Step, elimination_step

__all__ = ["simple_colouring"]


def _parts(board: Board, value: int) -> list[tuple[list[int], list[int]]]:
    """Each connected part of the value's conjugate graph as its two colours."""
    bit = 1 << (value - 1)
    layout, cands = board.layout, board.cands
    edges: dict[int, set[int]] = {}
    for unit in layout.units:
        places = [c for c in unit if cands[c] & bit]
        if len(places) == 2:
            a, b = places
            edges.setdefault(a, set()).add(b)
            edges.setdefault(b, set()).add(a)
    colour: dict[int, int] = {}
    parts = []
    for root in sorted(edges):
        if root in colour:
            continue
        colour[root] = 0
        stack, members = [root], [root]
        while stack:
            cell = stack.pop()
            for other in edges[cell]:
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    stack.append(other)
                    members.append(other)
        parts.append(([c for c in members if colour[c] == 0],
                      [c for c in members if colour[c] == 1]))
    return parts


def simple_colouring(board: Board) -> Step | None:
    """The first colour wrap or colour trap (see the module): found by the compiled
    :func:`~sudokit.human.chain_kernel.simple_colouring_kernel`, or as the Python sets
    colour a part that has no two colours (a broken board)."""
    layout = board.layout
    n = board.n
    table, sizes = unit_table(layout)
    value, wrap, colour, removed = simple_colouring_kernel(
        np.array(board.cands, dtype=np.int64), n, table, sizes, sees_table(layout))
    if value < 0:
        return _by_sets(board)
    if value == 0:
        return None
    green = np.flatnonzero(colour == 0).tolist()
    blue = np.flatnonzero(colour == 1).tolist()
    pattern = [(c, value) for c in green + blue]
    where = f"({cells_text(n, green)} | {cells_text(n, blue)})"
    return elimination_step(board, "simple-colouring", 6.5 + length_bonus(len(pattern)),
                            [(c, value) for c in removed.tolist()], pattern, (),
                            f"simple colouring on {value}, colour "
                            f"{'wrap' if wrap else 'trap'} {where}")


def _by_sets(board: Board) -> Step | None:
    """:func:`simple_colouring` by the Python sets (their order colours a part that has no
    two colours)."""
    layout, cands = board.layout, board.cands
    n = board.n
    for value in range(1, n + 1):
        bit = 1 << (value - 1)
        for green, blue in _parts(board, value):
            size = len(green) + len(blue)
            if size < 4:
                continue
            pattern = [(c, value) for c in green + blue]
            where = f"({cells_text(n, green)} | {cells_text(n, blue)})"
            rating = 6.5 + length_bonus(size)
            for colour in (green, blue):
                inside = set(colour)
                if any(layout.peers[c] & inside for c in colour):
                    return elimination_step(board, "simple-colouring", rating,
                                            [(c, value) for c in colour], pattern, (),
                                            f"simple colouring on {value}, colour wrap {where}")
            members = set(green) | set(blue)
            removed = [(c, value) for c in range(n * n) if cands[c] & bit and c not in members
                       and layout.peers[c] & set(green) and layout.peers[c] & set(blue)]
            if removed:
                return elimination_step(board, "simple-colouring", rating, removed, pattern,
                                        (), f"simple colouring on {value}, colour trap {where}")
    return None
