"""Puzzles of a wanted difficulty: found by a search over clue sets, not by luck.

A :class:`Target` says what is wanted: a difficulty on a :data:`SCALES` scale between two
bounds (Simonis's propagation grade, ranked ``FC < ... < HACV < search``; or the Sudoku
Explainer rating of :func:`sudokit.human.rate`, which the named levels of
:data:`sudokit.human.levels.LEVELS` cut into bands). :func:`climb` finds a unique, minimal
puzzle within them by hill climbing over clue sets:

1. the start is a random minimal puzzle (:meth:`~.puzzles.PuzzleGenerator.make`); for the
   hardest targets (:func:`is_hard`: grade BCV and up, rating :data:`HARD_RATING` and up)
   it is the clue pattern of one of the forum's hardest puzzles
   (:func:`~sudokit.generators.hardness.hard_patterns`) filled from a fresh random grid,
   with clues of that grid added until it is unique, then reduced to a minimal puzzle (the
   added clues are tried for removal first);
2. a neighbour drops one or two of its clues and either adds one to three cells of the same
   grid or (hard targets: a share :data:`REGRID` of the time) puts a new value in an empty
   cell, which moves the search to another solution grid (clues of the new solution are
   added until the puzzle is unique again); it is then reduced to a minimal puzzle again
   (:meth:`~.puzzles.PuzzleGenerator.reduce`; a neighbour with no solution is dropped);
3. a neighbour no farther from the band than the current puzzle replaces it (equal
   distances let the search walk along a plateau of one rating); after :data:`STALL`
   neighbours without progress the climb starts again.

The hardest targets (:func:`is_hardest`: grade ``search``, ratings of :data:`HARD_RATING`
and up) on a classic 9x9 grid play the pattern game instead
(:mod:`~sudokit.generators.pattern_game`): a hard pattern's values searched until unique,
then simulated annealing on :meth:`_Search.height` (the survivors share; the grade from
:data:`GRADE_SHARE`; the rating from the grade :data:`RATE_FROM`, or ``search`` for ratings
of :data:`SEARCH_RATING` and up), with restarts from a new pattern or (a share
:data:`ELITE`) from the highest puzzle met; the puzzle found is reduced to a minimal one
and judged again.

Distances are finer than the scales: a grade below the wanted one adds the share of
candidates that survive singleton tests (:func:`~sudokit.generators.hardness.survivors`,
which the forum's hardest keep almost all of), and a hard rating target climbs on that
proxy until the puzzle grades :data:`RATE_FROM` or harder, rating only those puzzles by the
full (slow) rater, and breaks ties between equal ratings by the proxy.

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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import BudgetExhausted, InstanceError
from ..grading import grade
from ..grading.lattice import ORDER
from ..problems import resolve
from ..solvers.budget import Budget
from ..solvers.registry import open_engine
from .budgets import GenerationStatus
from .hardness import hard_patterns, survivors
from .pattern_game import anneal, value_search
from .puzzles import GeneratedPuzzle, PuzzleGenerator

__all__ = ["ELITE", "GRADE_ATTEMPTS", "GRADES", "GRADE_SHARE", "HARD_RATING", "RATE_FROM",
           "REGRID", "SCALES", "SEARCH_RATING", "STALL", "Scale", "Target", "climb", "grade_target",
           "is_hard", "is_hardest", "level_target", "rating_target", "make_graded"]

#: puzzles tried per wanted puzzle before a wanted grade gives up (``--clues K``, where the
#: puzzles are not minimal and the search does not apply)
GRADE_ATTEMPTS = 2000
#: neighbours tried without coming closer before a climb starts again from a new grid
STALL = 60
#: Simonis's grades, weakest first; ``search`` (no scheme is search free) is the hardest
GRADES = (*ORDER, "search")
#: seconds between progress reports of a search
_REPORT_EVERY = 0.25
#: the share of neighbours that put a new value in a cell (a move to another grid)
REGRID = 0.5
#: the lowest wanted rating that counts as hard: the climb starts from hard patterns and
#: climbs on the grade proxy first
HARD_RATING = 9.0
#: the grade from which a hard rating target rates its puzzles (below it, the proxy alone)
RATE_FROM = "BCV"
#: the width of a grade's band: a rank plus the survivors' share (below 1)
_FINE = 0.999
#: the lowest wanted rating whose search rates only puzzles graded ``search`` (the forum's
#: hardest, SE 11+, all grade ``search``; SE 10+ is not met below it)
SEARCH_RATING = 10.0
#: the survivors share from which the pattern game grades a puzzle (below it, the share
#: alone is its height; the forum's hardest keep 0.955 and more)
GRADE_SHARE = 0.9
#: the share of the pattern game's restarts that anneal again from the highest puzzle met
#: so far (the hardest come in clusters); the others fill a new pattern
ELITE = 0.5
#: the height of a puzzle inside the wanted band (above any share or rating height)
_FOUND = 10.0
#: a distance beyond any rating's: a hard rating target's puzzle graded below RATE_FROM
_PROXY_FAR = 100.0
#: the most clues added to make a puzzle unique again (a pattern start, a move to a new grid)
_MOST_ADDED = 60


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
    """The rank of ``puzzle``'s Simonis grade in :data:`GRADES` (0 for ``FC``); when that
    lies below ``cap``'s rank (a search for a harder grade), plus the share of the open
    candidates at the HAC fixpoint that survive a singleton test
    (:func:`~sudokit.generators.hardness.survivors`, times 0.999): how close the puzzle
    comes to the next grades.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> grade_rank(sudoku(np.zeros((4, 4), int))), GRADES[-1]
    (15.0, 'search')
    >>> from sudokit.formats import parse_puzzles
    >>> p = parse_puzzles("48.3............71.2.......7.5....6....2..8..."
    ...                   "..........1.76...3.....4......5....")[0].instance
    >>> grade_rank(p), 13.0 < grade_rank(p, cap=15.999) < 14.0
    (13.0, True)
    """
    rank = float(GRADES.index(grade(puzzle)))
    if cap is None or rank + 1 > cap:
        return rank
    kept = survivors(puzzle)
    return rank + (kept.kept / kept.open * _FINE if kept.open else 0.0)


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
    needs to know a puzzle is too hard saves the rest of a long path), and the techniques
    whose base rating is above ``cap`` are not tried: where the path needs one, it stops
    there and the lowest such base rating is returned, again a lower bound above the cap
    (the nested forcing chains, seconds a step, are never looked for by a search for a
    level below 9.0).

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> p = parse_puzzles("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...2"
    ...                   "1.......5.6.9.2.1...3.6.2..")[0].instance
    >>> se_rating(p), se_rating(p, cap=2.0) > 2.0, se_rating(p, cap=7.0) > 7.0
    (7.1, True, True)
    """
    from ..human import BEYOND, TECHNIQUES, Board, steps

    board = Board.of(puzzle)
    hardest = 0.0
    kept, above = None, BEYOND
    if cap is not None:
        kept = [name for name, technique in TECHNIQUES.items() if technique.se_rating <= cap]
        above = min((technique.se_rating for technique in TECHNIQUES.values()
                     if technique.se_rating > cap), default=BEYOND)
    for step in steps(puzzle, budget=budget or Budget(), board=board, techniques=kept):
        hardest = max(hardest, step.rating)
        if cap is not None and hardest > cap:
            return hardest
    return hardest if board.solved else max(above, hardest)


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
    Target(scale='grade', low=4.0, high=4.999, name='grade HAC')
    """
    if name not in GRADES:
        raise InstanceError(f"unknown grade {name!r}; choose one of {', '.join(GRADES)}")
    rank = float(GRADES.index(name))
    return Target("grade", rank, rank + _FINE, f"grade {name}")


def is_hard(target: Target) -> bool:
    """Whether ``target`` asks for the hardest puzzles: grade BCV or harder, or a rating of
    :data:`HARD_RATING` or more (the climb then starts from hard patterns).

    Examples
    --------
    >>> is_hard(grade_target("search")), is_hard(level_target("expert"))
    (True, False)
    """
    if target.scale == "grade":
        return target.low >= GRADES.index(RATE_FROM)
    return target.scale == "rating" and target.low >= HARD_RATING


def is_hardest(target: Target) -> bool:
    """Whether ``target`` is searched by the pattern game
    (:mod:`~sudokit.generators.pattern_game`): grade ``search``, or a rating of
    :data:`HARD_RATING` or more.

    Examples
    --------
    >>> is_hardest(grade_target("search")), is_hardest(grade_target("BCV"))
    (True, False)
    >>> is_hardest(rating_target(10.0, 99.9))
    True
    """
    if target.scale == "grade":
        return target.low >= GRADES.index("search")
    return target.scale == "rating" and target.low >= HARD_RATING


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
    """One climb's bookkeeping: puzzles scored (and fully rated), the closest met, the
    distances known."""

    target: Target
    score: Callable[..., float]
    started: float
    progress: Any
    budget: Budget | None
    tried: int = 0
    rated: int = 0
    closest: tuple[float, float] | None = None
    top: float | None = None
    ends: list | None = None
    shown: str = ""
    last_report: float = 0.0
    known: dict = field(default_factory=dict)

    def distance(self, made: GeneratedPuzzle) -> tuple[float, float]:
        """How far ``made`` lies from the band: ``(distance, tie-break)``, smaller is
        closer, 0 first when inside (see the module for the proxy of hard ratings)."""
        key = made.puzzle.tobytes()
        if key not in self.known:
            self.known[key] = self._measure(made)
            self.tried += 1
        far, shown = self.known[key]
        if self.closest is None or far < self.closest:
            self.closest, self.shown = far, shown
        self.report()
        return far

    def _measure(self, made: GeneratedPuzzle) -> tuple[tuple[float, float], str]:
        target = self.target
        if target.scale != "rating" or not is_hard(target):
            value = float(self.score(made.instance, budget=self.left(), cap=target.high))
            return (target.distance(value), 0.0), target.show(value)
        proxy = grade_rank(made.instance, cap=len(GRADES) - 1 + _FINE)
        gate = GRADES.index(RATE_FROM)
        if proxy < gate:       # far below: climb on the proxy alone, rate nothing
            return (_PROXY_FAR + gate - proxy, 0.0), f"grade {show_grade(proxy)}"
        self.rated += 1
        value = float(self.score(made.instance, budget=self.left(), cap=target.high))
        return (target.distance(value), -proxy), target.show(value)

    def height(self, gen: PuzzleGenerator, givens: np.ndarray) -> float:
        """How hard the unique puzzle ``givens`` (flat) is for the pattern game: its
        survivors share (0 to 1); graded when the share reaches :data:`GRADE_SHARE`, and
        for a rating target rated when it grades :func:`_rate_from` or harder (then 1 plus
        the rating over 20, closer is higher); :data:`_FOUND` inside the band."""
        key = givens.tobytes()
        if key not in self.known:
            self.known[key] = self._judge(gen.template.with_givens(givens.reshape(gen.n,
                                                                                gen.n)))
            self.tried += 1
        high, shown = self.known[key]
        if self.top is None or high > self.top:
            self.top, self.shown = high, shown
        self.report()
        return high

    def _judge(self, instance: Any, gated: bool = True) -> tuple[float, str]:
        """``(height, what to show)`` of :meth:`height`; ``gated=False`` grades (and
        rates) whatever the survivors share."""
        kept = survivors(instance)
        share = kept.kept / kept.open if kept.open else 0.0
        if gated and share < GRADE_SHARE:
            return share, f"{share:.0%} survivors"
        graded = grade(instance)
        rank = float(GRADES.index(graded))
        shown = f"grade {graded}, {share:.0%} survivors"
        target = self.target
        if target.scale == "grade":
            return (_FOUND if target.distance(rank) == 0 else share), shown
        if rank < GRADES.index(_rate_from(target)):
            return share, shown
        self.rated += 1
        value = float(self.score(instance, budget=self.left(), cap=target.high))
        far = target.distance(value)
        return (_FOUND if far == 0 else 1.0 + (target.low - far) / 20), target.show(value)

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
        closest = self.shown or "-"
        err = BudgetExhausted(f"the time budget of {seconds:g} s ran out before a puzzle "
                              f"of {self.target.name} was found")
        err.with_cli(
            f"the time budget of {seconds:g} s ran out before a puzzle of {self.target.name} "
            f"was found ({self.tried:,} tried, the closest {closest}); allow more with "
            "--time-limit")
        return err

    def report(self) -> None:
        now = time.monotonic()
        if self.progress is None or now - self.last_report < _REPORT_EVERY:
            return
        self.last_report = now
        self.progress(GenerationStatus("search", 0, 0, 0, now - self.started, self.tried,
                                       self.shown, self.target.name))


def _rate_from(target: Target) -> str:
    """The grade from which the pattern game rates a puzzle for a rating target:
    ``search`` from :data:`SEARCH_RATING`, else :data:`RATE_FROM`."""
    return "search" if target.low >= SEARCH_RATING else RATE_FROM


def _classic(gen: PuzzleGenerator) -> bool:
    """Whether ``gen`` makes classic puzzles: no variant, no symmetry (the moves to another
    grid and the pattern starts need that)."""
    return not gen.variants and len(gen.orbits) == gen.n * gen.n


def _unique_again(gen: PuzzleGenerator, trial: np.ndarray, engine: Any, search: _Search
                  ) -> np.ndarray | None:
    """Clues of a solution of ``trial`` (flat, changed in place) added at random empty
    cells until it has one solution: that solution, or None when it has none (or
    :data:`_MOST_ADDED` clues do not do)."""
    for _ in range(_MOST_ADDED):
        count, first = engine.count(gen.template.with_givens(trial.reshape(gen.n, gen.n)),
                                    2, search.left())
        if count == 0:
            return None
        first = np.asarray(first).reshape(-1)
        if count == 1:
            return first
        cell = int(gen.rng.choice(np.flatnonzero(trial == 0)))
        trial[cell] = first[cell]
    return None


def _new_value(gen: PuzzleGenerator, trial: np.ndarray, solution: np.ndarray) -> bool:
    """Put in a random empty cell of ``trial`` (flat) a value that no given of its units
    holds and that differs from ``solution``'s; False when the cell has none."""
    cell = int(gen.rng.choice(np.flatnonzero(trial == 0)))
    units = gen.template.units()
    seen = set(trial[units[np.any(units == cell, axis=1)]].reshape(-1).tolist())
    values = [v for v in range(1, gen.n + 1) if v not in seen and v != solution[cell]]
    if not values:
        return False
    trial[cell] = values[int(gen.rng.integers(len(values)))]
    return True


