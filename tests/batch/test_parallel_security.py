"""A local cluster (``--jobs``) that other local users cannot join or read (issue 27, item 2;
issue 32, item 7): TLS with a certificate made for the run, loopback only, no HTTP server."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("distributed", reason="needs the dask extra: pip install 'sudokit[dask]'")
pytest.importorskip("cryptography", reason="needs the dask extra: pip install 'sudokit[dask]'")

import psutil  # noqa: E402  (a dependency of distributed)
from distributed import Client  # noqa: E402

from sudokit.batch.cluster import dask_client, local_cluster  # noqa: E402

from ..helpers import HANG_GUARD  # noqa: E402


@pytest.fixture(scope="module")
def cluster():
    made, security = local_cluster(1)
    try:
        yield made, security
    finally:
        made.close()


def test_the_run_itself_uses_its_cluster(cluster):
    made, security = cluster
    with Client(made, security=security, set_as_default=False) as client:
        assert client.submit(sum, [1, 2]).result() == 3


def _connects(address: str, with_other_certificate: bool) -> subprocess.CompletedProcess:
    """Try to connect a client in a process of its own: a refused ``Client`` left half made
    can hang this process when the garbage collector closes it (distributed's
    ``Client.__del__`` waits on its loop thread)."""
    code = ("import sys\n"
            "from distributed import Client\n"
            "from distributed.security import Security\n"
            f"security = Security.temporary() if {with_other_certificate!r} else None\n"
            "try:\n"
            f"    Client({address!r}, security=security, timeout=5, set_as_default=False)\n"
            "except Exception as err:\n"
            "    print(type(err).__name__)\n"
            "    sys.exit(3)\n"
            "print('connected')\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=HANG_GUARD)


@pytest.mark.parametrize("credentials", [None, "another certificate"])
def test_a_client_without_the_runs_certificate_is_refused(cluster, credentials):
    made, _ = cluster
    address = made.scheduler_address
    assert address.startswith("tls://127.0.0.1:")
    tried = _connects(address, credentials is not None)
    assert tried.returncode == 3 and "connected" not in tried.stdout, tried.stdout


def test_a_plain_tcp_client_is_refused(cluster):
    made, _ = cluster
    tried = _connects(made.scheduler_address.replace("tls://", "tcp://"), False)
    assert tried.returncode == 3 and "connected" not in tried.stdout, tried.stdout


def test_a_jobs_run_listens_on_loopback_only():
    with dask_client(jobs=1) as client:
        assert client.submit(sum, [2, 3]).result() == 5
        me = psutil.Process()
        processes = [me, *me.children(recursive=True)]
        listening = [conn.laddr for process in processes
                     for conn in process.net_connections(kind="inet")
                     if conn.status == psutil.CONN_LISTEN]
    assert listening and all(address.ip in ("127.0.0.1", "::1") for address in listening), \
        listening
