"""A new engine through the batch road: one class and one registry entry, nothing else.

The toy engine below is what a user adds (issue 26's example): a backtracking search over a
grid's units. Registered by an ``EngineSpec`` whose ``engine`` names this module's class,
it answers ``run_batch``, ``answer`` and the command line's ``solve`` and ``count`` (all
writers, ``--summary``), and the run refuses the budgets it does not honour; its counts
agree with DLX on the 4x4 puzzles of the public data set.
"""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.batch import RunSpec, answer, run_batch
from sudokit.formats import read_instances
from sudokit.solvers.budget import UNLIMITED, Budget
from sudokit.solvers.engine import EngineBase
from sudokit.solvers.registry import ENGINES, EngineSpec

from ..helpers import assert_cli_error, cli_run, data_path


class Backtracking(EngineBase):
    """Cells in order, each value its units allow: a toy engine (no budget, no sharing)."""

    def __init__(self, name: str = "toy", shape=None):
        self.name = name

    def count(self, instance, limit=None, budget: Budget = UNLIMITED):
        n = instance.n
        grid = instance.flat_givens.astype(np.int64)
        units_of = [[] for _ in range(n * n)]
        for unit in instance.units():
            for cell in unit:
                units_of[cell].append(unit)
        found, first = 0, None

        def search(cell: int) -> bool:  # True: stop, the limit is reached
            nonlocal found, first
            if cell == n * n:
                found += 1
                first = grid.copy() if first is None else first
                return limit is not None and found >= limit
            if grid[cell]:
                return search(cell + 1)
            taken = {int(v) for unit in units_of[cell] for v in grid[unit]}
            for value in range(1, n + 1):
                if value not in taken:
                    grid[cell] = value
                    if search(cell + 1):
                        grid[cell] = 0
                        return True
            grid[cell] = 0
            return False

        search(0)
        return found, None if first is None else first.reshape(n, n)

    def solve(self, instance, budget: Budget = UNLIMITED):
        return self.count(instance, 1, budget)[1]


TOY = EngineSpec("toy", "backtracking in cell order (a test's toy engine)",
                 f"{__name__}:Backtracking", budgets=(), kinds=("sudoku", "latin"))


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(ENGINES, "toy", TOY)
    return TOY


@pytest.fixture(scope="module")
def small():
    return data_path("sudoku", "mixed-4x4-16x16", "4x4.txt")


def test_the_toy_engine_counts_as_dlx_does(toy, small):
    puzzles = [r.instance for r in read_instances(small)]
    mine = [r.count for r in run_batch(puzzles, task="count", limit=3, solver="toy")]
    theirs = [r.count for r in run_batch(puzzles, task="count", limit=3, solver="dlx")]
    assert mine == theirs and len(mine) == 100
    solved = answer(RunSpec.of("solve", solver="toy"), puzzles)
    assert all(p.is_solution(s) for p, s in zip(puzzles, solved.solutions, strict=True))


def test_the_command_line_runs_the_toy_engine_with_every_writer(toy, small):
    counted = cli_run("count", "--solver", "toy", "--limit", "2", small)
    assert counted.exit_code == 0, counted.stderr
    assert counted.stdout == cli_run("count", "--solver", "dlx", "--limit", "2", small).stdout
    summary = cli_run("count", "--solver", "toy", "--summary", "--limit", "2", small)
    assert summary.stdout.split("\n")[1].split()[0] == "100"
    solved = cli_run("solve", "--solver", "toy", "--json", small)
    assert solved.exit_code == 0 and solved.stdout.count('"status":"sat"') == 100


def test_an_unregistered_engine_runs_as_a_class_or_a_reference(small):
    puzzles = [r.instance for r in read_instances(small)][:10]
    by_class = [r.count for r in run_batch(puzzles, task="count", limit=2,
                                           solver=Backtracking)]
    assert by_class == [1] * 10
    reference = f"{__name__}:Backtracking"
    result = cli_run("count", "--solver", reference, "--limit", "2", small)
    assert result.exit_code == 0 and result.stdout.count(" 1\n") == 100
    missing = cli_run("count", "--solver", f"{__name__}:NoSuchEngine", small)
    assert_cli_error(missing, 2, "--solver")


def test_a_budget_the_toy_engine_does_not_honour_is_refused(toy, small):
    result = cli_run("count", "--solver", "toy", "--nodes", "5", small)
    assert_cli_error(result, 2, "--nodes does not apply to toy", "no budget")
