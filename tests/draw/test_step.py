"""``draw --step N``: the grid before step N of the human path, the step's candidates
highlighted where the SVG says, and the board a true state of the solving path."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from sudokit import solve
from sudokit.draw.step import board_before, step_marks
from sudokit.formats import read_instances
from sudokit.human import solve_path

from ..helpers import EXAMPLES, assert_cli_error, cli_run

SVG = "{http://www.w3.org/2000/svg}"
TOP3 = EXAMPLES / "top3.txt"


def read_svg(root, n=9):
    """``{(row, col, value): class}`` of the step's marks and ``{(row, col): {values}}``
    of the pencil marks, from positions in the SVG alone."""
    (border,) = [e for e in root.iter(SVG + "rect") if e.get("class") == "border"]
    left, top = float(border.get("x")), float(border.get("y"))
    cell = float(border.get("width")) / n
    sub = cell / 3
    marks = {}
    for e in root.iter(SVG + "rect"):
        if e.get("class") in ("pattern", "elimination", "placement"):
            x, y = float(e.get("x")) - left, float(e.get("y")) - top
            r, c = int(y // cell), int(x // cell)
            i, j = round((y - r * cell) / sub), round((x - c * cell) / sub)
            marks[(r, c, 3 * i + j + 1)] = e.get("class")
    pencil = {}
    for e in root.iter(SVG + "text"):
        if e.get("class") == "candidate":
            x, y = float(e.get("x")) - left, float(e.get("y")) - top
            r, c = int(x // cell), int(y // cell)
            pencil.setdefault((c, r), set()).add(int(e.text))
    return marks, pencil


@pytest.mark.parametrize("number", [1, 4, 9, 30])
def test_step_marks_are_on_the_right_candidates(number):
    result = cli_run("draw", TOP3, "--index", 1, "--step", number)
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(result.stdout)
    marks, pencil = read_svg(root)
    puzzle = read_instances(str(TOP3))[0].instance
    path = solve_path(puzzle)
    step = path.steps[number - 1]
    assert marks == {(r, c, v): cls for r, c, v, cls in step_marks(step)}
    assert {(r, c, v) for (r, c, v), cls in marks.items() if cls == "elimination"} \
        == set(step.eliminations)
    for r, c, v in step.eliminations + step.placements:
        assert v in pencil[(r, c)]          # what the step acts on is still a candidate
    captions = [e.text for e in root.iter(SVG + "text") if e.get("class") == "caption"]
    assert captions == [f"Step {number}: {step.text}"]


def test_the_board_before_a_step_keeps_every_solution_value():
    puzzle = read_instances(str(TOP3))[0].instance
    solution = np.asarray(solve(puzzle)).reshape(-1)
    path = solve_path(puzzle)
    for number in range(1, len(path.steps) + 1, 7):
        board = board_before(puzzle, path.steps, number)
        for cell, (value, cands) in enumerate(zip(board.values, board.cands, strict=True)):
            if value:
                assert value == solution[cell]
            else:
                assert cands >> (int(solution[cell]) - 1) & 1


def test_step_past_the_path_and_several_puzzles_are_errors():
    assert_cli_error(cli_run("draw", TOP3, "--index", 1, "--step", 10_000), 4, "steps")
    assert_cli_error(cli_run("draw", TOP3, "--step", 1), 2, "--index")
    assert_cli_error(cli_run("draw", TOP3, "--index", 1, "--step", 1, "--solution"), 2,
                     "--step", "--solution")


def test_step_of_a_puzzle_with_several_solutions_is_refused():
    result = cli_run("draw", "-", "--step", 1, input="." * 81 + "\n")
    assert_cli_error(result, 4, "several solutions")
