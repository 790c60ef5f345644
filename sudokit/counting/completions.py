"""The completions of many partial grids, counted by one engine (what the counting methods
of :mod:`sudokit.counting.methods` hand to the kernels).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> grid = np.zeros((4, 4), dtype=int); grid[0] = [1, 2, 3, 4]
>>> count_completions([latin_square(grid)]).counts
[24]
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import OutputError, SudokitError, UnreadableFileError
from ..solvers.budget import UNLIMITED, Budget
from ..solvers.registry import check_engine, open_engine, resolve_solver

__all__ = ["COMPLETION_ENGINE", "Checkpoint", "Completions", "Mapper", "Progress",
           "count_completions", "count_one", "grid_key"]

#: the engine that counts completions when none is named (the fastest grid counter)
COMPLETION_ENGINE = "takano"


@dataclass(frozen=True)
class Completions:
    """``counts`` of each grid (None when the budget ran out first), the ``engine`` that
    counted them and the ``seconds`` it took."""

    counts: list[int] | None
    engine: str
    seconds: float


class Checkpoint:
    """Completions counted so far, kept in a file of JSON lines (``{"grid": KEY,
    "completions": "DIGITS"}``, one per grid, appended and flushed as each count ends), so
    that a count stopped by a budget, Ctrl-C or a crash resumes where it was.

    ``KEY`` names the grid (:func:`grid_key`); a grid already in the file is not counted
    again.
    """

    def __init__(self, path: str):
        self.path = path
        self.done = self._read()

    def _read(self) -> dict[str, int]:
        try:
            with open(self.path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except FileNotFoundError:
            return {}
        except OSError as err:
            raise UnreadableFileError(f"{self.path}: cannot read the checkpoint: "
                                      f"{err.strerror}") from None
        done = {}
        for number, line in enumerate(lines, start=1):
            try:
                entry = json.loads(line)
                done[str(entry["grid"])] = int(entry["completions"])
            except (ValueError, KeyError, TypeError):
                raise SudokitError(f"{self.path}:{number}: not a checkpoint line (JSON "
                                   "with grid and completions)") from None
        return done

    def add(self, key: str, count: int) -> None:
        """Record ``count`` for grid ``key``, on disk before this returns."""
        self.done[key] = count
        try:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"grid": key, "completions": str(count)}) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as err:
            raise OutputError(f"{self.path}: cannot write the checkpoint: "
                              f"{err.strerror}") from None


def grid_key(instance: Any) -> str:
    """A grid's name in a checkpoint: its kind, box and givens.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import latin_square
    >>> grid_key(latin_square(np.array([[1, 0], [0, 0]])))
    'latin - 1,0,0,0'
    """
    box = "x".join(map(str, instance.box)) if instance.box else "-"
    return f"{instance.kind} {box} {','.join(map(str, instance.flat_givens.tolist()))}"


#: runs a function on each of a list of argument tuples elsewhere (e.g. on Dask workers) and
#: gives the results back in order: ``mapper(function, items) -> iterable``
Mapper = Callable[[Callable[..., Any], list[Any]], Iterable[Any]]


def count_one(instance: Any, solver: str) -> int:
    """The number of solutions of one grid by engine ``solver`` (what a worker runs)."""
    with open_engine(solver) as engine:
        (outcome,) = engine.count_many([instance], None, UNLIMITED)
    return int(outcome.count or 0)


#: told ``(done, total)`` each time a grid's count is known (from a checkpoint too)
Progress = Callable[[int, int], None]


def count_completions(instances: Sequence[Any], solver: str | None = None,
                      budget: Budget = UNLIMITED, checkpoint: str | None = None,
                      mapper: Mapper | None = None,
                      progress: Progress | None = None) -> Completions:
    """The number of solutions of each of ``instances`` (one kind), counted by ``solver``
    (default :data:`COMPLETION_ENGINE`) within ``budget.seconds`` for all of them; with
    ``checkpoint`` (a path), those the file holds are read, the others written to it as
    they are counted (:class:`Checkpoint`). ``mapper`` counts the grids elsewhere, each
    with :func:`count_one` (no budget: a worker's count runs to its end). ``progress`` is
    told ``(done, total)`` as the counts come."""
    name = resolve_solver(solver) if solver else COMPLETION_ENGINE
    start = time.monotonic()
    kept = Checkpoint(checkpoint) if checkpoint else None
    counts: list[int] = []
    tell = progress or (lambda done, total: None)
    if instances:
        check_engine(name, instances[0].kind, "count")
    if mapper is not None:
        return Completions(_mapped(instances, name, kept, mapper, tell), name,
                           time.monotonic() - start)
    tell(0, len(instances))
    with open_engine(name) as engine:
        for instance in instances:
            key = grid_key(instance) if kept else ""
            if kept and key in kept.done:
                counts.append(kept.done[key])
                tell(len(counts), len(instances))
                continue
            left = None if budget.seconds is None else budget.seconds - (
                time.monotonic() - start)
            if left is not None and left <= 0:
                return Completions(None, name, time.monotonic() - start)
            (outcome,) = engine.count_many([instance], None, Budget(seconds=left))
            if outcome.status == "unknown":
                return Completions(None, name, time.monotonic() - start)
            counts.append(int(outcome.count or 0))
            if kept:
                kept.add(key, counts[-1])
            tell(len(counts), len(instances))
    return Completions(counts, name, time.monotonic() - start)


def _mapped(instances: Sequence[Any], name: str, kept: Checkpoint | None,
            mapper: Mapper, tell: Progress) -> list[int]:
    """Each grid's count: from the checkpoint, else from ``mapper`` (recorded as it comes)."""
    keys = [grid_key(instance) for instance in instances] if kept else [""] * len(instances)
    todo = [i for i, key in enumerate(keys) if not (kept and key in kept.done)]
    found: dict[int, int] = {}
    tell(len(instances) - len(todo), len(instances))
    for index, count in zip(todo, mapper(count_one, [(instances[i], name) for i in todo]),
                            strict=True):
        found[index] = int(count)
        if kept:
            kept.add(keys[index], found[index])
        tell(len(instances) - len(todo) + len(found), len(instances))
    return [found[i] if i in found else kept.done[keys[i]]  # type: ignore[union-attr]
            for i in range(len(instances))]
