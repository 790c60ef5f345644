"""Solving and counting through exact cover with the DLX solver (``--solver dlx``).

Grids of one shape share one dancing-links structure built from the *empty* grid (the full
``4n^2`` construction, options in ``(cell, value)`` order); each puzzle's givens are
preselected, and a whole run of puzzles is counted in one kernel call
(:meth:`~sudokit.solvers.dlx.DancingLinks.count_many`). Everything else (a lone grid, a graph,
a Knuth-format problem) gets its own structure from the ``reduced`` exact cover encoding.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> with SharedDLX(latin_square(np.zeros((3, 3), int))) as shared:
...     [count for count, _ in shared.count_all([latin_square(np.zeros((3, 3), int))] * 2)]
[12, 12]
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..encoders import completion_to_exact_cover, to_exact_cover
from ..errors import SolverError
from .dlx import DancingLinks
from .sat import Budget

__all__ = ["SharedDLX", "SingleDLX"]


def _decode(encoding, cover):
    return None if cover is None else encoding.decode(cover)


class SharedDLX:
    """One DLX structure for many grids of one size and box shape; givens are preselected."""

    def __init__(self, template):
        empty = template.with_givens(np.zeros(template.solution_shape, dtype=np.int32))
        self.encoding = completion_to_exact_cover(empty, "full")
        self.links = DancingLinks.from_problem(self.encoding.xc)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def count_all(self, problems, limit: int | None = None):
        """``[(count, solution or None), ...]`` for many puzzles in one kernel call."""
        sets = [self.encoding.given_options(p) for p in problems]
        starts = np.concatenate([[0], np.cumsum([len(s) for s in sets])]).astype(np.int64)
        options = np.concatenate(sets) if sets else np.zeros(0, dtype=np.int64)
        counts, firsts = self.links.count_many(starts, options, limit)
        return [(int(c), _decode(replace(self.encoding, problem=p), row[row >= 0]) if c else None)
                for p, c, row in zip(problems, counts, firsts)]

    def count(self, problem, limit: int | None = None, budget: Budget = Budget()):
        """``(count, first_solution)``; the budget's ``seconds`` and ``nodes`` bound the search."""
        count, first = self.links.count_within(self.encoding.given_options(problem), limit,
                                               seconds=budget.seconds, max_nodes=budget.nodes)
        return count, _decode(replace(self.encoding, problem=problem), first)

    def solve(self, problem, budget: Budget = Budget()):
        return self.count(problem, 1, budget)[1]


class SingleDLX:
    """A DLX structure per instance, from the instance's own (reduced) exact cover."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    @staticmethod
    def _encode(problem):
        return to_exact_cover(problem, None if problem.kind == "xc" else "reduced")

    def count(self, problem, limit: int | None = None, budget: Budget = Budget()):
        encoding = self._encode(problem)
        if limit != 1 and not encoding.parsimonious:
            raise SolverError(f"dlx reaches a {problem.kind} instance through "
                              f"{encoding.name}, which does not count solutions one to one; "
                              "count it with a SAT solver")
        links = DancingLinks.from_problem(encoding.xc)
        count, first = links.count_within((), limit, seconds=budget.seconds,
                                          max_nodes=budget.nodes)
        return count, _decode(encoding, first)

    def solve(self, problem, budget: Budget = Budget()):
        return self.count(problem, 1, budget)[1]
