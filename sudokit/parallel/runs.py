"""Batches on a Dask cluster: the parallel forms of ``run_batch``, grading and puzzle
generation, each giving what the serial form gives, in the same order.

Tasks are cut inside the reader's windows, never across two. ``solve`` and ``count`` size
them by the work they hold (:class:`TaskSizer`): the first tasks have :data:`TASK_SIZE`
instances, then as many as take the engine about :data:`TASK_SECONDS` by the time measured
per instance so far (the fast default engine checks a 17-clue puzzle in some 16 µs, so a
task of 2,048 would be as short as Dask's own cost per task), at most a worker's share of
a window. Where tasks are cut changes no result (each instance is answered alone), so the
output does not depend on the number of workers. ``grade`` cuts tasks of
:data:`GRADE_TASK_SIZE` puzzles, ``generate`` of :data:`PUZZLES_PER_TASK`, at fixed places.
``generate`` seeds chunk ``c`` of a run with seed ``S`` by
``numpy.random.SeedSequence(S, spawn_key=(c,))`` (what ``SeedSequence(S).spawn(c + 1)[c]``
gives): the same seed gives the same puzzles on 1 worker or 100.

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

import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from ..solvers.batch import InstanceResult
from ..solvers.engine import ArrayOutcome
from .cluster import worker_count
from .ordered import Chunk, ordered_map
from .tasks import (
    ArraySettings,
    PuzzleJob,
    batch_task,
    grade_task,
    pack_problems,
    piece_task,
    puzzle_task,
    unpack_results,
)

__all__ = ["GRADE_TASK_SIZE", "PUZZLES_PER_TASK", "TASK_SECONDS", "TASK_SIZE", "TaskSizer",
           "answer_pieces", "chunk_seed", "grade_parallel", "puzzles_parallel",
           "run_batch_parallel"]

#: instances in each of the first tasks of ``solve`` and ``count`` (before the engine's time
#: per instance is known)
TASK_SIZE = 2048

#: the engine time a task of ``solve`` or ``count`` aims at once its speed is measured
TASK_SECONDS = 0.5

#: the most instances a task of ``solve`` or ``count`` gets (a reader's window: 16,384)
MAX_TASK = 1 << 14


class TaskSizer:
    """How many instances the next task of a window gets (see the module). Until a task has
    finished, each task is twice the one before (``first``, then ``2*first``, ...: the tasks
    in flight before the first answer are few and not all small); then the time per
    instance is measured over the finished tasks, the first left out once there are others
    (a fresh worker's first task also loads its engine's kernels).

    >>> sizer = TaskSizer(first=2048, workers=2)
    >>> sizer.size(16384), sizer.size(16384), sizer.size(16384)
    (2048, 4096, 8192)
    >>> sizer.measured(2048, 0.032)   # 16 µs an instance: 0.5 s is 32,000, half a window
    >>> sizer.size(16384), sizer.size(1000)
    (8192, 500)
    >>> TaskSizer(fixed=256).size(16384)
    256
    """

    def __init__(self, first: int = TASK_SIZE, workers: int = 1,
                 seconds: float = TASK_SECONDS, fixed: int | None = None):
        self.first, self.workers, self.seconds, self.fixed = first, workers, seconds, fixed
        self.items = 0
        self.spent = 0.0
        self.opening: tuple[int, float] | None = None  # the first task measured
        self.blind = 0  # tasks sized before any was measured

    def measured(self, items: int, seconds: float) -> None:
        """A finished task of ``items`` instances took the engine ``seconds``."""
        if self.opening is None:
            self.opening = (items, seconds)
        self.items += items
        self.spent += seconds

    def size(self, window: int) -> int:
        if self.fixed is not None:
            return self.fixed
        share = min(MAX_TASK, math.ceil(window / self.workers))  # every worker gets some
        if self.opening is None:  # nothing measured yet: 2,048, then twice as many each time
            self.blind += 1
            return min(self.first << (self.blind - 1), max(share, self.first), window)
        items, spent = self.items, self.spent
        if items > self.opening[0]:  # others measured: the first left out
            items, spent = items - self.opening[0], spent - self.opening[1]
        if spent <= 0:
            return share
        wanted = int(self.seconds * items / spent)
        return max(1, min(share, max(wanted, self.first // 8)))


#: puzzles per task of ``grade`` (grading is some thousand times slower per puzzle)
GRADE_TASK_SIZE = 256

#: puzzles per task of ``generate sudoku`` (one seeded generator each)
PUZZLES_PER_TASK = 16


def _cut(piece: Any, start: int, stop: int) -> Any:
    """Instances ``start .. stop-1`` of a window: a list, or a column chunk (``values`` and
    ``lines`` arrays: :class:`~sudokit.formats.columns.ColumnChunk`)."""
    if isinstance(piece, list):
        return piece[start:stop]
    return dataclasses.replace(piece, values=piece.values[start:stop],
                               lines=piece.lines[start:stop])


def _tasks(windows: Iterable, size: int | Callable[[int], int],
           make: Callable[[Any], Any]) -> Iterator[Chunk]:
    """Tasks of consecutive instances (``size``: how many, or a function of the window's
    length giving it for the next task), cut inside each window (never across two: a window
    is taken only when its tasks are needed); a chunk's payload is ``(part, make(part))``."""
    first = 0
    for window in windows:
        offset = 0
        while offset < len(window):
            step = size if isinstance(size, int) else size(len(window))
            part = _cut(window, offset, offset + step)
            yield Chunk(first, first + len(part), (part, make(part)))
            first += len(part)
            offset += len(part)


