"""The batch road as plain functions: :func:`run_batch` (instances in, one result object per
instance out) and :func:`count_arrays` (an array of givens in, arrays out), both on
:func:`~sudokit.batch.run.answer`.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> squares = [latin_square(np.array([[1, 0], [0, 0]])), latin_square(np.zeros((2, 2), int))]
>>> [r.count for r in run_batch(squares, task="count")]
[1, 2]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InstanceError, described
from ..formats import parse_instances
from ..formats.columns import ColumnChunk
from ..problems import user_instance
from ..progress import Progress
from ..solvers.budget import UNLIMITED, Budget
from ..solvers.engine import ArrayOutcome
from .run import EngineCache, answer, answer_parts
from .spec import RunSpec

__all__ = ["InstanceResult", "count_arrays", "run_batch"]


@dataclass
class InstanceResult:
    """The outcome for one instance: status ``"sat"``, ``"unsat"`` or ``"unknown"``."""

    index: int
    status: str
    solution: np.ndarray | None = None
    count: int | None = None
    seconds: float = 0.0


def run_batch(problems: Iterable[Any], task: str = "solve", limit: int | None = None,
              solver: str | None = None, encoding: str | None = None, amo: str | None = None,
              budget: Budget = UNLIMITED,
              progress: Callable[[int], None] | bool | None = None,
              options: Mapping[str, Any] | None = None,
              windows: bool = False) -> Iterator[InstanceResult]:
    """Solve or count each problem, yielding an :class:`InstanceResult` per problem in order.

    Parameters
    ----------
    task : {"solve", "count"}
    solver : str, optional
        An engine name (``sudokit solvers``); by default the kind's own (DLX for exact
        cover), else cadical195.
    limit : int, optional
        Counting stops here (``2`` checks uniqueness).
    budget : Budget
        Per instance; an instance that runs out gets status ``"unknown"`` and the batch goes on.
    progress : callable or bool, optional
        Called with the number of instances done after each engine call; True: a progress
        line on stderr (:class:`~sudokit.progress.Progress`: percent and time left, and the
        solutions found inside one long count), drawn after the first 2 seconds.
    options : mapping, optional
        Engine options (GRASP's ``seed`` and ``alpha``); each engine gets those its registry
        entry lists in ``options`` (unset ones, None, are left out).
    windows : bool
        ``problems`` is an iterable of lists (windows), each taken only when the results
        before it are consumed, so memory stays flat; engines stay open from one window to
        the next. False: ``problems`` is read at once.

    Raises
    ------
    OptionNotTaken
        A budget field or option that the engine an instance gets does not take.
    """
    spec = RunSpec.of(task, limit, solver, encoding, amo, budget, options, keep_solutions=True)
    if isinstance(problems, str):   # text of many instances, as a file holds them
        problems = [record.instance for record in parse_instances(problems)]
    elif not isinstance(problems, Iterable) or isinstance(problems, (bytes, dict)):
        raise InstanceError(f"run_batch takes a list of problems, not {described(problems)}")
    windowed: Iterable[list[Any]] = (map(_instances, problems) if windows
                                     else [_instances(problems)])
    line = None
    if progress is True:
        total = None if windows else len(next(iter(windowed)))
        line = Progress(total, "counting" if task == "count" else "solving", show=True,
                        ticking=True)
    tell = line if line is not None else progress if callable(progress) else None
    done = 0
    try:
        with EngineCache() as engines:
            for window in windowed:
                for found in answer_parts(spec, window, engines):
                    for row, status in enumerate(found.statuses()):
                        count = int(found.counts[row]) if task == "count" else None
                        yield InstanceResult(done, status, found.solution(row), count,
                                             float(found.seconds[row]))
                        done += 1
                    if tell is not None:
                        tell(done)
    finally:
        if line is not None:
            line.close()


def _instances(problems: Iterable[Any]) -> list[Any]:
    """Each problem a user holds, as an instance (:func:`~sudokit.problems.user_instance`)."""
    return [user_instance(problem, taker="run_batch") for problem in problems]


def count_arrays(givens: Any, kind: str = "sudoku", box: tuple[int, int] | None = None,
                 limit: int | None = None, solver: str | None = None,
                 budget: Budget = UNLIMITED, task: str = "count") -> ArrayOutcome:
    """Count (or, with ``task="solve"``, solve) each row of ``givens`` (``(N, n*n)``, 0
    empty; puzzles of kind ``"sudoku"`` with ``box``, or ``"latin"``) up to ``limit``.

    Examples
    --------
    >>> count_arrays(np.zeros((1, 9), dtype=np.uint8), "latin").counts.tolist()
    [12]
    >>> count_arrays(np.zeros((2, 16), dtype=np.uint8), "sudoku", (2, 2), limit=3).counts
    array([3, 3])
    """
    if givens is None or isinstance(givens, (str, bytes, dict, float, int)):
        raise InstanceError(f"count_arrays takes an (N, n*n) integer array, not "
                            f"{described(givens)}")
    try:
        givens = np.asarray(givens)
    except ValueError as err:
        raise InstanceError(f"count_arrays takes an (N, n*n) integer array: {err}") from None
    if givens.ndim != 2 or not np.issubdtype(givens.dtype, np.integer):
        raise InstanceError(f"count_arrays takes an (N, n*n) integer array, got shape "
                            f"{givens.shape} of {givens.dtype}")
    if not len(givens):
        empty = np.zeros(0, dtype=np.int64)
        return ArrayOutcome(empty, np.zeros(givens.shape, dtype=np.int32), empty.astype(bool),
                            0.0)
    first = ColumnChunk(givens[:1], np.ones(1, np.int64), kind, box).instance(0)
    chunk = ColumnChunk(givens, np.arange(1, len(givens) + 1), kind, first.box)
    found = answer(RunSpec.of(task, limit, solver, budget=budget, keep_solutions=True), chunk)
    solutions = found.solutions
    cells = givens.shape[1]
    if solutions is None:
        solutions = np.zeros((len(givens), cells), dtype=np.int32)
    elif not isinstance(solutions, np.ndarray):
        solutions = np.stack([np.zeros(cells, np.int32) if s is None
                              else np.asarray(s, np.int32).reshape(-1) for s in solutions])
    counts = found.counts.astype(np.int64)
    return ArrayOutcome(counts, solutions.astype(np.int32), found.unknown,
                        float(found.seconds.sum()))
