"""The Dask workers are checked before work goes out: a worker that cannot run sudokit, or
runs another version, is one error line; kernel families a worker machine lacks are compiled
there once, said on stderr, instead of silently inside its first task."""

from __future__ import annotations

import contextlib

import pytest

from sudokit._version import __version__
from sudokit.batch.cluster import (
    ClusterError,
    build_families,
    prepare_workers,
    register_client,
    worker_report,
)

from ..helpers import cli_run, data_path


class FakeClient:
    """``client.run`` over a table of workers: address -> (host, version, cold families), or
    an exception the worker raises."""

    def __init__(self, workers: dict):
        self.workers = workers
        self.built: list[tuple[str, list[str]]] = []

    def run(self, function, *args, workers=None, on_error="raise"):
        addresses = workers or list(self.workers)
        answers = {}
        for address in addresses:
            worker = self.workers[address]
            if isinstance(worker, Exception):
                if on_error == "raise":
                    raise worker
                answers[address] = worker
                continue
            host, version, cold = worker
            if function is worker_report:
                answers[address] = {"version": version, "host": host,
                                    "cold": [name for name in args[0] if name in cold]}
            else:
                assert function is build_families
                self.built.append((address, list(args[0])))
                answers[address] = (0, "")
        return answers


def test_a_worker_without_sudokit_is_one_error_line():
    client = FakeClient({"tcp://a:1": ModuleNotFoundError("No module named 'sudokit'")})
    with pytest.raises(ClusterError, match="cannot run sudokit .*No module named 'sudokit'.*"
                                           "install it on every worker"):
        prepare_workers(client, ["takano"])


def test_a_worker_with_another_version_is_refused():
    client = FakeClient({"tcp://a:1": ("a", "0.0.1", [])})
    with pytest.raises(ClusterError, match=f"runs sudokit 0.0.1, this is {__version__}"):
        prepare_workers(client, ["takano"])


def test_missing_families_are_compiled_once_per_machine_and_said():
    said = []
    client = FakeClient({"tcp://a:1": ("a", __version__, ["takano"]),
                         "tcp://a:2": ("a", __version__, ["takano"]),
                         "tcp://b:1": ("b", __version__, ["takano", "dlx"]),
                         "tcp://c:1": ("c", __version__, [])})
    prepare_workers(client, ["takano", "dlx"], said.append)
    assert client.built == [("tcp://a:1", ["takano"]), ("tcp://b:1", ["takano", "dlx"])]
    assert said == ["the Dask workers compile the dlx, takano kernels first (not compiled on "
                    "2 of their machines yet; once per machine)"]


def test_compiled_workers_cost_one_check_and_say_nothing():
    said = []
    client = FakeClient({"tcp://a:1": ("a", __version__, [])})
    prepare_workers(client, ["takano"], said.append)
    assert client.built == [] and said == []


