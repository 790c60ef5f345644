"""The binary integer program of a completion problem, solved by branch and cut with HiGHS.

The model is the one of Bartlett, Chartier, Langville and Rankin ("An integer programming
model for the Sudoku problem", J. Online Math. Appl. 8, 2008, section 2), written on the unit
model so that it serves every kind: a binary ``x[cell, value]`` per cell and value,

- one value per cell: ``sum_v x[c, v] = 1``;
- each value once per unit: ``sum_{c in u} x[c, v] = 1`` for a unit of ``num_values`` cells
  (Sudoku rows, columns and boxes; Latin rows and columns), ``<= 1`` for a smaller unit (an
  edge of a graph: adjacent vertices never share a color);
- givens fixed, by column bounds (and the values a given rules out of its units fixed to 0,
  the first step of any presolve).

Column ``cell * num_values + value - 1`` is ``x[cell, value]`` (cells flat, values from 1).
:func:`completion_to_ilp` builds the model (with an optional objective, e.g. for a generator
that wants a random or a weighted solution), :class:`ILPSolver` solves it with HiGHS
(``highspy``, installed by ``pip install "sudokit[ilp]"``; imported only when a model is
solved) and :class:`ILPEngine` is the engine ``ilp`` (Bartlett et al. used CPLEX).

Counting adds a *no-good cut* after each solution, on the free cells only:
``sum_{c free} x[c, s_c] <= F - 1`` (``F`` free cells; it is ``sum (1 - x) >= 1`` over the
columns set to 1), and solves again until the model is infeasible or the limit is reached.
Each cell holds exactly one value, so the cut removes exactly one solution: counts are exact.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> model = completion_to_ilp(latin_square(np.array([[1, 0], [0, 0]])))
>>> model.num_cols, model.num_rows, model.num_free
(8, 12, 3)
>>> model.upper.reshape(4, 2).astype(int).tolist()   # cell 0 is 1; cells 1 and 2 cannot be 1
[[1, 0], [0, 1], [0, 1], [1, 1]]
"""

from __future__ import annotations

import importlib.util
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._quiet import c_stdout_silenced
from .._signals import signals_deferred
from ..encoders import candidate_mask
from ..errors import BudgetExhausted, MissingExtraError, ResourceError, SolverError
from ..resources import available_memory, format_bytes
from .budget import UNLIMITED, Budget, Meter
from .engine import EngineBase

__all__ = ["ILPModel", "ILPSolver", "ILPEngine", "completion_to_ilp", "solve_ilp", "load_failure"]

#: bytes per nonzero of the constraint matrix while HiGHS holds the model, its presolved copy
#: and the branch-and-cut data (peak RSS measured: 290 MB for the 648,000 nonzeros of an empty
#: Latin square of order 60, 1.16 GB for the 3 M of order 100)
BYTES_PER_NONZERO = 480


@dataclass(frozen=True)
class ILPModel:
    """A binary ILP in HiGHS's row-wise form (see the module).

    ``starts``/``index``/``value`` hold the constraint matrix by rows (CSR); every column is
    binary. ``source`` is the instance, ``free`` its free cells.
    """

    source: Any
    cost: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    starts: np.ndarray
    index: np.ndarray
    value: np.ndarray
    free: np.ndarray

    @property
    def num_cols(self) -> int:
        return len(self.cost)

    @property
    def num_rows(self) -> int:
        return len(self.row_lower)

    @property
    def num_free(self) -> int:
        return len(self.free)

    @property
    def num_values(self) -> int:
        return int(self.source.num_values)

    def column(self, cell: int, value: int) -> int:
        """The column of ``x[cell, value]`` (value from 1)."""
        return cell * self.num_values + value - 1

    def decode(self, x: np.ndarray) -> np.ndarray:
        """The solution (in the instance's ``solution_shape``) of a 0/1 column vector."""
        values = np.asarray(x).reshape(-1, self.num_values).argmax(axis=1) + 1
        return values.astype(np.int32).reshape(self.source.solution_shape)

    def no_good(self, solution: np.ndarray) -> np.ndarray:
        """The columns of the cut that excludes ``solution``: ``x[c, s_c]`` of the free cells."""
        flat = np.asarray(solution).reshape(-1)
        return (self.free * self.num_values + flat[self.free] - 1).astype(np.int32)


