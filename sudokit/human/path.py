"""The solving path and the rating: Sudoku Explainer's way.

:func:`solve_path` applies, at each step, the easiest technique of the registry that makes
progress (:data:`~sudokit.human.techniques.ORDER`, Sukaku Explainer's order; of the chains,
the lowest rated, as Sudoku Explainer sorts them) until the grid is full or no technique
helps. A step carries its own rating (a chain's grows with its length). :func:`rate` is
the hardest step of that path (Sudoku Explainer's rating: the hardest step on the path of
easiest steps) and its level (:data:`~sudokit.human.levels.LEVELS`). A puzzle the
technique set does not finish (its last resort: the nested forcing chains of
:mod:`~sudokit.human.nested`, Sudoku Explainer's levels 1 to 3) is rated :data:`BEYOND`
and marked unsolved.

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> p = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
...                   "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance
>>> path = solve_path(p)
>>> path.solved, len(path.steps), path.steps[0].text
(True, 49, 'r2c2 = 6 (hidden single in box 1)')
>>> r = rate(p)
>>> r.value, r.level, r.hardest
(1.2, 'easy', 'hidden-single-box')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from ..errors import BudgetExhausted, InstanceError
from ..solvers.budget import UNLIMITED, Budget, Meter
from .board import Board
from .levels import level_of
from .nested import metered
from .step import Step
from .techniques import ORDER, TECHNIQUES, not_applying, stages

__all__ = ["Path", "Rating", "solve_path", "rate", "steps", "BEYOND", "unique_solution",
           "rating_row", "NO_SOLUTION", "rating_within", "UNRATED"]

#: the level :func:`rating_row` gives a puzzle without solution
NO_SOLUTION = "no-solution"

#: the level :func:`rating_within` gives a puzzle not rated within its time
UNRATED = "unknown"

#: the rating of a puzzle the technique set does not finish: it needs more than the
#: nested forcing chains of level 3 (:mod:`~sudokit.human.nested`), so Sudoku Explainer
#: rates it 10.5 or more (its level 4; SE rates most of the forum's hardest 11 and up), or
#: at least 10.0 where SE's level 3 finds a double, cell or unit forcing chain that ours,
#: which looks for contradictions only, does not
BEYOND = 11.0


@dataclass(frozen=True)
class Path:
    """The steps from the givens, whether they solve the puzzle, the grid they reach
    (``(n, n)``, 0 where still empty) and the techniques skipped for the puzzle's kind or
    variant."""

    steps: list[Step]
    solved: bool
    grid: np.ndarray
    skipped: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"solved": self.solved, "steps": [s.to_json() for s in self.steps],
                "grid": self.grid.tolist(), "skipped": list(self.skipped)}


@dataclass(frozen=True)
class Rating:
    """A puzzle's rating on Sudoku Explainer's scale, its level, the technique of its
    hardest step, whether the technique set solves it, and the path."""

    value: float
    level: str
    hardest: str
    solved: bool
    path: Path

    def to_json(self) -> dict:
        return {"rating": self.value, "level": self.level, "hardest": self.hardest,
                "solved": self.solved, "steps": len(self.path.steps),
                "skipped": list(self.path.skipped)}


def _grid_check(puzzle) -> None:
    if not hasattr(puzzle, "units") or not hasattr(puzzle, "givens"):
        raise InstanceError("the human techniques need a grid puzzle (Sudoku or Latin "
                            f"square), got {type(puzzle).__name__}")


def unique_solution(puzzle, budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
    """``(count up to 2, first solution)`` by the DLX engine (the existing counter)."""
    from ..solvers.registry import open_engine

    with open_engine("dlx") as engine:
        count, first = engine.count(puzzle, 2, budget)
    return int(count), None if first is None else np.asarray(first).reshape(puzzle.n, puzzle.n)


def _chosen(puzzle, techniques: Iterable[str] | None, unique: bool
            ) -> tuple[list, tuple[str, ...]]:
    """The finders to try, stage by stage (:func:`~sudokit.human.techniques.stages`), and the
    techniques skipped for the puzzle."""
    names = ORDER if techniques is None else tuple(n for n in ORDER if n in set(techniques))
    skipped = not_applying(puzzle)
    if not unique:
        skipped += tuple(n for n in ORDER if TECHNIQUES[n].needs_unique and n not in skipped)
    kept = [n for n in names if n not in skipped]
    return [[(TECHNIQUES[n].find, TECHNIQUES[n].se_rating) for n in stage]
             for stage in stages(kept)], tuple(n for n in ORDER if n in skipped)


def _easiest(board: Board, stage) -> Step | None:
    """The step of a stage: its one finder's, or the lowest rated of a group's (a finder
    is not asked once the best found rates no more than the finder's base rating)."""
    if len(stage) == 1:
        return stage[0][0](board)
    best = None
    for find, base in sorted(stage, key=lambda pair: pair[1]):
        if best is not None and best.rating <= base:
            break
        step = find(board)
        if step is not None and (best is None or step.rating < best.rating):
            best = step
    return best


def apply_step(board: Board, step: Step) -> None:
    """Place a step's values and remove its candidates on ``board``."""
    n = board.n
    for row, col, value in step.placements:
        board.place(row * n + col, value)
    for row, col, value in step.eliminations:
        board.eliminate(row * n + col, value)


def steps(puzzle, *, budget: Budget = UNLIMITED, techniques: Iterable[str] | None = None,
          unique: bool = True, board: Board | None = None,
          meter: Meter | None = None) -> Iterator[Step]:
    """The steps of the path one at a time (each applied to ``board`` before the next is
    looked for); stops when the grid is full or no technique helps. Raises
    :class:`~sudokit.errors.BudgetExhausted` when ``budget`` runs out."""
    _grid_check(puzzle)
    finders, _ = _chosen(puzzle, techniques, unique)
    board = Board.of(puzzle) if board is None else board
    meter = budget.start() if meter is None else meter
    while not board.solved:
        if meter.late():
            raise BudgetExhausted("the time limit ran out before the path was found")
        with metered(meter):
            for stage in finders:
                step = _easiest(board, stage)
                if step is not None:
                    break
            else:
                return
        apply_step(board, step)
        yield step


def solve_path(puzzle, budget: Budget = UNLIMITED, *, techniques: Iterable[str] | None = None,
               unique: bool = True) -> Path:
    """The path of easiest steps (see the module).

    Parameters
    ----------
    puzzle : GridPuzzle
    budget : Budget
        ``seconds`` bounds the search (:class:`~sudokit.errors.BudgetExhausted` past it).
    techniques : iterable of str, optional
        Only these techniques of the registry (default: all).
    unique : bool
        The puzzle is known to have one solution, so the uniqueness techniques may be used
        (check it with :func:`unique_solution` first when unknown).
    """
    _grid_check(puzzle)
    _, skipped = _chosen(puzzle, techniques, unique)
    board = Board.of(puzzle)
    found = list(steps(puzzle, budget=budget, techniques=techniques, unique=unique,
                       board=board))
    return Path(found, board.solved, np.array(board.values, dtype=np.int32).reshape(
        board.n, board.n), skipped)


def rate(puzzle, budget: Budget = UNLIMITED, *, techniques: Iterable[str] | None = None,
         unique: bool = True) -> Rating:
    """The puzzle's rating: the hardest step of :func:`solve_path` (see the module)."""
    path = solve_path(puzzle, budget, techniques=techniques, unique=unique)
    hardest = max(path.steps, key=lambda s: s.rating, default=None)
    if not path.solved:
        value = max(BEYOND, hardest.rating if hardest else 0.0)
        return Rating(value, level_of(value), "beyond", False, path)
    value = hardest.rating if hardest else 0.0
    return Rating(value, level_of(value), hardest.technique if hardest else "none", True, path)


def rating_row(puzzle, budget: Budget = UNLIMITED) -> tuple[float | None, str, str | None]:
    """``(rating, level, hardest)`` of a puzzle of unknown uniqueness, as ``grade
    --rating`` prints it: the uniqueness techniques only when the DLX counter finds one
    solution, ``(None, NO_SOLUTION, None)`` when it finds none. Raises
    :class:`~sudokit.errors.BudgetExhausted` past ``budget`` (the count and the path each
    get it whole).

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> rating_row(parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
    ...                          "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance)
    (1.2, 'easy', 'hidden-single-box')
    >>> rating_row(parse_puzzles("12....3.........")[0].instance)      # r2c1, r2c2: 4 both
    (None, 'no-solution', None)
    """
    count, _ = unique_solution(puzzle, budget)
    if count == 0:
        return None, NO_SOLUTION, None
    rated = rate(puzzle, budget, unique=count == 1)
    return rated.value, rated.level, rated.hardest


def rating_within(puzzle, seconds: float | None) -> tuple[float | None, str, str | None]:
    """:func:`rating_row` within ``seconds`` (None: no limit), ``(None, UNRATED, None)``
    past them.

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> rating_within(parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
    ...                             "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance, 60)
    (1.2, 'easy', 'hidden-single-box')
    """
    try:
        return rating_row(puzzle, UNLIMITED if seconds is None else Budget(seconds=seconds))
    except BudgetExhausted:
        return None, UNRATED, None
