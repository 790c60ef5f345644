"""Chunks through a Dask client, results in input order, a bounded number in flight.

:func:`ordered_map` submits one task per chunk, keeps at most ``in_flight`` of them
submitted and not yet consumed (so memory stays flat however long the input), and yields
each chunk's result in the order the chunks came. A task that raises an unexpected error is
retried (``retries``); a worker process that dies is replaced by its nanny and its tasks
rescheduled (Dask's ``distributed.scheduler.allowed-failures``). A chunk that still cannot
finish raises :class:`~sudokit.batch.cluster.ClusterError` naming its instances, as does a
cluster left without any worker for the client's wait
(:func:`~sudokit.batch.cluster.cluster_timeout`, ``--cluster-timeout``); a
:class:`~sudokit.errors.SudokitError` raised by the work itself (a bad instance, a missing
back end) is not retried and comes out as it would from the serial run.

Examples
--------
>>> from sudokit.batch.cluster import dask_client
>>> chunks = [Chunk(0, 2, (1, 2)), Chunk(2, 3, (3,))]
>>> with dask_client(jobs=1) as client:               # doctest: +SKIP
...     list(ordered_map(client, sum_task, chunks))
[3, 3]
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import SudokitError
from .cluster import ClusterError, cluster_timeout, prepare_joined, worker_count

__all__ = ["Chunk", "Raised", "WorkerWatch", "ordered_map", "RETRIES", "WAIT_SECONDS"]

#: retries of a chunk whose task raised an unexpected error
RETRIES = 2

#: how often the progress line is brought up to date while the next chunk is awaited
WAIT_SECONDS = 0.25

#: how often a running chunk is asked whether it is done
POLL_SECONDS = 0.005


@dataclass(frozen=True)
class Chunk:
    """Instances ``first .. stop-1`` (0-based, in the whole input) and the task's payload."""

    first: int
    stop: int
    payload: Any

    @property
    def size(self) -> int:
        return self.stop - self.first

    def describe(self, noun: str = "instances") -> str:
        """``instances 16385..18432`` (1-based, as the output numbers them)."""
        return f"{noun} {self.first + 1}..{self.stop}"


@dataclass(frozen=True)
class Raised:
    """A :class:`~sudokit.errors.SudokitError` the task raised, returned (not raised) so that
    Dask does not retry what would fail again."""

    error: SudokitError


def ordered_map(client: Any, function: Callable[[Any], Any], chunks: Iterable[Chunk],
                progress: Callable[[int], None] | None = None, in_flight: int | None = None,
                noun: str = "instances") -> Iterator[tuple[Chunk, Any]]:
    """``(chunk, function(chunk.payload))`` for each chunk, in order, computed on the
    cluster (see the module).

    Parameters
    ----------
    function : callable
        A module-level function (workers import it by name).
    progress : callable, optional
        Called with the number of instances of the finished chunks, as they finish in any
        order (the progress line covers every worker).
    in_flight : int, optional
        Chunks submitted and not yet consumed; default two per worker thread, and two more.

    Raises
    ------
    ClusterError
        A chunk cannot finish, or the cluster has had no worker for
        :func:`~sudokit.batch.cluster.cluster_timeout` seconds.
    """
    limit = in_flight or 2 * worker_count(client) + 2
    workers = WorkerWatch(client, cluster_timeout())
    source = iter(chunks)
    pending: deque[Any] = deque()  # (future, chunk), in input order
    consumed = 0  # instances whose results were yielded

    def refill() -> None:
        while len(pending) < limit:
            chunk = next(source, None)
            if chunk is None:
                return
            future = client.submit(_call, function, chunk.payload, retries=RETRIES,
                                   pure=False)
            pending.append((future, chunk))

    try:
        refill()
        while pending:
            future, chunk = pending[0]
            result = _result(future, chunk, noun)
            if result is _WAITING:
                workers.check(chunk, noun)
                if progress is not None:
                    progress(consumed + sum(c.size for f, c in pending if f.done()))
                continue
            pending.popleft()
            consumed += chunk.size
            refill()  # the next chunks start before this one's results are written
            if progress is not None:
                progress(consumed + sum(c.size for f, c in pending if f.done()))
            yield chunk, result
    finally:
        if pending:
            client.cancel([future for future, _ in pending])


