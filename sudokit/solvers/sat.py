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

import math
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from pysat.solvers import Solver

from ..encoders import completion_to_cnf, to_cnf
from ..encoders.size import completion_cnf_size
from ..errors import BudgetExhausted, SolverError
from ..instances.patterns import pattern_grid
from ..problems import problem_kind, user_problem
from ..resources import check_fits
from .budget import UNLIMITED, Budget, Meter
from .engine import EngineBase, Outcome
from .pysat_solver import (
    FIRST_SLICE,
    load_cnf,
    open_solver,
    python_signals,
    read_model,
    run_solver,
)
from .registry import (
    DEFAULT_SOLVER,
    SOLVERS,
    default_solver,
    open_engine,
    resolve_solver,
    run_needs,
    supports_budget,
)

__all__ = ["SATEngine", "engine_for", "open_solver", "load_cnf", "read_model", "run_solver",
           "solve",
           "solutions", "count_solutions", "is_unique"]


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
        if meter is not None and meter.exhausted():  # the budget covers the whole count
            raise BudgetExhausted("budget exhausted: unknown")


def _count(found, limit):
    """``(count, first_solution)`` of a solution stream, stopping at ``limit``; when the
    budget runs out, :class:`BudgetExhausted` carries the count so far (``found``)."""
    count, first = 0, None
    try:
        for solution in found:
            count += 1
            first = solution if first is None else first
            if limit is not None and count >= limit:
                break
    except BudgetExhausted:
        raise BudgetExhausted(f"budget exhausted after {count} solution(s): unknown",
                              count) from None
    return count, first