def _payloads(chunks: Iterator[Chunk]) -> Iterator[Chunk]:
    """The chunks with only what the task needs as their payload (what travels)."""
    for chunk in chunks:
        yield Chunk(chunk.first, chunk.stop, chunk.payload[1])


def run_batch_parallel(client: Any, problems: Iterable, task: str = "solve",
                       progress: Callable[[int], None] | None = None, windows: bool = False,
                       task_size: int | None = None, **kwargs: Any
                       ) -> Iterator[InstanceResult]:
    """:func:`~sudokit.solvers.run_batch` on the cluster: the same arguments (``kwargs``:
    ``limit``, ``solver``, ``encoding``, ``amo``, ``budget``, ``options``), the same results
    in the same order; each worker opens its engine once per task. ``task_size``: instances
    per task (default: sized by the work, :class:`TaskSizer`)."""
    kwargs = {"task": task, **kwargs}
    source = problems if windows else [list(problems)]
    sizer = TaskSizer(workers=worker_count(client), fixed=task_size)
    chunks = _tasks(source, sizer.size, lambda part: (kwargs, pack_problems(part)))
    for chunk, packed in ordered_map(client, batch_task, _payloads(chunks), progress):
        results = unpack_results(packed, chunk.first)
        sizer.measured(len(results), sum(r.seconds for r in results))
        yield from results


def answer_pieces(client: Any, pieces: Iterable, settings: ArraySettings,
                  progress: Callable[[int], None] | None = None,
                  task_size: int | None = None) -> Iterator[tuple[Any, Any]]:
    """The serial ``solve``/``count`` loop's answers on the cluster, in order: ``pieces``
    are the reader's windows, each a list of problems or a column chunk (one-line puzzles
    of one shape as arrays: :class:`~sudokit.formats.columns.ColumnChunk`). Yields ``(part,
    answer)`` for consecutive parts of each window: an
    :class:`~sudokit.solvers.engine.ArrayOutcome` for a part of a column chunk whose engine
    answers arrays (its ``solutions`` zeros for ``count``: the output does not use them),
    else the part's :class:`~sudokit.solvers.batch.InstanceResult` list (numbered from the
    part's first instance in the whole input, 0-based)."""
    arguments = settings.run_batch_arguments()
    sizer = TaskSizer(workers=worker_count(client), fixed=task_size)

    def make(part: Any) -> tuple[str, Any]:
        if isinstance(part, list):
            return ("batch", (arguments, pack_problems(part)))
        return ("arrays", (settings, part.values, part.kind, part.box))

    chunks = _tasks(pieces, sizer.size, make)
    parts: dict[int, Any] = {}

    def travelling() -> Iterator[Chunk]:  # the parts stay here, keyed by their first index
        for chunk in chunks:
            part, payload = chunk.payload
            parts[chunk.first] = part
            yield Chunk(chunk.first, chunk.stop, payload)

    for chunk, answer in ordered_map(client, piece_task, travelling(), progress):
        part = parts.pop(chunk.first)
        if answer[0] == "arrays":
            _, counts, solutions, unknown, seconds = answer
            cells = part.values.shape[1]
            solutions = (np.broadcast_to(np.zeros(1, dtype=np.int32), (len(counts), cells))
                         if solutions is None else solutions.astype(np.int32))
            sizer.measured(len(counts), seconds)
            yield part, ArrayOutcome(counts, solutions, unknown, seconds)
            continue
        results = unpack_results(answer[1], chunk.first)
        sizer.measured(len(results), sum(r.seconds for r in results))
        yield part, results


def grade_parallel(client: Any, windows: Iterable[list], names: list[str], nodes: bool,
                   shave_passes: int | None, progress: Callable[[int], None] | None = None,
                   task_size: int = GRADE_TASK_SIZE) -> Iterator[tuple[np.ndarray, list | None]]:
    """``(search-free table, node counts or None)`` of each task of puzzles, in order."""
    options = {"names": names, "nodes": nodes, "shave_passes": shave_passes}
    chunks = _payloads(_tasks(windows, task_size, lambda part: (options, pack_problems(part))))
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
