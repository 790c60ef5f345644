"""Ctrl-C ends a long ``sudokit generate`` promptly: every numba kernel of the generators runs in
bounded slices and returns to Python between them (a 64x64 puzzle once ignored two SIGINTs
for minutes). Each run is a real process; the signal arrives mid-removal or mid-fill.

The signal is sent at a point the run reports (a progress line, written between slices of
the work, after the command's signal handlers are in place), not after a fixed sleep: on a
busy machine a sleep can end before the interpreter has even started. "Promptly" is measured
in CPU seconds, which a busy machine does not stretch: after the signal the run computes
less than half of what it computed before it (see :func:`~.helpers.interrupt`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import cpu_beyond, interrupt, needs_proc, progress_line, run_cpu

ROOT = Path(__file__).resolve().parents[2]

pytestmark = needs_proc


def _start(args, progress: bool):
    env = dict(os.environ)
    env.pop("SUDOKIT_NO_PROGRESS", None)
    if not progress:
        env["SUDOKIT_NO_PROGRESS"] = "1"
    shown = ["--progress"] if progress else []   # stderr is a pipe: asked for
    return subprocess.Popen([sys.executable, "-m", "sudokit", "generate", *args, *shown],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.fixture(scope="module")
def latin_startup():
    """CPU seconds of a whole quick ``generate latin`` run (interpreter, imports, kernels)."""
    done, cpu = run_cpu([sys.executable, "-m", "sudokit", "generate", "latin", "--order", "5",
                         "--holes", "0.3", "--seed", "5"], cwd=ROOT, capture_output=True,
                        env=dict(os.environ, SUDOKIT_NO_PROGRESS="1"))
    assert done.returncode == 0, done.stderr
    return cpu


def _interrupted(args, latin_startup):
    if args[0] == "latin":  # no progress line inside one square: wait for its CPU instead
        process = _start(args, progress=False)
        return interrupt(process, cpu_beyond(process, 1.5 * latin_startup + 0.5))
    return interrupt(_start(args, progress=True), progress_line("generating:"))


@pytest.mark.parametrize("args", [
    ["sudoku", "--size", "36", "--seed", "1"],
    ["sudoku", "--size", "49", "--minimal", "--seed", "2"],
    ["sudoku", "--size", "64", "--seed", "3", "--json"],
    ["sudoku", "--size", "36", "--full", "--fill", "search", "--seed", "4"],
    ["latin", "--order", "255", "--holes", "0.3", "--seed", "5"]])
def test_ctrl_c_ends_generation_at_once(args, tmp_path, request):
    startup = request.getfixturevalue("latin_startup") if args[0] == "latin" else 0.0
    target = tmp_path / "out.txt"
    for repeat in range(2):
        run = _interrupted([*args, "-o", str(target)] if repeat else args, startup)
        assert run.code == 130, run.err
        assert run.err.strip().splitlines()[-1] == "sudokit: interrupted", run.err
        assert "Traceback" not in run.err and "internal error" not in run.err
        assert run.reacted_at_once(), (run.cpu_before, run.cpu_after)
        assert run.out == ""
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == []
