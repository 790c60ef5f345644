"""Solving and counting puzzles given as arrays: ``(N, n*n)`` givens in, arrays out.

:func:`~sudokit.solvers.run_batch` takes instance objects and gives an object per result,
which is right for mixed inputs and costs a few microseconds an instance. For many grids of
one shape, :class:`ArrayBatch` hands the whole array to the engine's array call
(``count_arrays``, :mod:`sudokit.solvers.engine`: the Takano/CP kernels and DLX) and gives
counts and solutions back as arrays; an engine without one (the SAT solvers) is run through
:func:`run_batch` and its results packed into the same arrays.

Examples
--------
>>> import numpy as np
>>> givens = np.zeros((2, 16), dtype=np.uint8)
>>> givens[0, :4] = [1, 2, 3, 4]
>>> with ArrayBatch() as batch:
...     found = batch.count(givens, "sudoku", (2, 2), limit=3)
>>> found.counts.tolist(), found.solutions[0, :4].tolist()
([3, 3], [1, 2, 3, 4])
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..instances.grid import latin_square, sudoku
from ..problems import resolve
from .batch import default_names, run_batch, solver_needs
from .budget import UNLIMITED, Budget
from .engine import ArrayOutcome, takes_arrays
from .registry import ENGINES, check_engine, open_engine

__all__ = ["ArrayBatch", "count_arrays"]

_KINDS = {"sudoku": sudoku, "latin": lambda givens, box: latin_square(givens)}


class ArrayBatch:
    """Engines for arrays of givens, one per shape and engine, open until :meth:`close`.

    Parameters
    ----------
    solver : str, optional
        An engine name; by default each shape's own (:func:`~sudokit.solvers.default_solver`).
    encoding, amo, options
        As for :func:`~sudokit.solvers.run_batch`.
    """

    def __init__(self, solver: str | None = None, encoding: str | None = None,
                 amo: str | None = None, options: Mapping[str, Any] | None = None):
        self.solver, self.encoding, self.amo = solver, encoding, amo
        self.options = {key: value for key, value in (options or {}).items()
                        if value is not None}
        self.engines: dict[tuple, Any] = {}

    def engine_name(self, first: Any, budget: Budget = UNLIMITED) -> str:
        """The engine that puzzles like ``first`` get."""
        needs = solver_needs(self.encoding, self.amo, budget, self.options)
        return self.solver or default_names([first], needs)[0]

    def takes(self, givens: np.ndarray, kind: str, box: tuple[int, int] | None,
              task: str = "count", budget: Budget = UNLIMITED) -> bool:
        """Whether these puzzles' engine answers arrays itself (else :meth:`count` goes
        through :func:`run_batch`)."""
        return self._engine(_first(givens, kind, box), kind, task, budget) is not None

    def count(self, givens: Any, kind: str = "sudoku", box: tuple[int, int] | None = None,
              limit: int | None = None, budget: Budget = UNLIMITED,
              task: str = "count") -> ArrayOutcome:
        """Count (``task="count"``) or solve (``"solve"``: up to one solution) each row of
        ``givens`` (``(N, n*n)``, 0 empty; valid puzzles of kind ``"sudoku"`` with ``box``, or
        ``"latin"``), within ``budget`` per row."""
        givens = np.asarray(givens)
        if not len(givens):
            empty = np.zeros(0, dtype=np.int64)
            return ArrayOutcome(empty, np.zeros(givens.shape, dtype=np.int32),
                                empty.astype(bool), 0.0)
        first = _first(givens, kind, box)
        limit = 1 if task == "solve" else limit
        engine = self._engine(first, kind, task, budget)
        if engine is not None:
            return engine.count_arrays(givens, limit, budget)
        return self._by_instances(givens, kind, box, limit, budget, task)

    def _engine(self, first: Any, kind: str, task: str, budget: Budget):
        name = self.engine_name(first, budget)
        key = (name, kind, first.n, first.box, task)
        if key not in self.engines:
            self.engines[key] = self._open(name, first, kind, task)
        return self.engines[key]

    def _open(self, name: str, first: Any, kind: str, task: str):
        check_engine(name, kind, task)
        engine_class: Any = resolve(ENGINES[name].engine)
        if (getattr(engine_class, "count_arrays", None) is None
                or not engine_class.shares(first, self.encoding)):
            return None
        taken = ENGINES[name].options
        options = {key: value for key, value in self.options.items() if key in taken}
        engine = open_engine(name, first, encoding=self.encoding, amo=self.amo, **options)
        if takes_arrays(engine):
            return engine
        engine.close()
        return None

    def _by_instances(self, givens, kind, box, limit, budget, task) -> ArrayOutcome:
        started = time.perf_counter()
        n = math.isqrt(givens.shape[1])
        build = _KINDS[kind]
        instances = [build(row.reshape(n, n).astype(np.int32), box) for row in givens]
        counts = np.zeros(len(givens), dtype=np.int64)
        solutions = np.zeros((len(givens), n * n), dtype=np.int32)
        unknown = np.zeros(len(givens), dtype=bool)
        results = run_batch(instances, task=task, limit=limit, solver=self.solver,
                            encoding=self.encoding, amo=self.amo, budget=budget,
                            options=self.options)
        for row, result in enumerate(results):
            counts[row] = (result.count or 0) if task == "count" else int(result.status == "sat")
            unknown[row] = result.status == "unknown"
            if result.solution is not None:
                solutions[row] = np.asarray(result.solution).reshape(-1)
        return ArrayOutcome(counts, solutions, unknown, time.perf_counter() - started)

    def close(self) -> None:
        for engine in self.engines.values():
            if engine is not None:
                engine.close()
        self.engines.clear()

    def __enter__(self) -> ArrayBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def count_arrays(givens: Any, kind: str = "sudoku", box: tuple[int, int] | None = None,
                 limit: int | None = None, solver: str | None = None,
                 budget: Budget = UNLIMITED) -> ArrayOutcome:
    """Count the completions of each row of ``givens`` up to ``limit`` (one
    :class:`ArrayBatch` call).

    Examples
    --------
    >>> import numpy as np
    >>> count_arrays(np.zeros((1, 9), dtype=np.uint8), "latin").counts.tolist()
    [12]
    """
    with ArrayBatch(solver) as batch:
        return batch.count(givens, kind, box, limit, budget)


def _first(givens: np.ndarray, kind: str, box: tuple[int, int] | None):
    """The first row as a puzzle (what picks the engine and opens it for the shape)."""
    if kind not in _KINDS:
        raise ValueError(f"arrays of givens are Sudoku or Latin squares, not {kind!r}")
    n = math.isqrt(givens.shape[1])
    return _KINDS[kind](givens[0].reshape(n, n).astype(np.int32), box)
