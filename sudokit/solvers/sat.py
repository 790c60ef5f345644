"""Solving and counting with PySAT: budgets, projected blocking clauses, uniqueness.

Counting enumerates models and blocks each one on the *projection* only: the cell-value
variables that define a solution, never auxiliary ones (PySAT's ``enum_models`` blocks every
variable, which over-counts as soon as an encoding has auxiliaries, e.g. ``seqcounter``). Each
encoding supplies its own ``blocking_clause``: for grids and graphs the negated true cell
literals suffice, since every cell holds exactly one value.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.encoders import grid_to_cnf
>>> count_solutions(grid_to_cnf(sudoku(np.zeros((4, 4), dtype=int))))
288
>>> count_solutions(grid_to_cnf(sudoku(np.zeros((4, 4), dtype=int)), amo="seqcounter"), limit=2)
2
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from pysat.solvers import Solver

from ..cnf import CNF
from ..errors import BudgetExhausted, SolverError
from .registry import DEFAULT_SOLVER, resolve_solver, supports_budget

__all__ = ["Budget", "open_solver", "load_cnf", "read_model", "run_solver", "solve", "solutions",
           "count_solutions", "is_unique"]


@dataclass(frozen=True)
class Budget:
    """Limits for one instance (None = unlimited): wall-clock seconds, SAT conflicts, DLX nodes."""

    seconds: float | None = None
    conflicts: int | None = None
    nodes: int | None = None

    @property
    def unlimited(self) -> bool:
        """No limit that a SAT solver honours (``nodes`` is for DLX only)."""
        return self.seconds is None and self.conflicts is None

    def start(self) -> "_Meter":
        return _Meter(self, time.monotonic())


@dataclass
class _Meter:
    """A running budget: what is left of it since :meth:`Budget.start`."""

    budget: Budget
    started: float
    conflicts_used: int = 0

    def exhausted(self) -> bool:
        late = (self.budget.seconds is not None
                and time.monotonic() - self.started >= self.budget.seconds)
        spent = self.budget.conflicts is not None and self.conflicts_used >= self.budget.conflicts
        return late or spent


def open_solver(name: str = DEFAULT_SOLVER, cnf: CNF | None = None) -> Solver:
    """A PySAT solver by name (use it in a ``with`` block), loaded with ``cnf`` if given."""
    solver = Solver(name=resolve_solver(name))
    if cnf is not None:
        load_cnf(solver, cnf)
    return solver


def load_cnf(solver: Solver, cnf: CNF) -> None:
    """Hand ``cnf`` to ``solver``: one ``tolist`` per block, then the solver's own add call."""
    add = solver.add_clause
    for chunk in cnf.clause_lists():
        for clause in chunk:
            add(clause)


_FIRST_SLICE, _MAX_SLICE = 2_000, 100_000


def run_solver(solver: Solver, assumptions=(), meter: _Meter | None = None) -> bool:
    """Solve under ``assumptions``; True/False, or :class:`BudgetExhausted` when out of budget.

    With a budget, the search runs in conflict-bounded slices (growing from 2,000 to 100,000
    conflicts) and the clock is read after each slice (loading clauses is not charged): this works for every solver that honours
    conflict budgets, CaDiCaL included, which PySAT cannot interrupt from another thread.
    """
    assumptions = list(assumptions)
    if meter is None or meter.budget.unlimited:
        return solver.solve(assumptions=assumptions)
    backend = type(solver.solver).__name__.lower()
    if not supports_budget(backend):
        raise SolverError(f"{backend} does not support time or conflict budgets; "
                          "choose another solver (e.g. cadical195)")
    slice_size = _FIRST_SLICE
    while True:  # at least one slice per call, so a tight budget still gets to search
        allowed = slice_size
        if meter.budget.conflicts is not None:
            allowed = min(allowed, meter.budget.conflicts - meter.conflicts_used)
        before = solver.accum_stats().get("conflicts", 0)
        solver.conf_budget(int(allowed))
        status = solver.solve_limited(assumptions=assumptions)
        meter.conflicts_used += solver.accum_stats().get("conflicts", 0) - before
        if status is not None:
            return bool(status)
        if meter.exhausted():
            raise BudgetExhausted("budget exhausted: unknown")
        slice_size = min(2 * slice_size, _MAX_SLICE)


def read_model(solver: Solver, num_vars: int) -> np.ndarray:
    """The last model as signed literals of exactly variables ``1..num_vars``.

    Solvers only report variables they have seen, so a variable that occurs in no clause is
    missing (it is set false here); guard variables beyond ``num_vars`` are dropped.
    """
    model = np.asarray(solver.get_model()[:num_vars], dtype=np.int64)
    full = -np.arange(1, num_vars + 1, dtype=np.int64)
    full[np.abs(model) - 1] = model
    return full


def _enumerate(solver: Solver, encoding, assumptions, meter, guard: int | None = None):
    """Yield solutions of ``encoding`` already in ``solver``, blocking each on the projection.

    With ``guard``, blocking clauses carry ``-guard`` so that they only bind while ``guard`` is
    assumed; the caller retires them by adding the unit clause ``[-guard]``.
    """
    extra = [] if guard is None else [-guard]
    while run_solver(solver, assumptions, meter):
        model = read_model(solver, encoding.cnf.num_vars)
        yield encoding.decode(model)
        solver.add_clause(extra + encoding.blocking_clause(model))


def solutions(encoding, solver: str = DEFAULT_SOLVER, budget: Budget = Budget()):
    """Yield every solution of an encoded problem, each once (see the module notes).

    Raises :class:`BudgetExhausted` when the budget runs out mid-way.
    """
    if not encoding.parsimonious:
        raise SolverError(f"the {encoding.name} encoding with symmetry breaking does not count "
                          "solutions one to one; encode without symmetry breaking to enumerate")
    with open_solver(solver, encoding.cnf) as sat:
        yield from _enumerate(sat, encoding, [], budget.start())


def count_solutions(encoding, limit: int | None = None, solver: str = DEFAULT_SOLVER,
                    budget: Budget = Budget()) -> int:
    """Number of solutions, stopping at ``limit`` (so ``limit=2`` means "at least 2").

    Raises :class:`BudgetExhausted` if the budget runs out first.
    """
    count = 0
    for _ in solutions(encoding, solver, budget):
        count += 1
        if limit is not None and count >= limit:
            break
    return count


def is_unique(encoding, solver: str = DEFAULT_SOLVER, budget: Budget = Budget()) -> bool:
    """True if the problem has exactly one solution (counting with limit 2)."""
    return count_solutions(encoding, 2, solver, budget) == 1


def solve(encoding, solver: str = DEFAULT_SOLVER, budget: Budget = Budget()):
    """One solution (a grid or a coloring array), or None if there is none."""
    with open_solver(solver, encoding.cnf) as sat:
        if not run_solver(sat, [], budget.start()):
            return None
        return encoding.decode(read_model(sat, encoding.cnf.num_vars))