class WorkerWatch:
    """The workers of ``client``'s cluster, looked at while a chunk is awaited: once it has
    had none for ``timeout`` seconds (every worker gone, none back), the run ends with a
    :class:`~sudokit.batch.cluster.ClusterError` instead of waiting forever; a worker that
    joins is checked and given its kernels as the first ones were
    (:func:`~sudokit.batch.cluster.prepare_joined`)."""

    def __init__(self, client: Any, timeout: float):
        self.client, self.timeout = client, timeout
        self.none_since: float | None = None  # when the cluster was first seen without one
        self.known = set(self._workers())

    def check(self, chunk: Chunk, noun: str = "instances") -> None:
        """Check the workers that joined; raise once the cluster has had no worker for
        ``timeout`` seconds (``chunk``: the one awaited, named in the error)."""
        workers = self._workers()
        joined = sorted(set(workers) - self.known)
        if joined:
            self.known.update(joined)
            prepare_joined(self.client, joined)
        if workers:
            self.none_since = None
            return
        now = time.monotonic()
        if self.none_since is None:
            self.none_since = now
        elif now - self.none_since >= self.timeout:
            raise ClusterError(f"the Dask cluster has no worker left (none for "
                               f"{self.timeout:g} s; the chunk of {chunk.describe(noun)} "
                               "cannot run)")

    def _workers(self) -> dict[str, int]:
        """The scheduler's workers now, address -> threads (none when it does not answer
        within the timeout)."""
        try:
            return dict(self.client.sync(self.client.scheduler.ncores,
                                         callback_timeout=self.timeout))
        except Exception:  # noqa: BLE001 - a scheduler that does not answer has no worker
            return {}


#: what :func:`_result` returns while the chunk is still running
_WAITING = object()


def _result(future: Any, chunk: Chunk, noun: str) -> Any:
    """The chunk's result (:data:`_WAITING` after :data:`WAIT_SECONDS`), or the error that
    says which chunk failed."""
    # wait for the task to be done, then take its result: future.result(timeout=...) races
    # with the task finishing (dask/distributed#8514, "cannot access local variable 'result'")
    deadline = time.monotonic() + WAIT_SECONDS
    while not future.done():
        if time.monotonic() >= deadline:
            return _WAITING
        time.sleep(POLL_SECONDS)
    try:
        result = future.result()
    except SudokitError:
        raise
    except Exception as err:  # KilledWorker, a task that failed every retry, a lost scheduler
        first = str(err).split(". ")[0].rstrip(".")  # KilledWorker's runs on with advice
        raise ClusterError(f"the chunk of {chunk.describe(noun)} failed on the Dask cluster: "
                           f"{type(err).__name__}: {first}") from None
    if isinstance(result, Raised):
        raise result.error
    return result


#: test hook: ``once:PATH`` kills the worker running the first task (the one that creates
#: PATH), ``always`` every worker that runs a task: a worker that dies mid-run
KILL_ENV = "SUDOKIT_TEST_KILL_WORKER"


def _call(function: Callable[[Any], Any], payload: Any) -> Any:
    """Run one chunk in a worker (a :class:`Raised` for a SudokitError)."""
    kill = os.environ.get(KILL_ENV)
    if kill:
        _kill_hook(kill)
    try:
        return function(payload)
    except SudokitError as err:
        return Raised(err)


def _kill_hook(kill: str) -> None:
    if kill.startswith("once:"):
        try:
            os.close(os.open(kill[5:], os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return
    os._exit(1)  # its nanny starts a new worker and the scheduler reschedules the task
