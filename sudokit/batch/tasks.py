"""What a Dask worker runs on one task: the serial library functions, on typed payloads.

An :class:`AnswerTask` carries the run's :class:`~sudokit.batch.spec.RunSpec` and a chunk
(a column chunk of one-line puzzles, a :class:`~sudokit.batch.run.GridBatch` or a list of
instances) and is answered by :func:`~sudokit.batch.run.answer`, the function the serial run
calls: engines answering arrays stay open in the worker thread from one task to the next
(as the serial run keeps them from chunk to chunk), the others are opened for the task. A
:class:`GradeTask` is graded with :func:`~sudokit.grading.search_free_table`, and a
:class:`PuzzleJob` made by a :class:`~sudokit.generators.PuzzleGenerator` seeded for it.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from sudokit.batch.run import pack
>>> chunk = pack([latin_square(np.zeros((2, 2), int))] * 3)
>>> answer_task(AnswerTask(RunSpec.of("count"), chunk)).counts.tolist()
[2, 2, 2]
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..formats.columns import ColumnChunk
from .answers import Answers
from .run import EngineCache, GridBatch, answer
from .spec import RunSpec

if TYPE_CHECKING:
    from ..grading import Grades

__all__ = ["AnswerTask", "GradeTask", "PuzzleJob", "answer_task", "grade_task", "puzzle_task"]


@dataclass(frozen=True)
class AnswerTask:
    """Answer ``chunk`` (a column chunk, a grid batch or a list of instances) by ``spec``."""

    spec: RunSpec
    chunk: ColumnChunk | GridBatch | list[Any]


#: a worker thread's engines answering arrays, by run spec (kept from task to task)
_LOCAL = threading.local()

#: run specs a worker thread keeps engines open for at once (the oldest closed past this)
KEPT_SPECS = 4


def _kept_arrays(spec: RunSpec) -> dict[Any, Any]:
    kept: dict[Any, Any] = getattr(_LOCAL, "kept", None) or {}
    _LOCAL.kept = kept
    engines = kept.pop(spec, None)
    if engines is None:
        engines = {}
        while len(kept) >= KEPT_SPECS:
            for engine in kept.pop(next(iter(kept))).values():
                if engine is not None:
                    engine.close()
    kept[spec] = engines  # the most recently used last
    return engines  # type: ignore[no-any-return]


def answer_task(task: AnswerTask) -> Answers:
    """The task's :class:`~sudokit.batch.answers.Answers`, compact for the trip back."""
    with EngineCache(arrays=_kept_arrays(task.spec)) as engines:
        return answer(task.spec, task.chunk, engines).compact()


@dataclass(frozen=True)
class GradeTask:
    """Grade ``puzzles`` by the schemes ``names``; with ``nodes``, count labelling nodes;
    with ``rating``, rate them with the human techniques too; each puzzle within
    ``seconds`` (None: no limit), as the serial ``grade --time-limit`` does."""

    puzzles: GridBatch | list[Any]
    names: tuple[str, ...]
    nodes: bool
    shave_passes: int | None
    rating: bool = False
    seconds: float | None = None


def grade_task(task: GradeTask) -> tuple[Grades, list[Any] | None]:
    """Grade a chunk: its :class:`~sudokit.grading.Grades` (with ``nodes``, each puzzle's
    node count) and, with ``rating``, each puzzle's :func:`~sudokit.human.rating_within`.

    Examples
    --------
    >>> from sudokit.formats import parse_puzzles
    >>> easy = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
    ...                      "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance
    >>> grades, rated = grade_task(GradeTask([easy], ("FC",), True, None, True, 60.0))
    >>> grades.search_free.tolist(), grades.nodes.tolist(), rated
    ([[True]], [1], [(1.2, 'easy', 'hidden-single-box')])
    """
    from ..grading import grade_table

    puzzles = task.puzzles.puzzles() if isinstance(task.puzzles, GridBatch) else task.puzzles
    grades = grade_table(puzzles, list(task.names), nodes=task.nodes, seconds=task.seconds,
                         shave_passes=task.shave_passes)
    rated = None
    if task.rating:
        from ..human import rating_within

        rated = [rating_within(p, task.seconds) for p in puzzles]
    return grades, rated


@dataclass(frozen=True)
class PuzzleJob:
    """A chunk of ``generate sudoku``: puzzles ``first .. first+count-1`` made by a
    generator seeded with ``seed`` (a :class:`numpy.random.SeedSequence`)."""

    first: int
    count: int
    seed: Any
    size: int
    box: tuple[int, int] | None
    generator: dict[Any, Any]
    make: dict[Any, Any]


def puzzle_task(job: PuzzleJob) -> list[Any]:
    """The :class:`~sudokit.generators.GeneratedPuzzle` list of one chunk."""
    from ..generators import PuzzleGenerator
    from ..generators.graded import make_graded

    with PuzzleGenerator(job.size, job.box, job.seed, **job.generator) as gen:
        return [make_graded(gen, index=job.first + offset, progress=None, **job.make)
                for offset in range(job.count)]
