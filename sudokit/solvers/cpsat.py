"""The constraint model of a completion problem, solved with OR-Tools CP-SAT (engine ``cpsat``).

One integer variable per free cell, its domain the values no given of its units rules out;
``AllDifferent`` over the free cells of each unit (a Sudoku's rows, columns and boxes; a Latin
square's rows and columns), and ``x_u != x_v`` for each edge of a graph between two free
vertices (the givens are constants, already taken out of the domains). This is the CP model
of Simonis ("Sudoku as a constraint problem", 2005) and Takano et al.'s section 2.1, solved
with Google's CP-SAT (``pip install "sudokit[cp]"``) in place of IBM's CP Optimizer.

Solving stops at the first solution. Counting to a small limit (:data:`BLOCKING_MAX_LIMIT`:
``count --limit 2``) solves again with each solution found forbidden, as a CP user's model
does, so every solve keeps CP-SAT's whole presolve; a larger limit, or none, enumerates
solutions with a callback (CP-SAT's ``enumerate_all_solutions``, which turns the presolve
reductions that could lose a solution off) and stops the search at the limit. Every variable
is a cell, so counts are exact. CP-SAT runs one worker (``num_workers=1``) with its default
seed, so a run is deterministic and a conflict budget means the same on every
machine; the search runs on a worker thread while the calling thread waits in short slices,
so Ctrl-C stops it at once (CP-SAT's own SIGINT handler is off). CP-SAT logs nothing (its
search log and its logging to standard output are off: standard output carries the answers).

Budgets. CP-SAT expands each ``AllDifferent`` into one Boolean per (free cell, value) pair
with their exactly-one constraints, and it reads no clock while it does so: an empty 100x100
Sudoku took 5 CPU seconds and 1.2 GB under a 1 s limit, a 200x200 one ran past 300 s under a
10 s limit. So the model's size is estimated from the shape before anything is built
(:func:`cpsat_pairs`, :data:`BYTES_PER_PAIR`) and refused
(:class:`~sudokit.errors.ResourceError`) when over the budget's ``memory`` or the memory
available; a model of :data:`CHILD_MIN_PAIRS` pairs and more is built and searched in a child
process (:func:`sudokit.child.run_child`, task :func:`cpsat_job`) that is killed when the
time budget runs out (a grace of :data:`CHILD_GRACE` after it, for CP-SAT to stop on its own
with its partial count) or on Ctrl-C. The time spent building the model counts against the
budget: CP-SAT's own ``max_time_in_seconds`` gets what is left.

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
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._signals import signals_deferred
from ..child import run_child
from ..encoders import candidate_mask
from ..errors import BudgetExhausted, ResourceError, SolverError
from ..resources import available_memory, format_bytes
from .budget import UNLIMITED, Budget, Meter
from .engine import EngineBase
from .ilp import load_failure

__all__ = ["BLOCKING_MAX_LIMIT", "BYTES_PER_PAIR", "CHILD_GRACE", "CHILD_MIN_PAIRS",
           "CPSATEngine", "CPSpec", "check_cpsat_fits", "cpsat_job", "cpsat_pairs", "cpsat_spec"]

#: bytes CP-SAT holds per (free cell, value) pair once its presolve has expanded the
#: AllDifferent constraints (peak resident memory less start-up, 1.1 kB a pair measured on
#: empty Sudokus from 64x64 to 100x100: 0.3 GB to 1.1 GB)
BYTES_PER_PAIR = 1200
#: from this many (free cell, value) pairs up (an empty 49x49 Sudoku has 117,649) the model is
#: built and searched in a child process: CP-SAT's expansion of an empty 49x49 overran a
#: 0.3 s limit by 0.3 s, of a 100x100 one by 4 s (CPU), while a child costs about 0.5 s
CHILD_MIN_PAIRS = 100_000
#: seconds after the time budget before the child is killed: CP-SAT's own time limit stops it
#: first whenever it reads the clock, and then its partial count is kept
CHILD_GRACE = 0.5
#: counts up to this limit solve again with each solution found forbidden (a count to 2:
#: two solves with CP-SAT's whole presolve); a larger limit, or none, enumerates in one
#: search, with the presolve reductions that would lose solutions turned off
BLOCKING_MAX_LIMIT = 4


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


def cpsat_pairs(instance: Any) -> int:
    """The (free cell, value) pairs of the model of ``instance``, an upper bound computed from
    its shape and givens alone (no domain is built): what CP-SAT's expansion grows with."""
    free = int(np.count_nonzero(np.asarray(instance.flat_givens) == 0))
    return free * int(instance.num_values)


