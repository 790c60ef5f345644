"""The completions of many partial grids, counted by one engine (what the counting methods
of :mod:`sudokit.counting.methods` hand to the kernels).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> grid = np.zeros((4, 4), dtype=int); grid[0] = [1, 2, 3, 4]
>>> count_completions([latin_square(grid)]).counts
[24]
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..solvers.budget import UNLIMITED, Budget
from ..solvers.registry import check_engine, open_engine, resolve_solver

__all__ = ["COMPLETION_ENGINE", "Completions", "count_completions"]

#: the engine that counts completions when none is named (the fastest grid counter)
COMPLETION_ENGINE = "takano"


@dataclass(frozen=True)
class Completions:
    """``counts`` of each grid (None when the budget ran out first), the ``engine`` that
    counted them and the ``seconds`` it took."""

    counts: list[int] | None
    engine: str
    seconds: float


def count_completions(instances: Sequence[Any], solver: str | None = None,
                      budget: Budget = UNLIMITED) -> Completions:
    """The number of solutions of each of ``instances`` (one kind), counted by ``solver``
    (default :data:`COMPLETION_ENGINE`) within ``budget.seconds`` for all of them."""
    name = resolve_solver(solver) if solver else COMPLETION_ENGINE
    start = time.monotonic()
    counts: list[int] = []
    if instances:
        check_engine(name, instances[0].kind, "count")
    with open_engine(name) as engine:
        for instance in instances:
            left = None if budget.seconds is None else budget.seconds - (
                time.monotonic() - start)
            if left is not None and left <= 0:
                return Completions(None, name, time.monotonic() - start)
            (outcome,) = engine.count_many([instance], None, Budget(seconds=left))
            if outcome.status == "unknown":
                return Completions(None, name, time.monotonic() - start)
            counts.append(int(outcome.count or 0))
    return Completions(counts, name, time.monotonic() - start)
