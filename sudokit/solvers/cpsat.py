"""The constraint model of a completion problem, solved with OR-Tools CP-SAT (engine ``cpsat``).

One integer variable per free cell, its domain the values no given of its units rules out;
``AllDifferent`` over the free cells of each unit (a Sudoku's rows, columns and boxes; a Latin
square's rows and columns), and ``x_u != x_v`` for each edge of a graph between two free
vertices (the givens are constants, already taken out of the domains). This is the CP model
of Simonis ("Sudoku as a constraint problem", 2005) and Takano et al.'s section 2.1, solved
with Google's CP-SAT (``pip install "sudokit[cp]"``) in place of IBM's CP Optimizer.

Solving stops at the first solution; counting enumerates solutions with a callback and stops
the search at the limit. Every variable is a cell, so counts are exact. CP-SAT runs one worker
(``num_workers=1``), so a run is deterministic and a conflict budget means the same on every
machine; the search runs on a worker thread while the calling thread waits in short slices,
so Ctrl-C stops it at once (CP-SAT's own SIGINT handler is off). CP-SAT logs nothing (its
search log and its logging to standard output are off: standard output carries the answers).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import precoloring
>>> triangle = precoloring(3, [(0, 1), (1, 2), (0, 2)], 3, {0: 2})
>>> spec = cpsat_spec(triangle)
>>> spec.domains[0], spec.all_different, spec.different.tolist()
([1, 3], [], [[0, 1]])
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._signals import signals_deferred
from ..encoders import candidate_mask
from ..errors import BudgetExhausted, SolverError
from .budget import UNLIMITED, Budget
from .engine import EngineBase
from .ilp import load_failure

__all__ = ["CPSATEngine", "CPSpec", "cpsat_spec"]


@dataclass(frozen=True)
class CPSpec:
    """The CP model of an instance, before CP-SAT sees it.

    ``free`` are the free cells (variable ``i`` is cell ``free[i]``), ``domains[i]`` the values
    variable ``i`` may take; ``all_different`` lists, per unit of more than two cells, the
    variables of its free cells; ``different`` the pairs of variables that must differ (units
    of two cells: a graph's edges).
    """

    free: np.ndarray
    domains: list[list[int]]
    all_different: list[list[int]]
    different: np.ndarray


def cpsat_spec(instance: Any) -> CPSpec:
    """The CP model of ``instance`` as plain lists (see :class:`CPSpec`)."""
    givens = np.asarray(instance.flat_givens)
    free = np.flatnonzero(givens == 0)
    variable = np.full(int(instance.num_cells), -1, dtype=np.int64)
    variable[free] = np.arange(len(free))
    mask = candidate_mask(instance)[free]
    domains = [(np.flatnonzero(row) + 1).tolist() for row in mask]
    units = variable[np.asarray(instance.units(), dtype=np.int64)]
    if units.shape[1] == 2:
        pairs = units[(units >= 0).all(axis=1)]
        return CPSpec(free, domains, [], pairs)
    groups = [[int(v) for v in row if v >= 0] for row in units.tolist()]
    return CPSpec(free, domains, [g for g in groups if len(g) > 1], np.zeros((0, 2), np.int64))


def _cp_model() -> Any:
    try:
        with signals_deferred():  # a signal cut into ortools' C init reads as ImportError
            from ortools.sat.python import cp_model
    except ImportError as err:
        raise load_failure("cpsat", "ortools", err) from None
    return cp_model


class CPSATEngine(EngineBase):
    """The engine ``cpsat`` (see the module). ``encoding`` and ``amo`` are accepted for the
    common engine signature and unused."""

    #: seconds between two looks at the search thread (and at a pending Ctrl-C)
    poll = 0.05

    def __init__(self, name: str = "cpsat", shape: Any = None, encoding: str | None = None,
                 amo: str | None = None):
        self._cp = _cp_model()
        self.name = name

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        return False

    def _model(self, spec: CPSpec):
        cp = self._cp
        model = cp.CpModel()
        xs = [model.new_int_var_from_domain(cp.Domain.from_values(domain), f"x{cell}")
              for cell, domain in zip(spec.free.tolist(), spec.domains, strict=True)]
        for group in spec.all_different:
            model.add_all_different([xs[v] for v in group])
        for u, v in spec.different.tolist():
            model.add(xs[u] != xs[v])
        return model, xs

    def _solver(self, budget: Budget, seconds: float | None):
        solver = self._cp.CpSolver()
        params = solver.parameters
        params.num_workers = 1
        params.random_seed = 0
        params.catch_sigint_signal = False
        # nothing of CP-SAT's own on standard output, which carries the answers
        params.log_search_progress = False
        params.log_to_stdout = False
        if seconds is not None:
            params.max_time_in_seconds = max(seconds, 1e-3)
        if budget.conflicts is not None:
            params.max_number_of_conflicts = int(budget.conflicts)
        return solver

    def _run(self, solver, model, callback) -> Any:
        """``solver.solve`` on a worker thread; this one waits, and stops it on an exception.

        The wait is on an event the worker sets as it ends, never on ``Thread.join`` with a
        timeout: before Python 3.13 an interrupt inside that join marks the thread as ended
        while it still runs (cpython#90882), so the process would go on, and exit, with
        CP-SAT still searching on its thread (``terminate called without an active
        exception``, SIGABRT).
        """
        result: dict[str, Any] = {}
        done = threading.Event()

        def target() -> None:
            try:
                result["status"] = solver.solve(model, callback)
            except BaseException as err:  # handed to the caller's thread
                result["error"] = err
            finally:
                done.set()

        worker = threading.Thread(target=target, name="sudokit-cpsat", daemon=True)
        worker.start()
        try:
            while not done.wait(self.poll):
                pass
        except BaseException:
            with signals_deferred():  # a second Ctrl-C must not cut the wait for the search
                solver.stop_search()
                while not done.wait(self.poll):
                    pass
            raise
        if "error" in result:
            raise SolverError(f"CP-SAT failed: {result['error']}")
        return result["status"]

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None:
        return self.count(instance, 1, budget)[1]

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
        """``(count, first_solution)``: solutions enumerated up to ``limit``."""
        meter = budget.start()
        if limit is not None and limit <= 0:
            return 0, None
        cp = self._cp
        spec = cpsat_spec(instance)
        givens = np.asarray(instance.flat_givens, dtype=np.int32)
        if not all(spec.domains):      # a free cell whose every value a given rules out
            return 0, None
        model, xs = self._model(spec)
        left = meter.seconds_left()
        if left is not None and left <= 0:
            raise BudgetExhausted("the time budget ran out while building the model", 0)
        solver = self._solver(budget, left)
        found: dict[str, Any] = {"count": 0, "first": None, "stopped": False}

        class Counter(cp.CpSolverSolutionCallback):  # type: ignore[name-defined,misc]
            def on_solution_callback(self) -> None:
                found["count"] += 1
                if found["first"] is None:
                    found["first"] = [self.value(x) for x in xs]
                if limit is not None and found["count"] >= limit:
                    found["stopped"] = True
                    self.stop_search()

        if limit != 1:
            solver.parameters.enumerate_all_solutions = True
        status = self._run(solver, model, Counter())
        count = found["count"]
        if status == cp.INFEASIBLE:
            return 0, None
        complete = status == cp.OPTIMAL or found["stopped"] or (limit == 1 and count)
        if status not in (cp.OPTIMAL, cp.FEASIBLE, cp.UNKNOWN):
            raise SolverError(f"CP-SAT stopped with status {solver.status_name(status)}")
        if not complete:
            raise BudgetExhausted(f"budget exhausted after {count} solution(s): unknown", count)
        solution = givens.copy()
        solution[spec.free] = found["first"]
        return count, solution.reshape(instance.solution_shape)
