"""The solver-engine protocol: every back end solves and counts through the same calls.

An engine is opened by name from the registry (:func:`sudokit.solvers.open_engine`), either
for one *shape* (a template instance: then every instance of that shape shares one solver or
one dancing-links structure, and only its givens change) or for any instance (each one is
encoded on its own). It then answers

- ``solve(instance, budget)``: one solution or None;
- ``count(instance, limit, budget)``: ``(count, first solution or None)``;
- ``solve_many`` / ``count_many``: the same for a batch, one :class:`Outcome` per instance
  (a budget that runs out gives that instance the status ``unknown``, and the batch goes on);
- ``close()``, or use it as a context manager.

Every engine also says what it can do: ``batch_size`` (how many instances a batch call
takes at once) and the class method ``shares(instance, encoding)`` (whether instances of that
instance's shape should share one engine opened for the shape); an engine that builds
something big for a shape may have the class method ``check_memory(shape, budget, encoding,
amo)`` estimate it first (:class:`EngineBase`'s estimates nothing). An engine whose registry
entry has ``arrays`` (an :class:`ArrayEngine`), opened for a grid shape, may also answer
``count_arrays(givens, limit, budget)`` when its ``takes_arrays`` is true: the same batch as
arrays (:class:`ArrayOutcome`), ``(N, cells)`` givens in and counts and solutions out, with
no object per instance (:mod:`sudokit.batch` uses it for files of one-line puzzles).

Budgets are one :class:`~sudokit.solvers.budget.Budget` for every engine; ``solve`` and
``count`` raise :class:`~sudokit.errors.BudgetExhausted` when it runs out.
:class:`EngineBase` gives the batch calls as loops over the single ones; an engine with a
faster batch path (DLX's one kernel call per batch) overrides them.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.solvers import open_engine
>>> with open_engine("cadical195") as engine:
...     engine.count(latin_square(np.zeros((3, 3), dtype=int)))[0]
12
>>> isinstance(engine, Engine)
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import BudgetExhausted
from .budget import UNLIMITED, Budget

__all__ = ["ArrayEngine", "ArrayOutcome", "Engine", "EngineBase", "Outcome"]


@dataclass
class Outcome:
    """What an engine found for one instance of a batch.

    ``status`` is ``"sat"``, ``"unsat"`` or ``"unknown"`` (budget ran out); ``count`` is set by
    counting (a lower bound when the status is ``unknown``); ``seconds`` is the time spent.
    """

    status: str
    solution: np.ndarray | None = None
    count: int | None = None
    seconds: float = 0.0


@dataclass
class ArrayOutcome:
    """What an engine found for a batch of givens: ``counts`` (int64 ``(N,)``; a lower bound
    where ``unknown``), ``solutions`` (int32 ``(N, cells)``, the first solution found, rows
    of zeros where none), ``unknown`` (bool ``(N,)``: the budget ran out) and ``seconds``
    (the batch's time)."""

    counts: np.ndarray
    solutions: np.ndarray
    unknown: np.ndarray
    seconds: float

    def statuses(self) -> np.ndarray:
        """``"sat"``, ``"unsat"`` or ``"unknown"`` per row."""
        return np.where(self.unknown, "unknown", np.where(self.counts > 0, "sat", "unsat"))

    def outcomes(self, shape: tuple[int, ...], solving: bool = False) -> list[Outcome]:
        """One :class:`Outcome` per row, solutions reshaped to ``shape``, the batch's time
        shared out evenly."""
        each = self.seconds / max(len(self.counts), 1)
        solutions = self.solutions.reshape(len(self.counts), *shape)
        return [Outcome(status, solution if count else None, None if solving else count, each)
                for status, solution, count in zip(self.statuses().tolist(), solutions,
                                                   self.counts.tolist(), strict=True)]


@runtime_checkable
class Engine(Protocol):
    """A solver back end (see the module)."""

    name: str

    #: how many instances a batch call takes at once
    batch_size: int

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool: ...

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None: ...

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]: ...

    def solve_many(self, instances: Sequence[Any],
                   budget: Budget = UNLIMITED) -> list[Outcome]: ...

    def count_many(self, instances: Sequence[Any], limit: int | None = None,
                   budget: Budget = UNLIMITED) -> list[Outcome]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Engine: ...

    def __exit__(self, *exc: object) -> None: ...


@runtime_checkable
class ArrayEngine(Engine, Protocol):
    """An engine that answers arrays of givens (its registry entry has ``arrays``)."""

    @property
    def takes_arrays(self) -> bool:
        """Whether :meth:`count_arrays` may be called (opened for a grid shape)."""
        ...

    def count_arrays(self, givens: Any, limit: int | None = None,
                     budget: Budget = UNLIMITED) -> ArrayOutcome: ...


class EngineBase:
    """The batch calls and the context manager, for engines that define solve and count."""

    name = "engine"

    #: how many instances a batch call takes at once
    batch_size = 1

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        """Whether instances like ``instance`` should share one engine opened for their
        shape (by default not)."""
        return False

    @classmethod
    def check_memory(cls, shape: Any, budget: Budget, encoding: str | None = None,
                     amo: str | None = None) -> None:
        """Raise :class:`~sudokit.errors.ResourceError` when the engine opened for ``shape``
        would need more than the budget's ``memory`` (default: the available memory), from
        an estimate made before anything is built; by default nothing is estimated."""
        return None

    def solve(self, instance: Any, budget: Budget = UNLIMITED) -> np.ndarray | None:
        raise NotImplementedError

    def count(self, instance: Any, limit: int | None = None,
              budget: Budget = UNLIMITED) -> tuple[int, np.ndarray | None]:
        raise NotImplementedError

    def solve_many(self, instances: Sequence[Any],
                   budget: Budget = UNLIMITED) -> list[Outcome]:
        return [self._timed(self._solve_outcome, instance, budget) for instance in instances]

    def count_many(self, instances: Sequence[Any], limit: int | None = None,
                   budget: Budget = UNLIMITED) -> list[Outcome]:
        return [self._timed(self._count_outcome, instance, limit, budget)
                for instance in instances]

    def close(self) -> None:
        return None

    def __enter__(self) -> EngineBase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # one instance as an Outcome --------------------------------------------------------
    def _solve_outcome(self, instance: Any, budget: Budget) -> Outcome:
        solution = self.solve(instance, budget)
        return Outcome("unsat" if solution is None else "sat", solution)

    def _count_outcome(self, instance: Any, limit: int | None, budget: Budget) -> Outcome:
        count, first = self.count(instance, limit, budget)
        return Outcome("sat" if count else "unsat", first, count)

    @staticmethod
    def _timed(run: Any, *args: Any) -> Outcome:
        started = time.perf_counter()
        try:
            outcome: Outcome = run(*args)
        except BudgetExhausted as err:
            outcome = Outcome("unknown", count=err.found)
        outcome.seconds = time.perf_counter() - started
        return outcome