def _neighbour(gen: PuzzleGenerator, made: GeneratedPuzzle, search: _Search, engine: Any
               ) -> GeneratedPuzzle | None:
    """``made`` with one or two clues (whole orbits) dropped and either one to three cells
    of its grid added or (hard targets on classic grids, a share :data:`REGRID`) a new
    value put in an empty cell and the puzzle made unique again, reduced to a minimal
    puzzle; None when that fails."""
    flat = made.puzzle.reshape(-1)
    present = [k for k, orbit in enumerate(gen.orbits) if flat[orbit[0]]]
    absent = [k for k, orbit in enumerate(gen.orbits) if not flat[orbit[0]]]
    rng = gen.rng
    drop = rng.choice(len(present), size=min(len(present), int(rng.integers(1, 3))),
                      replace=False)
    trial = flat.copy()
    solution = made.solution.reshape(-1)
    for k in drop.tolist():
        trial[gen.orbits[present[k]]] = 0
    if is_hard(search.target) and _classic(gen) and rng.random() < REGRID:
        if not _new_value(gen, trial, solution):
            return None
        other = _unique_again(gen, trial, engine, search)
        if other is None:
            return None
        solution, fill = other, {"strategy": "move"}
    else:
        add = rng.choice(len(absent), size=min(len(absent), int(rng.integers(1, 4))),
                         replace=False)
        for k in add.tolist():
            cells = gen.orbits[absent[k]]
            trial[cells] = solution[cells]
        fill = made.extra.get("fill", {})       # the same grid
    nearby = gen.reduce(trial.reshape(made.puzzle.shape), solution.reshape(made.puzzle.shape),
                        budget=search.left())
    if nearby is not None:
        nearby.extra["fill"] = fill
    return nearby


