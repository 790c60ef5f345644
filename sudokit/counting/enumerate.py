"""Counting by enumeration: find a solution, block it on the projection, repeat.

The default counter. Right for uniqueness checks and small counts (``limit=2`` stops at the
second solution) and the only one that batches: instances of one shape share one SAT solver
or DLX structure (:func:`~sudokit.batch.run_batch`). Hopeless for large counts, which are
what :mod:`~sudokit.counting.ganak` and :mod:`~sudokit.counting.approxmc` are for.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> count(sudoku(np.zeros((4, 4), dtype=int))).count
288
>>> result = count(sudoku(np.zeros((4, 4), dtype=int)), limit=2)
>>> result.count, result.complete
(2, False)
"""

from __future__ import annotations

from typing import Any

from ..solvers.budget import UNLIMITED, Budget
from ..solvers.registry import ENGINES, check_engine, default_solver, open_engine, resolve_solver
from .base import CountResult

__all__ = ["count"]


def count(instance: Any, budget: Budget = UNLIMITED, *, solver: str | None = None,
          encoding: str | None = None, amo: str | None = None, limit: int | None = None
          ) -> CountResult:
    """The number of solutions of ``instance``, enumerated up to ``limit``.

    Parameters
    ----------
    solver : str, optional
        An engine that counts (``sudokit solvers``; default: the kind's own).
    budget : Budget
        Per instance; past it the status is ``unknown`` and ``count`` holds the solutions
        found so far.
    """
    given = {"encoding": encoding, "amo": amo}
    needs = {name for name, value in given.items() if value is not None}
    needs.update(name for name in ("seconds", "conflicts", "nodes")
                 if getattr(budget, name) is not None)
    name = resolve_solver(solver) if solver else default_solver(instance, needs, "count")
    check_engine(name, instance.kind, "count")
    options = {key: value for key, value in given.items()
               if value is not None and key in ENGINES[name].options}
    with open_engine(name, **options) as engine:
        (result,) = engine.count_many([instance], limit, budget)
    done = result.status != "unknown"
    complete = done and (limit is None or (result.count or 0) < limit)
    return CountResult(result.status, result.count, seconds=result.seconds, complete=complete)
