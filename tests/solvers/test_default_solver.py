"""Which engine solves an instance when no --solver is named (issue 11: the fastest exact back
end is the default for grids where the solver-family benchmark shows it ahead)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sudokit.batch import RunSpec, run_batch
from sudokit.batch.spec import shape_keys
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import Budget, default_solver
from sudokit.solvers.registry import grid_solver

from ..helpers import EXAMPLES, assert_cli_error, cli_run


def empty(n: int):
    return sudoku(np.zeros((n, n), dtype=int))


def test_grids_up_to_16_go_to_takano_and_larger_ones_to_the_portfolio():
    assert [default_solver(empty(n)) for n in (4, 9, 16)] == ["takano"] * 3
    assert default_solver(empty(25)) == grid_solver(empty(25)) == "cadical195"
    assert default_solver(latin_square(np.zeros((30, 30), dtype=int))) == "cp"
    assert default_solver(latin_square(np.zeros((5, 5), dtype=int))) == "takano"
    assert default_solver(latin_square(np.zeros((70, 70), dtype=int))) == "cadical195"


def test_other_kinds_keep_their_own_default():
    graph = precoloring(3, [(0, 1), (1, 2)], 2, [1, 0, 0])
    assert default_solver(graph) == "cadical195"
    assert default_solver("xc") == "dlx"


def test_a_sat_only_option_or_budget_chooses_the_sat_solver():
    grid = empty(9)
    assert RunSpec.of(encoding="reduced").needs == {"encoding"}
    assert RunSpec.of(budget=Budget(conflicts=10)).engine_name(grid) == "cadical195"
    assert RunSpec.of(amo="seqcounter").engine_name(grid) == "cadical195"
    # takano honours time and node budgets itself
    assert RunSpec.of(budget=Budget(seconds=1, nodes=5)).engine_name(grid) == "takano"


def test_default_names_are_worked_out_per_instance():
    mixed = [empty(9), empty(25), empty(4)]
    names = RunSpec.of().engine_names(mixed, shape_keys(mixed))
    assert names == ["takano", grid_solver(empty(25)), "takano"]
    results = list(run_batch(mixed))
    assert [r.status for r in results] == ["sat"] * 3
    assert all(p.is_solution(r.solution) for p, r in zip(mixed, results, strict=True))


def test_default_counts_agree_with_dlx_and_sat_on_real_puzzles():
    path = EXAMPLES / "top3.txt"
    for solver in (None, "dlx", "cadical195"):
        result = cli_run("count", "--limit", "2", "--json", str(path),
                         *(["--solver", solver] if solver else []))
        assert result.exit_code == 0, result.output
        assert [json.loads(line)["count"] for line in result.stdout.splitlines()] == [1, 1, 1]


@pytest.mark.parametrize("option", [["--conflicts", "100"], ["--encoding", "reduced"],
                                    ["--amo", "seqcounter"]])
def test_sat_options_without_solver_are_not_usage_errors(option):
    result = cli_run("count", "--limit", "2", str(EXAMPLES / "puzzle17.txt"), *option)
    assert result.exit_code == 0, result.output
    assert result.stdout.split()[-1] == "1"


def test_nodes_budget_works_with_the_default_and_is_refused_with_sat():
    puzzle = str(EXAMPLES / "puzzle17.txt")
    assert cli_run("count", "--limit", "2", "--nodes", "100000", puzzle).exit_code == 0
    assert_cli_error(cli_run("count", "--nodes", "5", "--solver", "cadical195", puzzle), 2,
                     "--nodes does not apply to cadical195")
