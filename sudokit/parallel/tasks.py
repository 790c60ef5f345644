"""What a worker runs on one chunk: the serial library functions, on compact payloads.

A chunk of one-line puzzles of one shape travels as its ``(N, n*n)`` uint8 givens and is
answered by :func:`array_task` with an :class:`~sudokit.solvers.arrays.ArrayBatch` that each
worker keeps open from one task to the next (one per worker thread and engine settings), as
the serial array path keeps its engines open from chunk to chunk. Other chunks of grid
puzzles travel as one template and an ``(N, n, n)`` array of givens (a puzzle's cached units
stay home) and come back as arrays; the worker opens their engine once per chunk
(:func:`~sudokit.solvers.run_batch`), grades with
:func:`~sudokit.grading.search_free_table`, and makes puzzles with a
:class:`~sudokit.generators.PuzzleGenerator` seeded for the chunk.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> packed = pack_problems([latin_square(np.zeros((2, 2), int))] * 3)
>>> results = unpack_results(batch_task(({"task": "count"}, packed)), start=10)
>>> [(r.index, r.count) for r in results]
[(10, 2), (11, 2), (12, 2)]
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..instances import GridPuzzle
from ..solvers.arrays import ArrayBatch
from ..solvers.batch import InstanceResult, run_batch
from ..solvers.budget import UNLIMITED, Budget

__all__ = ["ArraySettings", "array_task", "batch_task", "grade_task", "pack_problems",
           "piece_task", "puzzle_task", "unpack_problems", "unpack_results", "PuzzleJob"]


# -- problems and results, packed ---------------------------------------------------------

def pack_problems(problems: Sequence) -> Any:
    """``("grids", template, givens)`` for grid puzzles of one shape, else the list."""
    first = problems[0] if problems else None
    if (isinstance(first, GridPuzzle) and first.regions is None
            and all(type(p) is GridPuzzle and p.box == first.box
                    and p.variants == first.variants and p.regions is None
                    and p.givens.shape == first.givens.shape for p in problems)):
        givens = np.stack([p.givens for p in problems])
        return ("grids", first.with_givens(first.givens), givens)
    return list(problems)


def unpack_problems(packed: Any) -> list:
    """The problems :func:`pack_problems` packed."""
    if isinstance(packed, tuple) and packed[0] == "grids":
        _, template, givens = packed
        # checked when the input was read, as grids_from_rows builds them: not again
        return GridPuzzle.trusted_batch(template, givens)
    return list(packed)


_STATUSES = ("sat", "unsat", "unknown")


def _pack_results(results: list[InstanceResult]) -> tuple:
    status = np.array([_STATUSES.index(r.status) for r in results], dtype=np.int8)
    counts = [r.count for r in results]
    seconds = np.array([r.seconds for r in results], dtype=float)
    solutions = [r.solution for r in results]
    shapes = {None if s is None else (s.shape, s.dtype.str) for s in solutions}
    if len(shapes) == 1 and None not in shapes and solutions:
        return status, counts, seconds, np.stack([s for s in solutions if s is not None])
    return status, counts, seconds, solutions


def unpack_results(packed: tuple, start: int) -> list[InstanceResult]:
    """The :class:`~sudokit.solvers.batch.InstanceResult` list of a chunk whose first
    instance is number ``start`` of the input (0-based)."""
    status, counts, seconds, solutions = packed
    return [InstanceResult(start + i, _STATUSES[code], solutions[i], counts[i],
                           float(seconds[i]))
            for i, code in enumerate(status.tolist())]


# -- the tasks ------------------------------------------------------------------------------

@dataclass(frozen=True)
class ArraySettings:
    """What :func:`array_task` needs besides the givens: :func:`~sudokit.solvers.run_batch`'s
    keyword arguments (``options``: the engine options as sorted pairs, unset ones left out)."""

    task: str = "count"
    limit: int | None = None
    solver: str | None = None
    encoding: str | None = None
    amo: str | None = None
    budget: Budget = UNLIMITED
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, task: str = "count", limit: int | None = None, solver: str | None = None,
           encoding: str | None = None, amo: str | None = None, budget: Budget = UNLIMITED,
           options: dict | None = None) -> ArraySettings:
        """From :func:`~sudokit.solvers.run_batch`'s arguments."""
        pairs = tuple(sorted((key, value) for key, value in (options or {}).items()
                             if value is not None))
        return cls(task, limit, solver, encoding, amo, budget, pairs)

    def run_batch_arguments(self) -> dict:
        return {"task": self.task, "limit": self.limit, "solver": self.solver,
                "encoding": self.encoding, "amo": self.amo, "budget": self.budget,
                "options": dict(self.options)}


