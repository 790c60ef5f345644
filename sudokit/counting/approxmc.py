"""Approximate projected model counting with ApproxMC (``pyapproxmc``,
``pip install "sudokit[counting]"``).

ApproxMC (Chakraborty, Meel & Vardi, CP 2013 and IJCAI 2016; Soos & Meel, AAAI 2019) cuts
the solution space with random XOR constraints until a cell holds few enough solutions to
count, and returns an estimate ``E`` with the PAC guarantee

    P[ count / (1 + epsilon) <= E <= count * (1 + epsilon) ] >= 1 - delta.

The estimate depends on the seed; the same seed gives the same estimate. The count runs in a
child process, so a time budget holds (past it: ``unknown``).

A formula with fewer models than :func:`exact_threshold` (4096 on grids up to 16x16) is
counted exactly by enumeration before ApproxMC is called, as ApproxMC itself counts a small
cell, and the result says so (``exact`` True, no epsilon or delta). This also keeps small
counts away from pyapproxmc 4.3 to 4.4, whose Python binding drops the power of two that its
preprocessing (Arjun) sets aside for the variables it frees: a formula with exactly 2 models
counts 1 there, the empty 4x4 X-Sudoku 24 instead of 48.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> result = count(sudoku(np.zeros((4, 4), dtype=int)), seed=1)
>>> result.count, result.exact, result.epsilon       # 12 grids up to symmetry: enumerated
(288, True, None)
>>> result = count(sudoku(np.zeros((6, 6), dtype=int), (2, 3)), seed=1)
>>> result.exact, result.epsilon, result.delta         # 39,168: estimated
(False, 0.8, 0.2)
>>> 28200960 / 1.8 <= result.count <= 28200960 * 1.8  # the guarantee holds here
True
"""

from __future__ import annotations

import dataclasses
import math
import time
from typing import Any

import numpy as np

from ..errors import SudokitError
from ..solvers.budget import UNLIMITED, Budget
from .base import CountedFormula, CountResult, counted_formula, run_counter

__all__ = ["DEFAULT_DELTA", "DEFAULT_EPSILON", "MIN_EXACT", "check_guarantee", "count",
           "exact_threshold", "free_as_factor"]

#: ApproxMC's own defaults: within a factor 1.8 with probability at least 0.8
DEFAULT_EPSILON = 0.8
DEFAULT_DELTA = 0.2

#: counts below this many models are enumerated (:func:`exact_threshold`) ...
MIN_EXACT = 4096
#: ... unless their blocking clauses would hold more literals than this (memory)
MAX_BLOCKING_LITERALS = 1 << 24


def exact_threshold(epsilon: float, variables: int = 0) -> int:
    """Below how many models (of the counted formula) a count is enumerated, not estimated.

    ApproxMC's own cell threshold ``1 + 9.84 (1 + e / (1 + e)) (1 + 1 / e)^2`` (Chakraborty,
    Meel & Vardi, IJCAI 2016), so that a count ApproxMC would have counted exactly in its
    first cell is counted exactly here; pyapproxmc 4.3 to 4.4 returns such small counts
    divided by a power of two (a formula with exactly 2 models counts 1). Above it, up to
    :data:`MIN_EXACT` while the blocking clauses (one of ``variables`` literals, the
    projection, per model) stay below :data:`MAX_BLOCKING_LITERALS`: enumeration is cheap
    at that size, and exact.

    Examples
    --------
    >>> exact_threshold(0.8, 729), exact_threshold(0.1, 729)   # a 9x9 grid
    (4096, 4096)
    >>> exact_threshold(0.05), exact_threshold(0.8, 64 ** 3)    # ApproxMC's own cell
    (4548, 73)
    """
    cells = math.ceil(1 + 9.84 * (1 + epsilon / (1 + epsilon)) * (1 + 1 / epsilon) ** 2)
    return max(cells, min(MIN_EXACT, MAX_BLOCKING_LITERALS // max(variables, 1)))


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


def free_as_factor(formula: CountedFormula) -> CountedFormula:
    """``formula`` without the projection variables that occur in no clause, each a factor 2
    of ``factor`` instead: pyapproxmc refuses a sampling set with such a variable
    ("Sampling vars contain variables that are not in the original clauses").

    Examples
    --------
    >>> formula = CountedFormula(3, (np.array([[1, -2]], dtype=np.int32),),
    ...                          np.array([1, 2, 3]))
    >>> reduced = free_as_factor(formula)
    >>> reduced.projection.tolist(), reduced.factor
    ([1, 2], 2)
    """
    occurs = np.zeros(formula.num_vars + 1, dtype=bool)
    for block in formula.blocks:
        occurs[np.abs(block).ravel()] = True
    occurs[0] = False  # the padding of clause arrays
    projection = np.asarray(formula.projection, dtype=np.int64)
    kept = occurs[projection]
    free = int(kept.size - np.count_nonzero(kept))
    if not free:
        return formula
    return dataclasses.replace(formula, projection=projection[kept],
                               factor=formula.factor << free)


def _usage(message: str) -> SudokitError:
    error = SudokitError(message)
    error.exit_code = 2
    return error


def count(instance: Any, budget: Budget = UNLIMITED, *, encoding: str | None = None,
          amo: str | None = None, epsilon: float = DEFAULT_EPSILON,
          delta: float = DEFAULT_DELTA, seed: int | None = None, symmetry: bool = True
          ) -> CountResult:
    """An estimate of the number of solutions of ``instance`` (any kind) by ApproxMC, or
    the exact count when it is small (:func:`exact_threshold`).

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
    formula = free_as_factor(counted_formula(instance, encoding, amo, budget.memory, symmetry))
    if formula.trivial is not None:
        answer: dict[str, Any] | None = {"exact": formula.trivial}
    else:
        left = None if budget.seconds is None else max(
            budget.seconds - (time.monotonic() - start), 0.001)
        answer = run_counter("approxmc", formula, Budget(seconds=left),
                             seed=1 if seed is None else seed, epsilon=epsilon, delta=delta,
                             exact_below=exact_threshold(epsilon, len(formula.projection)))
    seconds = time.monotonic() - start
    if answer is None:
        return CountResult("unknown", None, exact=False, epsilon=epsilon, delta=delta,
                           seconds=seconds)
    if "exact" in answer:  # small: enumerated, never estimated
        exact = int(answer["exact"]) * formula.factor
        return CountResult("sat" if exact else "unsat", exact, seconds=seconds)
    estimate = int(answer["cells"]) * 2 ** int(answer["hashes"]) * formula.factor
    return CountResult("sat" if estimate else "unsat", estimate, exact=False, epsilon=epsilon,
                       delta=delta, seconds=seconds)
