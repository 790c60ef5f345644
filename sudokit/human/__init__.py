"""Human solving techniques, the step-by-step path and a rating on Sudoku Explainer's scale.

A layer beside :mod:`sudokit.grading`: where Simonis's grades ask how strong a propagation
must be, this package solves as a person does, one named technique at a time, and rates a
puzzle by its hardest step as Sudoku Explainer does.

- :mod:`~sudokit.human.board`: candidates as bitmasks and the shape's tables;
- one module per technique family: :mod:`~sudokit.human.singles`,
  :mod:`~sudokit.human.intersections`, :mod:`~sudokit.human.subsets`,
  :mod:`~sudokit.human.fish`, :mod:`~sudokit.human.wings`,
  :mod:`~sudokit.human.colouring`, :mod:`~sudokit.human.uniqueness`,
  :mod:`~sudokit.human.chains`, :mod:`~sudokit.human.forcing`;
- :mod:`~sudokit.human.techniques`: the registry (name, family, SE rating, finder, what it
  needs); :mod:`~sudokit.human.levels`: the named levels and their SE bands;
- :mod:`~sudokit.human.path`: :func:`solve_path` and :func:`rate`.

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> p = parse_puzzles("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...2"
...                   "1.......5.6.9.2.1...3.6.2..")[0].instance
>>> r = rate(p)
>>> r.value, r.level, r.hardest, r.solved
(7.1, 'expert', 'aic', True)
>>> print(r.path.steps[34].text)
turbot fish 4r5c1=4r6c2-4r9c2=4r9c8: -4 r5c8
"""

from __future__ import annotations

from .board import Board
from .levels import LEVELS, level_of, parse_rating_range
from .path import (
    BEYOND,
    NO_SOLUTION,
    UNRATED,
    Path,
    Rating,
    rate,
    rating_row,
    rating_within,
    solve_path,
    steps,
    unique_solution,
)
from .step import Step
from .techniques import ORDER, TECHNIQUES, Technique

__all__ = ["Board", "Step", "Path", "Rating", "solve_path", "rate", "steps",
           "unique_solution", "TECHNIQUES", "ORDER", "Technique", "LEVELS", "level_of",
           "parse_rating_range", "BEYOND", "rating_row", "NO_SOLUTION",
           "rating_within", "UNRATED"]
