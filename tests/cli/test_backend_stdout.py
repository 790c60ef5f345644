"""Standard output of every optional back end is exactly the documented output.

The back ends are C++ libraries that may print on the process's own standard output, below
Python (HiGHS 1.16 prints its banner when a ``Highs`` object is built): each command runs as a
real process and its stdout is compared byte for byte with what the built-in solvers print.
CI runs this file a second time after upgrading the back ends to the newest versions the
extras allow (``.ci/run``), so a release that starts printing is seen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ..helpers import EXAMPLES, requires

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = EXAMPLES / "puzzle17.txt"


def stdout_of(*args: str, input: str | None = None) -> str:
    """The standard output of ``sudokit ARGS`` run as a process (exit 0 required)."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    done = subprocess.run([sys.executable, "-m", "sudokit", *args], cwd=ROOT, env=env,
                          input=input, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("solver", [
    pytest.param("ilp", marks=requires("ilp")),
    pytest.param("cpsat", marks=requires("cp")),
])
@pytest.mark.parametrize("command", [("solve",), ("count",)])
def test_a_back_end_solver_prints_what_dlx_prints(solver, command):
    expected = stdout_of(*command, str(PUZZLE), "--solver", "dlx")
    assert expected
    assert stdout_of(*command, str(PUZZLE), "--solver", solver) == expected


def without_seconds(out: str) -> list[dict]:
    """The JSON lines of ``out`` (every line must be one), less their timings."""
    assert out.endswith("\n"), out[-200:]
    return [{key: value for key, value in json.loads(line).items() if key != "seconds"}
            for line in out.splitlines()]


@pytest.mark.parametrize("solver", [
    pytest.param("ilp", marks=requires("ilp")),
    pytest.param("cpsat", marks=requires("cp")),
])
def test_a_back_end_solver_keeps_json_lines_whole(solver):
    expected = without_seconds(stdout_of("solve", "--json", str(PUZZLE), "--solver", "dlx"))
    assert without_seconds(stdout_of("solve", "--json", str(PUZZLE), "--solver", solver)) \
        == expected


@requires("ilp")
def test_a_solution_from_ilp_passes_check():
    solved = stdout_of("solve", str(PUZZLE), "--solver", "ilp")
    assert stdout_of("check", str(PUZZLE), "-", input=solved) == "valid\n"


@requires("ilp")
@pytest.mark.parametrize("size", ["9", "25"])   # in this process, and in a child process
def test_generate_with_the_ilp_fill_prints_only_its_puzzles(size):
    out = stdout_of("generate", "sudoku", "--size", size, "--fill", "ilp", "--count", "2",
                    "--seed", "3")
    lines = out.splitlines()
    n = int(size)
    assert len(lines) == 2 and out.endswith("\n"), out[:300]
    assert all(len(line) == n * n for line in lines), out[:300]


@pytest.mark.parametrize("counter, shown", [
    pytest.param("ganak", " 1", marks=requires("counting", "pyganak")),
    # a count this small approxmc's wrapper enumerates: exact, as ganak prints it
    pytest.param("approxmc", " 1\n", marks=requires("counting", "pyapproxmc")),
])
def test_a_counter_prints_one_line_per_instance(counter, shown):
    puzzles = PUZZLE.read_text().strip().splitlines()[0] + "\n" + "." * 16 + "\n"
    lines = stdout_of("count", "-", "--counter", counter, input=puzzles).split("\n")
    assert lines[-1] == "" and len(lines) == 3, lines
    assert (lines[0] + "\n").startswith(puzzles.split("\n")[0] + shown), lines
    assert lines[1].startswith("." * 16 + " "), lines
