"""``--jobs N`` and ``--scheduler ADDRESS``: the commands' batches on a Dask cluster
(:mod:`sudokit.parallel`), N local worker processes or an existing cluster.

Each command keeps its serial loop; where it runs its batch it asks :func:`grade_runner`
(grade) or :func:`puzzles` (generate) for the parallel form when one of the options is given.
:func:`answers` is the whole ``solve``/``count`` loop on a cluster, column chunks
included: one-line puzzles travel as uint8 arrays and come back as
:class:`~.columnar.ColumnResults`, as the serial array path gives them."""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import click
import numpy as np

from ..parallel import (
    GRADE_TASK_SIZE,
    PUZZLES_PER_TASK,
    TASK_SECONDS,
    ArraySettings,
    answer_pieces,
    check_dask,
    dask_client,
    grade_parallel,
    puzzles_parallel,
)
from ..solvers.budget import Budget
from ..solvers.engine import ArrayOutcome
from ..solvers.registry import ENGINES, FAST_GRID_SOLVER, resolve_solver
from .columnar import ColumnResults, check_chunk_budgets
from .common import check_budgets, exclusive

__all__ = ["answers", "grade_runner", "jobs_options", "on_cluster", "puzzles"]


def jobs_options(func):
    """``--jobs N`` and ``--scheduler ADDRESS``."""
    func = click.option("--scheduler", metavar="ADDRESS",
                        help="Run on an existing Dask cluster: the address of its scheduler "
                             "(e.g. tcp://10.0.0.5:8786; start one with 'dask scheduler' and "
                             "'dask worker ADDRESS'). Needs pip install \"sudokit[dask]\" "
                             "here and sudokit on every worker.")(func)
    return click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="N",
                        help=f"Run on N local worker processes (a Dask LocalCluster), in "
                             f"chunks of about {TASK_SECONDS:g} s of work each (grade: "
                             f"{GRADE_TASK_SIZE} puzzles; generate: {PUZZLES_PER_TASK}, "
                             "seeded per chunk); the output is the same for every N. Needs "
                             "pip install \"sudokit[dask]\".")(func)


def on_cluster(params: dict) -> bool:
    """Whether ``--jobs`` or ``--scheduler`` was given (``params``: the command's)."""
    return params.get("jobs") is not None or params.get("scheduler") is not None


def _check(params: dict) -> None:
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        exclusive(ctx, "jobs", "scheduler")
    check_dask()  # the missing-extra error before the input is read


def answers(params: dict, chunks: Iterable, task: str, limit: int | None,
            solver: str | None, budget: Budget, encoding: str | None, amo: str | None,
            options: dict, progress: Callable[[int], None], out: IO | None = None
            ) -> Iterator:
    """``solve``/``count``'s answers on the cluster, in input order, as the serial loop gives
    them: ``chunks`` are :func:`~.common.load_chunks`'s (lists of records, or column chunks
    of one-line puzzles); yields a :class:`~.columnar.ColumnResults` for each part of a column
    chunk whose engine answers arrays, else ``(record, InstanceResult)`` with the result's
    ``index`` its 0-based place in the input. ``out`` is flushed after the first answer and
    then at most every 0.1 s (and after each part answered as arrays); ``progress`` gets the
    number of instances done on every worker."""
    _check(params)
    settings = ArraySettings.of(task, limit, solver, encoding, amo, budget, options)
    kept: deque = deque()  # the records whose results are still to come
    checked: set = set()   # the shapes of column chunks whose budgets were checked

    def pieces() -> Iterator:
        for chunk in chunks:
            if isinstance(chunk, list):
                if not chunk:
                    continue
                check_budgets(chunk, solver, budget)
                kept.extend(chunk)
                yield [record.instance for record in chunk]
                continue
            check_chunk_budgets(chunk, solver, budget, checked)  # as the serial road does
            yield chunk

    done = 0
    flushed: float | None = None
    family = ENGINES[resolve_solver(solver)].kernels if solver else FAST_GRID_SOLVER
    for part, answer in _on_client(params, (family,) if family else (), answer_pieces,
                                   pieces(), settings, progress):
        if isinstance(answer, ArrayOutcome):
            yield ColumnResults(part, answer, done)
            done += len(part)
            if out is not None:
                out.flush()
                flushed = time.monotonic()
            continue
        records = (kept.popleft() for _ in answer) if isinstance(part, list) else iter(
            part.records())
        for record, result in zip(records, answer, strict=False):
            result.index = done
            done += 1
            yield record, result
            now = time.monotonic()
            if out is not None and (flushed is None or now - flushed >= 0.1):
                out.flush()  # a slow instance next never holds back the results before it
                flushed = now


def grade_runner(params: dict) -> Callable[..., Iterator] | None:
    """None without ``--jobs`` and ``--scheduler``; else a function of ``(windows of records,
    names, nodes, shave_passes, progress)`` giving ``(records, search-free table, node counts
    or None)`` for each window, in order, as the serial grading does."""
    if not on_cluster(params):
        return None
    _check(params)

    def run(windows: Iterable[list], names: list[str], nodes: bool,
            shave_passes: int | None, progress: Callable[[int], None]) -> Iterator:
        kept: deque = deque()  # the windows whose grades are still to come

        def instances() -> Iterator[list]:
            for records in windows:
                if not records:
                    continue  # nothing to grade, nothing to write
                kept.append(records)
                yield [record.instance for record in records]

        tables: list = []
        counts: list = []
        parts = _on_client(params, ("grading",), grade_parallel, instances(), names, nodes,
                           shave_passes, progress)
        for table, nodes_counts in parts:  # tasks never straddle two windows
            tables.append(table)
            counts.extend(nodes_counts or ())
            if sum(map(len, tables)) == len(kept[0]):
                yield kept.popleft(), np.concatenate(tables), counts if nodes else None
                tables, counts = [], []

    return run


def puzzles(params: dict, count: int, seed: int | None, size: int,
            box: tuple[int, int] | None, generator: dict, make: dict,
            progress: Callable[[int], None]) -> Iterator:
    """``count`` puzzles made on the cluster (seeded per chunk: :mod:`sudokit.parallel`)."""
    _check(params)
    return _on_client(params, ("generate",), puzzles_parallel, count, seed, size, box,
                      generator, make, progress)


def _say(message: str) -> None:
    if os.environ.get("SUDOKIT_NO_PROGRESS") != "1":
        click.echo(f"sudokit: {message}", err=True)


def _on_client(params: dict, families: tuple[str, ...], function: Callable[..., Iterator],
               *args: Any) -> Iterator:
    """``function(client, *args)``'s items, the client opened at the first and closed after
    the last (or when the consumer stops); the workers have the kernel ``families``
    compiled first."""
    with dask_client(params.get("jobs"), params.get("scheduler"), families, _say) as client:
        yield from function(client, *args)
