"""A Dask cluster that fails loudly (issue 27, items 9-11; issue 32, items 4, 10 and 11):
every way of not reaching a scheduler, or of losing its workers, is one error line and exit
6 within ``--cluster-timeout`` (a malformed address: exit 2); a TLS scheduler is reached
with ``--scheduler-config FILE``; ``--jobs`` leaves nothing in ``$TMPDIR`` and is capped at
the CPUs.

Each run is a real ``sudokit`` process (a refused ``distributed.Client`` left half made can
hang the process that made it), bounded only by :data:`HANG_GUARD`.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ..helpers import EXAMPLES, HANG_GUARD, assert_cli_error, cli_run, import_extra

import_extra("distributed", "dask")

from sudokit.batch.cluster import ClusterError, scheduler_settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TOP3 = EXAMPLES / "top3.txt"
DASK_BIN = Path(sys.executable).parent / "dask"


def _env(**extra: str) -> dict:
    return dict(os.environ, SUDOKIT_NO_PROGRESS="1", **extra)


def sudokit(*args, env=None) -> subprocess.CompletedProcess:
    """``python -m sudokit ARGS`` in a process of its own."""
    return subprocess.run([sys.executable, "-m", "sudokit", *map(str, args)], cwd=ROOT,
                          env=env or _env(), capture_output=True, text=True,
                          timeout=HANG_GUARD)


def assert_one_error(done: subprocess.CompletedProcess, code: int, *fragments: str) -> str:
    """Exit ``code``, nothing on stdout, and exactly one 'sudokit: error:' line holding every
    fragment on stderr."""
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokit: error: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert done.stdout == ""
    return lines[0]


# -- servers that are not Dask schedulers ------------------------------------------------------

class Listener:
    """A TCP server on a loopback port that accepts every connection and then either says
    ``junk`` bytes or nothing at all (``junk=None``: a silent listener)."""

    def __init__(self, junk: bytes | None):
        self.junk = junk
        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.server.getsockname()[1]}"
        self.accepted: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.accepted.append(conn)
            if self.junk is not None:
                try:
                    conn.sendall(self.junk)
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()
        for conn in self.accepted:
            conn.close()


@pytest.fixture
def listener(request):
    made = Listener(request.param)
    yield made
    made.close()


HTTP = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 3


@pytest.mark.parametrize("listener", [HTTP], indirect=True)
def test_a_server_that_sends_junk_is_not_a_dask_scheduler(listener):
    # before: distributed read the bytes as a message length, tried to allocate 3 EiB and
    # the run ended as an internal error (exit 70) after 42 s
    done = sudokit("count", "--scheduler", listener.address, TOP3)
    assert_one_error(done, 6, f"{listener.address} does not answer as a Dask scheduler")
    assert listener.accepted  # it was asked


@pytest.mark.parametrize("listener", [None], indirect=True)
def test_a_silent_listener_is_one_line_after_the_cluster_timeout(listener):
    # before: the client waited for its handshake without end (past 120 s)
    done = sudokit("count", "--cluster-timeout", "1", "--scheduler", listener.address, TOP3)
    assert_one_error(done, 6, f"cannot connect to the Dask scheduler at {listener.address}",
                     "no answer within 1 s")
    assert listener.accepted


def test_a_refused_connection_is_one_line_after_the_cluster_timeout():
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]  # free once closed: nothing listens there
    done = sudokit("count", "--cluster-timeout", "1", "--scheduler", f"tcp://127.0.0.1:{port}",
                   TOP3)
    assert_one_error(done, 6, f"cannot connect to the Dask scheduler at tcp://127.0.0.1:{port}",
                     " 1 s")  # Dask's "timed out ... after 1 s", or sudokit's "no answer"


def test_a_tls_address_without_tls_settings_is_one_line():
    # before: a TypeError from distributed, "internal error" (exit 70), after 41 s
    done = sudokit("count", "--scheduler", "tls://127.0.0.1:9", TOP3)
    assert_one_error(done, 6, "tls://127.0.0.1:9 needs TLS settings",
                     "distributed.comm.tls.ca-file")


@pytest.mark.parametrize("address", ["not an address", "tcp://127.0.0.1:notaport",
                                     "foo://x:1", "tcp://127.0.0.1", "tcp://h:99999"])
def test_a_malformed_address_is_a_usage_error(address):
    # before: the right line after 41 s, then a traceback from the half-made client
    done = sudokit("count", "--scheduler", address, TOP3)
    assert_one_error(done, 2, "--scheduler", f"not a Dask scheduler address: {address}")


def test_cluster_options_need_a_cluster():
    assert_cli_error(cli_run("count", "--cluster-timeout", "5", TOP3), 2,
                     "--cluster-timeout needs --jobs or --scheduler")
    assert_cli_error(cli_run("grade", "--scheduler-config", "x.yaml", TOP3), 2,
                     "--scheduler-config needs --scheduler")
    assert_cli_error(cli_run("count", "--jobs", "1", "--scheduler-config", "x.yaml", TOP3), 2,
                     "--scheduler-config needs --scheduler")
    for bad in ("0", "-1", "nan", "inf"):
        assert_cli_error(cli_run("count", "--jobs", "1", "--cluster-timeout", bad, TOP3), 2,
                         "--cluster-timeout")


# -- a scheduler started by hand ---------------------------------------------------------------

class HandCluster:
    """``dask scheduler`` on a loopback port (``tls``: with these certificate files), and
    ``dask worker`` processes joined to it on demand; all stopped by :meth:`close`."""

    def __init__(self, folder: Path, tls: tuple[Path, Path] | None = None):
        self.tls = [] if tls is None else ["--tls-ca-file", tls[0], "--tls-cert", tls[0],
                                           "--tls-key", tls[1]]
        protocol = [] if tls is None else ["--protocol", "tls"]
        address_file = folder / "scheduler.json"
        self.processes = [self._start("scheduler", "--host", "127.0.0.1", "--port", "0",
                                      "--no-dashboard", "--scheduler-file", address_file,
                                      *protocol, *self.tls)]
        deadline = time.monotonic() + HANG_GUARD
        while not address_file.exists() or not address_file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        self.address = json.loads(address_file.read_text())["address"]

    def _start(self, *args, env=None) -> subprocess.Popen:
        return subprocess.Popen([DASK_BIN, *map(str, args)], cwd=ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def worker(self, *args, env=None) -> subprocess.Popen:
        process = self._start("worker", self.address, "--nthreads", "1", "--no-dashboard",
                              *self.tls, *args, env=env)
        self.processes.append(process)
        return process

    def close(self) -> None:
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=HANG_GUARD)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture
def hand_cluster(tmp_path):
    made = HandCluster(tmp_path)
    yield made
    made.close()


def test_a_scheduler_without_workers_is_one_line(hand_cluster):
    done = sudokit("count", "--cluster-timeout", "1", "--scheduler", hand_cluster.address,
                   TOP3)
    assert_one_error(done, 6, f"the Dask scheduler at {hand_cluster.address} has no worker",
                     "waited 1 s")


@pytest.mark.heavy
def test_the_last_worker_gone_mid_run_is_one_line_not_a_hang(hand_cluster):
    # the only worker (no nanny to restart it) dies in its first task: before, the run
    # waited for a worker without end and without a word
    worker = hand_cluster.worker("--no-nanny", env=_env(SUDOKIT_TEST_KILL_WORKER="always"))
    done = sudokit("count", "--cluster-timeout", "1", "--scheduler", hand_cluster.address,
                   TOP3)
    assert worker.poll() is not None  # it did die
    assert_one_error(done, 6, "the Dask cluster has no worker left", "none for 1 s",
                     "the chunk of instances 1..3")


# -- TLS with a configuration file -------------------------------------------------------------

@pytest.fixture
def certificate(tmp_path):
    """A certificate made for the test (its own CA) and its key, as PEM files."""
    from distributed.security import Security

    made = Security.temporary()
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text(made.tls_ca_file)
    key.write_text(made.tls_client_key)
    return cert, key


def _tls_config(path: Path, cert: Path, key: Path) -> Path:
    path.write_text("distributed:\n  comm:\n    require-encryption: true\n    tls:\n"
                    f"      ca-file: {cert}\n"
                    f"      client:\n        cert: {cert}\n        key: {key}\n")
    return path


@pytest.fixture
def tls_cluster(tmp_path, certificate):
    made = HandCluster(tmp_path, tls=certificate)
    yield made
    made.close()


def test_a_tls_scheduler_without_its_settings_is_refused(tmp_path, tls_cluster):
    assert tls_cluster.address.startswith("tls://127.0.0.1:")
    done = sudokit("count", "--scheduler", tls_cluster.address, TOP3)
    assert_one_error(done, 6, "needs TLS settings")
    other = Path(tmp_path / "other")  # a certificate the scheduler does not trust
    other.mkdir()
    from distributed.security import Security

    stranger = Security.temporary()
    (other / "cert.pem").write_text(stranger.tls_ca_file)
    (other / "key.pem").write_text(stranger.tls_client_key)
    config = _tls_config(other / "dask.yaml", other / "cert.pem", other / "key.pem")
    done = sudokit("count", "--cluster-timeout", "2", "--scheduler", tls_cluster.address,
                   "--scheduler-config", config, TOP3)
    assert_one_error(done, 6, tls_cluster.address)


@pytest.mark.heavy
def test_a_tls_scheduler_is_reached_with_its_settings_file(tmp_path, certificate,
                                                           tls_cluster):
    tls_cluster.worker()
    config = _tls_config(tmp_path / "dask.yaml", *certificate)
    done = sudokit("count", "--scheduler", tls_cluster.address, "--scheduler-config", config,
                   TOP3)
    assert done.returncode == 0, done.stderr
    assert done.stdout == sudokit("count", TOP3).stdout


def test_a_scheduler_config_is_read_as_dotted_dask_settings(tmp_path):
    config = _tls_config(tmp_path / "dask.yaml", Path("/c.pem"), Path("/k.pem"))
    assert scheduler_settings(str(config)) == {
        "distributed.comm.require-encryption": True,
        "distributed.comm.tls.ca-file": "/c.pem",
        "distributed.comm.tls.client.cert": "/c.pem",
        "distributed.comm.tls.client.key": "/k.pem"}
    (tmp_path / "list.yaml").write_text("- a\n- b\n")
    with pytest.raises(ClusterError, match="not a Dask configuration file"):
        scheduler_settings(str(tmp_path / "list.yaml"))
    (tmp_path / "bad.yaml").write_text("a: [\n")
    with pytest.raises(ClusterError, match="not a Dask configuration file .YAML."):
        scheduler_settings(str(tmp_path / "bad.yaml"))


def test_a_missing_scheduler_config_is_exit_3(tmp_path):
    done = sudokit("count", "--scheduler", "tcp://127.0.0.1:9", "--scheduler-config",
                   tmp_path / "missing.yaml", TOP3)
    assert_one_error(done, 3, "missing.yaml", "cannot read the Dask configuration file")


# -- --jobs: scratch files and the number of workers -------------------------------------------

def test_jobs_leave_nothing_in_tmpdir_and_say_nothing(tmp_path):
    # before: dask-scratch-space/global.lock and purge.lock stayed in $TMPDIR after every run
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = sudokit("count", "--jobs", "2", TOP3, env=_env(TMPDIR=str(scratch)))
    assert done.returncode == 0, done.stderr
    assert done.stdout == sudokit("count", TOP3).stdout
    assert done.stderr == ""
    assert list(scratch.iterdir()) == []


def test_jobs_above_the_cpus_are_capped_with_a_note(monkeypatch):
    # before: --jobs 1000000 tried to start a million worker processes
    monkeypatch.delenv("SUDOKIT_NO_PROGRESS", raising=False)
    monkeypatch.setattr("sudokit.cli.jobs.cpu_count", lambda: 2)
    asked = []

    def fake_client(jobs, scheduler, *args, **kwargs):
        asked.append(jobs)
        raise ClusterError("no cluster in this test")

    monkeypatch.setattr("sudokit.cli.jobs.dask_client", fake_client)
    result = cli_run("count", "--jobs", "1000000", TOP3)
    assert result.exit_code == 6 and asked == [2], (asked, result.stderr)
    note, error = result.stderr.splitlines()
    assert note == "sudokit: --jobs 1000000 is more than the 2 CPUs here: running 2 workers"
    assert error == "sudokit: error: no cluster in this test"
    asked.clear()
    assert cli_run("count", "--jobs", "2", TOP3).stderr.splitlines() == [
        "sudokit: error: no cluster in this test"]
    assert asked == [2]
