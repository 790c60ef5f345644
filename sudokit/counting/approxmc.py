"""Approximate projected model counting with ApproxMC (``pyapproxmc``,
``pip install "sudokit[counting]"``).

ApproxMC (Chakraborty, Meel & Vardi, CP 2013 and IJCAI 2016; Soos & Meel, AAAI 2019) cuts
the solution space with random XOR constraints until a cell holds few enough solutions to
count, and returns an estimate ``E`` with the PAC guarantee

    P[ count / (1 + epsilon) <= E <= count * (1 + epsilon) ] >= 1 - delta.

The estimate depends on the seed; the same seed gives the same estimate. The count runs in a
child process, so a time budget holds (past it: ``unknown``).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> result = count(sudoku(np.zeros((4, 4), dtype=int)), seed=1)
>>> result.exact, result.epsilon, result.delta
(False, 0.8, 0.2)
>>> 288 / 1.8 <= result.count <= 288 * 1.8     # 288 grids; the guarantee holds here
True
"""

from __future__ import annotations

import time
from typing import Any

from ..errors import SudokitError
from ..solvers.budget import UNLIMITED, Budget
from .base import CountResult, counted_formula, run_counter

__all__ = ["DEFAULT_DELTA", "DEFAULT_EPSILON", "check_guarantee", "count"]

#: ApproxMC's own defaults: within a factor 1.8 with probability at least 0.8
DEFAULT_EPSILON = 0.8
DEFAULT_DELTA = 0.2


def check_guarantee(epsilon: float, delta: float) -> None:
    """A :class:`~sudokit.errors.SudokitError` (exit 2) unless ``epsilon > 0`` and
    ``0 < delta < 1``.

    Examples
    --------
    >>> check_guarantee(0.8, 0.2)
    >>> check_guarantee(0.8, 1.0)
    Traceback (most recent call last):
    ...
    sudokit.errors.SudokitError: delta must lie strictly between 0 and 1, not 1.0
    """
    if not epsilon > 0 or epsilon == float("inf"):
        raise _usage(f"epsilon must be a finite number above 0, not {epsilon}")
    if not 0 < delta < 1:
        raise _usage(f"delta must lie strictly between 0 and 1, not {delta}")


def _usage(message: str) -> SudokitError:
    error = SudokitError(message)
    error.exit_code = 2
    return error


def count(instance: Any, budget: Budget = UNLIMITED, *, encoding: str | None = None,
          amo: str | None = None, epsilon: float = DEFAULT_EPSILON,
          delta: float = DEFAULT_DELTA, seed: int | None = None, symmetry: bool = True
          ) -> CountResult:
    """An estimate of the number of solutions of ``instance`` (any kind) by ApproxMC.

    Parameters
    ----------
    budget : Budget
        Its ``seconds`` bound the count (``unknown`` past it), its ``memory`` the formula.
    encoding, amo : str, optional
        The CNF encoding counted (default: the kind's single-instance encoding).
    epsilon, delta : float
        The tolerance and the failure probability of the guarantee (see the module).
    seed : int, optional
        The random seed of the hash functions (default 1, ApproxMC's own).
    symmetry : bool
        Estimate a completion problem's count modulo its value symmetry and multiply by the
        exact ``k!`` (:mod:`~sudokit.counting.symmetry`), which keeps the guarantee.
    """
    check_guarantee(epsilon, delta)
    start = time.monotonic()
    formula = counted_formula(instance, encoding, amo, budget.memory, symmetry)
    if formula.trivial is not None:
        answer: dict[str, Any] | None = {"cells": formula.trivial, "hashes": 0}
    else:
        left = None if budget.seconds is None else max(
            budget.seconds - (time.monotonic() - start), 0.001)
        answer = run_counter("approxmc", formula, Budget(seconds=left),
                             seed=1 if seed is None else seed, epsilon=epsilon, delta=delta)
    seconds = time.monotonic() - start
    if answer is None:
        return CountResult("unknown", None, exact=False, epsilon=epsilon, delta=delta,
                           seconds=seconds)
    estimate = int(answer["cells"]) * 2 ** int(answer["hashes"]) * formula.factor
    return CountResult("sat" if estimate else "unsat", estimate, exact=False, epsilon=epsilon,
                       delta=delta, seconds=seconds)
