"""Exact projected model counting with Ganak (``pyganak``, ``pip install "sudokit[counting]"``).

Ganak (Sharma, Roy, Soos & Meel, IJCAI 2019; Ganak 2, 2025) counts the models of a CNF
projected on a set of variables by component caching and decomposition, without enumerating
them: the 28,200,960 grids of a 6x6 Sudoku are counted, not listed. The formula is the
instance's own CNF projected on the variables that define a solution
(:func:`~sudokit.counting.base.counted_formula`), so the count equals the number of solutions.
A grid is counted modulo its symmetry (:mod:`~sudokit.counting.symmetry`): Ganak counts the
canonical solutions (free values in order along one unit, a Latin square's empty rows in
order) and the result is multiplied by the number of orderings. Component caching cannot see
that symmetry: on the empty 6x6 grid Ganak alone runs for tens of minutes, with it about 10 s.
The count runs in a child process, so a time budget holds (past it: ``unknown``).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> count(sudoku(np.zeros((4, 4), dtype=int))).count
288
"""

from __future__ import annotations

import time
from typing import Any

from ..solvers.budget import UNLIMITED, Budget
from .base import CountResult, counted_formula, run_counter

__all__ = ["count"]


def count(instance: Any, budget: Budget = UNLIMITED, *, encoding: str | None = None,
          amo: str | None = None, limit: int | None = None, seed: int | None = None,
          symmetry: bool = True) -> CountResult:
    """The exact number of solutions of ``instance`` (any kind), counted by Ganak.

    Parameters
    ----------
    budget : Budget
        Its ``seconds`` bound the count (status ``unknown`` past it) and its ``memory`` the
        formula's size.
    encoding, amo : str, optional
        The CNF encoding counted (default: the kind's single-instance encoding).
    limit : int, optional
        Report at most ``limit`` (``complete`` False when the count reaches it), as the
        enumerating counter does; the whole count is still computed.
    seed : int, optional
        Ganak's random seed (the count does not depend on it).
    symmetry : bool
        Count a completion problem modulo its value symmetry and multiply by ``k!``
        (:mod:`~sudokit.counting.symmetry`; the count is the same, found far faster).
    """
    start = time.monotonic()
    formula = counted_formula(instance, encoding, amo, budget.memory, symmetry)
    if formula.trivial is not None:
        answer: dict[str, Any] | None = {"count": str(formula.trivial)}
    else:
        left = None if budget.seconds is None else max(
            budget.seconds - (time.monotonic() - start), 0.001)
        answer = run_counter("ganak", formula, Budget(seconds=left), seed=seed or 0)
    seconds = time.monotonic() - start
    if answer is None:
        return CountResult("unknown", None, seconds=seconds)
    total = int(answer["count"]) * formula.factor
    complete = limit is None or total < limit
    shown = total if complete else limit
    return CountResult("sat" if total else "unsat", shown, seconds=seconds, complete=complete)
