"""``--jobs N`` and ``--scheduler ADDRESS``: a command's batch on a Dask cluster
(:mod:`sudokit.batch.dask`), N local worker processes or an existing cluster."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import click

from ..batch.cluster import check_dask, dask_client
from ..batch.dask import GRADE_TASK_SIZE, PUZZLES_PER_TASK, TASK_SECONDS
from .common import exclusive

__all__ = ["cluster_client", "jobs_options", "on_cluster"]


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
    """Whether ``--jobs`` or ``--scheduler`` was given (``params``: the command's), after
    checking that they go together and that dask is installed (the missing-extra error
    comes before the input is read)."""
    if params.get("jobs") is None and params.get("scheduler") is None:
        return False
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        exclusive(ctx, "jobs", "scheduler")
    check_dask()
    return True


def _say(message: str) -> None:
    if os.environ.get("SUDOKIT_NO_PROGRESS") != "1":
        click.echo(f"sudokit: {message}", err=True)


@contextlib.contextmanager
def cluster_client(params: dict, families: tuple[str, ...]) -> Iterator[Any]:
    """A Dask client for ``--jobs``/``--scheduler``, its workers with the kernel
    ``families`` compiled first; closed when the block ends."""
    with dask_client(params.get("jobs"), params.get("scheduler"), families, _say) as client:
        yield client
