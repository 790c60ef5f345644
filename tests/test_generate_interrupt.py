"""Ctrl-C ends a long ``sudokit generate`` promptly: every numba kernel of the generators runs in
bounded slices and returns to Python between them (a 64x64 puzzle once ignored two SIGINTs
for minutes). Each run is a real process; the signal arrives mid-removal or mid-fill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the time a run gets to react to SIGINT and exit (interpreter shutdown included)
REACTION = 2.0


def _interrupt(args, after: float, tmp_path: Path):
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "generate", *args], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(after)
    if process.poll() is not None:
        out, err = process.communicate()
        pytest.fail(f"ended before the signal: {process.returncode} {err.decode()[-300:]}")
    process.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"no exit within 30 s of SIGINT: generate {' '.join(args)}")
    return process.returncode, time.monotonic() - sent, out.decode(), err.decode()


@pytest.mark.parametrize("args, after", [
    (["sudoku", "--size", "36", "--seed", "1"], 2.0),
    (["sudoku", "--size", "49", "--minimal", "--seed", "2"], 2.5),
    (["sudoku", "--size", "64", "--seed", "3", "--json"], 3.0),
    (["sudoku", "--size", "36", "--full", "--fill", "search", "--seed", "4"], 1.5),
    (["latin", "--order", "255", "--holes", "0.3", "--seed", "5"], 1.5)])
def test_ctrl_c_ends_generation_within_two_seconds(args, after, tmp_path):
    target = tmp_path / "out.txt"
    for repeat in range(2):
        code, took, out, err = _interrupt([*args, "-o", str(target)] if repeat else args,
                                          after + 0.4 * repeat, tmp_path)
        assert code == 130, err
        assert err.strip().splitlines()[-1] == "sudokit: interrupted", err
        assert "Traceback" not in err and "internal error" not in err
        assert took < REACTION, f"{took:.2f} s to react to SIGINT"
        assert out == ""
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == []
