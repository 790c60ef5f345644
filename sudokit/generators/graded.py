"""Puzzles of a wanted difficulty: found by a search over clue sets, not by luck.

A :class:`Target` says what is wanted: a difficulty on a :data:`SCALES` scale between two
bounds (Simonis's propagation grade, ranked ``FC < ... < HACV < search``; or the Sudoku
Explainer rating of :func:`sudokit.human.rate`, which the named levels of
:data:`sudokit.human.levels.LEVELS` cut into bands). :func:`climb` finds a unique, minimal
puzzle within them by hill climbing over the clue sets of one full grid:

1. a random minimal puzzle (:meth:`~.puzzles.PuzzleGenerator.make`) is the start;
2. a neighbour drops one or two of its clues and adds one to three cells of the same grid,
   and is then reduced to a minimal puzzle again
   (:meth:`~.puzzles.PuzzleGenerator.reduce`: the removal pass of
   :mod:`~sudokit.generators.removal` on the clues present; a neighbour with several
   solutions is dropped);
3. a neighbour no farther from the band than the current puzzle replaces it (equal
   distances let the search walk along a plateau of one rating); after :data:`STALL`
   neighbours without progress the climb starts again from a new grid.

Every random choice comes from the generator's seeded random stream, so a seed gives the same
puzzles (as long as no time budget cuts a step short). The serial ``generate sudoku`` and
each Dask worker's chunk make their puzzles through :func:`make_graded`.

Examples
--------
>>> from sudokit.generators import PuzzleGenerator
>>> with PuzzleGenerator(9, (3, 3), 1) as gen:
...     made = make_graded(gen, "minimal", None, grade_target("BCI"), index=0, budget=None,
...                        progress=None)
>>> from sudokit.grading import grade
>>> grade(made.instance), made.minimal, made.extra["search"]["score"]
('BCI', True, 'BCI')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import BudgetExhausted, InstanceError
from ..grading import grade
from ..grading.lattice import ORDER
from ..problems import resolve
from ..solvers.budget import Budget
from .budgets import GenerationStatus
from .puzzles import GeneratedPuzzle, PuzzleGenerator

__all__ = ["GRADE_ATTEMPTS", "GRADES", "SCALES", "STALL", "Scale", "Target", "climb",
           "grade_target", "level_target", "rating_target", "make_graded"]

#: puzzles tried per wanted puzzle before a wanted grade gives up (``--clues K``, where the
#: puzzles are not minimal and the search does not apply)
GRADE_ATTEMPTS = 2000
#: neighbours tried without coming closer before a climb starts again from a new grid
STALL = 60
#: Simonis's grades, weakest first; ``search`` (no scheme is search free) is the hardest
GRADES = (*ORDER, "search")
#: seconds between progress reports of a search
_REPORT_EVERY = 0.25


@dataclass(frozen=True)
class Scale:
    """A difficulty scale: ``score`` (a ``"module:function"`` reference) takes a
    :class:`~sudokit.instances.GridPuzzle`, a :class:`~sudokit.solvers.budget.Budget` and a
    ``cap`` (any score above it may stand for the true one) and gives a number, ``show``
    writes one."""

    score: str
    show: str
    help: str


def grade_rank(puzzle, budget: Budget | None = None, cap: float | None = None) -> float:
    """The rank of ``puzzle``'s Simonis grade in :data:`GRADES` (0 for ``FC``).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> grade_rank(sudoku(np.zeros((4, 4), int))), GRADES[-1]
    (15.0, 'search')
    """
    return float(GRADES.index(grade(puzzle)))


def show_grade(score: float) -> str:
    """A grade rank by its name.

    Examples
    --------
    >>> show_grade(4.0)
    'HAC'
    """
    return GRADES[int(score)]


def se_rating(puzzle, budget: Budget | None = None, cap: float | None = None) -> float:
    """The Sudoku Explainer rating of ``puzzle`` (:func:`sudokit.human.rate`: the hardest
    step of its path); with ``cap``, the path stops at its first step rated above ``cap``
    and that step's rating is returned (the rating is at least that: a search that only
    needs to know a puzzle is too hard saves the rest of a long path).

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> p = parse_puzzles("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...2"
    ...                   "1.......5.6.9.2.1...3.6.2..")[0].instance
    >>> se_rating(p), se_rating(p, cap=2.0) <= 7.1
    (7.1, True)
    """
    from ..human import BEYOND, Board, steps

    board = Board.of(puzzle)
    hardest = 0.0
    for step in steps(puzzle, budget=budget or Budget(), board=board):
        hardest = max(hardest, step.rating)
        if cap is not None and hardest > cap:
            return hardest
    return hardest if board.solved else max(BEYOND, hardest)


def show_rating(score: float) -> str:
    """An SE rating as it is written.

    Examples
    --------
    >>> show_rating(7.25)
    'SE 7.2'
    """
    return f"SE {score:.1f}"


#: the scales a wanted difficulty is measured on
SCALES: dict[str, Scale] = {
    "grade": Scale("sudokit.generators.graded:grade_rank",
                   "sudokit.generators.graded:show_grade",
                   "Simonis's propagation grade (sudokit grade), FC < ... < search"),
    "rating": Scale("sudokit.generators.graded:se_rating",
                    "sudokit.generators.graded:show_rating",
                    "the Sudoku Explainer rating (sudokit.human.rate), 1.0 to 11.9+"),
}


@dataclass(frozen=True)
class Target:
    """A wanted difficulty: a score on scale ``scale`` (a :data:`SCALES` name) from ``low``
    to ``high`` (both included); ``name`` says it in messages. Plain data, so it travels
    to Dask workers."""

    scale: str
    low: float
    high: float
    name: str

    def distance(self, score: float) -> float:
        """How far ``score`` lies outside the band (0 inside).

        Examples
        --------
        >>> band = Target("rating", 6.0, 7.0, "rating 6.0:7.0")
        >>> band.distance(6.5), band.distance(5.5), band.distance(7.5)
        (0.0, 0.5, 0.5)
        """
        return max(self.low - score, score - self.high, 0.0)

    def score_function(self) -> Callable[..., float]:
        return resolve(SCALES[self.scale].score)

    def show(self, score: float) -> str:
        return str(resolve(SCALES[self.scale].show)(score))


def grade_target(name: str) -> Target:
    """The puzzles of Simonis grade ``name`` (a scheme of :data:`GRADES`).

    Examples
    --------
    >>> grade_target("HAC")
    Target(scale='grade', low=4.0, high=4.0, name='grade HAC')
    """
    if name not in GRADES:
        raise InstanceError(f"unknown grade {name!r}; choose one of {', '.join(GRADES)}")
    rank = float(GRADES.index(name))
    return Target("grade", rank, rank, f"grade {name}")


def rating_target(low: float, high: float, name: str | None = None) -> Target:
    """The puzzles rated ``low`` to ``high`` on Sudoku Explainer's scale.

    Examples
    --------
    >>> rating_target(9.0, 9.5).name
    'rating 9.0:9.5'
    """
    if not low <= high:
        raise InstanceError(f"a rating range runs from low to high, got {low}:{high}")
    return Target("rating", float(low), float(high), name or f"rating {low:.1f}:{high:.1f}")


def level_target(level: str) -> Target:
    """The puzzles of a named level (:data:`sudokit.human.levels.LEVELS`: its SE band).

    Examples
    --------
    >>> level_target("hard").name
    'level hard'
    """
    from ..human.levels import LEVELS

    if level not in LEVELS:
        raise InstanceError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    low, high = LEVELS[level]
    return rating_target(low, high, f"level {level}")


@dataclass
class _Search:
    """One climb's bookkeeping: puzzles rated, the closest score met, the scores known."""

    target: Target
    score: Callable[..., float]
    started: float
    progress: Any
    budget: Budget | None
    tried: int = 0
    closest: float | None = None
    last_report: float = 0.0
    known: dict | None = None

    def rate(self, made: GeneratedPuzzle) -> float:
        key = made.puzzle.tobytes()
        known = self.known if self.known is not None else {}
        self.known = known
        if key not in known:
            known[key] = float(self.score(made.instance, budget=self.left(),
                                          cap=self.target.high))
            self.tried += 1
        value = known[key]
        if self.closest is None or self.target.distance(value) < \
                self.target.distance(self.closest):
            self.closest = value
        self.report()
        return value

    def left(self) -> Budget | None:
        """What is left of the puzzle's budget (None: no limit)."""
        if self.budget is None or self.budget.seconds is None:
            return None
        left = self.budget.seconds - (time.monotonic() - self.started)
        if left <= 0:
            raise self.exhausted()
        return Budget(seconds=left)

    def exhausted(self) -> BudgetExhausted:
        """The error of a search whose time budget ran out (what it tried, how close)."""
        seconds = (self.budget.seconds if self.budget is not None else None) or 0.0
        closest = self.target.show(self.closest) if self.closest is not None else "-"
        err = BudgetExhausted(f"the time budget of {seconds:g} s ran out before a puzzle "
                              f"of {self.target.name} was found")
        err.with_cli(
            f"the time budget of {seconds:g} s ran out before a puzzle of {self.target.name} "
            f"was found ({self.tried:,} rated, the closest {closest}); allow more with "
            "--time-limit")
        return err

    def report(self) -> None:
        now = time.monotonic()
        if self.progress is None or now - self.last_report < _REPORT_EVERY:
            return
        self.last_report = now
        closest = self.target.show(self.closest) if self.closest is not None else ""
        self.progress(GenerationStatus("search", 0, 0, 0, now - self.started, self.tried,
                                       closest, self.target.name))