def _start(gen: PuzzleGenerator, target: Target, search: _Search, engine: Any
           ) -> GeneratedPuzzle:
    """The start of a climb: a random minimal puzzle, or for a hard target on a classic
    9x9 grid the clue pattern of one of the forum's hardest filled from a fresh grid (see
    the module)."""
    if not (is_hard(target) and _classic(gen) and gen.n == 9 and gen.box == (3, 3)):
        return gen.make("minimal", budget=search.left())
    masks = hard_patterns()
    while True:
        mask = masks[int(gen.rng.integers(len(masks)))]
        grid = gen.full_grid().reshape(-1)
        trial = np.where(mask, grid, 0).astype(np.int32)
        outside = gen.rng.permutation(np.flatnonzero(~mask)).tolist()
        added = []
        while outside and gen.count(trial.reshape(9, 9), "dlx", budget=search.left()) > 1:
            added.append(outside.pop())
            trial[added[-1]] = grid[added[-1]]
        for cell in added:          # the clues added go first, so the pattern stays
            trial[cell] = 0
            if gen.count(trial.reshape(9, 9), "dlx", budget=search.left()) != 1:
                trial[cell] = grid[cell]
        made = gen.reduce(trial.reshape(9, 9), grid.reshape(9, 9), budget=search.left())
        if made is not None:
            made.extra["fill"] = {"strategy": "pattern"}
            return made


