"""One step of a human solving path as a picture (``sudokit draw --step N``).

The grid is drawn as it stands before step ``N`` of :func:`sudokit.human.solve_path`: the
givens (bold), the values placed by the steps before (class ``filled``) and the candidates
left (pencil marks, a lone candidate included: nothing is placed before its step). Under the
pencil marks, squares show what the step does: the candidates it reasons on (class
``pattern``, yellow), those it removes (``elimination``, red) and the value it places
(``placement``, green). The caption is the step in the notation of
:mod:`sudokit.human.step`.

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> p = parse_puzzles("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...2"
...                   "1.......5.6.9.2.1...3.6.2..")[0].instance
>>> canvas, step = step_picture(p, 1)
>>> marked = [s for s in canvas.shapes if s.cls == "placement"]
>>> captions = [s.text for s in canvas.shapes if s.cls == "caption"]
>>> len(marked) == len(step.placements), captions == [f"Step 1: {step.text}"]
(True, True)
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError
from ..human import Board, Step, solve_path
from ..human.path import apply_step
from ..solvers.budget import Budget
from .grid import grid_picture
from .svg import Canvas

__all__ = ["board_before", "step_marks", "step_picture"]


def board_before(puzzle, steps: list[Step], number: int) -> Board:
    """The board of ``puzzle`` before step ``number`` (1-based) of ``steps``: the steps
    before it applied to the givens' candidates, as the path found them."""
    board = Board.of(puzzle)
    for step in steps[:number - 1]:
        apply_step(board, step)
    return board


def step_marks(step: Step) -> list[tuple[int, int, int, str]]:
    """``(row, col, value, class)`` of the candidates ``step`` uses, removes and places;
    a candidate both in the pattern and removed is marked as removed.

    Examples
    --------
    >>> step_marks(Step("x", 1.0, placements=((0, 0, 5),), pattern=((0, 0, 5), (0, 1, 5))))
    [(0, 1, 5, 'pattern'), (0, 0, 5, 'placement')]
    """
    marks: dict[tuple[int, int, int], str] = {}
    for cls, group in (("pattern", step.pattern), ("elimination", step.eliminations),
                       ("placement", step.placements)):
        for row, col, value in group:
            marks.pop((row, col, value), None)
            marks[(row, col, value)] = cls
    return [(*key, cls) for key, cls in marks.items()]


def step_picture(puzzle, number: int, budget: Budget | None = None,
                 zero_based: bool = False) -> tuple[Canvas, Step]:
    """The picture of the grid before step ``number`` (1-based) of ``puzzle``'s path, the
    step highlighted (see the module), and the step. :class:`~sudokit.errors.InstanceError`
    when the path has fewer steps."""
    path = solve_path(puzzle, budget or Budget())
    if not 1 <= number <= len(path.steps):
        stops = "" if path.solved else " (it stops there: no technique of the set applies)"
        raise InstanceError(f"step {number}: the puzzle's path has {len(path.steps)} "
                            f"steps{stops}")
    step = path.steps[number - 1]
    board = board_before(puzzle, path.steps, number)
    n = puzzle.n
    canvas = grid_picture(puzzle, np.array(board.values).reshape(n, n),
                          candidates=np.array(board.cands, dtype=np.int64).reshape(n, n),
                          zero_based=zero_based, caption=f"Step {number}: {step.text}",
                          marks=step_marks(step), deduce=False)
    return canvas, step
