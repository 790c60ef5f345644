"""PySAT solvers opened, loaded, run and read: the plumbing under every CDCL engine.

:func:`open_solver` opens a solver by name (and loads a formula), :func:`load_cnf` hands it a
:class:`~sudokit.cnf.CNF` a chunk of clause rows at a time, :func:`run_solver` solves in
conflict-bounded slices so that a time or conflict budget holds and Ctrl-C lands between
slices (never inside PySAT's C code), and :func:`read_model` reads the model back as signed
literals of exactly the formula's variables. :mod:`sudokit.solvers.sat` (solving and
counting), :mod:`sudokit.solvers.large_fill` and :mod:`sudokit.chromatic` build on these.

Examples
--------
>>> from sudokit.cnf import CNF
>>> cnf = CNF(num_vars=3)
>>> cnf.add_clauses("input", [[1, 2], [-1], [-2, 3]])
>>> with open_solver("cadical195", cnf) as solver:
...     found = run_solver(solver)
...     model = read_model(solver, cnf.num_vars)
>>> found, model.tolist()
(True, [-1, 2, 3])
"""

from __future__ import annotations

import contextlib
import time

import numpy as np
from pysat._utils import MainThread
from pysat.solvers import Solver

from .._signals import signals_deferred
from ..cnf import CNF
from ..errors import BudgetExhausted, SolverError
from .budget import Meter
from .registry import DEFAULT_SOLVER, resolve_solver, supports_budget

__all__ = ["open_solver", "load_cnf", "run_solver", "read_model", "python_signals", "FIRST_SLICE"]


class _Solver(Solver):
    """PySAT's solver, deleted whole: a Ctrl-C between freeing the C solver and forgetting
    it would leave a dangling handle that the destructor frees again (an abort)."""

    def delete(self) -> None:
        if self.solver is None:
            return  # deleted already (and so nothing to guard, at exit least of all)
        with signals_deferred():
            super().delete()


def open_solver(name: str = DEFAULT_SOLVER, cnf: CNF | None = None,
                meter: Meter | None = None, options: dict[str, int] | None = None) -> Solver:
    """A PySAT solver by name (use it in a ``with`` block), loaded with ``cnf`` if given
    (within ``meter``'s time budget: the solver is deleted if loading runs out of it);
    ``options`` are the solver's own (PySAT's ``configure``, set before any clause: CaDiCaL's
    option names, such as ``{"stabilizeonly": 1}``)."""
    solver = _Solver(name=resolve_solver(name))
    if options or cnf is not None:
        try:
            if options:
                solver.configure(options)
            if cnf is not None:
                load_cnf(solver, cnf, meter)
        except BaseException:
            solver.delete()
            raise
    return solver


#: clauses handed to a solver between two readings of the clock
_LOAD_CHUNK = 1 << 16


def load_cnf(solver: Solver, cnf: CNF, meter: Meter | None = None) -> None:
    """Hand ``cnf`` to ``solver`` in chunks of rows (one ``tolist`` each); with a ``meter``,
    the clock is read between chunks (:class:`BudgetExhausted` when it runs out), since
    loading tens of millions of clauses takes minutes."""
    add = solver.add_clause
    for _group, block in cnf.blocks:
        for start in range(0, len(block), _LOAD_CHUNK):
            with python_signals():
                for clause in block[start:start + _LOAD_CHUNK].tolist():
                    add(clause)
            if meter is not None and meter.late():
                raise BudgetExhausted("the time budget ran out while loading the formula")


#: conflicts of a search's first slice (the batch fast path of
#: :class:`~sudokit.solvers.sat.SATEngine` tries each instance in one such slice)
FIRST_SLICE, _MAX_SLICE = 2_000, 100_000
#: a slice takes about this much of the process's CPU time at most (see _next_slice), so
#: Ctrl-C and SIGTERM land within it; and never fewer conflicts than _MIN_SLICE. CPU time,
#: not wall time: paced by the wall clock, a loaded machine (a quarter of a core) cut the
#: slices of a 25x25 Sudoku to ~500 conflicts, and CaDiCaL, which starts its restart and
#: mode schedules afresh at each call, then needed 30-50 % more conflicts to count it
_SLICE_SECONDS, _MIN_SLICE = 0.25, 50


@contextlib.contextmanager
def python_signals():
    """Leave Ctrl-C (and SIGTERM) to Python while a PySAT call runs.

    Called from the main thread, PySAT's C code installs its own SIGINT handler for the call;
    when it fires, CaDiCaL is left in an invalid state and aborts the whole process on the next
    call (exit 134), and Glucose raises a RuntimeError. Told it is not on the main thread, PySAT
    installs nothing: the signal waits in Python's handler until the call returns (every solve
    here is a conflict-bounded slice) and is raised between calls, where the solver is sound.
    """
    saved = MainThread.check
    MainThread.check = staticmethod(lambda: False)  # type: ignore[method-assign]
    try:
        yield
    finally:
        MainThread.check = saved  # type: ignore[method-assign]


