"""The ILP fill (strategy ``ilp``): a random full grid from the binary integer program.

Raggi, Neto and Fontes (2019) fill grids with an integer program with binary variables and
report it limited to 36x36, about 200 s per 36x36 grid with a wide spread. This strategy
builds the model of :mod:`sudokit.solvers.ilp` (Bartlett et al. 2008: ``x[cell, value]``,
one value per cell, each value once per row, column and box) for the empty grid with a
random objective (a uniform cost in [0, 1) per column, from the caller's generator) and a
random HiGHS ``random_seed`` (also from the generator), and lets HiGHS's branch and cut run
until the *first* feasible solution (``mip_max_improving_sols = 1``). That first solution
comes from HiGHS's primal heuristics (feasibility jump, at up to 25x25 before the first
node), which follow HiGHS's random seed far more than the objective: with the objective
alone, seeds 0 and 2 gave the same 9x9 grid, and without feasibility jump a 16x16 took over
60 s. Proving the random objective's optimum is not needed for a random grid and costs far
more (a 9x9: 17-26 s against 0.05 s, measured). HiGHS runs on one thread, so the same seed
gives the same grid.

The solve runs on HiGHS's thread while this one waits in short slices (:class:`ILPSolver`),
which cancels it when the budget runs out or on Ctrl-C; HiGHS answers the cancel only at its
own check points (measured: up to about 3 s late at 49x49 on a 10 s budget; a Ctrl-C during a
36x36 solve took more than 30 s). ``stats["nodes"]`` counts branch-and-bound
nodes. Needs ``pip install "sudokit[ilp]"``.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> g = ilp_fill(9, (3, 3), np.random.default_rng(1))
>>> sudoku(g).is_solution(g)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import BudgetExhausted
from ..instances import sudoku
from ..solvers.ilp import ILPSolver, completion_to_ilp

if TYPE_CHECKING:
    from ..solvers.budget import Meter

__all__ = ["ilp_fill", "FirstSolutionILP"]


class FirstSolutionILP(ILPSolver):
    """An :class:`ILPSolver` that stops at the first feasible solution, with HiGHS's random
    seed ``seed``."""

    def __init__(self, model, seed: int = 0):
        super().__init__(model)
        self._h.setOptionValue("mip_max_improving_sols", 1)
        self._h.setOptionValue("random_seed", int(seed))

    def solve(self, meter=None):
        """As :meth:`ILPSolver.solve`, but a solution held when the time limit struck is
        refused (:class:`BudgetExhausted`): which one it is depends on the machine's speed,
        and the same seed must give the same grid."""
        x = super().solve(meter)
        if self._h.getModelStatus() in (self._status.kTimeLimit, self._status.kInterrupt):
            raise BudgetExhausted("budget exhausted: unknown")
        return x


def ilp_fill(n: int, box: tuple[int, int], rng: np.random.Generator, *,
             alpha: float | None = None, meter: Meter | None = None,
             stats: dict | None = None, progress: Callable[[], None] | None = None,
             max_restarts: int | None = None) -> np.ndarray:
    """The fill strategy ``ilp`` (see the module); :class:`BudgetExhausted` when ``meter``
    runs out before HiGHS finds a grid."""
    empty = sudoku(np.zeros((n, n), dtype=np.int32), box)
    model = completion_to_ilp(empty, rng.random(n * n * n))
    with FirstSolutionILP(model, int(rng.integers(2**31 - 1))) as solver:
        try:
            x = solver.solve(meter)
        except BudgetExhausted:
            raise BudgetExhausted(f"the time budget ran out while filling a {n}x{n} grid "
                                  "(ilp)") from None
        finally:
            if stats is not None:
                stats["nodes"] = solver.nodes
    if x is None:          # (the empty grid always has a solution)
        raise BudgetExhausted(f"HiGHS found no {n}x{n} grid")
    return model.decode(x).reshape(n, n)
