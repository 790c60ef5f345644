"""Solving and counting many instances: one incremental solver per puzzle shape.

Puzzles of one size and box shape (side up to :data:`SHARED_MAX_SIDE`) share a single formula: the empty grid's CNF is loaded once,
each puzzle's givens are passed as assumptions, and the blocking clauses found while counting
carry a fresh *activation literal* (assumed true for that puzzle only, then retired with a unit
clause), so checking thousands of puzzles never rebuilds or pollutes the formula.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> squares = [latin_square(np.array([[1, 0], [0, 0]])), latin_square(np.zeros((2, 2), int))]
>>> [r.count for r in run_batch(squares, task="count")]
[1, 2]
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Iterable

import numpy as np

from ..encoders import completion_to_cnf, to_cnf
from ..errors import BudgetExhausted
from .registry import DEFAULT_SOLVER
from .sat import Budget, _enumerate, open_solver, read_model, run_solver

__all__ = ["InstanceResult", "SharedSolver", "run_batch"]


@dataclass
class InstanceResult:
    """The outcome for one instance: status ``"sat"``, ``"unsat"`` or ``"unknown"``."""

    index: int
    status: str
    solution: np.ndarray | None = None
    count: int | None = None
    seconds: float = 0.0


class SharedSolver:
    """One incremental solver for many problems of one shape; givens become assumptions.

    Use it in a ``with`` block. ``encoding`` must be one that does not depend on the givens
    (not ``reduced``).
    """

    #: every puzzle counted adds one guard variable, and models grow with the variable count;
    #: a fresh solver after this many puzzles keeps the cost per puzzle flat
    renew_every = 1000

    def __init__(self, template, encoding: str | None = None, amo: str = "pairwise",
                 solver: str = DEFAULT_SOLVER):
        empty = template.with_givens(np.zeros(template.solution_shape, dtype=np.int32))
        self.encoding = completion_to_cnf(empty, encoding, amo, include_givens=False)
        self._solver_name = solver
        self._sat = None
        self._renew()

    def _renew(self) -> None:
        if self._sat is not None:
            self._sat.delete()
        self._sat = open_solver(self._solver_name, self.encoding.cnf)
        self._top = self.encoding.cnf.num_vars

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._sat.delete()

    def _view(self, problem):
        return replace(self.encoding, problem=problem)

    def solve(self, problem, budget: Budget = Budget()):
        """One solution of ``problem`` or None."""
        view = self._view(problem)
        if not run_solver(self._sat, view.given_literals(), budget.start()):
            return None
        return view.decode(read_model(self._sat, view.cnf.num_vars))

    def count(self, problem, limit: int | None = None, budget: Budget = Budget()):
        """``(count, first_solution)`` of ``problem``, counting up to ``limit``."""
        view = self._view(problem)
        if self._top - self.encoding.cnf.num_vars >= self.renew_every:
            self._renew()
        self._top += 1
        guard = self._top
        try:
            return _count(_enumerate(self._sat, view, view.given_literals() + [guard],
                                     budget.start(), guard), limit)
        finally:
            self._sat.add_clause([-guard])  # retire this puzzle's blocking clauses


class _SingleSolver:
    """Per-instance solving with the givens inside the formula (used for lone instances)."""

    def __init__(self, encoding, amo, solver, symmetry_breaking):
        self.encoding, self.amo, self.solver = encoding, amo, solver
        self.symmetry_breaking = symmetry_breaking

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def _encode(self, problem, symmetry: bool):
        return to_cnf(problem, self.encoding or SOLO_ENCODING.get(problem.kind), self.amo,
                      symmetry_breaking=symmetry)

    def solve(self, problem, budget: Budget = Budget()):
        encoded = self._encode(problem, self.symmetry_breaking)
        with open_solver(self.solver, encoded.cnf) as sat:
            if not run_solver(sat, [], budget.start()):
                return None
            return encoded.decode(read_model(sat, encoded.cnf.num_vars))

    def count(self, problem, limit=None, budget: Budget = Budget()):
        encoded = self._encode(problem, False)  # counting needs a one-to-one encoding
        with open_solver(self.solver, encoded.cnf) as sat:
            return _count(_enumerate(sat, encoded, [], budget.start()), limit)


def _count(found, limit):
    """``(count, first_solution)`` of a solution stream, stopping at ``limit``."""
    count, first = 0, None
    for solution in found:
        count += 1
        first = solution if first is None else first
        if limit is not None and count >= limit:
            break
    return count, first


#: grids up to this side share one solver in a batch; bigger ones solve faster one by one
#: with the reduced encoding (25x25 uniqueness: ~30 s per puzzle shared, ~4 s reduced)
SHARED_MAX_SIDE = 16

#: the encoding used to solve one instance on its own when the caller names none
SOLO_ENCODING = {"sudoku": "reduced", "latin": "reduced", "coloring": "direct"}


def _grid_key(problem):
    return (problem.kind, problem.n, problem.box) if problem.kind in ("sudoku", "latin") else None


def _shape_key(problem, solver: str):
    """Problems with the same key can share one engine: grids of one size and box shape (for
    SAT only up to :data:`SHARED_MAX_SIDE`)."""
    key = _grid_key(problem)
    if key is None or (solver != "dlx" and problem.n > SHARED_MAX_SIDE):
        return None
    return (solver,) + key


def _solver_for(problem, solver: str | None) -> str:
    """The named solver, else DLX for exact cover problems and the default SAT solver."""
    return solver or ("dlx" if problem.kind == "xc" else DEFAULT_SOLVER)


def _new_engine(problem, solver, shared, encoding, amo):
    if solver == "dlx":
        from .exact import SharedDLX, SingleDLX  # numba loads only when DLX is asked for
        return SharedDLX(problem) if shared else SingleDLX()
    if shared:
        return SharedSolver(problem, encoding, amo, solver)
    return _SingleSolver(encoding, amo, solver, True)


def run_batch(problems: Iterable, task: str = "solve", limit: int | None = None,
              solver: str | None = None, encoding: str | None = None, amo: str = "pairwise",
              budget: Budget = Budget(),
              progress: Callable[[int], None] | None = None):
    """Solve or count each problem, yielding an :class:`InstanceResult` per problem in order.

    Parameters
    ----------
    task : {"solve", "count"}
    solver : str, optional
        A PySAT name or ``"dlx"``; by default DLX for exact cover problems, else cadical195.
    limit : int, optional
        Counting stops here (``2`` checks uniqueness).
    budget : Budget
        Per instance; an instance that runs out gets status ``"unknown"`` and the batch goes on.
    progress : callable, optional
        Called with the number of instances done after each one.
    """
    problems = list(problems)
    solvers = [_solver_for(p, solver) for p in problems]
    keys = [_shape_key(p, name) for p, name in zip(problems, solvers)]
    sizes = Counter(keys)
    engines: dict = {}
    ready: dict[int, InstanceResult] = {}
    try:
        for index, problem in enumerate(problems):
            key = keys[index]
            shared = key is not None and sizes[key] > 1 and encoding != "reduced"
            engine_key = key if shared else (solvers[index],)
            if engine_key not in engines:
                engines[engine_key] = _new_engine(problem, solvers[index], shared, encoding, amo)
            engine = engines[engine_key]
            batchable = hasattr(engine, "count_all")  # a shared DLX structure
            if index not in ready and batchable and budget.seconds is None \
                    and budget.nodes is None:
                ready.update(_dlx_run(engine, problems, keys, index, task, limit))
            result = ready.pop(index, None) or _run_one(engine, problem, index, task, limit,
                                                        budget)
            yield result
            if progress is not None:
                progress(index + 1)
    finally:
        for engine in engines.values():
            engine.__exit__(None, None, None)


_DLX_CHUNK = 4096


def _dlx_run(engine, problems, keys, start, task, limit) -> dict[int, InstanceResult]:
    """Results for the run of same-shape puzzles from ``start``, in one DLX kernel call."""
    stop = start
    while stop < len(problems) and stop - start < _DLX_CHUNK and keys[stop] == keys[start]:
        stop += 1
    started = time.perf_counter()
    found = engine.count_all(problems[start:stop], 1 if task == "solve" else limit)
    each = (time.perf_counter() - started) / (stop - start)
    results = {}
    for offset, (count, solution) in enumerate(found):
        result = InstanceResult(start + offset, "sat" if count else "unsat", solution,
                                count if task == "count" else None, each)
        results[start + offset] = result
    return results


def _run_one(engine, problem, index, task, limit, budget) -> InstanceResult:
    started = time.perf_counter()
    try:
        if task == "count":
            count, first = engine.count(problem, limit, budget)
            result = InstanceResult(index, "sat" if count else "unsat", first, count)
        else:
            solution = engine.solve(problem, budget)
            result = InstanceResult(index, "unsat" if solution is None else "sat", solution)
    except BudgetExhausted:
        result = InstanceResult(index, "unknown")
    result.seconds = time.perf_counter() - started
    return result