def run_solver(solver: Solver, assumptions=(), meter: Meter | None = None) -> bool:
    """Solve under ``assumptions``; True/False, or :class:`BudgetExhausted` when out of budget.

    The search runs in conflict-bounded slices (growing from 2,000 to 100,000 conflicts) and
    control returns to Python after each one: the clock of a time budget is read there, a
    conflict budget is charged there, and a Ctrl-C lands there (never inside the solver; see
    :func:`python_signals`). This works for every solver that honours conflict budgets,
    CaDiCaL included, which PySAT cannot interrupt from another thread. A solver without
    budgets (lingeling) runs one unbounded call and cannot take a budget.
    """
    assumptions = list(assumptions)
    backend = type(solver.solver).__name__.lower()
    budgeted = meter is not None and (meter.budget.seconds is not None
                                      or meter.budget.conflicts is not None)
    if not supports_budget(backend):
        if budgeted:
            raise SolverError(f"{backend} does not support time or conflict budgets; "
                              "choose another solver (e.g. cadical195)")
        with python_signals():
            return bool(solver.solve(assumptions=assumptions))
    slice_size = FIRST_SLICE
    while True:  # at least one slice per call, so a tight budget still gets to search
        allowed = slice_size
        if meter is not None and meter.budget.conflicts is not None:
            allowed = min(allowed, meter.budget.conflicts - meter.conflicts_used)
        before = solver.accum_stats().get("conflicts", 0)
        solver.conf_budget(int(max(allowed, 1)))
        started, cpu = time.monotonic(), time.process_time()
        with python_signals():
            status = solver.solve_limited(assumptions=assumptions)
        spent, used = time.monotonic() - started, time.process_time() - cpu
        done = solver.accum_stats().get("conflicts", 0) - before
        if meter is not None:
            meter.conflicts_used += done
        if status is not None:
            return bool(status)
        if meter is not None and meter.exhausted():
            raise BudgetExhausted("budget exhausted: unknown")
        slice_size = _next_slice(slice_size, done, spent, used,
                                 None if meter is None else meter.seconds_left())


def _next_slice(size: int, done: int, spent: float, used: float,
                seconds_left: float | None) -> int:
    """The conflicts of the next slice: double the last, but no more than the solver gets
    through in :data:`_SLICE_SECONDS` of CPU time at the last slice's pace (``done``
    conflicts in ``used`` CPU seconds: conflicts on a large formula can take milliseconds
    each; halved until it fits, so slices are :data:`FIRST_SLICE` times a power of two),
    nor past what is left of a time budget at the last slice's wall-clock pace (``spent``
    seconds). Paced by CPU time and rounded so, the slices, and so the search, are the same
    from run to run, on a loaded machine as on an idle one.

    Examples
    --------
    >>> _next_slice(2_000, 2_000, 0.01, 0.01, None)       # fast: doubles
    4000
    >>> _next_slice(2_000, 2_000, 4.0, 4.0, None)         # 500 conflicts a CPU-second
    125
    >>> _next_slice(4_000, 4_000, 0.25, 0.25, None)       # 16,000 a CPU-second: stays
    4000
    >>> _next_slice(2_000, 2_000, 0.4, 0.1, None)         # a loaded machine: paced by CPU
    4000
    >>> _next_slice(64_000, 64_000, 0.1, 0.1, 0.05)       # the budget ends first
    32000
    >>> _next_slice(2_000, 0, 0.0, 0.0, 1.0)              # nothing measured: doubles
    4000
    """
    pace = done / used if used > 0 and done > 0 else float("inf")
    rate = done / spent if spent > 0 and done > 0 else float("inf")
    most: float = min(2 * size, _MAX_SLICE)
    while most > _MIN_SLICE and most > pace * _SLICE_SECONDS:
        most //= 2      # halved, not cut to the pace: the same slices from run to run
    if seconds_left is not None:
        most = min(most, rate * max(seconds_left, 0.0))
    return int(max(_MIN_SLICE, most))


def read_model(solver: Solver, num_vars: int) -> np.ndarray:
    """The last model as signed literals of exactly variables ``1..num_vars``.

    Solvers only report variables they have seen, so a variable that occurs in no clause is
    missing (it is set false here); guard variables beyond ``num_vars`` are dropped.
    """
    model = np.asarray(solver.get_model()[:num_vars], dtype=np.int64)
    full = -np.arange(1, num_vars + 1, dtype=np.int64)
    full[np.abs(model) - 1] = model
    return full
