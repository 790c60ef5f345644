"""The Dask workers are checked before work goes out: a worker that cannot run sudokit, or
runs another version, is one error line; kernel families a worker machine lacks are compiled
there once, said on stderr, instead of silently inside its first task."""

from __future__ import annotations

import pytest

from sudokit._version import __version__
from sudokit.batch.cluster import ClusterError, build_families, prepare_workers, worker_report


class FakeClient:
    """``client.run`` over a table of workers: address -> (host, version, cold families), or
    an exception the worker raises."""

    def __init__(self, workers: dict):
        self.workers = workers
        self.built: list[tuple[str, list[str]]] = []

    def run(self, function, *args, workers=None):
        addresses = workers or list(self.workers)
        answers = {}
        for address in addresses:
            worker = self.workers[address]
            if isinstance(worker, Exception):
                raise worker
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