class SATEngine(EngineBase):
    """A PySAT solver as an engine (see :mod:`sudokit.solvers.engine`).

    Opened for a *shape* that :meth:`shares` (grids up to :attr:`shared_max_side`), one
    incremental solver holds the empty grid's CNF and each instance's givens are assumptions;
    the blocking clauses found while counting carry a fresh *activation literal* (assumed for
    that instance only, then retired with a unit clause), so checking thousands of puzzles
    never rebuilds or pollutes the formula. Opened without a shape, or for a bigger one
    (where assumptions on the empty grid's formula are far slower than each puzzle's own
    reduced formula), each instance is encoded on its own (its kind's ``solo_cnf_encoding``
    unless ``encoding`` names one) with the givens inside the formula.

    Solving a graph on its own orders the free colors (symmetry breaking keeps
    satisfiability); counting never does, so counts stay exact.
    """

    #: every puzzle counted adds one guard variable, and models grow with the variable count;
    #: a fresh solver after this many puzzles keeps the cost per puzzle flat
    renew_every = 1000

    #: grids up to this side share one solver; bigger ones solve faster one by one with the
    #: reduced encoding (25x25 uniqueness: ~30 s per puzzle shared, ~4 s reduced; solving
    #: every 3rd gecode 25x25 puzzle within 60 s each: 1 of 6 decided in 43.6 CPU-s shared,
    #: 5 of 6 in 23.3 one by one), so an engine opened for a bigger shape goes one by one
    shared_max_side = 16

    def __init__(self, name: str = DEFAULT_SOLVER, shape: Any = None,
                 encoding: str | None = None, amo: str | None = None):
        self.name = resolve_solver(name)
        self.encoding, self.amo = encoding, amo
        self.shared: Any = None            # the empty grid's encoding, when opened for a shape
        self._sat: Any = None              # its incremental solver
        #: conflicts of the last ``solve`` or ``count`` of an instance on its own
        self.conflicts = 0
        if shape is not None and self.shares(shape, encoding):
            empty = shape.with_givens(np.zeros(shape.solution_shape, dtype=np.int32))
            self.shared = completion_to_cnf(empty, encoding, amo or "pairwise",
                                            include_givens=False)
            self._renew()
            self.batch_size = 4096

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        """Whether instances like this one should share a solver (see :attr:`shared_max_side`)."""
        return encoding != "reduced" and instance.n <= cls.shared_max_side

    @classmethod
    def check_memory(cls, shape: Any, budget: Budget, encoding: str | None = None,
                     amo: str | None = None) -> None:
        """The shape's empty-grid formula (what an engine opened for it loads) must fit in the
        budget's ``memory`` (:class:`~sudokit.errors.ResourceError`)."""
        empty = shape.with_givens(np.zeros(shape.solution_shape, dtype=np.int32))
        name = encoding or problem_kind(empty).cnf_encoding or ""
        _check_formula_fits(empty, name, amo or "pairwise", "this shape", budget.memory)

    def close(self) -> None:
        if self._sat is not None:
            self._sat.delete()
            self._sat = None

    # shared: the empty grid's CNF, givens as assumptions -------------------------------
    def _renew(self) -> None:
        self.close()
        self._sat = open_solver(self.name, self.shared.cnf)
        self._top = self.shared.cnf.num_vars

    def _view(self, instance):
        return replace(self.shared, source=instance)

    def _shared_solve(self, instance, budget: Budget):
        view = self._view(instance)
        if not run_solver(self._sat, view.given_literals(), budget.start()):
            return None
        return view.decode(read_model(self._sat, view.cnf.num_vars))

    def _shared_count(self, instance, limit, budget: Budget):
        view = self._view(instance)
        if self._top - self.shared.cnf.num_vars >= self.renew_every:
            self._renew()
        self._top += 1
        guard = self._top
        try:
            return _count(_enumerate(self._sat, view, view.given_literals() + [guard],
                                     budget.start(), guard), limit)
        finally:
            self._sat.add_clause([-guard])  # retire this puzzle's blocking clauses

    # shared batches without a budget: the same search with as little Python as it takes ---
    def count_many(self, instances: Sequence[Any], limit: int | None = None,
                   budget: Budget = UNLIMITED) -> list[Outcome]:
        return self._many(instances, limit, budget, solving=False)

    def _many(self, instances: Sequence[Any], limit: int | None, budget: Budget,
              solving: bool) -> list[Outcome]:
        """Count a batch of same-shape grids on the shared solver.

        Without a time or conflict budget this is :meth:`count` for each instance with the
        per-call bookkeeping taken out: the givens of the whole batch become assumption lists
        in one step, a model's true cell literals are read straight from PySAT's list (the
        standard numbering puts variable ``cell * k + value`` at position ``cell * k + value -
        1``), and the blocking clause is those literals negated. An instance whose search
        needs more than one conflict slice goes on through :meth:`count` (Ctrl-C is still
        delivered between slices).
        """
        if not self._quick(budget):
            outcomes = super().count_many(instances, limit, budget)
            return [replace(o, count=None) for o in outcomes] if solving else outcomes
        cells, k = self.shared.cell_vars.shape
        givens = np.stack([instance.flat_givens for instance in instances]).astype(np.int64)
        rows, columns = np.nonzero(givens)
        literals = (columns * k + givens[rows, columns]).tolist()
        ends = np.cumsum(np.count_nonzero(givens, axis=1)).tolist()
        outcomes, start = [], 0
        with python_signals():
            for instance, end in zip(instances, ends, strict=True):
                started = time.perf_counter()
                outcome = self._quick_count(instance, literals[start:end], limit, cells, k,
                                            budget)
                outcome.seconds = time.perf_counter() - started
                if solving:
                    outcome.count = None
                outcomes.append(outcome)
                start = end
        return outcomes

    def solve_many(self, instances: Sequence[Any], budget: Budget = UNLIMITED) -> list[Outcome]:
        if self.shared is None:
            return super().solve_many(instances, budget)
        return self._many(instances, 1, budget, solving=True)

    def _quick(self, budget: Budget) -> bool:
        """Whether the batch fast path applies: a shared solver over the standard numbering,
        a solver that takes conflict budgets, and no time or conflict budget to keep."""
        if self.shared is None or budget.seconds is not None or budget.conflicts is not None:
            return False
        if not supports_budget(self.name):
            return False
        ids = self.shared.cell_vars.reshape(-1)
        return bool(ids[0] == 1 and ids[-1] == ids.size and (np.diff(ids) == 1).all())

    def _quick_count(self, instance, givens: list[int], limit: int | None, cells: int,
                     k: int, budget: Budget) -> Outcome:
        if self._top - self.shared.cnf.num_vars >= self.renew_every:
            self._renew()
        self._top += 1
        guard = self._top
        sat, assumptions, size = self._sat, givens + [guard], cells * k
        count, first = 0, None
        try:
            while limit is None or count < limit:
                sat.conf_budget(FIRST_SLICE)
                status = sat.solve_limited(assumptions=assumptions)
                if status is None:  # a hard one: the sliced search counts it from the start
                    sat.add_clause([-guard])
                    return self._timed(self._count_outcome, instance, limit, budget)
                if not status:
                    break
                true = [lit for lit in sat.get_model()[:size] if lit > 0]
                count += 1
                if first is None:
                    first = self._grid(instance, true, cells, k)
                sat.add_clause([-guard] + [-lit for lit in true])
        finally:
            sat.add_clause([-guard])
        return Outcome("sat" if count else "unsat", first, count)

    def _grid(self, instance, true: list[int], cells: int, k: int) -> np.ndarray:
        """The grid of a model's true cell literals (one per cell, in cell order)."""
        if len(true) != cells:  # never with a sound solver; decode says what is wrong
            full = np.full(cells * k, -1, dtype=np.int64)
            full[np.asarray(true, dtype=np.int64) - 1] = 1
            return self._view(instance).decode(full * np.arange(1, cells * k + 1))
        values = (np.asarray(true, dtype=np.int64) - 1) % k + 1
        return values.astype(np.int32).reshape(instance.solution_shape)

    # one instance on its own -----------------------------------------------------------
    def _encode(self, instance, symmetry: bool, meter: Meter):
        """The instance's own formula; the budget's clock runs from before encoding."""
        encoding = self.encoding or problem_kind(instance).solo_cnf_encoding
        encoded = to_cnf(instance, encoding, self._amo_for(instance, encoding),
                         symmetry_breaking=symmetry,
                         max_bytes=meter.budget.memory)
        if meter.late():
            raise BudgetExhausted("the time budget ran out while encoding", 0)
        return encoded

    #: with no ``amo`` named, formulas above this many pairwise clauses use ``seqcounter`` (a
    #: 49x49 or 64x64 grid: 11 M and 33 M pairwise clauses, gigabytes once in the solver)
    auto_amo_clauses = 4_000_000

    #: an empty grid from this side up is solved by Takano's construction, not by search
    construct_min_side = 25

    #: a grid from :attr:`construct_min_side` up with at most this share of its cells given
    #: is first tried by :func:`~sudokit.solvers.large_fill.fill_sparse` (random matchings and
    #: a small CDCL part, ~1-2 s on a 64x64 with 1-30 % givens, where the whole-grid search
    #: has been seen to take minutes); what it does not complete goes on to the search below
    sparse_fill_max_share = 0.35

    #: seconds :func:`~sudokit.solvers.large_fill.fill_sparse` may take at most (and half of
    #: a time budget at most), before the search below takes over
    sparse_fill_seconds = 20.0

    def _amo_for(self, instance, encoding: str | None) -> str:
        if self.amo is not None:
            return self.amo
        if encoding is None or not problem_kind(instance).has_cells:
            return "pairwise"
        pairwise = completion_cnf_size(instance, encoding, "pairwise").clauses
        return "seqcounter" if pairwise > self.auto_amo_clauses else "pairwise"

    def solve(self, instance, budget: Budget = UNLIMITED):
        """One solution of ``instance`` or None (:attr:`conflicts` tells what it took).

        An empty Sudoku or Latin square of side :attr:`construct_min_side` or more is solved
        by Takano's ``bands`` construction (:func:`~sudokit.instances.patterns.pattern_grid`)
        in O(n^2): CDCL search on the empty 49x49 grid has been seen to take minutes. One
        with a few givens (:attr:`sparse_fill_max_share`) is first tried by random matchings
        and a small CDCL part (:func:`~sudokit.solvers.large_fill.fill_sparse`, its answer
        checked), within part of the time budget (:attr:`sparse_fill_seconds`).
        """
        if self.shared is not None:
            return self._shared_solve(instance, budget)
        is_grid = problem_kind(instance).family == "grid"
        if self._constructed(instance, is_grid):
            self.conflicts = 0
            return pattern_grid(instance.n, instance.box or (1, instance.n))
        meter = budget.start()
        if (is_grid and instance.n >= self.construct_min_side
                and instance.num_givens <= self.sparse_fill_max_share * instance.num_cells):
            from .large_fill import MAX_SIDE, fill_sparse  # loads numba: large grids only

            if budget.memory is not None:
                # the formula the search below may build must fit a --max-memory first, so
                # whether the instance is refused never depends on how fast the fill was
                encoding = self.encoding or problem_kind(instance).solo_cnf_encoding or ""
                _check_formula_fits(instance, encoding, self._amo_for(instance, encoding),
                                    f"this {instance.n}x{instance.n} {instance.kind}",
                                    budget.memory)

            if instance.n <= MAX_SIDE:
                seconds = self.sparse_fill_seconds
                if budget.seconds is not None:
                    seconds = min(seconds, budget.seconds / 2)
                stats: dict = {}
                grid = fill_sparse(instance, meter.started + seconds, stats=stats)
                self.conflicts = stats.get("conflicts", 0)
                if grid is not None:
                    return grid
        encoded = self._encode(instance, True, meter)
        with open_solver(self.name, encoded.cnf, meter, self._options(instance)) as sat:
            try:
                if not run_solver(sat, [], meter):
                    return None
                return encoded.decode(read_model(sat, encoded.cnf.num_vars))
            finally:
                self.conflicts = int(sat.accum_stats().get("conflicts", 0))

    def _constructed(self, instance, is_grid: bool) -> bool:
        """Whether ``instance`` (a grid if ``is_grid``: a Sudoku or Latin square) is an
        empty grid of side :attr:`construct_min_side` or more, without variants: solved by
        construction."""
        return (is_grid and instance.n >= self.construct_min_side and instance.num_givens == 0
                and not getattr(instance, "variants", ()))

    #: the solver options for solving or counting a grid (Sudoku, Latin square) on its own,
    #: by solver: CaDiCaL's ``sat`` configuration (its ``config.cpp``: stable mode only,
    #: less elimination and subsumption effort). Measured 2026-11-27 (conflicts, one
    #: unbounded call each, or CPU-paced slices): gecode's 25x25 count to 2, fewer on 10 of
    #: 11 puzzles (the 11th the same), 20-30 % fewer CPU-s in all (puzzle 9: 219,000 against
    #: 291,000, 15.0 CPU-s against 21.7), their first solutions 10 % fewer in all (fewer on
    #: 6 of 10); qcp orders 20 and 25 (30 squares): solve 51,000 against 79,000 (1.9 CPU-s
    #: against 2.9), count to 2 54,000 against 88,000. CaDiCaL's ``unsat`` configuration
    #: needed more on all 5 25x25 counts tried
    grid_options: dict[str, dict[str, int]] = {
        "cadical195": {"stabilizeonly": 1, "elimreleff": 10, "subsumereleff": 60}}

    def _options(self, instance) -> dict[str, int] | None:
        """The solver options for ``instance`` on its own (:attr:`grid_options`)."""
        if problem_kind(instance).family != "grid":
            return None
        return self.grid_options.get(self.name)

    def count(self, instance, limit: int | None = None, budget: Budget = UNLIMITED):
        """``(count, first_solution)`` of ``instance``, counting up to ``limit``.

        Examples
        --------
        >>> import numpy as np
        >>> from sudokit.instances import sudoku
        >>> with SATEngine("cadical195") as engine:
        ...     engine.count(sudoku(np.zeros((4, 4), dtype=int)), 300)[0]
        288
        """
        if self.shared is not None:
            return self._shared_count(instance, limit, budget)
        if (limit is not None
                and self._constructed(instance, problem_kind(instance).family == "grid")
                and 1 <= limit <= math.factorial(instance.n)):
            # relabelling the values of a grid without givens or variants gives n! distinct
            # solutions: at least the limit (the search on an empty 70x70 square took more
            # than a minute to find two)
            self.conflicts = 0
            return limit, pattern_grid(instance.n, instance.box or (1, instance.n))
        meter = budget.start()
        encoded = self._encode(instance, False, meter)
        with open_solver(self.name, encoded.cnf, meter, self._options(instance)) as sat:
            try:
                return _count(_enumerate(sat, encoded, [], meter), limit)
            finally:
                self.conflicts = int(sat.accum_stats().get("conflicts", 0))


