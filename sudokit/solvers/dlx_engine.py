"""Dancing links as an engine (``--solver dlx``): exact cover for every problem kind.

Opened for a grid *shape*, one DLX structure is built from the *empty* grid (the full
``4n^2`` construction, options in ``(cell, value)`` order); each puzzle's givens are
preselected, and a whole batch is counted in one kernel call
(:meth:`~sudokit.solvers.dlx.DancingLinks.count_many`), budgets included, or in parts, each
as soon as it is decided (:meth:`DLXEngine.count_array_parts`, what the batch road takes: a
hard instance holds back no answer before it). Opened without a
shape, each instance (a lone grid, a graph, a Knuth-format problem, a formula through
``sat2xc``) gets its own structure from its kind's ``solo_xc_encoding``.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> empty = latin_square(np.zeros((3, 3), int))
>>> with DLXEngine(shape=empty) as dlx:
...     [outcome.count for outcome in dlx.count_many([empty, empty])]
[12, 12]
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..encoders import completion_to_exact_cover, to_exact_cover
from ..encoders.deadline import encoding_deadline
from ..encoders.size import completion_xc_size
from ..errors import BudgetExhausted, SolverError
from ..problems import problem_kind
from ..resources import check_fits
from .budget import UNLIMITED, Budget, Meter
from .dlx import BatchCount, DancingLinks, load_kernels
from .engine import ArrayOutcome, EngineBase, Outcome

__all__ = ["DLXEngine"]


class DLXEngine(EngineBase):
    """Knuth's Algorithm X with dancing links (see the module)."""

    def __init__(self, name: str = "dlx", shape: Any = None, encoding: str | None = None,
                 amo: str | None = None):
        self.name = name
        self.encoding = encoding
        self.shared: Any = None  # the empty grid's full cover, when opened for a shape
        if shape is not None:
            empty = shape.with_givens(np.zeros(shape.solution_shape, dtype=np.int32))
            self.shared = completion_to_exact_cover(empty, "full")
            self.links = DancingLinks.from_problem(self.shared.xc)
            #: option index of each (cell, value) of the empty grid, -1 where none
            self.option_lookup = self.shared.option_lookup()
            self.batch_size = 4096  # one kernel call per chunk
        else:
            load_kernels()  # now, not inside the first instance's budget

    @classmethod
    def shares(cls, instance: Any, encoding: str | None) -> bool:
        """Grids of every size share one structure (built from the full construction, so
        not when the caller asked for the per-puzzle ``reduced`` one)."""
        return encoding != "reduced"

    @classmethod
    def check_memory(cls, shape: Any, budget: Budget, encoding: str | None = None,
                     amo: str | None = None) -> None:
        """The shape's full exact cover (what an engine opened for it builds) must fit in the
        budget's ``memory`` (:class:`~sudokit.errors.ResourceError`)."""
        empty = shape.with_givens(np.zeros(shape.solution_shape, dtype=np.int32))
        check_fits(completion_xc_size(empty, "full"), "the full exact cover of this shape",
                   budget.memory, "a smaller instance (or more memory) is needed")

    # shared: one structure, givens preselected ------------------------------------------
    def _decode(self, instance, cover):
        return None if cover is None else replace(self.shared, source=instance).decode(cover)

    def _preselected(self, givens: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The CSR sets of given options of a ``(B, cells)`` array of givens: ``(starts,
        options)``, each row's given options preselected."""
        placed = givens > 0
        rows, cells = np.nonzero(placed)
        options = self.option_lookup[cells, givens[rows, cells] - 1]
        starts = np.zeros(len(givens) + 1, dtype=np.int64)
        np.cumsum(placed.sum(axis=1), out=starts[1:])
        return starts, options

    def _found(self, givens: np.ndarray, batch: BatchCount, started: float) -> ArrayOutcome:
        """A batch count of ``givens`` as an :class:`~sudokit.solvers.engine.ArrayOutcome`
        (``started``: when its work began)."""
        counts, firsts, unknown = batch
        found = counts > 0
        solved = self._solutions(givens.astype(np.int32), firsts, found)
        solved[~found] = 0
        return ArrayOutcome(counts, solved, unknown, time.perf_counter() - started)

    def _solutions(self, givens: np.ndarray, firsts: np.ndarray, found: np.ndarray):
        """The first covers of a batch as solutions, ``(B, cells)``, all at once (rows with
        nothing found keep their givens)."""
        solved = givens.copy()
        rows, slots = np.nonzero((firsts >= 0) & found[:, None])
        options = firsts[rows, slots]
        solved[rows, self.shared.option_cells[options]] = self.shared.option_values[options]
        empty = found & (solved == 0).any(axis=1)
        if empty.any():  # a kernel bug, never a user error: say it plainly
            raise SolverError("dlx returned a cover that leaves a cell empty")
        return solved

    # one instance on its own ------------------------------------------------------------
    def _encode(self, instance, budget: Budget, meter: Meter | None = None):
        encoding = self.encoding or problem_kind(instance).solo_xc_encoding
        left = None if meter is None else meter.seconds_left()
        with encoding_deadline(None if left is None else time.monotonic() + left):
            return to_exact_cover(instance, encoding, budget.memory)

    def count(self, instance, limit: int | None = None, budget: Budget = UNLIMITED):
        """``(count, first_solution)``; the budget's ``seconds`` and ``nodes`` bound it, its
        clock running from before the encoding: read again after the encoding and after the
        links are built, then between the search's slices."""
        if self.shared is not None:
            count, first = self.links.count_first(self.shared.given_options(instance), limit,
                                                  budget)
            return count, self._decode(instance, first)
        meter = budget.start()
        encoded = self._encode(instance, budget, meter)
        if limit != 1 and not encoded.parsimonious:
            raise SolverError(f"dlx reaches a {instance.kind} instance through "
                              f"{encoded.encoding}, which does not count solutions one to "
                              "one; count it with a SAT solver")
        if meter.late():
            raise BudgetExhausted("the time budget ran out while encoding", 0)
        links = DancingLinks.from_problem(encoded.xc)
        left = meter.seconds_left()
        if left is not None and left <= 0:
            raise BudgetExhausted("the time budget ran out while building the links", 0)
        remaining = budget if left is None else replace(budget, seconds=left)
        count, first = links.count_first((), limit, remaining)
        return count, None if first is None else encoded.decode(first)

    def solve(self, instance, budget: Budget = UNLIMITED):
        return self.count(instance, 1, budget)[1]

    # batches ----------------------------------------------------------------------------
    def count_many(self, instances: Sequence[Any], limit: int | None = None,
                   budget: Budget = UNLIMITED) -> list[Outcome]:
        return self._many(instances, limit, budget, solving=False)

    def _many(self, instances: Sequence[Any], limit: int | None, budget: Budget,
              solving: bool) -> list[Outcome]:
        """One kernel call for a batch of same-shape grids (see the module)."""
        if self.shared is None:
            return super().count_many(instances, limit, budget)
        givens = np.stack([instance.flat_givens for instance in instances])
        found = self.count_arrays(givens, limit, budget)
        return found.outcomes(self.shared.source.solution_shape, solving)

    @property
    def takes_arrays(self) -> bool:
        return self.shared is not None

    def count_arrays(self, givens: np.ndarray, limit: int | None = None,
                     budget: Budget = UNLIMITED) -> ArrayOutcome:
        """The array protocol (:class:`~sudokit.solvers.engine.ArrayOutcome`) for
        ``(N, cells)`` givens of the engine's shape: one kernel call."""
        started = time.perf_counter()
        givens = np.asarray(givens)
        batch = self.links.count_many(*self._preselected(givens), limit, budget)
        return self._found(givens, batch, started)

    def solve_many(self, instances: Sequence[Any], budget: Budget = UNLIMITED) -> list[Outcome]:
        if self.shared is None:
            return super().solve_many(instances, budget)
        return self._many(instances, 1, budget, solving=True)

    # the same in parts, each as soon as it is decided --------------------------------------
    def count_array_parts(self, givens: np.ndarray, limit: int | None = None,
                          budget: Budget = UNLIMITED) -> Iterator[ArrayOutcome]:
        """:meth:`count_arrays` in consecutive parts, in order, each as soon as its rows are
        decided (:meth:`~sudokit.solvers.dlx.DancingLinks.count_many_parts`): a row that
        needs more than one slice of nodes holds back none before it. The answers are those
        of :meth:`count_arrays`.

        Examples
        --------
        >>> import numpy as np
        >>> from sudokit.instances import sudoku
        >>> dlx = DLXEngine(shape=sudoku(np.zeros((4, 4), int)))
        >>> [part.counts.tolist() for part in dlx.count_array_parts(np.zeros((2, 16), int), 5)]
        [[5, 5]]
        """
        started = time.perf_counter()
        givens = np.asarray(givens)
        parts = self.links.count_many_parts(*self._preselected(givens), limit, budget)
        for start, batch in parts:
            yield self._found(givens[start:start + len(batch.counts)], batch, started)
            started = time.perf_counter()

    def count_parts(self, instances: Sequence[Any], limit: int | None = None,
                    budget: Budget = UNLIMITED) -> Iterator[list[Outcome]]:
        """:meth:`count_many` in consecutive parts, in order, each as soon as it is decided
        (one part with everything, unless opened for a shape).

        Examples
        --------
        >>> import numpy as np
        >>> from sudokit.instances import latin_square
        >>> empty = latin_square(np.zeros((3, 3), int))
        >>> with DLXEngine(shape=empty) as dlx:
        ...     [[o.count for o in part] for part in dlx.count_parts([empty] * 2)]
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
        if self.shared is None:   # one instance a call on the batch road (batch_size 1)
            yield (self.solve_many(instances, budget) if solving
                   else self.count_many(instances, limit, budget))
            return
        givens = np.stack([instance.flat_givens for instance in instances])
        for found in self.count_array_parts(givens, limit, budget):
            yield found.outcomes(self.shared.source.solution_shape, solving)
