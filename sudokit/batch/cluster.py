"""Opening a Dask client: N local worker processes (``--jobs``) or an existing cluster
(``--scheduler``), the two ways into one code path.

``dask[distributed]`` is optional (``pip install "sudokit[dask]"``); without it
:func:`dask_client` raises :class:`~sudokit.errors.MissingExtraError`, one line with the
install command, as a missing solver back end does.

Examples
--------
>>> DASK.install
'pip install "sudokit[dask]"'
>>> with dask_client(jobs=1) as client:               # doctest: +SKIP
...     client.submit(sum, [1, 2]).result()
3
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import socket
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .._accel.families import is_ready
from .._signals import signals_deferred
from .._version import __version__
from ..errors import MissingExtraError, SolverError
from ..solvers.registry import NeedsExtra

__all__ = ["DASK", "ClusterError", "build_families", "check_dask", "dask_client",
           "local_cluster", "prepare_workers", "worker_count", "worker_report"]

#: how long to wait for a scheduler to answer, and for its first worker
CONNECT_SECONDS = 20.0

#: the Dask setting (``distributed.worker.multiprocessing-method``) that says how a local
#: nanny starts its worker process, as an environment variable
START_METHOD_VARIABLE = "DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD"


@dataclass(frozen=True)
class _Extra(NeedsExtra):
    """An optional group of modules (:class:`~sudokit.solvers.registry.NeedsExtra`)."""

    requires: tuple[str, ...]
    extra: str | None


#: what ``--jobs`` and ``--scheduler`` need (cryptography: the local cluster's TLS)
DASK = _Extra(requires=("dask", "distributed", "cryptography"), extra="dask")


class ClusterError(SolverError):
    """The Dask cluster cannot be reached or cannot finish a chunk (exit code 6)."""


def check_dask() -> None:
    """Raise :class:`~sudokit.errors.MissingExtraError` when dask.distributed is missing."""
    if DASK.missing:
        raise MissingExtraError(f"--jobs and --scheduler need {', '.join(DASK.missing)}, "
                                f"which is not installed: {DASK.install}")


@contextlib.contextmanager
def dask_client(jobs: int | None = None, scheduler: str | None = None,
                families: Sequence[str] = (),
                say: Callable[[str], None] | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: on a ``LocalCluster`` of ``jobs`` worker processes (one
    thread each), or connected to the scheduler at ``scheduler`` (``tcp://host:8786``).

    Before the client is handed out, every worker is checked (:func:`prepare_workers`): it
    runs this version of sudokit, and the kernel ``families`` the work needs are compiled
    there (``say`` hears what the workers are doing meanwhile).

    Leaving the block (normally, on an error or on Ctrl-C) closes the client and, for a local
    cluster, stops its worker processes.
    """
    check_dask()
    import dask

    method = worker_start_method() if scheduler is None else None
    settings = {} if method is None else {"distributed.worker.multiprocessing-method": method}
    with dask.config.set(settings):  # kept while the nannies may restart a worker
        for client in _opened(jobs, scheduler):
            prepare_workers(client, families, say)
            yield client


def worker_report(families: Sequence[str]) -> dict[Any, Any]:
    """Run on a worker: its sudokit version, its machine, and which of the kernel
    ``families`` it has not compiled."""
    return {"version": __version__, "host": socket.gethostname(),
            "cold": [name for name in families if not is_ready(name)]}


def build_families(families: Sequence[str]) -> tuple[int, str]:
    """Run on a worker: compile ``families`` there (``sudokit kernels --build``, in a child
    process, into the worker's own cache); its exit code and the end of what it said."""
    done = subprocess.run([sys.executable, "-m", "sudokit", "kernels", "--build", *families],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          stdin=subprocess.DEVNULL, check=False)
    return done.returncode, done.stderr.strip()[-300:]


