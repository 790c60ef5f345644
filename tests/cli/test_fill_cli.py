"""``generate sudoku --fill NAME --alpha A``, ``--json`` fill records, ``--target-clues`` and
streaming of ``--count N --minimal`` (issue 13)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from sudokit.cli import main
from sudokit.formats import format_puzzle
from sudokit.generators import PuzzleGenerator
from sudokit.generators.fills import FILLS

from ..helpers import (
    HANG_GUARD,
    budget_cpu_bound,
    interrupt,
    needs_proc,
    progress_line,
    requires,
    run_cpu,
    with_extra,
)


def run(*args):
    return CliRunner().invoke(main, ["generate", "sudoku", *args])


@pytest.mark.parametrize("name", [with_extra("ilp", n) if n == "ilp" else n for n in FILLS
                                  if n not in ("sat", "product")])
def test_fill_json_reports_strategy_restarts_nodes_seconds(name):
    out = run("--size", "9", "--full", "--fill", name, "--seed", "3", "--count", "2", "--json")
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.stdout.splitlines()]
    for record in records:
        fill = record["fill"]
        assert fill["strategy"] == name and fill["restarts"] >= 0 and fill["nodes"] >= 0
        assert fill["seconds"] >= 0 and fill["alpha"] == FILLS[name].alpha_default
        grid = np.array([int(ch) for ch in record["puzzle"]]).reshape(9, 9)
        assert all(sorted(row) == list(range(1, 10)) for row in grid.tolist())
    again = run("--size", "9", "--full", "--fill", name, "--seed", "3", "--count", "2")
    assert again.stdout.splitlines() == [r["puzzle"] for r in records]


def test_cli_equals_the_library_with_alpha():
    out = run("--size", "9", "--minimal", "--fill", "prune", "--alpha", "0.4", "--seed", "2",
              "--count", "2")
    assert out.exit_code == 0, out.output
    with PuzzleGenerator(9, (3, 3), seed=2, fill="prune", alpha=0.4) as gen:
        expected = [format_puzzle(gen.make("minimal").puzzle) for _ in range(2)]
    assert out.stdout.splitlines() == expected


@pytest.mark.parametrize("args", [("--fill", "prune", "--alpha", "-0.1"),
                                  ("--fill", "prune", "--alpha", "1.5"),
                                  ("--fill", "weighted-prune", "--alpha", "nan"),
                                  ("--fill", "grasp", "--alpha", "2"),
                                  ("--fill", "ilp", "--alpha", "0.5"),
                                  ("--alpha", "0.5"),                 # auto takes none
                                  ("--fill", "annealing")])
def test_bad_alpha_or_fill_is_a_usage_error(args):
    out = run("--size", "9", "--seed", "1", *args)
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert len(out.stderr.strip().splitlines()) == 1


def test_out_of_time_exits_5():
    out = run("--size", "16", "--full", "--fill", "grasp", "--time-limit", "0.5", "--seed", "1")
    assert out.exit_code == 5 and "allow more with --time-limit" in out.stderr


@pytest.mark.parametrize("name", ["backtrack", "prune", "weighted-prune"])
@pytest.mark.parametrize("mode", ["--full", "--minimal"])
def test_raggi_fills_out_of_time_exit_5_with_one_line(name, mode):
    """No Raggi fill makes a 64x64 grid in half a second: exit 5 and one line (that the
    budget holds in time is test_fill_strategies.py::test_time_budget_holds)."""
    out = run("--size", "64", mode, "--fill", name, "--time-limit", "0.5", "--seed", "1")
    assert out.exit_code == 5 and "Traceback" not in out.output and not out.stdout
    assert out.stderr.strip().splitlines()[-1] == (
        "sudokit: error: the time budget of 0.5 s ran out before the 64x64 grid was "
        "filled; allow more with --time-limit")


def test_target_clues_is_best_effort_and_reported():
    out = run("--size", "9", "--target-clues", "18", "--seed", "1", "--count", "2", "--json")
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.stdout.splitlines()]
    for r in records:
        assert r["target_clues"] == 18 and r["clues_over_target"] == r["clues"] - 18 > 0
        assert r["puzzle"].count(".") == 81 - r["clues"] and r["checks"]["unique"]
    text = run("--size", "9", "--target-clues", "30", "--seed", "1")
    assert text.exit_code == 0 and "30 clues (target 30, 0 over)" in text.stderr
    assert text.stdout.count(".") == 51
    both = run("--size", "9", "--target-clues", "30", "--minimal")
    assert both.exit_code == 2


def test_target_clues_out_of_time_writes_the_best_puzzle_so_far():
    """A best-effort target whose --time-limit runs out still writes a unique puzzle, says
    how close it came and that time ran out (exit 0); --clues K exits 5 there."""
    args = ("--size", "25", "--target-clues", "100", "--seed", "1", "--time-limit", "1")
    out = run(*args)
    assert out.exit_code == 0, out.output
    assert "(target 100, " in out.stderr and "more clues might go" in out.stderr
    puzzle = out.stdout.strip()
    clues = 625 - puzzle.count(".")
    assert len(puzzle) == 625 and 100 < clues < 625 and f"puzzle 1: {clues} clues" in out.stderr
    grid = np.array([0 if ch == "." else int(ch, 36) for ch in puzzle]).reshape(25, 25)
    with PuzzleGenerator(25, (5, 5)) as gen:
        assert gen.count(grid, "dlx") == 1
    record = json.loads(run(*args, "--json").stdout)
    assert record["target_clues"] == 100 and record["clues_over_target"] > 0
    assert record["checks"]["unique"] and not record["checks"]["minimal"]
    hard = run("--size", "25", "--clues", "100", "--seed", "1", "--time-limit", "1")
    assert hard.exit_code == 5 and "allow more with --time-limit" in hard.stderr


def test_minimal_batches_stream():
    """The first puzzle is on the pipe while the batch of a million is still being made."""
    import threading

    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    for json_flag in ([], ["--json"]):
        proc = subprocess.Popen([sys.executable, "-m", "sudokit", "generate", "sudoku",
                                 "--size", "9", "--minimal", "--count", "1000000", "--seed",
                                 "1", *json_flag], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env)
        guard = threading.Timer(HANG_GUARD, proc.kill)   # only against a hung run
        guard.start()
        try:
            first = proc.stdout.readline()
            assert first.strip() and proc.poll() is None       # still making the rest
        finally:
            guard.cancel()
            proc.kill()
            proc.wait()


def _with_progress():
    """The environment without ``SUDOKIT_NO_PROGRESS`` (stderr is a pipe: the commands get
    ``--progress`` too)."""
    env = dict(os.environ)
    env.pop("SUDOKIT_NO_PROGRESS", None)
    return env


@needs_proc
@pytest.mark.parametrize("name", ["backtrack", "prune", "grasp"])
def test_ctrl_c_ends_a_long_fill(name):
    """SIGINT mid-fill (at its first 'generating: filling the grid' progress line): exit 130
    and one line, having computed less after the signal than half of what it did before."""
    size = {"grasp": "25", "ilp": "36"}.get(name, "64")
    proc = subprocess.Popen([sys.executable, "-m", "sudokit", "generate", "sudoku", "--size",
                             size, "--full", "--fill", name, "--seed", "1", "--progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_with_progress())
    run = interrupt(proc, progress_line("generating: filling the grid"))
    assert run.code == 130 and run.err.strip().endswith("sudokit: interrupted"), run.err
    assert "Traceback" not in run.err
    assert run.reacted_at_once(), (run.cpu_before, run.cpu_after)


def _children(pid):
    """The process ids of ``pid``'s children (Linux /proc)."""
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            found += [int(c) for c in f.read().split()]
    return found


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="needs Linux /proc")
@requires("ilp")
def test_ctrl_c_ends_a_36x36_ilp_fill_at_once(tmp_path):
    """The ILP fill of a 36x36 runs in a child process (HiGHS answers a cancel only at its
    own check points): SIGINT, sent once a grid is out (a progress line) and the HiGHS child
    of the next one runs, exits 130 having computed (with the child) less than half of what
    it did before; the child is gone, and no -o file is left."""
    out_file = tmp_path / "grids.txt"
    proc = subprocess.Popen([sys.executable, "-m", "sudokit", "generate", "sudoku", "--size",
                             "36", "--full", "--fill", "ilp", "--count", "200", "--seed", "1",
                             "-o", str(out_file), "--progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_with_progress())
    children = []
    progress = progress_line("generating:")

    def filling(out, err):
        children[:] = _children(proc.pid)          # the HiGHS child of the grid in hand
        return progress(out, err) and bool(children)
    run = interrupt(proc, filling)
    assert run.code == 130 and run.err.strip().endswith("sudokit: interrupted"), run.err
    assert run.reacted_at_once(), (run.cpu_before, run.cpu_after)
    assert not out_file.exists()
    for child in children:
        assert not os.path.exists(f"/proc/{child}") or _zombie_or_other(child, proc.pid)


def _zombie_or_other(pid, parent):
    """True when ``pid`` is no longer a live child of ``parent`` (reused ids included)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return True
    return fields[0] == "Z" or int(fields[1]) != parent


@requires("ilp")
def test_ilp_time_limit_exits_5_at_36x36():
    """The budget holds: exit 5, and the run computes no more than the limit allows on top
    of a whole quick ILP fill (a 9x9) measured here (:func:`~.helpers.budget_cpu_bound`)."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    command = [sys.executable, "-m", "sudokit", "generate", "sudoku", "--full", "--fill", "ilp",
               "--seed", "1"]
    quick, startup = run_cpu([*command, "--size", "9"], capture_output=True, env=env)
    assert quick.returncode == 0, quick.stderr
    proc, cpu = run_cpu([*command, "--size", "36", "--time-limit", "0.5"], capture_output=True,
                        env=env)
    assert proc.returncode == 5 and b"allow more with --time-limit" in proc.stderr
    assert cpu < budget_cpu_bound(0.5, startup), (cpu, startup)
