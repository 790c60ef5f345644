"""The ILP fill (strategy ``ilp``): a random full grid from the binary integer program.

Raggi, Neto and Fontes (2019) fill grids with an integer program with binary variables and
a random objective, and report it limited to 36x36, about 200 s per 36x36 grid with a wide
spread. This strategy builds the model of :mod:`sudokit.solvers.ilp` (Bartlett et al. 2008:
``x[cell, value]``, one value per cell, each value once per row, column and box) for the
empty grid with **random fixed cells and no objective**: the first row is a random
permutation (fixed by the columns' bounds, both from the caller's generator), HiGHS gets a
random ``random_seed`` (also from the generator) and stops at the first feasible solution
(``mip_max_improving_sols = 1``; with a zero objective that solution is optimal at once).
HiGHS runs on one thread, so the same seed gives the same grid.

Why not the paper's random objective: HiGHS's feasibility jump finds a grid in a fraction of
a second at every size up to 36x36 either way, but with a nonzero objective HiGHS looks at
its solution limit (or a user interrupt) only after the root LP, which takes about 12 s at
25x25 and grows steeply with the size (measured: the first grid at 0.2 s, the return at
12.8 s). With a zero objective the whole fill takes 0.14 s at 25x25 and 0.6 s at 36x36. The
grids still differ from seed to seed (30 seeds at 9x9 gave 30 grids distinct up to a
relabelling of the values), but like the paper's they are not drawn uniformly. The paper's
variant stays available as ``ilp_fill(..., random_objective=True)`` (a uniform cost in
[0, 1) per column; the first feasible solution is returned, not the optimum, which cost
17-26 s per 9x9).

From :data:`CHILD_MIN_SIDE` up the fill runs in a child process
(:func:`sudokit.child.run_child`, which the counters use too) that is killed when the
budget runs out or on Ctrl-C: HiGHS answers a cancel only at its own check points (a Ctrl-C
during an in-process 36x36 solve with the random objective took more than 30 s). Smaller
fills run in this process (a child costs about 1 s to start), on HiGHS's thread while this
one waits in short slices (:class:`ILPSolver`). ``stats["nodes"]`` counts branch-and-bound
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
from typing import TYPE_CHECKING, Any

import numpy as np

from ..child import run_child
from ..errors import BudgetExhausted
from ..instances import sudoku
from ..solvers.budget import Budget
from ..solvers.ilp import ILPSolver, completion_to_ilp

if TYPE_CHECKING:
    from ..solvers.budget import Meter

__all__ = ["ilp_fill", "fill_job", "FirstSolutionILP", "CHILD_MIN_SIDE"]

#: from this side up an ILP fill runs in a child process (killed at once by Ctrl-C or the
#: budget); below it, in this process
CHILD_MIN_SIDE = 25


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


def fill_job(job: dict[str, Any], meter: Meter | None = None) -> dict[str, Any]:
    """Run one ILP fill described by ``job`` (in this process or in the child process).

    ``job`` holds ``n``, ``box``, ``first_row`` (the fixed first row), ``seed`` (HiGHS's
    random seed), ``random_objective`` (bool: costs from ``np.random.default_rng(seed)``)
    and ``seconds`` (the time budget, None for none; used when ``meter`` is None). The
    answer is ``{"grid": [n*n values], "nodes": N}`` or, when the budget ran out first,
    ``{"timeout": True, "nodes": N}``.

    Examples
    --------
    >>> job = {"n": 4, "box": [2, 2], "first_row": [3, 1, 4, 2], "seed": 5,
    ...        "random_objective": False, "seconds": None}
    >>> fill_job(job)["grid"][:4]
    [3, 1, 4, 2]
    """
    n, box = int(job["n"]), (int(job["box"][0]), int(job["box"][1]))
    givens = np.zeros((n, n), dtype=np.int32)
    givens[0] = np.asarray(job["first_row"], dtype=np.int32)
    instance = sudoku(givens, box)
    seed = int(job["seed"])
    cost = np.random.default_rng(seed).random(n ** 3) if job.get("random_objective") else None
    model = completion_to_ilp(instance, cost)
    if meter is None:
        meter = Budget(seconds=job.get("seconds")).start()
    with FirstSolutionILP(model, seed) as solver:
        try:
            x = solver.solve(meter)
        except BudgetExhausted:
            return {"timeout": True, "nodes": solver.nodes}
        nodes = solver.nodes
    if x is None:          # (a Latin first row always completes)
        raise BudgetExhausted(f"HiGHS found no {n}x{n} grid")
    return {"grid": model.decode(x).reshape(-1).tolist(), "nodes": nodes}


def ilp_fill(n: int, box: tuple[int, int], rng: np.random.Generator, *,
             alpha: float | None = None, meter: Meter | None = None,
             stats: dict | None = None, progress: Callable[[], None] | None = None,
             max_restarts: int | None = None, random_objective: bool = False,
             child: bool | None = None) -> np.ndarray:
    """The fill strategy ``ilp`` (see the module); :class:`BudgetExhausted` when ``meter``
    runs out before HiGHS finds a grid.

    ``random_objective`` selects the paper's variant (a random cost per column, first
    feasible solution); ``child`` forces the child process on or off (default: from
    :data:`CHILD_MIN_SIDE` up).
    """
    left = None if meter is None else meter.seconds_left()
    if left is not None and left <= 0:
        raise BudgetExhausted(f"the time budget ran out before filling a {n}x{n} grid (ilp)")
    job = {"task": "sudokit.generators.fill_ilp:fill_job", "name": "ilp-fill",
           "n": n, "box": list(box), "first_row": (rng.permutation(n) + 1).tolist(),
           "seed": int(rng.integers(2**31 - 1)), "random_objective": bool(random_objective),
           "seconds": left}
    if n >= CHILD_MIN_SIDE if child is None else child:
        answer = run_child(job, left) or {"timeout": True, "nodes": 0}
    else:
        answer = fill_job(job, meter)
    if stats is not None:
        stats["nodes"] = int(answer.get("nodes", 0))
    if answer.get("timeout"):
        raise BudgetExhausted(f"the time budget ran out while filling a {n}x{n} grid (ilp)")
    return np.asarray(answer["grid"], dtype=np.int32).reshape(n, n)
