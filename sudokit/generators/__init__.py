"""Generators: full grids, unique puzzles, Latin squares and coloring instances.

Everything random takes a :class:`numpy.random.Generator` (or a seed): the same seed and
options give the same output.

Examples
--------
>>> import numpy as np
>>> from sudokit.generators import qwh
>>> int((qwh(7, 20, np.random.default_rng(1)).givens == 0).sum())
20
"""

from .budgets import GenerationStatus, default_time_limit
from .coloring import planted_precoloring
from .grids import PATTERNS, pattern_grid, random_grid, relabel, shuffle_grid
from .latin import LATIN_METHODS, hole_count, qcp, qwh, random_latin_square
from .puzzles import (
                      CHECKERS,
                      MODES,
                      SYMMETRIES,
                      GeneratedPuzzle,
                      PuzzleGenerator,
                      generate_puzzles,
                      symmetry_orbits,
)

__all__ = ["PATTERNS", "pattern_grid", "random_grid", "relabel", "shuffle_grid",
           "LATIN_METHODS", "hole_count", "qcp", "qwh", "random_latin_square",
           "planted_precoloring", "CHECKERS", "MODES", "SYMMETRIES", "GeneratedPuzzle",
           "GenerationStatus", "PuzzleGenerator", "generate_puzzles", "symmetry_orbits",
           "default_time_limit"]
