"""The CP search family as engines: ``backtrack``, ``fcmrv``, ``bitset``, ``norvig``, ``takano``.

One engine class drives five search methods (one module each, the exact methods Takano, de
Freitas and Sá compare in section 4 of their paper). Every method works on the unit model
(:mod:`sudokit.solvers.unit_model`), so each solves and counts Sudoku of any box shape, Latin
square completion and precoloring extension, with up to 64 values. Each method module has
three numba kernels with one calling convention, made of the method's steps by
:func:`~sudokit.solvers.cp_search.search_kernels` (the search frame they share):

``start(*work, *model, num_values, flags, givens, state)``
    level 0 of one puzzle (``state = [depth, phase, solutions, nodes]``);
``run(*work, *model, num_values, flags, state, limit, stop, first)``
    the search, resumable: 1 at ``limit`` solutions, 0 at the end, -1 when the node count
    reaches ``stop`` (the next call goes on from there), -2 when a method that copies a level
    per node (norvig, takano) runs out of levels (the engine doubles them, ``grow``, and calls
    again: levels are allocated as deep as the search goes, after checking that the deepest
    possible stack fits the memory allowed);
``batch(*work, *model, num_values, flags, givens, begin, limit, cap_each, cap_call, ...)``
    puzzle after puzzle in one call, each with at most ``cap_each`` nodes, until ``cap_call``
    nodes are spent.

Opened for a shape, the engine counts a whole chunk of same-shape instances in kernel calls of
bounded work (no Python per puzzle); the rare puzzle that needs more than one slice of nodes
goes on alone in resumable slices, the clock read between them, so a time budget holds and
Ctrl-C lands within tens of milliseconds. A node is a search-tree node: the root and every
value tried for a branching cell. :meth:`CPEngine.count_givens` is the array interface
(``(N, C)`` givens in, count, first-solution, unknown and node arrays out).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> empty = latin_square(np.zeros((4, 4), dtype=int))
>>> with CPEngine("norvig", shape=empty) as engine:
...     [outcome.count for outcome in engine.count_many([empty, empty], limit=1000)]
[576, 576]
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Any, NamedTuple

import numpy as np

from .._accel.native import after_numba, native_kernel
from ..errors import BudgetExhausted, InstanceError, ResourceError, SolverError
from ..resources import available_memory, format_bytes
from .budget import UNLIMITED, Budget, Meter
from .engine import ArrayOutcome, EngineBase, Outcome
from .slicing import DECIDED, decided_parts, in_slices
from .unit_model import UnitModel, shape_of, stack_givens, unit_model

__all__ = ["CPEngine", "CPResult", "METHODS", "SearchMethod"]

_NO_LIMIT = np.iinfo(np.int64).max


@dataclass(frozen=True)
class SearchMethod:
    """One method of the family: its kernel module and how the engine feeds it.

    The module defines ``start``, ``run`` and ``batch`` (see the module docstring) and
    ``model_args(model)``, ``work(model, depth)``, ``level_bytes(model)`` and
    ``slice_nodes(model)``; ``flags`` is passed to its kernels, less ``small[1]`` on shapes of
    at most ``small[0]`` cells.
    """

    name: str
    module: str
    flags: int = 0
    small: tuple[int, int] = (0, 0)
    #: the module with the Python helpers, when not ``module`` (importing no numba)
    layout: str | None = None
    #: the name of ``batch`` in :data:`sudokit._accel.native.KERNELS`, when it can run without numba
    native: str | None = None

    @property
    def kernels(self) -> Any:
        return import_module(self.module)

    @property
    def helpers(self) -> Any:
        """``model_args``, ``work``, ``grow``, ``level_bytes``, ``slice_nodes``."""
        return import_module(self.layout or self.module)

    def flags_for(self, cells: int) -> int:
        """The flags of a shape of ``cells`` cells.

        >>> METHODS["takano"].flags_for(81), METHODS["takano"].flags_for(625)
        (11, 15)
        """
        most, dropped = self.small
        return self.flags & ~dropped if cells <= most else self.flags


#: the methods by engine name
METHODS: dict[str, SearchMethod] = {
    "backtrack": SearchMethod("backtrack", "sudokit.solvers.backtrack"),
    "fcmrv": SearchMethod("fcmrv", "sudokit.solvers.fcmrv"),
    "bitset": SearchMethod("bitset", "sudokit.solvers.bitset"),
    "norvig": SearchMethod("norvig", "sudokit.solvers.norvig"),
    # takano.ALL (a test checks); up to 16x16 without the bucket heap (takano.HEAP), which
    # chooses the same cell as a scan of the cells (the same search) but costs more than the
    # scan there: the 49,158 17-clue puzzles' uniqueness in one batch 0.37 s against 0.42 s,
    # 1,465 magictour puzzles 0.038 s against 0.041 s, 3,000 of the forum's hardest 0.48 s
    # against 0.47 s, 100 16x16 puzzles 0.010 s against 0.011 s
    "takano": SearchMethod("takano", "sudokit.solvers.takano", 15, small=(256, 4),
                           layout="sudokit.solvers.takano_layout", native="takano-batch"),
}


class CPResult(NamedTuple):
    """What :meth:`CPEngine.count_givens` returns: arrays over the batch."""

    counts: np.ndarray    #: int64 (N,): solutions found, up to the limit (a lower bound if unknown)
    firsts: np.ndarray    #: int32 (N, C): the first solution's values (0s when none)
    unknown: np.ndarray   #: bool (N,): the budget ran out
    nodes: np.ndarray     #: int64 (N,): search-tree nodes


class CPEngine(EngineBase):
    """An engine of the CP family (see the module); ``name`` picks the method.

    Parameters
    ----------
    name : str
        A key of :data:`METHODS`.
    shape : instance, optional
        Share one unit model among instances of this shape (a grid's kind, side and boxes).
    flags : int, optional
        Method options (``takano``: :data:`~sudokit.solvers.takano.HEAP`,
        :data:`~sudokit.solvers.takano.LOCKED`, :data:`~sudokit.solvers.takano.NAKED_PAIRS`);
        by default the method's own for the shape (:meth:`SearchMethod.flags_for`).
    """

    def __init__(self, name: str = "takano", shape: Any = None, encoding: str | None = None,
                 amo: str | None = None, flags: int | None = None):
        if name not in METHODS:
            raise SolverError(f"unknown CP method {name!r}; choose one of {', '.join(METHODS)}")
        self.name = name
        self.method = METHODS[name]
        self.helpers = self.method.helpers
        self.flags = None if flags is None else int(flags)
        self.model: UnitModel | None = None
        self._work: tuple = ()
        self._work_model: UnitModel | None = None
        self._work_depth = 0
        if shape is not None:
            self.model = unit_model(shape)
            self.batch_size = 4096

    @property
    def kernels(self) -> Any:
        """The method's numba kernels (imported when first needed)."""
        return self.method.kernels

    def _batch_kernel(self) -> Any:
        """The method's batch kernel, run without numba where :mod:`sudokit._accel.native` has
        it."""
        if self.method.native is not None:
            found = native_kernel(self.method.native)
            if found is not None:
                return found
        return self.kernels.batch

    def flags_for(self, model: UnitModel) -> int:
        """The flags the kernels get for ``model``'s shape: those given, else the method's
        for its number of cells."""
        return self.method.flags_for(model.num_cells) if self.flags is None else self.flags

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        """Instances of one shape share a unit model (the encoding options do not apply)."""
        return True

    # the array interface ----------------------------------------------------------------
    def count_givens(self, givens: Any, limit: int | None = None, budget: Budget = UNLIMITED,
                     model: UnitModel | None = None, meter: Meter | None = None) -> CPResult:
        """Count the completions of each row of ``givens`` (``(N, C)``, 0 = empty) up to
        ``limit``, within ``budget`` per row (``seconds``, ``nodes``; ``meter``: a clock
        already running for a single row).

        Examples
        --------
        >>> import numpy as np
        >>> from sudokit.instances import sudoku
        >>> engine = CPEngine("takano", shape=sudoku(np.zeros((4, 4), dtype=int)))
        >>> result = engine.count_givens(np.zeros((2, 16), dtype=np.int32), limit=2)
        >>> result.counts.tolist(), result.firsts[0, :4].tolist()
        ([2, 2], [1, 2, 3, 4])
        """
        model = model or self.model
        if model is None:
            raise SolverError("count_givens needs an engine opened for a shape (or a model)")
        rows = self._check_givens(givens, model)
        result = _empty_result(len(rows), model)
        for _ in self._counted(rows, _limit(limit), budget, model, meter, result):
            pass
        return result

    def count_givens_parts(self, givens: Any, limit: int | None = None,
                           budget: Budget = UNLIMITED,
                           model: UnitModel | None = None) -> Iterator[tuple[int, CPResult]]:
        """:meth:`count_givens` in consecutive parts, in order, each as soon as its rows are
        decided: ``(start, result of rows start, start+1, ...)``. A row that needs more than
        one slice of nodes comes in a part of its own, after the part of the rows before it
        (which never wait for it); the counts, solutions and nodes are those of
        :meth:`count_givens`.

        Examples
        --------
        >>> import numpy as np
        >>> from sudokit.instances import sudoku
        >>> engine = CPEngine("takano", shape=sudoku(np.zeros((4, 4), dtype=int)))
        >>> [(start, part.counts.tolist()) for start, part in
        ...  engine.count_givens_parts(np.zeros((2, 16), dtype=np.int32), limit=2)]
        [(0, [2, 2])]
        """
        model = model or self.model
        if model is None:
            raise SolverError("count_givens_parts needs an engine opened for a shape (or a "
                              "model)")
        rows = self._check_givens(givens, model)
        result = _empty_result(len(rows), model)
        start = 0
        for stop in self._counted(rows, _limit(limit), budget, model, None, result):
            yield start, CPResult(*(column[start:stop] for column in result))
            start = stop

    def _counted(self, rows: np.ndarray, limit: int, budget: Budget, model: UnitModel,
                 meter: Meter | None, result: CPResult) -> Iterator[int]:
        """Count ``rows`` into ``result``; yields the end of each run of rows decided
        (:func:`~sudokit.solvers.slicing.decided_parts`)."""
        size = len(rows)
        if size == 0 or limit == 0:
            return
        counts, firsts, unknown, nodes = result
        margs = self.helpers.model_args(model)
        flags = self.flags_for(model)
        work = self._prepare(model, rows, budget)
        slice_nodes = int(self.helpers.slice_nodes(model))
        lost = np.zeros(size, dtype=np.int8)    # 1: out of nodes, 2: out of levels
        kernel = self._batch_kernel()
        state = np.zeros(6, dtype=np.int64)

        def step(cap: int, begin: int) -> int:
            with np.errstate(all="ignore"):   # the pure-Python kernels wrap int64 masks
                end = int(kernel(*work, *margs, model.num_values, flags, rows, begin, limit,
                                 cap, 2 * slice_nodes, counts, firsts, lost, nodes, state))
            if self.method.native is not None:
                after_numba(self.method.native)  # the command line's next runs skip numba
            return end

        def alone(p: int) -> tuple[int, bool]:
            count, nodes[p], out = self._count_sliced(margs, model, rows[p], limit, budget,
                                                      firsts[p], meter)
            return count, out

        for stop in decided_parts(step, alone, counts, lost, slice_nodes, budget):
            unknown[:stop] = lost[:stop] != DECIDED
            yield stop

    def _count_sliced(self, margs: tuple, model: UnitModel, row: np.ndarray, limit: int,
                      budget: Budget, first: np.ndarray, meter: Meter | None):
        """One row alone, in slices of nodes with the clock read between; ``(count, nodes,
        budget ran out)``."""
        meter = meter or budget.start()
        state = np.zeros(6, dtype=np.int64)
        flags = self.flags_for(model)

        def step(stop: int) -> int:
            result = int(self.kernels.run(*self._work, *margs, model.num_values, flags, state,
                                          limit, stop, first))
            if result == -2:
                self._grow(model, budget)
            return result

        with np.errstate(all="ignore"):
            self.kernels.start(*self._work, *margs, model.num_values, flags, row, state)
            out = in_slices(step, lambda: int(state[3]), int(self.helpers.slice_nodes(model)),
                            budget, meter, found=lambda: int(state[2]))
        return int(state[2]), int(state[3]), out

    def _check_givens(self, givens: Any, model: UnitModel) -> np.ndarray:
        rows = np.asarray(givens)
        if rows.ndim != 2 or rows.shape[1] != model.num_cells or (
                rows.size and rows.dtype.kind not in "iu"):
            raise InstanceError(f"givens must be an integer array of shape (N, "
                                f"{model.num_cells}), got {rows.dtype} {rows.shape}")
        if rows.size and (rows.min() < 0 or rows.max() > model.num_values):
            raise InstanceError(f"givens must lie in 0..{model.num_values}")
        return np.ascontiguousarray(rows, dtype=np.int32)

    #: levels allocated at first by the methods that copy a level per node (more on demand)
    first_levels = 64

    def _prepare(self, model: UnitModel, rows: np.ndarray, budget: Budget) -> tuple:
        """The kernels' scratch for these rows: reused while it serves the model and is deep
        enough. The deepest search it could need must fit in the memory allowed
        (:class:`~sudokit.errors.ResourceError` otherwise); the levels of the methods that
        copy one per node are then allocated as the search goes deeper."""
        deepest = int((rows == 0).sum(axis=1).max()) + 2
        need = deepest * int(self.helpers.level_bytes(model))
        allowed = available_memory() if budget.memory is None else int(budget.memory)
        if need > allowed:
            raise ResourceError(f"{self.name} may need {format_bytes(need)} for its search "
                                f"stack ({deepest} levels) but {format_bytes(allowed)} is "
                                "allowed")
        depth = min(deepest, self.first_levels) if hasattr(self.helpers, "grow") else deepest
        if self._work_model is not model or self._work_depth < depth:
            self._work = self.helpers.work(model, depth)
            self._work_model, self._work_depth = model, depth
        return self._work

    def _grow(self, model: UnitModel, budget: Budget) -> None:
        """Twice the levels (a search deeper than the first allocation)."""
        depth = min(2 * self._work_depth, model.num_cells + 2)
        self._work = self.helpers.grow(self._work, depth)
        self._work_depth = depth

    # one instance -------------------------------------------------------------------------
    def _model_for(self, instance: Any) -> UnitModel:
        if self.model is not None and _fits(self.model, instance):
            return self.model
        return unit_model(instance)

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
        """``(count, first_solution)``; the budget's ``seconds`` and ``nodes`` bound it."""
        meter = budget.start()
        model = self._model_for(instance)
        result = self.count_givens(stack_givens([instance], model.num_cells), limit, budget,
                                   model, meter)
        count = int(result.counts[0])
        if result.unknown[0]:
            raise BudgetExhausted(f"{self.name} budget ran out after {count} solution(s)", count)
        return count, _decode(model, result.firsts[0]) if count else None

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None:
        return self.count(instance, 1, budget)[1]

    # batches ------------------------------------------------------------------------------
    def count_many(self, instances: Sequence[Any], limit: int | None = None,
                   budget: Budget = UNLIMITED) -> list[Outcome]:
        return self._many(instances, limit, budget, solving=False)

    def _many(self, instances: Sequence[Any], limit: int | None, budget: Budget,
              solving: bool) -> list[Outcome]:
        """The chunk in kernel calls when every instance has the engine's shape."""
        model = self.model
        if model is None or not all(_fits(model, p) for p in instances):
            outcomes = (super().count_many(instances, limit, budget) if not solving
                        else super().solve_many(instances, budget))
            return outcomes
        found = self.count_arrays(model.givens_of(instances), limit, budget)
        return found.outcomes(model.solution_shape, solving)

    @property
    def takes_arrays(self) -> bool:
        return self.model is not None

    def count_arrays(self, givens: Any, limit: int | None = None,
                     budget: Budget = UNLIMITED) -> ArrayOutcome:
        """:meth:`count_givens` as the engines' array protocol
        (:class:`~sudokit.solvers.engine.ArrayOutcome`): ``(N, cells)`` givens of the
        engine's shape."""
        started = time.perf_counter()
        counts, firsts, unknown, _ = self.count_givens(givens, limit, budget)
        return ArrayOutcome(counts, firsts, unknown, time.perf_counter() - started)

    def solve_many(self, instances: Sequence[Any], budget: Budget = UNLIMITED) -> list[Outcome]:
        return self._many(instances, 1, budget, solving=True)

    # the same in parts, each as soon as it is decided --------------------------------------
    def count_array_parts(self, givens: Any, limit: int | None = None,
                          budget: Budget = UNLIMITED) -> Iterator[ArrayOutcome]:
        """:meth:`count_arrays` in consecutive parts, in order, each as soon as its rows are
        decided (:meth:`count_givens_parts`): a hard row holds back none before it."""
        started = time.perf_counter()
        for _, part in self.count_givens_parts(givens, limit, budget):
            yield ArrayOutcome(part.counts, part.firsts, part.unknown,
                               time.perf_counter() - started)
            started = time.perf_counter()

    def count_parts(self, instances: Sequence[Any], limit: int | None = None,
                    budget: Budget = UNLIMITED) -> Iterator[list[Outcome]]:
        """:meth:`count_many` in consecutive parts, in order, each as soon as it is decided.

        Examples
        --------
        >>> import numpy as np
        >>> from sudokit.instances import latin_square
        >>> empty = latin_square(np.zeros((3, 3), dtype=int))
        >>> with CPEngine("takano", shape=empty) as engine:
        ...     [[o.count for o in part] for part in engine.count_parts([empty] * 2, 20)]
        [[12, 12]]
        """
        return self._parts(instances, limit, budget, solving=False)

    def solve_parts(self, instances: Sequence[Any],
                    budget: Budget = UNLIMITED) -> Iterator[list[Outcome]]:
        """:meth:`solve_many` in consecutive parts, in order, each as soon as it is
        decided."""
        return self._parts(instances, 1, budget, solving=True)

    def _parts(self, instances: Sequence[Any], limit: int | None, budget: Budget,
               solving: bool) -> Iterator[list[Outcome]]:
        model = self.model
        if model is None or not all(_fits(model, p) for p in instances):
            yield self._many(instances, limit, budget, solving)
            return
        for found in self.count_array_parts(model.givens_of(instances), limit, budget):
            yield found.outcomes(model.solution_shape, solving)


def _empty_result(size: int, model: UnitModel) -> CPResult:
    """Zero counts, solutions and nodes and no unknown row, for ``size`` rows."""
    return CPResult(np.zeros(size, dtype=np.int64),
                    np.zeros((size, model.num_cells), dtype=np.int32),
                    np.zeros(size, dtype=bool), np.zeros(size, dtype=np.int64))


def _fits(model: UnitModel, instance: Any) -> bool:
    """Whether ``instance`` has the model's shape (graphs never share one)."""
    return model.key is not None and model.key == shape_of(instance)


def _decode(model: UnitModel, row: np.ndarray) -> np.ndarray:
    return np.array(row, dtype=np.int32).reshape(model.solution_shape)


def _limit(limit: int | None) -> int:
    if limit is None:
        return int(_NO_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 0:
        raise SolverError(f"limit must be a non-negative integer or None (got {limit!r})")
    return int(limit)