def check_ilp_fits(instance: Any, max_bytes: int | None = None) -> None:
    """Refuse (:class:`~sudokit.errors.ResourceError`) a model that would not fit in
    ``max_bytes`` (default: the memory available), from the instance's shape alone."""
    k, cells = int(instance.num_values), int(instance.num_cells)
    nonzeros = cells * k + instance.units().size * k
    needed = nonzeros * BYTES_PER_NONZERO
    allowed = available_memory() if max_bytes is None else int(max_bytes)
    if needed > allowed:
        raise ResourceError(f"the integer program needs about {format_bytes(needed)} "
                            f"({nonzeros:,} nonzeros) but {format_bytes(allowed)} is allowed")


def completion_to_ilp(instance: Any, objective: np.ndarray | None = None,
                      max_bytes: int | None = None) -> ILPModel:
    """The binary ILP of a completion instance (Bartlett et al. 2008; see the module).

    Parameters
    ----------
    instance : GridPuzzle or Precoloring
        Any instance of the unit model (``num_cells``, ``num_values``, ``units``, givens).
    objective : array of float, optional
        Cost of each column (``num_cells * num_values``, or shape ``(num_cells,
        num_values)``), minimised; by default 0 (any solution).
    max_bytes : int, optional
        Refuse (:class:`~sudokit.errors.ResourceError`) a model that would need more memory
        (default: the memory available).

    Examples
    --------
    >>> from sudokit.instances import precoloring
    >>> path = precoloring(3, [(0, 1), (1, 2)], 3)     # an edge holds each color at most once
    >>> model = completion_to_ilp(path)
    >>> model.num_rows, set(model.row_lower[3:].tolist()), set(model.row_upper[3:].tolist())
    (9, {0.0}, {1.0})
    """
    check_ilp_fits(instance, max_bytes)
    k, cells = int(instance.num_values), int(instance.num_cells)
    givens = np.asarray(instance.flat_givens, dtype=np.int64)
    units = np.asarray(instance.units(), dtype=np.int64)
    num_cols = cells * k
    if objective is None:
        cost = np.zeros(num_cols)
    else:
        cost = np.asarray(objective, dtype=np.float64).reshape(-1)
        if cost.shape != (num_cols,):
            raise SolverError(f"the objective needs {num_cols} entries (one per cell and "
                              f"value), got {cost.size}")
    upper = candidate_mask(instance).astype(np.float64)
    lower = np.zeros_like(upper)
    given = np.flatnonzero(givens > 0)
    upper[given, givens[given] - 1] = lower[given, givens[given] - 1] = 1.0
    # one value per cell: row c holds columns c*k .. c*k + k - 1
    cell_index = np.arange(num_cols, dtype=np.int32)
    # each value once per unit: row (u, v) holds the columns of v in the cells of u
    width = units.shape[1]
    unit_index = (units[:, None, :] * k + np.arange(k)[None, :, None]).reshape(-1)
    full = 1.0 if width == k else 0.0
    num_unit_rows = len(units) * k
    starts = np.concatenate([np.arange(cells, dtype=np.int64) * k,
                             num_cols + np.arange(num_unit_rows + 1, dtype=np.int64) * width])
    index = np.concatenate([cell_index, unit_index.astype(np.int32)])
    return ILPModel(source=instance, cost=cost, lower=lower.reshape(-1),
                    upper=upper.reshape(-1),
                    row_lower=np.concatenate([np.ones(cells), np.full(num_unit_rows, full)]),
                    row_upper=np.ones(cells + num_unit_rows),
                    starts=starts.astype(np.int32), index=index,
                    value=np.ones(len(index)), free=np.flatnonzero(givens == 0))


def _highspy() -> Any:
    try:
        with signals_deferred():  # a signal cut into highspy's C init reads as ImportError
            import highspy
    except ImportError as err:
        raise load_failure("ilp", "highspy", err) from None
    return highspy