def _check_formula_fits(instance, encoding: str, amo: str, what: str,
                        memory: int | None) -> None:
    """The ``encoding`` of ``instance`` must fit in ``memory`` bytes (ResourceError)."""
    check_fits(completion_cnf_size(instance, encoding, amo), f"the {encoding} encoding of {what}",
               memory, "a smaller instance (or more memory) is needed")


def _source(problem):
    """The instance behind an encoding (or the instance itself)."""
    return getattr(problem, "source", problem)


def _encoded(problem) -> bool:
    """Whether ``problem`` is an encoding into CNF (a formula and its way back)."""
    return hasattr(problem, "cnf") and hasattr(problem, "decode")


def _taken(problem) -> Any:
    """What the user passed, as an instance or an encoding
    (:func:`~sudokit.problems.user_problem`)."""
    return user_problem(problem)


def engine_for(problem, solver: str | None, budget: Budget) -> str:
    """The engine named, else the one the command line picks for this instance
    (:func:`~sudokit.solvers.registry.default_solver`): an encoding asks for a SAT solver
    on its own formula, as ``--encoding`` does, and so does a budget of conflicts.

    Examples
    --------
    >>> from sudokit.encoders import grid_to_cnf
    >>> engine_for(user_problem("." * 81), None, UNLIMITED), engine_for(
    ...     grid_to_cnf("." * 81), None, UNLIMITED)
    ('takano', 'cadical195')
    """
    if solver is not None:
        return resolve_solver(solver)
    encoding = getattr(problem, "encoding", "cnf") if _encoded(problem) else None
    return default_solver(_source(problem), run_needs(budget, encoding=encoding))


