"""Nested forcing chains: Sudoku Explainer's dynamic forcing chains with chains inside.

When the forcing nets of :mod:`~sudokit.human.forcing` find nothing, Sudoku Explainer goes on
with dynamic forcing chains in which, each time the singles are spent, other rules are
asked on the grid the chain has made (its ``Chaining`` levels; the kernels are in
:mod:`~sudokit.human.nested_kernel`):

- level 2, :func:`nested_forcing_chain` (9.5 and up, SE's "Dynamic Forcing Chains (+
  Forcing Chains)"): locked candidates, hidden and naked pairs, X-wings and the
  non-dynamic forcing chains (a candidate whose chain of links comes back to it);
- level 3, :func:`nested_multiple_forcing_chain` (10.0 and up, "(+ Multiple Forcing
  Chains)"): also the cell and unit forcing chains.

A candidate is assumed on, then off; one that leads to a contradiction (a candidate both on
and off) is removed, or placed. The step is the assumption with the least complexity, as
SE counts it (the potentials the contradiction follows from, plus the complexity of each
chain nested among them), rated the level's base plus
:func:`~sudokit.human.links.length_bonus` of the complexity less two (SE's
``getLengthDifficulty``). SE also finds, at these levels, double, cell and unit forcing
chains with the nested rules; only contradictions are looked for here, so a step may rate
a little more than SE's (or be missing where SE's only find is one of those).

The search runs a cell at a time and checks the time limit of the path it is asked for
(:func:`metered`) between cells, so ``--time-limit`` and Ctrl-C hold.

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> from .board import Board
>>> from .path import solve_path, apply_step
>>> from .techniques import ORDER
>>> p = parse_puzzles("4.....8.5.3..........7......2.....6.....8.4......1......."
...                   "6.3.7.5..2.....1.4......")[0].instance
>>> step = nested_forcing_chain(Board.of(p))
>>> step.technique, step.rating >= 9.5, len(step.eliminations) + len(step.placements)
('nested-forcing-chain', True, 1)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

import numpy as np

from ..errors import BudgetExhausted
from ..solvers.budget import Meter
from .board import Board, cell_text
from .links import length_bonus
from .nested_kernel import nested_search
from .step import Step, elimination_step, make_step
from .tables import layout_arrays

__all__ = ["dynamic_forcing_chain", "nested_forcing_chain", "nested_multiple_forcing_chain",
           "metered", "LEVELS"]

#: SE's nesting levels implemented: level -> (technique, base rating, what is nested)
LEVELS: dict[int, tuple[str, float, str]] = {
    1: ("dynamic-forcing-chain", 9.0, "locked candidates, pairs and X-wings"),
    2: ("nested-forcing-chain", 9.5, "forcing chains"),
    3: ("nested-multiple-forcing-chain", 10.0, "multiple forcing chains"),
}

_METER: ContextVar[Meter | None] = ContextVar("sudokit_nested_meter", default=None)


@contextlib.contextmanager
def metered(meter: Meter) -> Iterator[None]:
    """Within the block, the nested searches raise
    :class:`~sudokit.errors.BudgetExhausted` once ``meter`` is late (they check it
    between cells)."""
    token = _METER.set(meter)
    try:
        yield
    finally:
        _METER.reset(token)


def _search(board: Board, level: int) -> Step | None:
    n = board.n
    arrays = layout_arrays(board.layout)
    cands = np.array(board.cands, dtype=np.int64)
    meter = _METER.get()
    best = (0, -1, 0)
    for cell in range(len(cands)):
        if meter is not None and meter.late():
            raise BudgetExhausted("the time limit ran out in a nested forcing chain search")
        cost, node, on = (int(x) for x in nested_search(cands, n, arrays.units,
                                                         arrays.cell_units, level, cell,
                                                         cell + 1))
        if cost and (best[0] == 0 or cost < best[0]):
            best = (cost, node, on)
    complexity, node, on = best
    if not complexity:
        return None
    name, base, inner = LEVELS[level]
    cell, value = node // n, node % n + 1
    rating = base + length_bonus(complexity - 2)
    kind = "dynamic forcing chain" if level == 1 else "nested forcing chain"
    what = (f"{kind} (with {inner}): {value}{cell_text(n, cell)} "
            f"{'true' if on else 'false'} leads to a contradiction (complexity "
            f"{complexity})")
    if on:
        return elimination_step(board, name, rating, [(cell, value)], [(cell, value)], (),
                                what)
    return make_step(board, name, rating, place=[(cell, value)], pattern=[(cell, value)],
                     text=f"{cell_text(n, cell)} = {value} ({what})")


def dynamic_forcing_chain(board: Board) -> Step | None:
    """The easiest contradiction by dynamic chains with locked candidates, pairs and
    X-wings (SE level 1, see the module)."""
    return _search(board, 1)


def nested_forcing_chain(board: Board) -> Step | None:
    """The easiest contradiction by dynamic chains with forcing chains nested (SE level
    2, see the module)."""
    return _search(board, 2)


def nested_multiple_forcing_chain(board: Board) -> Step | None:
    """The easiest contradiction by dynamic chains with multiple forcing chains nested (SE
    level 3, see the module)."""
    return _search(board, 3)