def load_failure(engine: str, module: str, err: ImportError) -> SolverError:
    """The error for an optional module that is missing or fails to load (one line).

    highspy and ortools both ship a ``libhighs.so.1``; in one process the first one loaded
    serves both, so their HiGHS versions must agree (google/or-tools#5246).
    """
    from .registry import ENGINES  # the install command, from the one place it is kept

    if importlib.util.find_spec(module) is None:
        return MissingExtraError(f"solver {engine} needs {module}, which is not installed: "
                                 f"{ENGINES[engine].install}")
    reason = str(err).splitlines()[0] if str(err) else type(err).__name__
    return MissingExtraError(f"solver {engine} cannot load {module} ({reason}); with both "
                             "highspy and ortools installed, their HiGHS versions must agree: "
                             'pip install "sudokit[all]" installs a matching pair')


class ILPSolver:
    """A HiGHS instance loaded with an :class:`ILPModel`; use it in a ``with`` block.

    :meth:`solve` runs branch and cut within a budget (its ``seconds``: a node limit would
    not bound the root node's cutting rounds, which alone take minutes on 25x25); the run
    happens on a thread of its own while this thread waits in short slices, so Ctrl-C
    lands at once: the solve is cancelled (HiGHS's interrupt callbacks), and the interrupt
    raised here. HiGHS prints nothing on standard output (see :mod:`sudokit._quiet`).
    """

    #: seconds between two looks at the solver thread (and at a pending Ctrl-C)
    poll = 0.05

    def __init__(self, model: ILPModel):
        highspy = _highspy()
        self.model = model
        # HiGHS 1.16 prints its banner on descriptor 1 as the object is built, before any
        # option can be set: standard output carries the answers
        with c_stdout_silenced():
            self._h = highspy.Highs()
        for option, value in (("output_flag", False), ("log_to_console", False),
                              ("threads", 1), ("mip_rel_gap", 0.0), ("random_seed", 0)):
            self._h.setOptionValue(option, value)
        self._status = highspy.HighsModelStatus
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = model.num_cols, model.num_rows
        lp.col_cost_, lp.col_lower_, lp.col_upper_ = model.cost, model.lower, model.upper
        lp.row_lower_, lp.row_upper_ = model.row_lower, model.row_upper
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = model.num_cols, model.num_rows
        lp.a_matrix_.start_, lp.a_matrix_.index_ = model.starts, model.index
        lp.a_matrix_.value_ = model.value
        lp.integrality_ = [highspy.HighsVarType.kInteger] * model.num_cols
        self._h.passModel(lp)
        #: set to stop the running solve at HiGHS's next check point (its interrupt callbacks)
        self._cancel = threading.Event()
        for callbacks in self._interrupt_callbacks():
            callbacks += self._interrupt
        #: branch-and-bound nodes of every solve so far
        self.nodes = 0

    def _interrupt_callbacks(self) -> list[Any]:
        h = self._h
        return [h.cbSimplexInterrupt, h.cbIpmInterrupt, h.cbMipInterrupt]

    def _interrupt(self, event: Any) -> None:
        if self._cancel.is_set():
            event.interrupt()

    def close(self) -> None:
        if self._h is not None:
            for callbacks in self._interrupt_callbacks():
                callbacks -= self._interrupt
            self._h = None

    def __enter__(self) -> ILPSolver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, meter: Meter | None) -> None:
        """HiGHS's run on a thread of ours; this thread waits in short slices, and cancels
        the run on an exception (Ctrl-C) or when the meter's clock has run out (HiGHS reads
        its own clock only now and then).

        highspy's own ``startSolve``/``wait`` are not used: a Ctrl-C that lands inside them
        is lost (``startSolve`` returns from a ``finally``) or leaves their lock held. The
        wait is on an event, not on ``Thread.join`` with a timeout, which an interrupt leaves
        believing a running thread has ended before Python 3.13 (cpython#90882).
        """
        h = self._h
        self._cancel.clear()
        done = threading.Event()
        failure: list[BaseException] = []

        def target() -> None:
            try:
                h.run()
            except BaseException as err:  # handed to the caller's thread
                failure.append(err)
            finally:
                done.set()

        threading.Thread(target=target, name="sudokit-highs", daemon=True).start()
        try:
            while not done.wait(self.poll):
                if meter is not None and meter.late():
                    self._cancel.set()
        except BaseException:
            with signals_deferred():  # a second Ctrl-C must not cut the wait for HiGHS
                self._cancel.set()
                while not done.wait(self.poll):
                    pass
            raise
        if failure:
            raise SolverError(f"HiGHS failed: {failure[0]}")

    def solve(self, meter: Meter | None = None) -> np.ndarray | None:
        """The best solution (0/1 columns as int8), or None when the model is infeasible.

        Raises :class:`BudgetExhausted` when the meter's time budget runs out before a
        solution or a proof of infeasibility (a solution found by then is returned: with the
        default zero objective every solution is optimal).
        """
        h = self._h
        left = None if meter is None else meter.seconds_left()
        if left is not None and left <= 0:
            raise BudgetExhausted("the time budget ran out before the ILP was solved")
        h.setOptionValue("time_limit", float("inf") if left is None else max(left, 1e-3))
        self._run(meter)
        self.nodes += max(int(h.getInfo().mip_node_count), 0)
        status = h.getModelStatus()
        if status == self._status.kInfeasible:
            return None
        info = h.getInfo()
        if status == self._status.kOptimal or info.primal_solution_status == 2:  # feasible
            x = np.asarray(h.getSolution().col_value)
            return (x > 0.5).astype(np.int8)
        if status in (self._status.kTimeLimit, self._status.kInterrupt):
            raise BudgetExhausted("budget exhausted: unknown")
        raise SolverError(f"HiGHS stopped with status {h.modelStatusToString(status)}")

    def exclude(self, columns: np.ndarray) -> None:
        """Add the no-good cut ``sum x[columns] <= len(columns) - 1``."""
        self._h.addRow(-np.inf, float(len(columns) - 1), len(columns),
                       np.asarray(columns, dtype=np.int32), np.ones(len(columns)))


