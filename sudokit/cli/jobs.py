"""``--jobs N`` and ``--scheduler ADDRESS``: a command's batch on a Dask cluster
(:mod:`sudokit.batch.dask`), N local worker processes or an existing cluster, with
``--cluster-timeout SECONDS`` and ``--scheduler-config FILE``."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import click

from ..batch.cluster import (
    CONNECT_SECONDS,
    DASK,
    ClusterError,
    check_address,
    check_dask,
    dask_client,
)
from ..batch.dask import GRADE_TASK_SIZE, PUZZLES_PER_TASK, TASK_SECONDS
from ..progress import Progress, quiet
from .common import FinitePositiveFloat, exclusive, flag, is_given

__all__ = ["cluster_client", "cpu_count", "jobs_options", "on_cluster", "starting_workers"]


def jobs_options(func):
    """``--jobs N``, ``--scheduler ADDRESS``, ``--scheduler-config FILE`` and
    ``--cluster-timeout SECONDS``."""
    func = click.option("--cluster-timeout", type=FinitePositiveFloat(), metavar="SECONDS",
                        default=CONNECT_SECONDS, show_default=True,
                        help="With --jobs or --scheduler: how long to wait for the scheduler "
                             "to answer, for its first worker, and for a worker again once "
                             "every worker is gone; past it the run ends with one error "
                             "line (exit 6).")(func)
    func = click.option("--scheduler-config", metavar="FILE",
                        help="With --scheduler: a Dask configuration file (YAML) for reaching "
                             "it, e.g. its TLS settings distributed.comm.tls.ca-file, "
                             "distributed.comm.tls.client.cert and .key.")(func)
    func = click.option("--scheduler", metavar="ADDRESS", callback=_checked_address,
                        help="Run on an existing Dask cluster: the address of its scheduler "
                             "(e.g. tcp://10.0.0.5:8786; start one with 'dask scheduler' and "
                             "'dask worker ADDRESS'). Needs pip install \"sudokit[dask]\" "
                             "here and sudokit on every worker.")(func)
    return click.option("--jobs", "-j", type=click.IntRange(min=1), metavar="N",
                        callback=_capped_jobs,
                        help=f"Run on N local worker processes (a Dask LocalCluster), in "
                             f"chunks of about {TASK_SECONDS:g} s of work each (grade: "
                             f"{GRADE_TASK_SIZE} puzzles; generate: {PUZZLES_PER_TASK}, "
                             "seeded per chunk); the output is the same for every N. At most "
                             "one per CPU (more is capped, with a note). Needs pip install "
                             "\"sudokit[dask]\".")(func)


def cpu_count() -> int:
    """The CPUs this process may run on (its affinity where the system tells it)."""
    with contextlib.suppress(AttributeError, OSError):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def _capped_jobs(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--jobs`` above the number of CPUs: that number, and a note on stderr."""
    cpus = cpu_count()
    if value is None or value <= cpus:
        return value
    _say(f"--jobs {value} is more than the {cpus} CPUs here: running {cpus} workers")
    return cpus


def _checked_address(ctx: click.Context, param: click.Parameter,
                     value: str | None) -> str | None:
    """A malformed ``--scheduler`` address is a usage error (when Dask is installed to
    tell; without it, the missing extra is the error)."""
    if value is None or DASK.missing:
        return value
    try:
        check_address(value)
    except ClusterError as err:
        raise click.BadParameter(str(err)) from None
    return value


def on_cluster(params: dict) -> bool:
    """Whether ``--jobs`` or ``--scheduler`` was given (``params``: the command's), after
    checking that they go together, that the cluster options have one of them, and that
    dask is installed (the missing-extra error comes before the input is read)."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        _check_together(ctx, params)
    if params.get("jobs") is None and params.get("scheduler") is None:
        return False
    check_dask()
    return True


def _check_together(ctx: click.Context, params: dict) -> None:
    exclusive(ctx, "jobs", "scheduler")
    needs = {"scheduler_config": ("scheduler",), "cluster_timeout": ("jobs", "scheduler")}
    for name, wanted in needs.items():
        if name in params and is_given(ctx, name) and \
                all(params.get(other) is None for other in wanted):
            raise click.UsageError(f"{flag(ctx, name)} needs "
                                   f"{' or '.join(flag(ctx, other) for other in wanted)}")


def _say(message: str) -> None:
    """A note on stderr (none with ``--quiet``), on a line of its own when a progress line is
    drawn."""
    if quiet():
        return
    if Progress.current is not None:
        Progress.current.note(message)
    else:
        click.echo(f"sudokit: {message}", err=True)


def starting_workers(params: dict) -> str:
    """What the progress line says while the cluster of ``--jobs``/``--scheduler`` starts.

    >>> starting_workers({"jobs": 2}), starting_workers({"scheduler": "tcp://h:8786"})
    ('starting 2 workers', 'connecting to tcp://h:8786')
    """
    jobs = params.get("jobs")
    if jobs is not None:
        return f"starting {jobs} worker{'s' if jobs > 1 else ''}"
    return f"connecting to {params.get('scheduler')}"


@contextlib.contextmanager
def cluster_client(params: dict, families: tuple[str, ...]) -> Iterator[Any]:
    """A Dask client for ``--jobs``/``--scheduler``, its workers with the kernel
    ``families`` compiled first; closed when the block ends."""
    with dask_client(params.get("jobs"), params.get("scheduler"), families, _say,
                     timeout=params.get("cluster_timeout") or CONNECT_SECONDS,
                     config=params.get("scheduler_config")) as client:
        yield client
