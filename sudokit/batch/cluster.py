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
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import warnings
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .._accel.families import is_ready
from .._signals import signals_deferred
from .._version import __version__
from ..errors import MissingExtraError, SolverError, UnreadableFileError
from ..solvers.registry import NeedsExtra

__all__ = ["CONNECT_SECONDS", "DASK", "TIMEOUT_KEY", "ClusterError", "build_families",
           "check_address", "check_dask", "cluster_timeout", "dask_client", "local_cluster",
           "prepare_joined", "prepare_workers", "register_client", "scheduler_settings",
           "worker_count", "worker_report"]

#: how long to wait, by default, for a scheduler to answer, for its first worker, and for a
#: worker again once every worker is gone (``--cluster-timeout``)
CONNECT_SECONDS = 20.0

#: the Dask setting that holds that wait while a client is open (:func:`dask_client` sets it)
TIMEOUT_KEY = "sudokit.cluster-timeout"

#: what each open client's workers need, for the workers that join later
#: (:func:`prepare_joined`): the kernel families, and who hears what the workers do
_PREPARED: weakref.WeakKeyDictionary[Any, tuple[tuple[str, ...], Callable[[str], None] | None]] \
    = weakref.WeakKeyDictionary()

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
                say: Callable[[str], None] | None = None,
                timeout: float = CONNECT_SECONDS, config: str | None = None) -> Iterator[Any]:
    """A ``distributed.Client``: on a ``LocalCluster`` of ``jobs`` worker processes (one
    thread each), or connected to the scheduler at ``scheduler`` (``tcp://host:8786``).

    Before the client is handed out, every worker is checked (:func:`prepare_workers`): it
    runs this version of sudokit, and the kernel ``families`` the work needs are compiled
    there (``say`` hears what the workers are doing meanwhile).

    ``timeout`` bounds, in seconds, the wait for the scheduler to answer, for its first
    worker, and (:func:`~sudokit.batch.ordered.ordered_map`, through the Dask setting
    :data:`TIMEOUT_KEY`) for a worker again once every worker is gone. ``config``: a Dask
    configuration file (YAML) for reaching ``scheduler``, e.g. its TLS settings
    (:func:`scheduler_settings`).

    Leaving the block (normally, on an error or on Ctrl-C) closes the client and, for a local
    cluster, stops its worker processes and removes its scratch folder.

    Raises
    ------
    ClusterError
        The scheduler cannot be reached, is not a Dask scheduler, or has no worker within
        ``timeout``; a worker cannot run sudokit.
    """
    check_dask()
    import dask

    settings: dict[str, Any] = {TIMEOUT_KEY: timeout}
    if scheduler is None:
        method = worker_start_method()
        if method is not None:
            settings["distributed.worker.multiprocessing-method"] = method
    elif config is not None:
        settings.update(scheduler_settings(config))
    with dask.config.set(settings):  # kept while the nannies may restart a worker
        with _opened(jobs, scheduler, timeout) as client:
            prepare_workers(client, families, say)
            register_client(client, families, say)
            yield client


def cluster_timeout() -> float:
    """The wait :func:`dask_client` set for the open client (:data:`CONNECT_SECONDS` when
    none is open)."""
    import dask

    return float(dask.config.get(TIMEOUT_KEY, CONNECT_SECONDS))


def scheduler_settings(path: str) -> dict[str, Any]:
    """The Dask settings of the configuration file at ``path`` (YAML, as Dask's own
    ``~/.config/dask/*.yaml``), as dotted keys: e.g. ``distributed.comm.tls.ca-file``,
    ``distributed.comm.tls.client.cert`` and ``distributed.comm.tls.client.key`` to reach a
    scheduler over TLS.

    Raises
    ------
    UnreadableFileError
        The file is missing or unreadable (exit code 3).
    ClusterError
        It is not YAML, or not a mapping of settings.
    """
    import yaml  # type: ignore[import-untyped]  # (no stubs; a dependency of dask)

    try:
        with open(path, encoding="utf-8") as file:
            loaded = yaml.safe_load(file)
    except OSError as err:
        raise UnreadableFileError(f"{path}: cannot read the Dask configuration file: "
                                  f"{err.strerror or err}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise ClusterError(f"{path} is not a Dask configuration file (YAML): "
                           f"{_first_line(err)}") from None
    if not isinstance(loaded, dict):
        raise ClusterError(f"{path} is not a Dask configuration file: it holds no settings "
                           "(e.g. distributed: comm: tls: ca-file: ...)")
    return dict(_dotted(loaded))


