"""DIMACS formulas as instances: solve, projected counting, checking models, via the CLI too."""

import numpy as np
import pytest
from click.testing import CliRunner

from sudokit.cli import main
from sudokit.encoders import grid_to_cnf, to_cnf
from sudokit.formats import format_dimacs, parse_instances
from sudokit.instances import sudoku
from sudokit.solvers import count_solutions, solve

from .helpers import grid_from_line

PUZZLE17 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def formula_of(text):
    return parse_instances(text, "f.cnf", "cnf")[0].instance


def test_projected_model_counts():
    assert count_solutions(to_cnf(formula_of("p cnf 3 1\n1 2 3 0\n"))) == 7
    assert count_solutions(to_cnf(formula_of("c ind 1 2 0\np cnf 3 1\n1 2 3 0\n"))) == 4
    assert count_solutions(to_cnf(formula_of("c p show 1 0\np cnf 3 1\n1 2 3 0\n"))) == 2


def test_exported_sudoku_counts_like_the_puzzle():
    """A grid's DIMACS, read back as a plain formula, has the same (projected) count."""
    empty = sudoku(np.zeros((4, 4), dtype=int))
    text = format_dimacs(grid_to_cnf(empty, "extended", "seqcounter").cnf)
    shown = "c p show " + " ".join(map(str, range(1, 65))) + " 0\n"
    assert count_solutions(to_cnf(formula_of(shown + text))) == 288


def test_model_check_names_the_falsified_clause():
    f = formula_of("p cnf 2 2\n1 2 0\n-1 -2 0\n")
    assert f.is_solution([1, -2])
    assert f.violations([-1, -2]) == ["clause 1 (1 2) is not satisfied"]
    assert f.violations([1, -1, 2]) == ["the model sets variable 1 both true and false"]


def test_bad_projection_is_an_error():
    from sudokit.errors import ParseError
    with pytest.raises(ParseError, match="projection variable 9"):
        formula_of("c ind 9 0\np cnf 2 1\n1 2 0\n")


def test_cli_solves_counts_and_checks_a_cnf(tmp_path):
    runner = CliRunner()
    path = tmp_path / "p.cnf"
    assert runner.invoke(main, ["encode", "--cnf", "-", "-o", str(path)],
                         input=PUZZLE17 + "\n").exit_code == 0
    solved = runner.invoke(main, ["solve", str(path)])
    assert solved.exit_code == 0 and solved.stdout.startswith("s SATISFIABLE\nv ")
    model = [int(x) for x in solved.stdout.split("\n")[1].split()[1:-1]]
    expected = solve(grid_to_cnf(sudoku(grid_from_line(PUZZLE17))))
    grid = np.array([v for v in model if 0 < v <= 729]) - 1
    assert np.array_equal(grid % 9 + 1, expected.reshape(-1))
    assert runner.invoke(main, ["count", str(path), "--limit", "3"]).stdout.endswith(":1 1\n")
    assert runner.invoke(main, ["check", str(path), "-"], input=solved.stdout).stdout == "valid\n"
    flipped = solved.stdout.replace(f" {grid[0] + 1} ", f" -{grid[0] + 1} ", 1)
    bad = runner.invoke(main, ["check", str(path), "-"], input=flipped)
    assert bad.exit_code == 1 and "is not satisfied" in bad.stdout


def test_cli_unsat_cnf_and_malformed_dimacs():
    runner = CliRunner()
    unsat = runner.invoke(main, ["solve", "-"], input="p cnf 1 2\n1 0\n-1 0\n")
    assert unsat.exit_code == 0 and unsat.stdout == "s UNSATISFIABLE\n"
    bad = runner.invoke(main, ["solve", "-"], input="p cnf 2 1\n1 x 0\n")
    assert bad.exit_code == 4
    assert bad.stderr == "sudokit: error: <stdin>:2:3: not an integer literal: 'x'\n"
    header = runner.invoke(main, ["count", "-", "--problem", "cnf"], input="p cnf two 1\n")
    assert header.exit_code == 4 and "malformed header" in header.stderr