def prepare_workers(client: Any, families: Sequence[str],
                    say: Callable[[str], None] | None = None) -> None:
    """Check that every worker of ``client`` runs this version of sudokit and compile the
    kernel ``families`` where they are missing, once per machine, saying so through ``say``
    (a fresh worker would otherwise compile silently inside its first task).

    Raises
    ------
    ClusterError
        A worker cannot import or run sudokit, runs another version, or cannot compile.
    """
    try:
        reports = client.run(worker_report, list(families))
    except Exception as err:  # noqa: BLE001 - whatever the worker raised: one line
        raise ClusterError(f"a Dask worker cannot run sudokit {__version__} "
                           f"({type(err).__name__}: {err}); install it on every worker"
                           ) from None
    for address, report in sorted(reports.items()):
        if report["version"] != __version__:
            raise ClusterError(f"the Dask worker at {address} runs sudokit "
                               f"{report['version']}, this is {__version__}: install the same "
                               "version on every worker")
    cold: dict[str, tuple[str, list[str]]] = {}   # machine -> (one of its workers, families)
    for address, report in sorted(reports.items()):
        if report["cold"]:
            cold.setdefault(report["host"], (address, report["cold"]))
    if not cold:
        return
    names = sorted({name for _, missing in cold.values() for name in missing})
    if say is not None:
        say(f"the Dask workers compile the {', '.join(names)} kernels first (not compiled on "
            f"{len(cold)} of their machines yet; once per machine)")
    for host, (address, missing) in cold.items():
        code, said = client.run(build_families, missing, workers=[address])[address]
        if code != 0:
            raise ClusterError(f"compiling the {', '.join(missing)} kernels on the Dask "
                               f"worker {address} ({host}) failed (exit {code}): {said}")


def worker_start_method() -> str | None:
    """How ``--jobs`` starts its worker processes: ``"fork"`` on Linux, unless the
    environment names a method (:data:`START_METHOD_VARIABLE`, e.g. ``spawn``); None (Dask's
    own setting, ``spawn``) elsewhere.

    A forked worker starts with this process's modules and numba kernels already loaded:
    about 0.07 s, where a spawned one imports numpy, numba, Dask and sudokit again and loads
    the kernels (about 1 s). Before each fork the standard streams are flushed (a child
    would flush their buffered text a second time when it ends); the child ignores SIGINT
    (Ctrl-C stops it through its nanny, as the cluster closes) and SIGTERM ends it.

    >>> import os, sys
    >>> worker_start_method() == ("fork" if sys.platform.startswith("linux") and
    ...                           START_METHOD_VARIABLE not in os.environ else None)
    True
    """
    if START_METHOD_VARIABLE in os.environ or not sys.platform.startswith("linux"):
        return None
    _register_fork_hooks()
    return "fork"


@functools.cache
def _register_fork_hooks() -> None:
    os.register_at_fork(before=_flush_standard_streams, after_in_child=_worker_signals)
    # Python 3.12+ warns on every fork of a process with threads (here: Dask's event loop,
    # which does the forking while the main thread waits); Dask offers fork as a setting
    warnings.filterwarnings("ignore", r"This process .* is multi-threaded, use of fork\(\)",
                            DeprecationWarning)


def _worker_signals() -> None:
    """A forked worker is stopped by its nanny, not by the command's own handlers (inherited
    with the fork): Ctrl-C to the process group is ignored, SIGTERM ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _flush_standard_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # closed or detached: nothing buffered to repeat
            if stream is not None:
                stream.flush()


def _opened(jobs: int | None, scheduler: str | None) -> Iterator[Any]:
    from distributed import Client

    cluster = None
    try:
        with signals_deferred():  # Ctrl-C while a cluster starts would leave it half made
            if scheduler is None:
                cluster, security = local_cluster(jobs or 1)
                client = Client(cluster, security=security, set_as_default=False)
            else:
                client = _connect(Client, scheduler)
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def local_cluster(workers: int) -> tuple[Any, Any]:
    """A ``LocalCluster`` of ``workers`` processes (one thread each) that no one else can
    use, and the ``Security`` a client needs to join it.

    Its scheduler and workers listen on 127.0.0.1 only, over TLS with a certificate made for
    this run (``Security.temporary()``): a process of another local user that connects is
    refused, where a plain TCP scheduler would run whatever code it sends as the user who ran
    sudokit. No dashboard; the scheduler's HTTP routes (``/health``) on a free loopback
    port.
    """
    from distributed import LocalCluster
    from distributed.security import Security

    security = Security.temporary()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           host="127.0.0.1", protocol="tls://", security=security,
                           dashboard_address=None,
                           # its HTTP server (no dashboard) on a free loopback port
                           scheduler_kwargs={"dashboard": False,
                                             "dashboard_address": "127.0.0.1:0"},
                           silence_logs=logging.CRITICAL)
    return cluster, security


def _connect(client_class: Any, address: str) -> Any:
    try:
        client = client_class(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"cannot connect to the Dask scheduler at {address}: "
                           f"{err}".rstrip(": ")) from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError) as err:
        client.close()
        raise ClusterError(f"the Dask scheduler at {address} has no worker (waited "
                           f"{CONNECT_SECONDS:g} s; start one with 'dask worker {address}')"
                           ) from err
    return client


def worker_count(client: Any) -> int:
    """The number of worker threads the client's cluster has now (at least 1)."""
    return max(1, sum(client.nthreads().values()))