def _neighbour(gen: PuzzleGenerator, made: GeneratedPuzzle, search: _Search
               ) -> GeneratedPuzzle | None:
    """``made`` with one or two clues (whole orbits) dropped and one to three cells of its
    grid added, reduced to a minimal puzzle; None when that has several solutions."""
    flat = made.puzzle.reshape(-1)
    present = [k for k, orbit in enumerate(gen.orbits) if flat[orbit[0]]]
    absent = [k for k, orbit in enumerate(gen.orbits) if not flat[orbit[0]]]
    rng = gen.rng
    drop = rng.choice(len(present), size=min(len(present), int(rng.integers(1, 3))),
                      replace=False)
    add = rng.choice(len(absent), size=min(len(absent), int(rng.integers(1, 4))),
                     replace=False)
    trial = flat.copy()
    solution = made.solution.reshape(-1)
    for k in drop.tolist():
        trial[gen.orbits[present[k]]] = 0
    for k in add.tolist():
        cells = gen.orbits[absent[k]]
        trial[cells] = solution[cells]
    nearby = gen.reduce(trial.reshape(made.puzzle.shape), made.solution,
                        budget=search.left())
    if nearby is not None:
        nearby.extra["fill"] = made.extra.get("fill", {})    # the same grid
    return nearby