def _dotted(settings: dict[Any, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in settings.items():
        if isinstance(value, dict) and value:
            yield from _dotted(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0][:200]}" if text else type(err).__name__


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


def register_client(client: Any, families: Sequence[str],
                    say: Callable[[str], None] | None = None) -> None:
    """Remember what the workers of ``client`` need (the kernel ``families``) and who hears
    what they do (``say``), for the workers that join later (:func:`prepare_joined`);
    forgotten with the client."""
    _PREPARED[client] = (tuple(families), say)


def prepare_joined(client: Any, workers: Sequence[str]) -> None:
    """:func:`prepare_workers` for ``workers`` that joined the cluster of ``client`` after
    :func:`dask_client` opened it (a worker restarted, a machine added): the same kernel
    families, said the same way; only the version check for a client made elsewhere."""
    families, say = _PREPARED.get(client, ((), None))
    prepare_workers(client, families, say, workers)


def prepare_workers(client: Any, families: Sequence[str],
                    say: Callable[[str], None] | None = None,
                    workers: Sequence[str] | None = None) -> None:
    """Check that every worker of ``client`` runs this version of sudokit and compile the
    kernel ``families`` where they are missing, once per machine, saying so through ``say``
    (a fresh worker would otherwise compile silently inside its first task).

    ``workers``: only the workers at these addresses, ones that joined mid-run; one that has
    left again since (it cannot be reached) is passed over.

    Raises
    ------
    ClusterError
        A worker cannot import or run sudokit, runs another version, or cannot compile.
    """
    reports = _asked(client, worker_report, list(families), workers, workers is not None)
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
        built = _asked(client, build_families, missing, [address], workers is not None)
        code, said = built.get(address, (0, ""))  # none: the worker left
        if code != 0:
            raise ClusterError(f"compiling the {', '.join(missing)} kernels on the Dask "
                               f"worker {address} ({host}) failed (exit {code}): {said}")


def _asked(client: Any, function: Callable[..., Any], families: list[str],
           workers: Sequence[str] | None, joined: bool) -> dict[str, Any]:
    """``function(families)`` run on the ``workers`` (None: every worker): address ->
    answer. A worker that cannot be reached is left out when the workers ``joined`` mid-run,
    else a :class:`ClusterError`, as is any other failure."""
    try:
        answers = client.run(function, families,
                             workers=None if workers is None else list(workers),
                             on_error="return")
    except Exception as err:  # noqa: BLE001 - the scheduler's own failure: one line
        answers = {"": err}
    kept = {}
    for address, answer in answers.items():
        if isinstance(answer, OSError) and joined:
            continue  # it left again: Dask reschedules its tasks
        if isinstance(answer, BaseException):
            raise ClusterError(f"a Dask worker cannot run sudokit {__version__} "
                               f"({type(answer).__name__}: {answer}); install it on every "
                               "worker")
        kept[address] = answer
    return kept


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


@contextlib.contextmanager
def _opened(jobs: int | None, scheduler: str | None, timeout: float) -> Iterator[Any]:
    if scheduler is not None:
        client = _connect(scheduler, timeout)
        try:
            yield client
        finally:
            client.close()
        return
    with _scratch() as directory, _local_client(jobs or 1, directory) as client:
        yield client


@contextlib.contextmanager
def _scratch() -> Iterator[str]:
    """A folder of this run's own for the local cluster's scratch space and lock files
    (Dask's ``dask-scratch-space`` would stay in ``$TMPDIR``), removed at the end."""
    import dask

    directory = tempfile.mkdtemp(prefix="sudokit-dask-")
    try:
        with dask.config.set({"temporary-directory": directory}):
            yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@contextlib.contextmanager
def _local_client(workers: int, directory: str) -> Iterator[Any]:
    from distributed import Client

    cluster = None
    try:
        with signals_deferred():  # Ctrl-C while a cluster starts would leave it half made
            cluster, security = local_cluster(workers, directory)
            client = Client(cluster, security=security, set_as_default=False)
    except BaseException:
        if cluster is not None:
            cluster.close()
        raise
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def local_cluster(workers: int, directory: str | None = None) -> tuple[Any, Any]:
    """A ``LocalCluster`` of ``workers`` processes (one thread each) that no one else can
    use, and the ``Security`` a client needs to join it (``directory``: the workers' scratch
    folder; default Dask's, ``$TMPDIR/dask-scratch-space``).

    Its scheduler and workers listen on 127.0.0.1 only, over TLS with a certificate made for
    this run (``Security.temporary()``): a process of another local user that connects is
    refused, where a plain TCP scheduler would run whatever code it sends as the user who ran
    sudokit. No dashboard; the scheduler's HTTP routes (``/health``) on a free loopback
    port.
    """
    from distributed import LocalCluster
    from distributed.security import Security

    # Dask's note when its lock files are slow to make (a loaded machine): stderr carries
    # sudokit's lines only (the scratch folder is the run's own, nothing to wait for there)
    warnings.filterwarnings("ignore", "Creating scratch directories is taking a surprisingly",
                            UserWarning)
    security = Security.temporary()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           host="127.0.0.1", protocol="tls://", security=security,
                           dashboard_address=None, local_directory=directory,
                           # its HTTP server (no dashboard) on a free loopback port
                           scheduler_kwargs={"dashboard": False,
                                             "dashboard_address": "127.0.0.1:0"},
                           silence_logs=logging.CRITICAL)
    return cluster, security


