"""Raggi, Neto and Fontes's prune heuristics (2019): Algorithms 2 and 3.

Both are Algorithm 1 (:mod:`.fill_backtrack`: diagonal boxes, then row-by-row backtracking
with candidate lists refreshed at each row start and dead cells detected there) with a
pruned search tree: when the search enters a cell it keeps at most ``x`` of the cell's
candidates, drawn at random, with ``x = 2`` with probability ``p`` and ``x = 1`` otherwise.
When the pruned tree holds no completion the search starts again from scratch (new diagonal
boxes): a restart, never an invalid grid.

``prune`` (Algorithm 2, "big prune")
    ``p = alpha``; the paper found ``alpha = 0.7`` best (its Figure 3).
``weighted-prune`` (Algorithm 3, "big weighted prune")
    ``p = alpha * filled / total``, ``filled`` the cells holding a value when the cell is
    entered: little branching at the top of the tree, where a wrong choice is cheap to
    undo by a restart, more near the bottom; the paper found ``alpha = 1.0`` best (Figure 4).

``alpha = 0`` makes both a greedy random descent restarted until it succeeds.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> stats = {}
>>> g = weighted_prune_fill(16, (4, 4), np.random.default_rng(3), stats=stats)
>>> sudoku(g).is_solution(g), stats["restarts"] >= 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .fill_backtrack import MODE_PRUNE, MODE_WEIGHTED, raggi_fill

if TYPE_CHECKING:
    from ..solvers.budget import Meter

__all__ = ["prune_fill", "weighted_prune_fill", "PRUNE_ALPHA", "WEIGHTED_ALPHA"]

#: the paper's best alphas (Raggi et al. 2019, Figures 3 and 4)
PRUNE_ALPHA = 0.7
WEIGHTED_ALPHA = 1.0


def prune_fill(n: int, box: tuple[int, int], rng: np.random.Generator, *,
               alpha: float | None = None, meter: Meter | None = None,
               stats: dict | None = None, progress: Callable[[], None] | None = None,
               max_restarts: int | None = None) -> np.ndarray:
    """The fill strategy ``prune`` (Algorithm 2; see the module)."""
    return raggi_fill(n, box, rng, MODE_PRUNE, PRUNE_ALPHA if alpha is None else alpha,
                      meter=meter, stats=stats, progress=progress, max_restarts=max_restarts)


def weighted_prune_fill(n: int, box: tuple[int, int], rng: np.random.Generator, *,
                        alpha: float | None = None, meter: Meter | None = None,
                        stats: dict | None = None, progress: Callable[[], None] | None = None,
                        max_restarts: int | None = None) -> np.ndarray:
    """The fill strategy ``weighted-prune`` (Algorithm 3; see the module)."""
    return raggi_fill(n, box, rng, MODE_WEIGHTED, WEIGHTED_ALPHA if alpha is None else alpha,
                      meter=meter, stats=stats, progress=progress, max_restarts=max_restarts)
