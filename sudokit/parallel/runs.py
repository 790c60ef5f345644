"""Batches on a Dask cluster: the parallel forms of ``run_batch``, grading and puzzle
generation, each giving what the serial form gives, in the same order.

The input is cut into tasks of :data:`TASK_SIZE` instances (:data:`GRADE_TASK_SIZE` for
``grade``, :data:`PUZZLES_PER_TASK` puzzles for ``generate``) at fixed places, whatever the
number of workers, so the output does not depend on it. ``generate`` seeds chunk ``c`` of a
run with seed ``S`` by ``numpy.random.SeedSequence(S, spawn_key=(c,))`` (what
``SeedSequence(S).spawn(c + 1)[c]`` gives): the same seed gives the same puzzles on 1 worker
or 100.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.parallel import dask_client
>>> squares = [latin_square(np.zeros((2, 2), int))] * 3
>>> with dask_client(jobs=1) as client:               # doctest: +SKIP
...     [r.count for r in run_batch_parallel(client, squares, task="count")]
[2, 2, 2]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from ..solvers.batch import InstanceResult
from .ordered import Chunk, ordered_map
from .tasks import (
    PuzzleJob,
    batch_task,
    grade_task,
    pack_problems,
    puzzle_task,
    unpack_results,
)

__all__ = ["GRADE_TASK_SIZE", "PUZZLES_PER_TASK", "TASK_SIZE", "chunk_seed", "grade_parallel",
           "puzzles_parallel", "run_batch_parallel"]

#: instances per task of ``solve``, ``count`` and ``grade`` (a reader's chunk of 16,384 lines
#: is cut into tasks of this many)
TASK_SIZE = 2048

#: puzzles per task of ``grade`` (grading is some thousand times slower per puzzle)
GRADE_TASK_SIZE = 256

#: puzzles per task of ``generate sudoku`` (one seeded generator each)
PUZZLES_PER_TASK = 16


def _tasks(windows: Iterable[list], size: int, make: Callable[[list], Any]
           ) -> Iterator[Chunk]:
    """Tasks of ``size`` consecutive instances, cut inside each window (never across two:
    a window is taken only when its tasks are needed)."""
    first = 0
    for window in windows:
        for offset in range(0, len(window), size):
            part = window[offset:offset + size]
            yield Chunk(first, first + len(part), make(part))
            first += len(part)


def run_batch_parallel(client: Any, problems: Iterable, task: str = "solve",
                       progress: Callable[[int], None] | None = None, windows: bool = False,
                       task_size: int = TASK_SIZE, **kwargs: Any) -> Iterator[InstanceResult]:
    """:func:`~sudokit.solvers.run_batch` on the cluster: the same arguments (``kwargs``:
    ``limit``, ``solver``, ``encoding``, ``amo``, ``budget``, ``options``), the same results
    in the same order; each worker opens its engine once per task."""
    kwargs = {"task": task, **kwargs}
    source = problems if windows else [list(problems)]
    chunks = _tasks(source, task_size, lambda part: (kwargs, pack_problems(part)))
    for chunk, packed in ordered_map(client, batch_task, chunks, progress):
        yield from unpack_results(packed, chunk.first)


def grade_parallel(client: Any, windows: Iterable[list], names: list[str], nodes: bool,
                   shave_passes: int | None, progress: Callable[[int], None] | None = None,
                   task_size: int = GRADE_TASK_SIZE) -> Iterator[tuple[np.ndarray, list | None]]:
    """``(search-free table, node counts or None)`` of each task of puzzles, in order."""
    options = {"names": names, "nodes": nodes, "shave_passes": shave_passes}
    chunks = _tasks(windows, task_size, lambda part: (options, pack_problems(part)))
    for _, result in ordered_map(client, grade_task, chunks, progress, noun="puzzles"):
        yield result


def chunk_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed of chunk ``index`` of a ``generate --seed seed --jobs N`` run.

    >>> int(chunk_seed(7, 1).generate_state(1)[0]) == int(
    ...     np.random.SeedSequence(7).spawn(2)[1].generate_state(1)[0])
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(index,))


def puzzles_parallel(client: Any, count: int, seed: int | None, size: int,
                     box: tuple[int, int] | None, generator: dict, make: dict,
                     progress: Callable[[int], None] | None = None,
                     per_task: int = PUZZLES_PER_TASK) -> Iterator[Any]:
    """``count`` generated puzzles, in order: chunk ``c`` (puzzles ``c*per_task`` on) made by
    a :class:`~sudokit.generators.PuzzleGenerator` seeded with :func:`chunk_seed` (a random
    seed when ``seed`` is None). ``generator``: its keyword arguments; ``make``: those of
    the CLI's per-puzzle step (mode, clues, wanted grade, budget, best effort)."""
    root = int(np.random.SeedSequence().entropy) if seed is None else seed  # type: ignore[arg-type]

    def chunks() -> Iterator[Chunk]:
        for index in itertools.count():
            first = index * per_task
            if first >= count:
                return
            job = PuzzleJob(first, min(per_task, count - first), chunk_seed(root, index),
                            size, box, generator, make)
            yield Chunk(first, first + job.count, job)

    for _, made in ordered_map(client, puzzle_task, chunks(), progress, noun="puzzles"):
        yield from made
