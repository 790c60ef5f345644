"""Batches on a Dask cluster: the serial run's answers, grades and puzzles, in the same order.

Tasks are cut inside the reader's chunks, never across two. ``solve`` and ``count`` size
them by the work they hold (:class:`TaskSizer`): the first tasks have :data:`TASK_SIZE`
instances, then as many as take the engine about :data:`TASK_SECONDS` by the time measured
per instance so far (the fast default engine checks a 17-clue puzzle in some 16 µs, so a
task of 2,048 would be as short as Dask's own cost per task), at most a worker's share of
a chunk. Where tasks are cut changes no result (each instance is answered alone), so the
output does not depend on the number of workers. ``grade`` cuts tasks of
:data:`GRADE_TASK_SIZE` puzzles, ``generate`` of :data:`PUZZLES_PER_TASK`, at fixed places.
``generate`` seeds chunk ``c`` of a run with seed ``S`` by
``numpy.random.SeedSequence(S, spawn_key=(c,))`` (what ``SeedSequence(S).spawn(c + 1)[c]``
gives): the same seed gives the same puzzles on 1 worker or 100.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.batch.cluster import dask_client
>>> squares = [latin_square(np.zeros((2, 2), int))] * 3
>>> with dask_client(jobs=1) as client:               # doctest: +SKIP
...     [found.counts.tolist() for _, found in answer_on_cluster(
...         client, RunSpec.of("count"), [squares])]
[[2, 2, 2]]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from .answers import Answers
from .cluster import worker_count
from .ordered import Chunk, ordered_map
from .run import cut_chunk, instances_of, pack
from .sizing import TASK_SECONDS, TASK_SIZE, TaskSizer
from .spec import RunSpec
from .tasks import AnswerTask, GradeTask, PuzzleJob, answer_task, grade_task, puzzle_task

if TYPE_CHECKING:
    from ..grading import Grades

__all__ = ["GRADE_TASK_SIZE", "PUZZLES_PER_TASK", "TASK_SECONDS", "TASK_SIZE", "TaskSizer",
           "answer_on_cluster", "chunk_seed", "grade_on_cluster", "puzzles_on_cluster"]

#: puzzles per task of ``grade`` (grading is some thousand times slower per puzzle)
GRADE_TASK_SIZE = 256

#: puzzles per task of ``generate sudoku`` (one seeded generator each)
PUZZLES_PER_TASK = 16


def _tasks(chunks: Iterable[Any], size: int | Callable[[int], int]) -> Iterator[tuple[int, Any]]:
    """``(first, part)`` for consecutive parts of each chunk (``size``: how many instances,
    or a function of the chunk's length giving it for the next part), cut inside each chunk
    (a chunk is taken only when its parts are needed)."""
    first = 0
    for chunk in chunks:
        offset = 0
        while offset < len(chunk):
            step = size if isinstance(size, int) else size(len(chunk))
            part = cut_chunk(chunk, offset, offset + step)
            yield first, part
            first += len(part)
            offset += len(part)


def _travelling(part: Any) -> Any:
    """What of a part goes to the worker: a column chunk as it is (its arrays), records as
    their instances, packed (:func:`~sudokit.batch.run.pack`)."""
    from ..formats.columns import ColumnChunk

    return part if isinstance(part, ColumnChunk) else pack(instances_of(part))


def answer_on_cluster(client: Any, spec: RunSpec, chunks: Iterable[Any],
                      progress: Callable[[int], None] | None = None,
                      task_size: int | None = None) -> Iterator[tuple[Any, Answers]]:
    """:func:`~sudokit.batch.run.answer_chunks` on the cluster: ``(part, answers)`` for
    consecutive parts of each chunk, in order, the parts staying here and only what the
    worker needs travelling (``task_size``: instances per task; default sized by the work,
    :class:`TaskSizer`)."""
    sizer = TaskSizer(workers=worker_count(client), fixed=task_size)
    parts: dict[int, Any] = {}

    def travelling() -> Iterator[Chunk]:
        for first, part in _tasks(chunks, sizer.size):
            parts[first] = part
            yield Chunk(first, first + len(part), AnswerTask(spec, _travelling(part)))

    for chunk, found in ordered_map(client, answer_task, travelling(), progress):
        sizer.measured(len(found), float(found.seconds.sum()))
        yield parts.pop(chunk.first), found


def grade_on_cluster(client: Any, chunks: Iterable[Any], names: list[str], nodes: bool,
                     shave_passes: int | None, progress: Callable[[int], None] | None = None,
                     task_size: int = GRADE_TASK_SIZE, rating: bool = False,
                     seconds: float | None = None
                     ) -> Iterator[tuple[Any, Grades, list[Any] | None]]:
    """``(part, grades, ratings or None)`` of consecutive parts of each chunk of puzzles
    (or records), in order (:func:`~sudokit.batch.tasks.grade_task` on the workers): with
    ``rating``, each puzzle's :func:`~sudokit.human.rating_within` too; each puzzle within
    ``seconds`` (None: no limit)."""
    parts: dict[int, Any] = {}

    def travelling() -> Iterator[Chunk]:
        for first, part in _tasks(chunks, task_size):
            parts[first] = part
            task = GradeTask(pack(instances_of(part)), tuple(names), nodes, shave_passes,
                             rating, seconds)
            yield Chunk(first, first + len(part), task)

    for chunk, (grades, rated) in ordered_map(client, grade_task, travelling(), progress,
                                              noun="puzzles"):
        yield parts.pop(chunk.first), grades, rated


def chunk_seed(seed: int, index: int) -> np.random.SeedSequence:
    """The seed of chunk ``index`` of a ``generate --seed seed --jobs N`` run.

    >>> int(chunk_seed(7, 1).generate_state(1)[0]) == int(
    ...     np.random.SeedSequence(7).spawn(2)[1].generate_state(1)[0])
    True
    """
    return np.random.SeedSequence(seed, spawn_key=(index,))


def puzzles_on_cluster(client: Any, count: int, seed: int | None, size: int,
                       box: tuple[int, int] | None, generator: dict[Any, Any], make: dict[Any, Any],
                       progress: Callable[[int], None] | None = None,
                       per_task: int = PUZZLES_PER_TASK) -> Iterator[Any]:
    """``count`` generated puzzles, in order: chunk ``c`` (puzzles ``c*per_task`` on) made by
    a :class:`~sudokit.generators.PuzzleGenerator` seeded with :func:`chunk_seed` (a random
    seed when ``seed`` is None). ``generator``: its keyword arguments; ``make``: those of
    :func:`~sudokit.generators.graded.make_graded` (mode, clues, wanted grade, budget, best
    effort)."""
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