#: a worker thread's open ArrayBatch objects, by engine settings (kept from task to task)
_LOCAL = threading.local()

#: engine settings a worker thread keeps open at once (the oldest is closed past this)
KEPT_BATCHES = 4


def _array_batch(settings: ArraySettings) -> ArrayBatch:
    batches: dict = getattr(_LOCAL, "batches", None) or {}
    _LOCAL.batches = batches
    key = (settings.solver, settings.encoding, settings.amo, settings.options)
    batch = batches.pop(key, None)
    if batch is None:
        batch = ArrayBatch(settings.solver, settings.encoding, settings.amo,
                           dict(settings.options))
        while len(batches) >= KEPT_BATCHES:
            batches.pop(next(iter(batches))).close()
    batches[key] = batch  # the most recently used last
    return batch


def array_task(payload: tuple[ArraySettings, np.ndarray, str, tuple[int, int] | None]
               ) -> tuple:
    """Count or solve ``(N, n*n)`` one-line givens of one shape: ``("arrays", counts,
    solutions or None, unknown, seconds)`` when their engine answers arrays (``solutions``
    as uint8, for ``solve`` only), else ``("results", packed results)`` from
    :func:`~sudokit.solvers.run_batch` on the puzzles, as the serial path's general reader
    would give them.

    >>> givens = np.zeros((2, 16), dtype=np.uint8)
    >>> array_task((ArraySettings.of("count", limit=2), givens, "sudoku", (2, 2)))[:2]
    ('arrays', array([2, 2]))
    """
    settings, values, kind, box = payload
    batch = _array_batch(settings)
    if not batch.takes(values, kind, box, settings.task, settings.budget):
        from ..instances.grid import grids_from_rows

        grids = grids_from_rows(values, box)  # as ColumnChunk.records builds them
        if grids is None:
            raise RuntimeError("a column chunk holds an invalid puzzle (a bug)")
        return ("results", _pack_results(list(run_batch(grids,
                                                         **settings.run_batch_arguments()))))
    found = batch.count(values, kind, box, settings.limit, settings.budget, settings.task)
    solutions = found.solutions.astype(np.uint8) if settings.task == "solve" else None
    return ("arrays", found.counts, solutions, found.unknown, found.seconds)


def piece_task(payload: tuple[str, Any]) -> tuple:
    """:func:`array_task` (``("arrays", its payload)``) or :func:`batch_task` (``("batch",
    its payload)``): one ordered stream of tasks for a file's mixed chunks."""
    tag, inner = payload
    if tag == "arrays":
        return array_task(inner)
    return ("results", batch_task(inner))


def batch_task(payload: tuple[dict, Any]) -> tuple:
    """Solve or count a chunk: ``(run_batch keyword arguments, packed problems)``."""
    kwargs, packed = payload
    return _pack_results(list(run_batch(unpack_problems(packed), **kwargs)))


def grade_task(payload: tuple[dict, Any]) -> tuple[np.ndarray, list[int] | None]:
    """Grade a chunk: its search-free table and, with ``nodes``, each puzzle's node count."""
    from ..grading import label_nodes, search_free_table

    options, packed = payload
    puzzles = unpack_problems(packed)
    table = search_free_table(puzzles, options["names"],
                              shave_passes=options["shave_passes"])
    nodes = [label_nodes(p) for p in puzzles] if options["nodes"] else None
    return table, nodes


@dataclass(frozen=True)
class PuzzleJob:
    """A chunk of ``generate sudoku``: puzzles ``first .. first+count-1`` made by a
    generator seeded with ``seed`` (a :class:`numpy.random.SeedSequence`)."""

    first: int
    count: int
    seed: Any
    size: int
    box: tuple[int, int] | None
    generator: dict
    make: dict


def puzzle_task(job: PuzzleJob) -> list:
    """The :class:`~sudokit.generators.GeneratedPuzzle` list of one chunk."""
    from ..generators import PuzzleGenerator
    from ..generators.graded import make_graded

    with PuzzleGenerator(job.size, job.box, job.seed, **job.generator) as gen:
        return [make_graded(gen, index=job.first + offset, progress=None, **job.make)
                for offset in range(job.count)]
