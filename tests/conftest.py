"""Shared test fixtures and the data-skip report: the public data set next to the project
(../shared/data). Shared helpers and strategies are in tests/helpers.py."""

import os
from pathlib import Path

import pytest

from . import helpers
from .helpers import DATA, DATA_SKIP_REASON


def pytest_addoption(parser):
    parser.addoption(
        "--require-data", action="store_true", default=False,
        help=f"fail, instead of skip, the tests whose data is missing under {DATA} "
             "(.ci/run passes this whenever the data folder exists)")


def pytest_configure(config):
    helpers.REQUIRE_DATA = config.getoption("--require-data")
    # no progress lines unless a test asks (as .ci/run runs it): on a loaded machine a run
    # under test lasts past the 2 s after which progress starts, and its stderr gains a line
    os.environ.setdefault("SUDOKIT_NO_PROGRESS", "1")


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels():
    """Every kernel family compiled into the user's cache before the first test, as pip
    install does for an installed copy: a command under test with a short --time-limit then
    answers instead of ending with exit 5 while its family compiles (which it would on a
    machine that never ran sudokit). Compiles only what is missing; nothing when warm."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "sudokit", "kernels", "--build", "--jobs", "2"],
                   cwd=Path(__file__).resolve().parents[1], stdout=subprocess.DEVNULL,
                   check=True, timeout=1800)


@pytest.fixture
def data_dir() -> Path:
    """The shared data folder, or skip the test when it is not there."""
    return helpers.data_path()


def _data_skips(terminalreporter) -> int:
    count = 0
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        count += DATA_SKIP_REASON in reason
    return count


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = _data_skips(terminalreporter)
    if skipped:
        terminalreporter.write_sep(
            "!", f"WARNING: {skipped} test(s) SKIPPED because the shared data is missing "
                 f"(expected at {DATA}); run with --require-data to make that a failure",
            red=True, bold=True)
