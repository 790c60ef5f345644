"""Model counting: how many solutions an instance has, by one of several counters.

``enumerate`` (the default) lists solutions and blocks each; ``ganak`` counts exactly without
enumerating; ``approxmc`` estimates with an (epsilon, delta) guarantee. The last two need
``pip install "sudokit[counting]"``. See :mod:`sudokit.counting.registry`. Those two count a
grid modulo its value (and a Latin square's row) symmetry and multiply
(:mod:`sudokit.counting.symmetry`), which makes the 28,200,960 6x6 grids a count of seconds.

An empty Latin square or Sudoku grid is counted faster still by a *method*
(:mod:`sudokit.counting.methods`: ``reduced``, ``bands``), which splits the count into
classes and counts one completion problem per class: all 6,670,903,752,021,072,936,960 9x9
grids in under a minute.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> count_models(sudoku(np.zeros((4, 4), dtype=int)), limit=2).count
2
"""

from __future__ import annotations

from .base import CountResult, counted_formula
from .methods import METHODS, count_by_method
from .registry import (
    COUNTERS,
    DEFAULT_COUNTER,
    CounterSpec,
    count_models,
    counter_function,
    counter_spec,
)

__all__ = ["COUNTERS", "DEFAULT_COUNTER", "METHODS", "CountResult", "CounterSpec",
           "count_by_method", "count_models", "counted_formula", "counter_function",
           "counter_spec"]