def test_the_worker_report_names_what_this_machine_lacks(tmp_path, monkeypatch):
    from sudokit._accel import families, locations

    monkeypatch.setenv("SUDOKIT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(locations, "PREBUILT", tmp_path / "no-prebuilt")
    locations.user_root.cache_clear()
    try:
        families.mark_ready("dlx", tmp_path)
        report = worker_report(["takano", "dlx"])
    finally:
        locations.user_root.cache_clear()
    assert report["version"] == __version__ and report["cold"] == ["takano"]


# -- workers looked at while a chunk is awaited (sudokit.batch.ordered.WorkerWatch) ---------

class WatchedClient(FakeClient):
    """A :class:`FakeClient` whose cluster changes: each look at its workers (the scheduler's
    ``ncores``) takes the next of ``states``, sets of worker addresses (the last one stays)."""

    def __init__(self, workers: dict, states: list[set[str]]):
        super().__init__(workers)
        self.states = states
        self.scheduler = type("Scheduler", (), {"ncores": None})()
        self.runs: list[list[str]] = []

    def sync(self, function, callback_timeout=None):
        state = self.states.pop(0) if len(self.states) > 1 else self.states[0]
        return {address: 1 for address in sorted(state)}

    def run(self, function, *args, workers=None, on_error="raise"):
        if function is worker_report:
            self.runs.append(list(workers or self.workers))
        return super().run(function, *args, workers=workers, on_error=on_error)


def _chunk():
    from sudokit.batch.ordered import Chunk

    return Chunk(0, 2048, None)


def test_a_worker_that_joins_mid_run_is_checked_and_compiles_said():
    from sudokit.batch.ordered import WorkerWatch

    client = WatchedClient({"tcp://a:1": ("a", __version__, []),
                            "tcp://b:1": ("b", __version__, ["takano"])},
                           [{"tcp://a:1"}, {"tcp://a:1"}, {"tcp://a:1", "tcp://b:1"}])
    said = []
    register_client(client, ["takano"], said.append)  # as dask_client does
    watch = WorkerWatch(client, timeout=20.0)
    watch.check(_chunk())
    assert client.runs == []  # nobody new
    watch.check(_chunk())  # b joined (a fresh machine): checked, its kernels compiled there
    assert client.runs == [["tcp://b:1"]]
    assert client.built == [("tcp://b:1", ["takano"])]
    assert said == ["the Dask workers compile the takano kernels first (not compiled on 1 of "
                    "their machines yet; once per machine)"]
    watch.check(_chunk())
    assert client.runs == [["tcp://b:1"]]  # once


def test_a_worker_of_another_version_joining_mid_run_ends_the_run():
    from sudokit.batch.ordered import WorkerWatch

    client = WatchedClient({"tcp://a:1": ("a", __version__, []),
                            "tcp://b:1": ("b", "0.0.1", [])},
                           [{"tcp://a:1"}, {"tcp://a:1", "tcp://b:1"}])
    watch = WorkerWatch(client, timeout=20.0)
    with pytest.raises(ClusterError, match=f"tcp://b:1 runs sudokit 0.0.1, this is "
                                           f"{__version__}"):
        watch.check(_chunk())


def test_a_cluster_left_without_workers_ends_the_run_once_the_timeout_is_spent():
    from sudokit.batch.ordered import WorkerWatch

    client = WatchedClient({"tcp://a:1": ("a", __version__, [])}, [{"tcp://a:1"}, set()])
    watch = WorkerWatch(client, timeout=0.0)
    watch.check(_chunk())  # the first look without a worker starts the wait
    with pytest.raises(ClusterError, match=r"no worker left \(none for 0 s; the chunk of "
                                           r"instances 1\.\.2048 cannot run\)"):
        watch.check(_chunk())
    back = WatchedClient({"tcp://a:1": ("a", __version__, [])},
                         [{"tcp://a:1"}, set(), {"tcp://a:1"}, set()])
    watch = WorkerWatch(back, timeout=0.0)
    watch.check(_chunk())
    watch.check(_chunk())  # one came back: the wait starts again
    watch.check(_chunk())


def test_a_worker_that_left_again_before_its_check_is_passed_over():
    from sudokit.batch.ordered import WorkerWatch

    client = WatchedClient({"tcp://a:1": ("a", __version__, []),
                            "tcp://b:1": OSError("connection refused"),
                            "tcp://c:1": ModuleNotFoundError("No module named 'sudokit'")},
                           [{"tcp://a:1"}, {"tcp://a:1", "tcp://b:1"},
                            {"tcp://a:1", "tcp://c:1"}])
    watch = WorkerWatch(client, timeout=20.0)
    watch.check(_chunk())  # b joined and is gone: nothing to say
    with pytest.raises(ClusterError, match="cannot run sudokit .*No module named 'sudokit'"):
        watch.check(_chunk())  # c joined without sudokit: the run ends


@pytest.mark.parametrize("solver, path, families", [
    (None, ("latin", "qwh30_42pct_zanarini_pesant", "qwh-30-374-1.pls"), ("takano", "cp")),
    (None, ("sudoku", "gecode-9-16-25", "sudoku9_gecode.txt"), ("takano",)),
    ("dlx", ("sudoku", "gecode-9-16-25", "sudoku9_gecode.txt"), ("dlx",)),
])
def test_workers_compile_the_families_of_the_engine_the_first_instance_gets(
        solver, path, families, monkeypatch):
    """``solve --jobs`` asks the workers to compile, before the first task, the kernels of
    the engine the portfolio gives the file's first instance (``cp`` for an order-30 Latin
    square: it was compiled inside a worker's first task), besides takano's."""
    from sudokit.cli import solve as solve_command

    asked = []

    @contextlib.contextmanager
    def recording(options, wanted):
        asked.append(wanted)
        raise ClusterError("recorded")
        yield

    monkeypatch.setattr(solve_command, "cluster_client", recording)
    args = ["solve", "--jobs", "2", str(data_path(*path))]
    result = cli_run(*args, *(["--solver", solver] if solver else []))
    assert result.exit_code != 0 and "recorded" in result.stderr
    assert asked == [families]
