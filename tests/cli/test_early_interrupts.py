"""A Ctrl-C (or SIGTERM) in the first tenths of a second, while the command line imports its
modules or parses its arguments, ends with one line and 130 (143), never a KeyboardInterrupt
traceback (issue 32.4).

Deterministic, not timed: an import hook sends the signal to the process itself when a given
module is about to be imported, so it lands at that point on every run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from ..helpers import EXAMPLES, HANG_GUARD, ROOT

#: run the command line as ``python -m sudokit`` or as the console script does
#: (``from sudokit.cli import main; sys.exit(main())``), with SIGNAL sent to itself when
#: module AT is first looked up
KICK = textwrap.dedent("""
    import importlib.abc, os, signal, sys
    at, signum, how = sys.argv[1], getattr(signal, sys.argv[2]), sys.argv[3]

    class Kick(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == at:
                sys.meta_path.remove(self)
                os.kill(os.getpid(), signum)
            return None

    sys.meta_path.insert(0, Kick())
    sys.argv = ["sudokit", *sys.argv[4:]]
    if how == "module":
        import runpy
        runpy.run_module("sudokit", run_name="__main__", alter_sys=True)
    else:
        from sudokit.cli import main
        sys.exit(main())
""")

#: modules imported before any command's handler was set up (click first of all), and one
#: imported under it (the command's own module) for comparison
POINTS = ["click", "sudokit.cli.group", "sudokit._accel.mode", "sudokit.cli.solve"]


def _kicked(at: str, signame: str, how: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", KICK, at, signame, how, *args], cwd=ROOT,
                          env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=HANG_GUARD)


@pytest.mark.parametrize("how", ["module", "script"])
@pytest.mark.parametrize("at", POINTS)
@pytest.mark.parametrize("signame, line, code", [("SIGINT", "sudokit: interrupted", 130),
                                                 ("SIGTERM", "sudokit: terminated", 143)])
def test_a_signal_while_loading_is_one_line(at, how, signame, line, code):
    done = _kicked(at, signame, how, "solve", str(EXAMPLES / "puzzle17.txt"))
    assert (done.returncode, done.stderr, done.stdout) == (code, line + "\n", "")


def test_the_hook_lands_where_it_says():
    """Without sudokit's handling the hook's signal is a traceback from inside the import:
    the test above would catch a regression."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    script = KICK.replace("from sudokit.cli import main", "import click; main = None")
    done = subprocess.run([sys.executable, "-c", script, "click", "SIGINT", "script"],
                          env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=HANG_GUARD)
    assert done.returncode == -signal.SIGINT or done.returncode == 130
    assert "KeyboardInterrupt" in done.stderr


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["solve", "--help"]])
def test_a_signal_before_help_is_one_line(args):
    done = _kicked("click", "SIGINT", "script", *args)
    assert (done.returncode, done.stderr, done.stdout) == (130, "sudokit: interrupted\n", "")