def climb(gen: PuzzleGenerator, target: Target, budget: Budget | None = None,
          progress: Callable[[GenerationStatus], None] | None = None) -> GeneratedPuzzle:
    """A unique, minimal puzzle of ``gen`` whose difficulty lies in ``target``'s band, by
    hill climbing (see the module). ``budget`` (seconds) bounds the whole search: past it
    :class:`~sudokit.errors.BudgetExhausted`; without one the search goes on until it finds
    one (or Ctrl-C). ``progress`` gets a ``"search"`` :class:`GenerationStatus` now and then.
    ``extra["search"]`` of the puzzle says how many puzzles were rated and its score.
    """
    search = _Search(target, target.score_function(), time.monotonic(), progress, budget)
    try:
        return _climb(gen, target, search)
    except BudgetExhausted:     # the search's own budget, whichever step it stopped
        if budget is None or budget.seconds is None:
            raise
        raise search.exhausted() from None


def _climb(gen: PuzzleGenerator, target: Target, search: _Search) -> GeneratedPuzzle:
    """The climbs of :func:`climb`, one grid after another, until one ends in the band."""
    while True:
        current = gen.make("minimal", budget=search.left())
        distance = target.distance(search.rate(current))
        stall = 0
        while distance > 0 and stall < STALL:
            stall += 1
            nearby = _neighbour(gen, current, search)
            if nearby is None:
                continue
            closer = target.distance(search.rate(nearby))
            if closer <= distance:
                stall = 0 if closer < distance else stall
                current, distance = nearby, closer
        if distance == 0:
            score = search.rate(current)
            current.extra["search"] = {"tried": search.tried, "score": target.show(score),
                                       "target": target.name}
            current.seconds = time.monotonic() - search.started
            return current


def make_graded(gen: PuzzleGenerator, mode: str, clues: int | None,
                wanted: Target | str | None, index: int, budget: Any, progress: Any,
                best_effort: bool = False) -> Any:
    """The next puzzle of ``gen`` (``mode``, ``clues``, ``budget``, ``progress`` and
    ``best_effort`` as :meth:`PuzzleGenerator.make` takes them), or with ``wanted`` (a
    :class:`Target`, or a grade name) the next one of that difficulty: found by
    :func:`climb` in the ``"unique"`` and ``"minimal"`` modes (the puzzle is minimal),
    else the first of :data:`GRADE_ATTEMPTS` puzzles that has it; ``index`` (0-based)
    names the puzzle in the error when none has."""
    if wanted is None:
        return gen.make(mode, clues, budget=budget, progress=progress, best_effort=best_effort)
    target = grade_target(wanted) if isinstance(wanted, str) else wanted
    if mode in ("unique", "minimal"):
        return climb(gen, target, budget, progress)
    score = target.score_function()
    try:
        return gen.make_where(lambda made: target.distance(score(made.instance)) == 0,
                              mode, clues, GRADE_ATTEMPTS, budget=budget,
                              progress=progress, best_effort=best_effort)
    except InstanceError:
        raise InstanceError(f"no puzzle of {target.name} with {clues} clues in "
                            f"{GRADE_ATTEMPTS} tries (puzzle {index + 1}); try another "
                            "clue count, or leave --clues out for a search by hill "
                            "climbing") from None