def check_cpsat_fits(instance: Any, limit: int | None = None) -> int:
    """The pairs of :func:`cpsat_pairs`; raise :class:`~sudokit.errors.ResourceError` when
    CP-SAT would need more than ``limit`` bytes for them (default: the available memory).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> from sudokit.errors import ResourceError
    >>> empty = sudoku(np.zeros((9, 9), dtype=int))
    >>> check_cpsat_fits(empty)
    729
    >>> try:
    ...     check_cpsat_fits(empty, 2**19)
    ... except ResourceError as err:
    ...     print(str(err).split(" but")[0])
    CP-SAT's model of this instance needs about 854.3 KiB (729 cell values)
    """
    pairs = cpsat_pairs(instance)
    need = pairs * BYTES_PER_PAIR
    allowed = available_memory() if limit is None else int(limit)
    if need > allowed:
        raise ResourceError(f"CP-SAT's model of this instance needs about {format_bytes(need)} "
                            f"({pairs:,} cell values) but {format_bytes(allowed)} is allowed; "
                            "a smaller instance (or more memory) is needed")
    return pairs


def cpsat_job(job: dict[str, Any]) -> dict[str, Any]:
    """The child process's task (:func:`sudokit.child.run_child`): build and search the
    model ``job["spec"]`` for ``job["limit"]`` solutions within the budget (``seconds``,
    ``conflicts``) whose clock started at ``job["started"]`` (the parent's
    ``time.monotonic()``: one clock for every process of the machine).

    Answers ``{"count": C, "first": [values of the free cells] or None, "complete": bool}``.

    Examples
    --------
    >>> import time
    >>> from sudokit.instances import latin_square
    >>> spec = cpsat_spec(latin_square(np.array([[1, 0], [0, 0]])))
    >>> cpsat_job({"spec": spec, "limit": None, "seconds": None, "conflicts": None,
    ...            "started": time.monotonic()})
    {'count': 1, 'first': [2, 2, 1], 'complete': True}
    """
    budget = Budget(seconds=job["seconds"], conflicts=job["conflicts"])
    return CPSATEngine().search(job["spec"], job["limit"], budget,
                                Meter(budget, float(job["started"])))


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

    def _model(self, spec: CPSpec, meter: Meter):
        """The CP-SAT model and its variables; the clock is read between unit constraints
        (:class:`~sudokit.errors.BudgetExhausted` once the time budget has run out)."""
        cp = self._cp
        model = cp.CpModel()
        xs = [model.new_int_var_from_domain(cp.Domain.from_values(domain), f"x{cell}")
              for cell, domain in zip(spec.free.tolist(), spec.domains, strict=True)]
        for group in spec.all_different:
            if meter.late():
                raise BudgetExhausted("the time budget ran out while building the model", 0)
            model.add_all_different([xs[v] for v in group])
        for u, v in spec.different.tolist():
            model.add(xs[u] != xs[v])
        return model, xs

    def _solver(self, budget: Budget, seconds: float | None):
        solver = self._cp.CpSolver()
        params = solver.parameters
        params.num_workers = 1
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
        check_cpsat_fits(instance, budget.memory)
        spec = cpsat_spec(instance)
        if not all(spec.domains):      # a free cell whose every value a given rules out
            return 0, None
        if meter.late():
            raise BudgetExhausted("the time budget ran out while reading the instance", 0)
        pairs = sum(map(len, spec.domains))   # the givens' peers have fewer values
        search = self.search if pairs < CHILD_MIN_PAIRS else self._search_in_child
        found = search(spec, limit, budget, meter)
        count = int(found["count"])
        if not found["complete"]:
            raise BudgetExhausted(f"budget exhausted after {count} solution(s): unknown", count)
        if not count:
            return 0, None
        solution = np.asarray(instance.flat_givens, dtype=np.int32).copy()
        solution[spec.free] = found["first"]
        return count, solution.reshape(instance.solution_shape)

    def _search_in_child(self, spec: CPSpec, limit: int | None, budget: Budget,
                         meter: Meter) -> dict[str, Any]:
        """:meth:`search` in a child process (:func:`cpsat_job`), killed :data:`CHILD_GRACE`
        after the time budget runs out, or on Ctrl-C."""
        left = meter.seconds_left()
        job = {"task": f"{__name__}:cpsat_job", "name": self.name, "spec": spec,
               "limit": limit, "seconds": budget.seconds, "conflicts": budget.conflicts,
               "started": meter.started}
        answer = run_child(job, None if left is None else max(left, 0.0) + CHILD_GRACE)
        return answer if answer is not None else {"count": 0, "first": None, "complete": False}

    def search(self, spec: CPSpec, limit: int | None, budget: Budget,
               meter: Meter) -> dict[str, Any]:
        """Build the model of ``spec`` and search it, in this process, within what ``meter``
        has left: ``{"count", "first", "complete"}`` as :func:`cpsat_job` answers.

        Up to :data:`BLOCKING_MAX_LIMIT` solutions are counted by solving again with each
        solution found forbidden (:meth:`_count_by_blocking`); a larger limit, or none,
        enumerates every solution in one search (:meth:`_count_by_enumerating`)."""
        try:
            model, xs = self._model(spec, meter)
        except BudgetExhausted:
            return {"count": 0, "first": None, "complete": False}
        if limit is not None and limit <= BLOCKING_MAX_LIMIT:
            return self._count_by_blocking(model, xs, limit, budget, meter)
        return self._count_by_enumerating(model, xs, limit, budget, meter)

    def _count_by_blocking(self, model: Any, xs: list[Any], limit: int, budget: Budget,
                           meter: Meter) -> dict[str, Any]:
        """Solve; while fewer than ``limit`` solutions are known, forbid the last one (one
        clause: some cell differs) and solve again. Each solve runs with CP-SAT's whole
        presolve, which enumerating all solutions turns mostly off; the conflict budget
        covers every solve together."""
        cp = self._cp
        count, first = 0, None
        conflicts = budget.conflicts
        while count < limit:
            left = meter.seconds_left()
            if (left is not None and left <= 0) or (conflicts is not None and conflicts <= 0):
                return {"count": count, "first": first, "complete": False}
            solver = self._solver(replace(budget, conflicts=conflicts), left)
            status = self._run(solver, model, None)
            if conflicts is not None:
                conflicts -= max(int(solver.num_conflicts), 1)
            if status == cp.INFEASIBLE:
                return {"count": count, "first": first, "complete": True}
            if status == cp.UNKNOWN:
                return {"count": count, "first": first, "complete": False}
            if status not in (cp.OPTIMAL, cp.FEASIBLE):
                raise SolverError(f"CP-SAT stopped with status {solver.status_name(status)}")
            values = [int(solver.value(x)) for x in xs]
            count += 1
            first = values if first is None else first
            if count < limit:
                differs = []
                for x, value in zip(xs, values, strict=True):
                    differs.append(model.new_bool_var(""))
                    model.add(x != value).only_enforce_if(differs[-1])
                model.add_bool_or(differs or [model.new_constant(0)])
        return {"count": count, "first": first, "complete": True}

    def _count_by_enumerating(self, model: Any, xs: list[Any], limit: int | None,
                              budget: Budget, meter: Meter) -> dict[str, Any]:
        """Every solution in one search (CP-SAT's ``enumerate_all_solutions``), stopped at
        ``limit`` by the solution callback."""
        cp = self._cp
        left = meter.seconds_left()
        if left is not None and left <= 0:
            return {"count": 0, "first": None, "complete": False}
        solver = self._solver(budget, left)
        found: dict[str, Any] = {"count": 0, "first": None, "stopped": False}

        class Counter(cp.CpSolverSolutionCallback):  # type: ignore[name-defined,misc]
            def on_solution_callback(self) -> None:
                found["count"] += 1
                if found["first"] is None:
                    found["first"] = [int(self.value(x)) for x in xs]
                if limit is not None and found["count"] >= limit:
                    found["stopped"] = True
                    self.stop_search()

        solver.parameters.enumerate_all_solutions = True
        status = self._run(solver, model, Counter())
        if status == cp.INFEASIBLE:
            return {"count": 0, "first": None, "complete": True}
        if status not in (cp.OPTIMAL, cp.FEASIBLE, cp.UNKNOWN):
            raise SolverError(f"CP-SAT stopped with status {solver.status_name(status)}")
        count = found["count"]
        complete = status == cp.OPTIMAL or found["stopped"]
        return {"count": count, "first": found["first"], "complete": bool(complete)}
