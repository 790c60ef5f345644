"""Edges a user hits: full disks, closed pipes, outputs that must be whole, odd certificates.

Each case through the real command: its exit code, one ``sudokit: error:`` line (or none), no
traceback, nothing lost.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit.errors import EXIT_CHECK_FAILED, EXIT_OUTPUT

from .helpers import HANG_GUARD

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "sudokit" / "instances" / "examples"
ENV = dict(os.environ, SUDOKIT_NO_PROGRESS="1")


def run(*args, stdin=None, stdout=subprocess.PIPE, shell=False):
    command = args[0] if shell else [sys.executable, "-m", "sudokit", *args]
    return subprocess.run(command, cwd=ROOT, env=ENV, input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=HANG_GUARD, shell=shell)


def one_error_line(done, code, *fragments):
    assert done.returncode == code, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokit: error:"), done.stderr
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ("solve", str(EXAMPLES / "top3.txt")),
    ("count", str(EXAMPLES / "top3.txt"), "--limit", "2"),
    ("encode", "--cnf", str(EXAMPLES / "puzzle17.txt")),
    ("reduce", "--list"),
], ids=lambda a: a[0])
def test_a_full_stdout_is_a_write_error(args):
    with open("/dev/full", "w") as full:
        done = run(*args, stdout=full)
    one_error_line(done, EXIT_OUTPUT, "cannot write standard output")


def test_a_closed_pipe_ends_quietly():
    path = EXAMPLES / "top3.txt"
    done = run(f'"{sys.executable}" -m sudokit solve {path} {path} | head -c 10',
               shell=True)
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr


def test_map_back_of_a_solution_of_the_wrong_size():
    done = run("reduce", "latin2sudoku", str(EXAMPLES / "qwh5.pls"), "--map-back",
               str(EXAMPLES / "puzzle17.txt"))
    assert done.returncode == EXIT_CHECK_FAILED, done.stderr
    assert done.stdout.startswith("invalid target solution: solution is 9x9, puzzle is 25x25")
    assert done.stderr == ""


@pytest.mark.parametrize("target", ["dir", "input", "device"])
def test_outputs_refuse_directories_devices_and_the_input(tmp_path, target):
    source = tmp_path / "p.txt"
    source.write_text((EXAMPLES / "puzzle17.txt").read_text())
    out = {"dir": str(tmp_path), "input": str(source), "device": os.devnull}[target]
    for args in (("encode", "--cnf", str(source), "-o", out),
                 ("encode", "--xc", str(source), "--matrix", out),
                 ("reduce", "sudoku2coloring", str(source), "-o", out)):
        one_error_line(run(*args), EXIT_OUTPUT, "cannot write")
    assert source.read_text() == (EXAMPLES / "puzzle17.txt").read_text()


def test_matrix_goes_to_exactly_the_path_given(tmp_path):
    out = tmp_path / "matrix.bin"
    done = run("encode", "--xc", str(EXAMPLES / "puzzle17.txt"), "--matrix", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["matrix.bin"]
    assert np.load(out)["shape"].tolist() == [593, 324]


def test_outputs_keep_the_permissions_open_would_give(tmp_path):
    out = tmp_path / "p.cnf"
    done = run("encode", "--cnf", str(EXAMPLES / "puzzle17.txt"), "-o", str(out))
    assert done.returncode == 0, done.stderr
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


BAD3 = ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
        "abc 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4.....\n"
        "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....\n")


def test_a_bad_line_among_puzzles_stops_the_run():
    done = run("count", "-", "--limit", "2", stdin=BAD3)
    one_error_line(done, 4, "<stdin>:2:", "expected a puzzle line of 81 cells")
    assert done.stdout == ""


def test_skip_bad_warns_per_line_counts_and_fails():
    done = run("count", "-", "--limit", "2", "--skip-bad", stdin=BAD3)
    assert done.returncode == 4
    assert len(done.stdout.splitlines()) == 2
    warnings = done.stderr.strip().splitlines()
    assert warnings[0].startswith("sudokit: warning: skipped: <stdin>:2:")
    assert warnings[-1] == "sudokit: warning: 1 malformed line(s) skipped"


def test_skip_bad_keeps_a_worse_exit_code():
    unsolvable = "11" + "." * 79 + "\n"
    done = run("count", "-", "--limit", "2", "--skip-bad", "--require-unique",
               stdin=BAD3 + unsolvable)
    assert done.returncode in (1, 4), done.stderr
    assert "malformed line(s) skipped" in done.stderr