def climb(gen: PuzzleGenerator, target: Target, budget: Budget | None = None,
          progress: Callable[[GenerationStatus], None] | None = None,
          ends: list | None = None, pattern_game: bool | None = None) -> GeneratedPuzzle:
    """A unique, minimal puzzle of ``gen`` whose difficulty lies in ``target``'s band, by
    hill climbing (see the module). ``budget`` (seconds) bounds the whole search: past it
    :class:`~sudokit.errors.BudgetExhausted`; without one the search goes on until it finds
    one (or Ctrl-C). ``progress`` gets a ``"search"`` :class:`GenerationStatus` now and then.
    ``extra["search"]`` of the puzzle says how many puzzles were tried (scored), how many
    were fully rated, and its score. ``ends``, when given, gets the highest puzzle of each
    restart (a :class:`~sudokit.instances.GridPuzzle`; benchmarks/hardest_search.py reads
    where the searches stop). ``pattern_game`` forces (True) or forbids (False) the pattern
    game; None: for the targets of :func:`is_hardest` on a classic 9x9 grid.
    """
    search = _Search(target, target.score_function(), time.monotonic(), progress, budget)
    search.ends = ends
    engine = open_engine("dlx", shape=gen.template) if _classic(gen) else None
    game = is_hardest(target) and _classic(gen) and gen.n == 9 and gen.box == (3, 3)
    if pattern_game is not None:
        game = pattern_game and _classic(gen) and gen.n == 9 and gen.box == (3, 3)
    try:
        return (_game if game else _climb)(gen, target, search, engine)
    except BudgetExhausted:     # the search's own budget, whichever step it stopped
        if budget is None or budget.seconds is None:
            raise
        raise search.exhausted() from None
    finally:
        if engine is not None:
            engine.close()


