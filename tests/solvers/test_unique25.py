"""Uniqueness of large grids (issue 29 item 3): the count to 2 of a grid counted on its own
(CaDiCaL in its ``sat`` configuration, SATEngine.grid_options) is exact, the command line
and the library take the same engine and give the same answers for gecode's 25x25 puzzles,
and the counts equal CP-SAT's and brute force's."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings

from sudokit.batch import RunSpec, run_batch
from sudokit.formats import format_instance, read_instances
from sudokit.instances import latin_square, precoloring
from sudokit.solvers import Budget, default_solver, open_engine
from sudokit.solvers import sat as sat_module
from sudokit.solvers.sat import SATEngine

from ..helpers import brute_force_count, cli_run, data_path, partial_grids, requires

#: gecode's 25x25 puzzles that every engine decides in well under a second (17 and 18 of
#: sudoku25_gecode.txt; the others take 1 to 20 CPU-s each)
QUICK = (17, 18)


def gecode25(number: int):
    path = data_path("sudoku", "gecode-9-16-25", "sudoku25_gecode.txt")
    return read_instances(str(path))[number - 1].instance


def two_solutions():
    """Puzzle 17 without the givens of two cells that swap two values in a rectangle
    (rows r1, r2, columns c1, c2 of one band and one stack): at least 2 solutions."""
    puzzle = gecode25(17)
    with open_engine("cadical195") as engine:
        solution = np.asarray(engine.count(puzzle, 1)[1])
    n = puzzle.n
    for r1 in range(n):
        for r2 in range(r1 - r1 % 5, r1 - r1 % 5 + 5):
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    a, b = solution[r1, c1], solution[r1, c2]
                    if r2 != r1 and solution[r2, c1] == b and solution[r2, c2] == a \
                            and c1 // 5 != c2 // 5:
                        givens = np.where(puzzle.givens > 0, solution, 0)
                        givens[[r1, r1, r2, r2], [c1, c2, c1, c2]] = 0
                        return puzzle.with_givens(givens)
    raise AssertionError("no unavoidable rectangle in puzzle 17's solution")


def test_the_cli_and_the_library_take_the_same_engine_for_a_25x25_count():
    puzzle = gecode25(17)
    spec = RunSpec.of("count", 2, None, budget=Budget(seconds=60))   # --time-limit 60
    assert spec.engine_name(puzzle) == default_solver(puzzle, task="count") == "cadical195"


@requires("cp", "ortools")
def test_25x25_counts_to_2_agree_with_cpsat_in_process_and_on_the_command_line():
    puzzles = [gecode25(k) for k in QUICK] + [two_solutions()]
    expected = [1, 1, 2]
    with open_engine("cpsat") as cpsat:
        assert [cpsat.count(p, 2)[0] for p in puzzles] == expected
    found = list(run_batch(puzzles, task="count", limit=2, budget=Budget(seconds=60)))
    assert [r.count for r in found] == expected
    assert all(p.is_solution(r.solution) for p, r in zip(puzzles, found, strict=True))
    text = "".join(format_instance(p).rstrip("\n") + "\n" for p in puzzles)
    result = cli_run("count", "--limit", "2", "--json", "--time-limit", "60", "-", input=text)
    assert result.exit_code == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["count"] for a in answers] == expected
    assert [a["status"] for a in answers] == [r.status for r in found] == ["sat"] * 3


def test_grids_on_their_own_are_solved_and_counted_in_the_sat_configuration(monkeypatch):
    opened = []
    real = sat_module.open_solver

    def spy(name, cnf=None, meter=None, options=None):
        opened.append(options)
        return real(name, cnf, meter, options)

    monkeypatch.setattr(sat_module, "open_solver", spy)
    square = latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]]))
    triangle = precoloring(3, [(0, 1), (1, 2), (0, 2)], 3, [1, 0, 0])
    with SATEngine("cadical195") as engine:
        assert engine.count(gecode25(18), 2)[0] == 1
        assert engine.count(square, None)[0] == 4
        assert square.is_solution(engine.solve(square))
        assert engine.count(triangle, None)[0] == 2
    sat = SATEngine.grid_options["cadical195"]
    assert opened == [sat, sat, sat, None]


@given(partial_grids())
@settings(max_examples=60, deadline=None)
def test_counts_on_its_own_equal_brute_force(problem):
    # opened without a shape, the engine counts each grid on its own formula, in the sat
    # configuration
    with SATEngine("cadical195") as engine:
        assert engine.count(problem, None)[0] == brute_force_count(problem)