def check_address(address: str) -> None:
    """Raise :class:`ClusterError` unless ``address`` is a scheduler address Dask can use:
    ``tcp://HOST:PORT``, ``tls://HOST:PORT`` or another of Dask's schemes (``HOST:PORT`` is
    TCP, as Dask reads it).

    >>> check_address("tcp://10.0.0.5:8786")           # doctest: +SKIP
    >>> check_address("tcp://10.0.0.5")                # doctest: +SKIP
    Traceback (most recent call last):
    ...
    ClusterError: not a Dask scheduler address: tcp://10.0.0.5 (missing port number ...)
    """
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls"):
            port = parse_host_port(location)[1]
            if not 0 < port < 65536:
                raise ValueError(f"port {port} out of range")
    except ValueError as err:
        raise ClusterError(f"not a Dask scheduler address: {address} ({err})") from None


def _connect(address: str, timeout: float) -> Any:
    """A client of the scheduler at ``address`` that has a worker, or :class:`ClusterError`
    within about ``timeout`` seconds (twice that at most: the scheduler's answer, then its
    first worker)."""
    from distributed.security import Security

    check_address(address)
    security = Security()  # the TLS settings of the Dask configuration (scheduler_settings)
    if address.startswith("tls://") and not _has_tls(security):
        raise ClusterError(f"the Dask scheduler at {address} needs TLS settings: the CA "
                           "file, certificate and key (Dask settings distributed.comm.tls."
                           "ca-file, distributed.comm.tls.client.cert and .key)")
    _check_scheduler(address, security, timeout)
    client = _client(address, security, timeout)
    try:
        client.wait_for_workers(1, timeout=timeout)
    except Exception as err:  # noqa: BLE001 - TimeoutError, a lost scheduler: one line
        client.close()
        why = "" if isinstance(err, TimeoutError) else f"; {_first_line(err)}"
        raise ClusterError(f"the Dask scheduler at {address} has no worker (waited "
                           f"{timeout:g} s; start one with 'dask worker {address}'{why})"
                           ) from None
    return client


def _has_tls(security: Any) -> bool:
    return security.get_connection_args("client").get("ssl_context") is not None


def _check_scheduler(address: str, security: Any, timeout: float) -> None:
    """Ask ``address`` who it is, in a thread of its own, within ``timeout``: a server that
    is not a Dask scheduler, or never answers, is a :class:`ClusterError` here (a
    ``distributed.Client`` would wait on it without end, or read its bytes as a message
    length and try to allocate exabytes)."""
    import asyncio

    answer: list[Any] = []

    def ask() -> None:
        try:
            answer.append(asyncio.run(asyncio.wait_for(_identity(address, security, timeout),
                                                       timeout)))
        except BaseException as err:  # noqa: BLE001 - reported in the caller's thread
            answer.append(err)

    thread = threading.Thread(target=ask, name="sudokit-scheduler-check", daemon=True)
    thread.start()
    thread.join(timeout + 1.0)
    reply = answer[0] if answer else TimeoutError()
    if isinstance(reply, TimeoutError):
        raise ClusterError(f"cannot connect to the Dask scheduler at {address}: no answer "
                           f"within {timeout:g} s")
    if isinstance(reply, OSError):
        raise ClusterError(f"cannot connect to the Dask scheduler at {address}: "
                           f"{_first_line(reply)}")
    if isinstance(reply, BaseException):  # bytes that are not Dask's messages
        raise ClusterError(f"{address} does not answer as a Dask scheduler "
                           f"({_first_line(reply)})")
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise ClusterError(f"{address} is not a Dask scheduler (it answered as "
                           f"{reply.get('type') if isinstance(reply, dict) else 'something else'})")


async def _identity(address: str, security: Any, timeout: float) -> Any:
    from distributed.comm import connect

    comm = await connect(address, timeout=timeout, **security.get_connection_args("client"))
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _client(address: str, security: Any, timeout: float) -> Any:
    """``distributed.Client(address)``; one that fails half made is closed here, at once (its
    own ``__del__`` would wait twice ``timeout`` and print a traceback)."""
    from distributed import Client

    client = Client.__new__(Client)
    try:
        Client.__init__(client, address, security=security, timeout=timeout,
                        set_as_default=False)
    except Exception as err:  # noqa: BLE001 - OSError, TimeoutError, a refused handshake
        with contextlib.suppress(Exception):
            client.close(timeout=1.0)
        client.status = "closed"  # nothing left for __del__ to wait on
        raise ClusterError(f"cannot connect to the Dask scheduler at {address}: "
                           f"{_first_line(err)}") from None
    return client


def worker_count(client: Any) -> int:
    """The number of worker threads the client's cluster has now (at least 1)."""
    return max(1, sum(client.nthreads().values()))
