"""DLX through the encoders, batch engine and CLI, checked against the SAT back ends."""

import itertools

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.batch import run_batch
from sudokit.cli import main
from sudokit.encoders import completion_to_exact_cover, exact_cover_to_cnf, grid_to_cnf
from sudokit.errors import BudgetExhausted
from sudokit.formats import format_dlx, parse_instances
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import Budget, DancingLinks, count_solutions
from sudokit.solvers.dlx_engine import DLXEngine

from ..helpers import partial_grids, random_cnf, small_matrices, small_precolorings


def dlx_count(problem, encoding="full"):
    return DancingLinks.from_problem(completion_to_exact_cover(problem, encoding).xc).count()


@pytest.mark.parametrize("problem, expected", [
    (sudoku(np.zeros((4, 4), dtype=int)), 288),
    (latin_square(np.zeros((5, 5), dtype=int)), 161280),
    (precoloring(6, [(i, (i + 1) % 6) for i in range(6)], 3), 66),
])
def test_known_counts_through_the_encoders(problem, expected):
    assert dlx_count(problem) == expected == dlx_count(problem, "reduced")


@pytest.mark.slow
def test_6x6_sudoku_grids_with_dlx():  # about 30 s
    assert dlx_count(sudoku(np.zeros((6, 6), dtype=int), (2, 3))) == 28_200_960


@settings(max_examples=150, deadline=None)
@given(partial_grids(), st.sampled_from(["full", "reduced"]))
def test_dlx_and_sat_agree_on_grids(puzzle, encoding):
    encoded = completion_to_exact_cover(puzzle, encoding)
    links = DancingLinks.from_problem(encoded.xc)
    assert links.count() == count_solutions(grid_to_cnf(puzzle))
    cover = links.first()
    assert cover is None or puzzle.is_solution(encoded.decode(cover))


@settings(max_examples=150, deadline=None)
@given(small_precolorings())
def test_dlx_and_sat_agree_on_precolorings(problem):
    xc = completion_to_exact_cover(problem).xc
    assert DancingLinks.from_problem(xc).count() == count_solutions(exact_cover_to_cnf(xc))


@settings(max_examples=200, deadline=None)
@given(small_matrices())
def test_dlx_and_sat_agree_on_matrices_with_secondary_items(xc):
    assert DancingLinks.from_problem(xc).count() == count_solutions(exact_cover_to_cnf(xc))


def test_2000_seventeen_clue_puzzles_dlx_equals_sat(data_dir):
    path = data_dir / "sudoku/9x9-tdoku/puzzles2_17_clue"
    with open(path) as handle:
        lines = (line for line in handle if not line.startswith("#"))
        text = "".join(itertools.islice(lines, 2000))
    puzzles = [r.instance for r in parse_instances(text, str(path))]
    by_dlx = list(run_batch(puzzles, task="count", limit=2, solver="dlx"))
    by_sat = list(run_batch(puzzles, task="count", limit=2, solver="cadical195"))
    assert [r.count for r in by_dlx] == [r.count for r in by_sat] == [1] * 2000
    for puzzle, a, b in zip(puzzles, by_dlx, by_sat, strict=True):
        assert np.array_equal(a.solution, b.solution) and puzzle.is_solution(a.solution)


def test_batch_mixes_shapes_and_solvers():
    mixed = [sudoku(np.zeros((4, 4), int)), latin_square(np.zeros((3, 3), int)),
             sudoku(np.zeros((4, 4), int)), precoloring(3, [(0, 1), (1, 2), (0, 2)], 3)]
    counts = [r.count for r in run_batch(mixed, task="count", solver="dlx")]
    assert counts == [288, 12, 288, 6]


def test_dlx_budgets_give_unknown():
    big = latin_square(np.zeros((7, 7), dtype=int))
    with pytest.raises(BudgetExhausted):
        DLXEngine().count(big, budget=Budget(nodes=1000))
    with pytest.raises(BudgetExhausted):
        DLXEngine().count(big, budget=Budget(seconds=0.05))
    results = run_batch([big, big], task="count", solver="dlx", budget=Budget(nodes=500))
    assert [r.status for r in results] == ["unknown", "unknown"]


def test_cli_dlx_and_knuth_files(tmp_path):
    runner = CliRunner()
    problem = tmp_path / "tiny.dlx"
    problem.write_text("| Knuth's 7.2.2.1-(6)\n"
                       "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    solved = runner.invoke(main, ["solve", "--xc", str(problem)])
    assert solved.exit_code == 0 and solved.stdout == "c e\na d f\nb g\n\n"
    assert runner.invoke(main, ["count", str(problem)]).stdout == f"{problem}:2 1\n"
    by_sat = runner.invoke(main, ["count", "--xc", str(problem), "--solver", "minisat22"])
    assert by_sat.stdout == f"{problem}:2 1\n"
    out = tmp_path / "p.dlx"
    encoded = runner.invoke(main, ["encode", "--xc", "-", "-o", str(out), "--matrix",
                                   str(tmp_path / "m.npz")], input="1" + "." * 15 + "\n")
    assert encoded.exit_code == 0 and out.read_text().startswith("p11 p12")
    assert runner.invoke(main, ["count", "--xc", str(out)]).stdout.endswith(" 72\n")
    grid = runner.invoke(main, ["solve", "--solver", "dlx", "-"], input="1" + "." * 15 + "\n")
    assert grid.stdout == "1234341221434321\n"


@pytest.mark.parametrize("text, message", [
    ("a b\na c\n", "2:3: unknown item 'c'"),
    ("a b\na a\n", "2:3: item 'a' appears twice in this option"),
    ("a | s\ns\n", "2:1: option has no primary item"),
    ("a b:c\n", "1:3: item name 'b:c' contains '|' or ':'"),
])
def test_cli_malformed_knuth_input(text, message):
    result = CliRunner().invoke(main, ["solve", "--xc", "-"], input=text)
    assert result.exit_code == 4
    assert result.stderr == f"sudokit: error: <stdin>:{message}\n"


def test_encode_xc_round_trips_through_knuth_text():
    puzzle = sudoku(np.zeros((4, 4), int))
    text = format_dlx(completion_to_exact_cover(puzzle).xc)
    again = CliRunner().invoke(main, ["encode", "--xc", "-"], input="." * 16 + "\n")
    assert again.stdout == text


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_dlx_solves_cnf_through_sat2xc(data):
    from sudokit.encoders import to_cnf
    from sudokit.errors import SolverError

    formula = data.draw(random_cnf())
    by_sat = count_solutions(to_cnf(formula), limit=1)
    model = DLXEngine().solve(formula)
    assert (model is not None) == (by_sat == 1)
    assert model is None or formula.is_solution(model)
    with pytest.raises(SolverError, match="one to one"):
        DLXEngine().count(formula, limit=2)


def test_cli_dlx_on_a_cnf_file():
    runner = CliRunner()
    solved = runner.invoke(main, ["solve", "--solver", "dlx", "-"],
                           input="p cnf 2 2\n1 2 0\n-1 0\n")
    assert solved.stdout == "s SATISFIABLE\nv -1 2 0\n"
    counted = runner.invoke(main, ["count", "--solver", "dlx", "-"], input="p cnf 1 1\n1 0\n")
    assert counted.exit_code == 6 and "count it with a SAT solver" in counted.stderr