def solutions(encoding, solver: str = DEFAULT_SOLVER, budget: Budget = UNLIMITED):
    """Yield every solution of an encoded problem, each once (see the module notes).

    ``encoding`` is a CNF encoding, or anything :func:`solve` takes (then encoded with its
    kind's default CNF encoding, :func:`~sudokit.encoders.to_cnf`); ``solver`` is a SAT
    solver. Raises :class:`BudgetExhausted` when the budget runs out mid-way.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> sum(1 for _ in solutions(latin_square(np.zeros((3, 3), dtype=int))))
    12
    >>> sum(1 for _ in solutions("1234" + "." * 12))     # 288 grids / 4! first rows
    12
    """
    encoding = _taken(encoding)
    if not _encoded(encoding):
        encoding = to_cnf(_source(encoding))
    if not encoding.parsimonious:
        raise SolverError(f"{encoding.name} does not count solutions one to one (symmetry "
                          "breaking, or a reduction that is not parsimonious); encode without "
                          "it to enumerate")
    name = resolve_solver(solver)
    if name not in SOLVERS:
        raise SolverError(f"solutions enumerates with a SAT solver, not {name}; count with "
                          "count_solutions(problem, solver=...)")
    meter = budget.start()
    with open_solver(name, encoding.cnf, meter) as sat:
        yield from _enumerate(sat, encoding, [], meter)


