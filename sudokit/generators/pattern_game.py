"""The pattern game by search: the values of a hard clue pattern, annealed.

The puzzle forums found their hardest puzzles by keeping a clue pattern and varying the
values in it ("the pattern game"), then searching the neighbourhood of the hardest found
(they come in clusters). This module does both by search, on a classic grid (no variant,
no symmetry):

1. :func:`value_search` fills a pattern (a bool mask of the cells, e.g. one of
   :func:`~sudokit.generators.hardness.hard_patterns`) with the values of a random
   solution grid (many solutions), then changes one clue's value at a time, keeping a
   change when the solution count (counted up to :data:`COUNT_LIMIT`) does not rise and
   stays above 0, until the fill is unique: the clue set keeps the pattern.
2. :func:`neighbour` of a unique puzzle changes one clue's value or (a share
   :data:`SHIFT`) moves one clue to an empty cell with a new value (a {-1+1} move),
   then repairs uniqueness by the same descent on the other clues' values (at most
   :data:`REPAIR_MOVES` changes); None when that fails.
3. :func:`anneal` walks from a start by :func:`neighbour` under simulated annealing on a
   ``height`` the caller gives (higher is harder; the generators use the survivors share
   of :func:`~sudokit.generators.hardness.survivors`, then the grade and the rating),
   :data:`STEPS` moves from temperature :data:`TEMPERATURE` down to 0, and stops early
   when the height reaches ``goal``.

Every random choice comes from the generator's seeded stream (``gen.rng``), so a seed
gives the same walk. :mod:`~sudokit.generators.graded` runs restarts of this for the
hardest targets (grade ``search``, ratings of 9 and more).

Examples
--------
>>> import numpy as np
>>> from sudokit.generators import PuzzleGenerator
>>> from sudokit.generators.hardness import hard_patterns
>>> from sudokit.solvers.registry import open_engine
>>> gen = PuzzleGenerator(9, (3, 3), seed=1)
>>> engine = open_engine("dlx", shape=gen.template)
>>> mask = hard_patterns()[0]
>>> fill = value_search(gen, mask, engine)
>>> fill.solutions, bool(np.array_equal(fill.givens > 0, mask)), fill.moves > 0
(1, True, True)
>>> engine.close()
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from ..solvers.budget import Budget

__all__ = ["COUNT_LIMIT", "DESCENT_MOVES", "REPAIR_MOVES", "SHIFT", "STEPS", "TEMPERATURE",
           "Fill", "anneal", "count", "descend", "neighbour", "unit_peers", "value_search"]

#: solutions counted at most while descending to a unique fill (more count as this many)
COUNT_LIMIT = 500
#: value changes tried at most while filling a pattern until it is unique
DESCENT_MOVES = 2000
#: value changes tried at most to make a neighbour unique again
REPAIR_MOVES = 30
#: the share of neighbours that move a clue to an empty cell ({-1+1}) instead of changing
#: a value in place
SHIFT = 0.25
#: moves of one annealing run
STEPS = 200
#: the start temperature of a run (on the height: a survivors share, 0 to 1)
TEMPERATURE = 0.02


class Fill(NamedTuple):
    """The end of a descent: the clues (flat), the value changes tried, and the solution
    count reached (1: unique; capped at :data:`COUNT_LIMIT`)."""

    givens: np.ndarray
    moves: int
    solutions: int


def count(gen: Any, givens: np.ndarray, engine: Any, limit: int,
          left: Callable[[], Budget | None] | None = None) -> int:
    """The solutions of ``givens`` (flat) counted up to ``limit`` by ``engine``."""
    budget = left() if left is not None else None
    found, _ = engine.count(gen.template.with_givens(givens.reshape(gen.n, gen.n)), limit,
                            budget if budget is not None else Budget())
    return int(found)


def unit_peers(gen: Any) -> list[np.ndarray]:
    """The cells sharing a unit with each cell, one array per cell."""
    units = gen.template.units()
    return [np.setdiff1d(units[np.any(units == c, axis=1)].reshape(-1), [c])
            for c in range(gen.n * gen.n)]


def _new_value(gen: Any, givens: np.ndarray, cell: int, peers: list[np.ndarray]) -> int:
    """A random value for ``cell`` that none of its peers' clues holds and that differs
    from its own; 0 when there is none."""
    seen = np.zeros(gen.n + 1, dtype=bool)
    seen[givens[peers[cell]]] = True
    seen[givens[cell]] = True
    values = np.flatnonzero(~seen[1:]) + 1
    return int(values[int(gen.rng.integers(len(values)))]) if len(values) else 0


def descend(gen: Any, givens: np.ndarray, found: int, engine: Any, peers: list[np.ndarray],
            most: int, fixed: int = -1, left: Callable[[], Budget | None] | None = None
            ) -> Fill:
    """Change one clue's value at a time (never cell ``fixed``) in ``givens`` (flat, changed
    in place), keeping a change when the solution count (``found`` now) does not rise and
    stays above 0, until it is 1 or ``most`` changes were tried."""
    cells = np.flatnonzero(givens)
    cells = cells[cells != fixed]
    moves = 0
    while found > 1 and moves < most and len(cells):
        moves += 1
        cell = int(cells[int(gen.rng.integers(len(cells)))])
        value = _new_value(gen, givens, cell, peers)
        if not value:
            continue
        old = givens[cell]
        givens[cell] = value
        now = count(gen, givens, engine, COUNT_LIMIT, left)
        if now == 0 or now > found:
            givens[cell] = old
        else:
            found = now
    return Fill(givens, moves, found)


def value_search(gen: Any, mask: np.ndarray, engine: Any, most: int = DESCENT_MOVES,
                 left: Callable[[], Budget | None] | None = None) -> Fill:
    """The clue pattern ``mask`` (81 bools) filled from a random grid of ``gen``, then its
    values changed until it is unique (:func:`descend`); ``solutions`` of the result says
    whether it got there (1) within ``most`` changes."""
    grid = gen.full_grid().reshape(-1)
    givens = np.where(mask.reshape(-1), grid, 0).astype(np.int32)
    return descend(gen, givens, count(gen, givens, engine, COUNT_LIMIT, left), engine,
                   unit_peers(gen), most, left=left)


def neighbour(gen: Any, givens: np.ndarray, engine: Any, peers: list[np.ndarray],
              left: Callable[[], Budget | None] | None = None) -> np.ndarray | None:
    """A unique puzzle near the unique ``givens`` (flat): one clue's value changed, or (a
    share :data:`SHIFT`) one clue moved to an empty cell with a new value, then made unique
    again by :func:`descend` (at most :data:`REPAIR_MOVES` changes of the other clues);
    None when that fails."""
    rng = gen.rng
    trial = givens.copy()
    clues = np.flatnonzero(trial)
    cell = int(clues[int(rng.integers(len(clues)))])
    if rng.random() < SHIFT:
        empty = np.flatnonzero(trial == 0)
        trial[cell] = 0
        cell = int(empty[int(rng.integers(len(empty)))])
    value = _new_value(gen, trial, cell, peers)
    if not value:
        return None
    trial[cell] = value
    found = count(gen, trial, engine, COUNT_LIMIT, left)
    if found == 0:
        return None
    fill = descend(gen, trial, found, engine, peers, REPAIR_MOVES, fixed=cell, left=left)
    return fill.givens if fill.solutions == 1 else None


def anneal(gen: Any, start: np.ndarray, engine: Any, height: Callable[[np.ndarray], float],
           goal: float, steps: int = STEPS, temperature: float = TEMPERATURE,
           left: Callable[[], Budget | None] | None = None) -> tuple[np.ndarray, float]:
    """Simulated annealing from the unique puzzle ``start`` (flat) over :func:`neighbour`
    moves: a neighbour replaces the current puzzle when its ``height`` is no lower, or
    else with probability ``exp(-drop / t)``, ``t`` falling linearly from ``temperature``
    to 0 over ``steps`` moves. Returns the highest puzzle met and its height, as soon as
    one reaches ``goal``.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.generators import PuzzleGenerator
    >>> from sudokit.generators.hardness import hard_patterns
    >>> from sudokit.solvers.registry import open_engine
    >>> gen = PuzzleGenerator(9, (3, 3), seed=2)
    >>> engine = open_engine("dlx", shape=gen.template)
    >>> start = value_search(gen, hard_patterns()[1], engine).givens
    >>> clues = lambda g: float((g > 0).sum())           # climb to more clues
    >>> best, high = anneal(gen, start, engine, clues, goal=99.0, steps=30)
    >>> high >= clues(start), count(gen, best, engine, 2)
    (True, 1)
    >>> engine.close()
    """
    peers = unit_peers(gen)
    current, now = start, height(start)
    best, top = current, now
    for step in range(steps):
        if top >= goal:
            break
        trial = neighbour(gen, current, engine, peers, left)
        if trial is None:
            continue
        then = height(trial)
        t = temperature * (1.0 - step / steps)
        if then >= now or (t > 0 and gen.rng.random() < math.exp((then - now) / t)):
            current, now = trial, then
            if now > top:
                best, top = current, now
    return best, top