def _climb(gen: PuzzleGenerator, target: Target, search: _Search, engine: Any
           ) -> GeneratedPuzzle:
    """The climbs of :func:`climb`, one start after another, until one ends in the band."""
    while True:
        current = _start(gen, target, search, engine)
        distance = search.distance(current)
        stall = 0
        while distance[0] > 0 and stall < STALL:
            stall += 1
            nearby = _neighbour(gen, current, search, engine)
            if nearby is None:
                continue
            closer = search.distance(nearby)
            if closer <= distance:
                stall = 0 if closer < distance else stall
                current, distance = nearby, closer
        if search.ends is not None:
            search.ends.append(current.instance)
        if distance[0] == 0:
            current.extra["search"] = {"tried": search.tried, "rated": search.rated,
                                       "score": search.known[current.puzzle.tobytes()][1],
                                       "target": target.name}
            current.seconds = time.monotonic() - search.started
            return current


def _game(gen: PuzzleGenerator, target: Target, search: _Search, engine: Any
          ) -> GeneratedPuzzle:
    """The pattern game (:mod:`~sudokit.generators.pattern_game`) for the hardest targets:
    restarts, each from a hard clue pattern filled by the value search and annealed on
    :meth:`_Search.height`; a puzzle found in the band is reduced to a minimal one, which is
    judged again (a clue fewer never makes the grade easier; the rating is re-computed)."""
    masks = hard_patterns()
    restarts = 0
    elite: tuple[np.ndarray, float] | None = None
    while True:
        restarts += 1
        if elite is not None and gen.rng.random() < ELITE:
            start = elite[0]
        else:
            mask = masks[int(gen.rng.integers(len(masks)))]
            fill = value_search(gen, mask, engine, left=search.left)
            if fill.solutions != 1:
                continue
            start = fill.givens
        best, high = anneal(gen, start, engine, lambda g: search.height(gen, g),
                            _FOUND, left=search.left)
        if search.ends is not None:
            search.ends.append(gen.template.with_givens(best.reshape(gen.n, gen.n)))
        if elite is None or high > elite[1]:
            elite = (best, high)
        if high < _FOUND:
            continue
        puzzle = best.reshape(gen.n, gen.n)
        _, first = engine.count(gen.template.with_givens(puzzle), 2, search.left())
        made = gen.reduce(puzzle, np.asarray(first).reshape(gen.n, gen.n),
                          budget=search.left())
        if made is None:
            continue
        high, shown = search._judge(made.instance, gated=False)
        if high < _FOUND:
            continue
        made.extra["fill"] = {"strategy": "pattern game"}
        made.extra["search"] = {"tried": search.tried, "rated": search.rated,
                                "restarts": restarts, "score": shown, "target": target.name}
        made.seconds = time.monotonic() - search.started
        return made


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

