"""Time budgets and progress reports of puzzle generation (see :mod:`.puzzles`).

A puzzle's budget is one :class:`~sudokit.solvers.budget.Budget` whose clock starts when the
puzzle's generation starts; :class:`PuzzleClock` carries it through the fill, the removal
and the checks together with the caller's progress callback, which gets a
:class:`GenerationStatus` between bounded slices of the work.

Examples
--------
>>> from sudokit.solvers.budget import Budget
>>> seen = []
>>> clock = PuzzleClock(Budget(seconds=60), seen.append, 81)
>>> clock.out(), clock.report("remove", removed=12, tests=13)
(False, None)
>>> seen[0].phase, seen[0].removed, seen[0].cells
('remove', 12, 81)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import BudgetExhausted
from ..solvers.budget import Budget

__all__ = ["DEFAULT_LIMIT_ABOVE", "default_time_limit", "GenerationStatus", "PuzzleClock"]

#: ``"unique"`` puzzles above this side get :func:`default_time_limit` when no budget is given
DEFAULT_LIMIT_ABOVE = 25


def default_time_limit(n: int, mode: str = "unique") -> float | None:
    """The seconds a puzzle of side ``n`` gets when the caller gives no budget.

    ``n^2 / 100`` seconds for ``"unique"`` puzzles above 25x25 (36x36: 13 s, 49x49: 24 s,
    64x64: 41 s). There a whole removal pass takes from a minute (36x36) to far more than ten
    (64x64): every test covers the remaining clues, ``O(n^3)`` link updates, and the search
    scans the ``4 n^2`` constraints at every node. Running out only leaves more clues (a
    measured 64x64 puzzle kept 2,845 of its 4,096 clues in 41 s; a 36x36 one 710 of 1,296
    in 13 s, where the whole pass leaves 638). None (no limit) otherwise: up to 25x25 a pass
    takes seconds, and in the other modes running out is an error rather than a bigger
    puzzle, so the limit is left to the caller.

    Examples
    --------
    >>> default_time_limit(9), default_time_limit(64), default_time_limit(64, "minimal")
    (None, 40.96, None)
    """
    if mode != "unique" or n <= DEFAULT_LIMIT_ABOVE:
        return None
    return n * n / 100


@dataclass(frozen=True)
class GenerationStatus:
    """Where the generation of one puzzle stands (what ``make(progress=...)`` is called with).

    Attributes
    ----------
    phase : str
        ``"fill"`` (the full grid), ``"remove"`` (the removal tests), ``"check"`` (the final
        count), ``"verify"`` (the re-check with the other back end) or ``"search"`` (the
        search for a wanted difficulty, :mod:`~sudokit.generators.graded`: ``tried``
        puzzles scored so far (the hardest targets rate only the promising ones fully),
        the ``closest`` difficulty met, towards ``goal``).
    removed : int
        Clues removed so far (of ``cells``).
    cells : int
    tests : int
        Uniqueness tests made so far.
    seconds : float
        Since the puzzle's generation started.
    """

    phase: str
    removed: int
    cells: int
    tests: int
    seconds: float
    tried: int = 0
    closest: str = ""
    goal: str = ""


class PuzzleClock:
    """The budget, the clock and the progress callback of one puzzle (its clock starts when
    the object is made)."""

    def __init__(self, budget: Budget, progress: Callable[[GenerationStatus], None] | None,
                 cells: int):
        self.meter = budget.start()
        self.budget = budget
        self.nodes_used = 0
        self.progress = progress
        self.cells = cells

    def left(self, reserve: float = 0.0) -> float | None:
        """Seconds left (keeping ``reserve`` back), None without a time budget."""
        left = self.meter.seconds_left()
        return None if left is None else left - reserve

    def out(self, reserve: float = 0.0) -> bool:
        left = self.left(reserve)
        return left is not None and left <= 0

    def nodes_left(self) -> int | None:
        nodes = self.budget.nodes
        return None if nodes is None else max(nodes - self.nodes_used, 0)

    def report(self, phase: str, removed: int = 0, tests: int = 0) -> None:
        if self.progress is not None:
            self.progress(GenerationStatus(phase, removed, self.cells, tests,
                                           time.monotonic() - self.meter.started))

    def exhausted(self, what: str) -> BudgetExhausted:
        """The error of a promise the budget did not allow (``what`` was being made)."""
        seconds, nodes = self.budget.seconds, self.budget.nodes
        timed = seconds is not None and (self.out() or nodes is None)
        spent = f"time budget of {seconds:g} s" if timed else f"node budget of {nodes}"
        err = BudgetExhausted(f"the {spent} ran out before {what}; give it a larger budget")
        if timed:
            err.with_cli(f"the {spent} ran out before {what}; allow more with --time-limit")
        return err