def solve_ilp(instance: Any, objective: np.ndarray | None = None,
              budget: Budget = UNLIMITED) -> np.ndarray | None:
    """A solution of ``instance`` minimising ``objective`` (any solution without one), or None.

    Builds :func:`completion_to_ilp` and solves it with HiGHS (needs ``sudokit[ilp]``);
    :class:`BudgetExhausted` when the budget runs out first.
    """
    meter = budget.start()
    model = completion_to_ilp(instance, objective, budget.memory)
    with ILPSolver(model) as solver:
        x = solver.solve(meter)
    return None if x is None else model.decode(x)


class ILPEngine(EngineBase):
    """The engine ``ilp``: the binary program of each instance, solved and counted by HiGHS.

    Instances are built one by one (a model with fixed givens presolves to the free cells'
    candidates, so sharing one model per shape would save nothing). ``encoding`` and ``amo``
    are accepted for the common engine signature and unused (no CNF is built).
    """

    def __init__(self, name: str = "ilp", shape: Any = None, encoding: str | None = None,
                 amo: str | None = None):
        _highspy()
        self.name = name

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        return False

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None:
        return self.count(instance, 1, budget)[1]

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
        """``(count, first_solution)``, counting up to ``limit`` with no-good cuts."""
        meter = budget.start()
        model = completion_to_ilp(instance, max_bytes=budget.memory)
        if model.num_free == 0:  # validated givens fill the instance: its one solution
            return 1, np.asarray(instance.flat_givens, dtype=np.int32).reshape(
                instance.solution_shape).copy()
        if not model.upper.reshape(-1, model.num_values)[model.free].any(axis=1).all():
            return 0, None   # a free cell whose every value a given rules out
        count, first = 0, None
        with ILPSolver(model) as solver:
            while limit is None or count < limit:
                try:
                    x = solver.solve(meter)
                except BudgetExhausted:
                    raise BudgetExhausted(f"budget exhausted after {count} solution(s): "
                                          "unknown", count) from None
                if x is None:
                    break
                solution = model.decode(x)
                count += 1
                first = solution if first is None else first
                solver.exclude(model.no_good(solution))
        return count, first
