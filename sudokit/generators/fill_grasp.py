"""Takano, de Freitas and Sá's GRASP as a grid filler (strategy ``grasp``).

The GRASP of :mod:`sudokit.solvers.grasp` run on the empty grid: each iteration fills every
box with a permutation of ``1..n``, cell by cell in random order, each value drawn from the
restricted candidate list (the values whose added row and column repetitions are within
``alpha * (worst - best)`` of the best), then climbs by swapping two cells of a box while
that lowers the repetitions; an iteration that stops above 0 is followed by a fresh one (a
restart). ``stats["nodes"]`` counts iterations, ``stats["restarts"]`` the failed ones.

Measured (5 s budgets, 3 seeds): alpha 0.2 fills 9x9 in 1-18 iterations and 12x12 in 24-800
(under 0.2 s), but no 16x16 or 25x25 (the climb stalls at 2-4 repetitions); the
construction and local search were designed to solve puzzles, whose givens do much of the
work. Without a time budget an attempt stops after ``max_restarts`` iterations (default
:data:`MAX_ITERATIONS`), so it never runs unbounded.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> g = grasp_fill(9, (3, 3), np.random.default_rng(2))
>>> sudoku(g).is_solution(g)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import BudgetExhausted
from ..instances import sudoku
from ..solvers.grasp import DEFAULT_ALPHA, grasp_layout, seed_state
from ..solvers.grasp_kernel import grasp_slice

if TYPE_CHECKING:
    from ..solvers.budget import Meter

__all__ = ["grasp_fill", "MAX_ITERATIONS"]

#: iterations allowed without a time budget (about 10-60 s at 16x16)
MAX_ITERATIONS = 20_000
#: seconds aimed at between two readings of the clock
SLICE_SECONDS = 0.05


def grasp_fill(n: int, box: tuple[int, int], rng: np.random.Generator, *,
               alpha: float | None = None, meter: Meter | None = None,
               stats: dict | None = None, progress: Callable[[], None] | None = None,
               max_restarts: int | None = None) -> np.ndarray:
    """The fill strategy ``grasp`` (see the module)."""
    layout = grasp_layout(sudoku(np.zeros((n, n), dtype=np.int32), box))
    values, counts = layout.values.copy(), layout.counts.copy()
    state = seed_state(int(rng.integers(2**31)))
    done = np.array([0, -1], dtype=np.int64)        # [iterations, best cost]
    limit = MAX_ITERATIONS if max_restarts is None else max_restarts + 1
    alpha = DEFAULT_ALPHA if alpha is None else alpha
    chunk = 1
    try:
        while True:
            if meter is not None and meter.late():
                raise BudgetExhausted(f"the time budget ran out while filling a {n}x{n} grid "
                                      f"(grasp: {int(done[0])} iterations, best "
                                      f"{int(done[1])} repetitions)")
            left = limit - int(done[0])
            if left <= 0:
                raise BudgetExhausted(f"grasp found no {n}x{n} grid in {limit} iterations "
                                      f"(best {int(done[1])} repetitions)")
            started = time.perf_counter()
            if grasp_slice(values, counts, layout.cell_ptr, layout.cell_units,
                           layout.block_ptr, layout.block_cells, layout.block_values,
                           layout.dom_ptr, layout.dom_values, layout.allowed, layout.mode,
                           float(alpha), min(chunk, left), state, done):
                return values.astype(np.int32).reshape(n, n)
            if progress is not None:
                progress()
            spent = time.perf_counter() - started
            if spent < SLICE_SECONDS / 2:
                chunk *= 2
            elif spent > SLICE_SECONDS * 2 and chunk > 1:
                chunk //= 2
    finally:
        if stats is not None:
            stats["nodes"] = int(done[0])
            stats["restarts"] = max(int(done[0]) - 1, 0)