def count_solutions(problem, limit: int | None = None, solver: str | None = None,
                    budget: Budget = UNLIMITED) -> int:
    """Number of solutions, stopping at ``limit`` (so ``limit=2`` means "at least 2").

    Parameters
    ----------
    problem
        Anything :func:`solve` takes. A CNF encoding is counted on its own formula by a SAT
        solver; with a solver that does not read CNF (``dlx``), its source instance is
        counted by that engine.
    limit : int, optional
    solver : str, optional
        An engine of ``sudokit solvers``; by default the one ``sudokit count`` picks
        (:func:`~sudokit.solvers.registry.default_solver`: takano for grids up to 16x16,
        dlx for exact cover, else cadical195).
    budget : Budget

    Raises
    ------
    BudgetExhausted
        The budget ran out first.
    SudokitError
        A problem that is not one (:func:`~sudokit.interop.convert.as_problem`).

    Examples
    --------
    >>> count_solutions("1234" + "." * 12)      # 288 grids / 4! first rows
    12
    >>> count_solutions("p cnf 2 1\\n1 2 0\\n")
    3
    """
    problem = _taken(problem)
    name = engine_for(problem, solver, budget)
    if name in SOLVERS and _encoded(problem):
        return _count(solutions(problem, name, budget), limit)[0]
    with open_engine(name) as engine:
        return int(engine.count(_source(problem), limit, budget)[0])


def is_unique(problem, solver: str | None = None, budget: Budget = UNLIMITED) -> bool:
    """True if the problem has exactly one solution (counting with limit 2; ``problem`` and
    ``solver`` as in :func:`count_solutions`).

    Examples
    --------
    >>> is_unique("1234" + "." * 12), is_unique("1234341221434321")
    (False, True)
    """
    return count_solutions(problem, 2, solver, budget) == 1


def solve(problem, solver: str | None = None, budget: Budget = UNLIMITED):
    """One solution (a grid, a coloring array, a model, the chosen options), or None if
    there is none.

    Parameters
    ----------
    problem
        An instance, a record of :func:`~sudokit.formats.read_instances`, an encoding or
        reduction (its answer decoded back), puzzle text, an array or list of rows, a
        :class:`~sudokit.cnf.CNF` or ``pysat.formula.CNF``, a networkx graph with a
        ``precolor`` node attribute, a scipy sparse exact cover matrix
        (:func:`~sudokit.interop.convert.as_problem`).
    solver : str, optional
        As in :func:`count_solutions`: by default the engine ``sudokit solve`` picks.
    budget : Budget

    Examples
    --------
    >>> solve("1234" + "." * 12).tolist()
    [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    >>> solve("11" + "." * 14)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: <string>:1: given 1 at row 1, column 2 repeats in row 1 ...
    """
    problem = _taken(problem)
    name = engine_for(problem, solver, budget)
    if name not in SOLVERS or not _encoded(problem):
        with open_engine(name) as engine:
            return engine.solve(_source(problem), budget)
    meter = budget.start()
    with open_solver(name, problem.cnf, meter) as sat:
        if not run_solver(sat, [], meter):
            return None
        return problem.decode(read_model(sat, problem.cnf.num_vars))
