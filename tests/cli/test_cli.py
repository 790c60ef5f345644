"""Command-line tests: ``sudokit solve | count | encode | check | solvers`` through click's runner.

Every answer printed is checked against the library (a parsed instance's ``is_solution``, the
library's encoder and counts), every bad input against its exit code and a single
``sudokit: error:`` line on stderr, and every command against '-' (stdin).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sudokit
from sudokit.encoders import completion_to_cnf
from sudokit.errors import (
    EXIT_CHECK_FAILED,
    EXIT_INVALID_INPUT,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_UNKNOWN,
    EXIT_UNREADABLE,
    EXIT_USAGE,
)
from sudokit.formats import parse_instances, read_instances
from sudokit.formats.dimacs import parse_dimacs
from sudokit.formats.pls import parse_pls
from sudokit.formats.solutions import read_grid_solutions

from ..helpers import EXAMPLES, HANG_GUARD
from ..helpers import assert_cli_error as assert_error
from ..helpers import cli_run as run

ROOT = Path(__file__).resolve().parents[2]
TOP3 = EXAMPLES / "top3.txt"
PUZZLE17 = EXAMPLES / "puzzle17.txt"
SIX = EXAMPLES / "six.txt"
QWH5 = EXAMPLES / "qwh5.pls"
MYCIEL3 = EXAMPLES / "myciel3-precolored.col"
P17 = PUZZLE17.read_text().strip()

#: a 4x4 Sudoku whose cell (1, 1) has no candidate: 2, 3 in its row, 4 in its column, 1 in its box
NO_SOLUTION_4X4 = "..23.1......4..."


# -- helpers -----------------------------------------------------------------------------



def ok(*args, input=None):
    result = run(*args, input=input)
    assert result.exit_code == EXIT_OK, result.stderr
    return result




def grid_of(line: str) -> np.ndarray:
    n = int(len(line) ** 0.5)
    return np.array([int(ch, 36) for ch in line], dtype=int).reshape(n, n)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


# -- solve: output equals the library's answer, in the input's style ---------------------

def test_solve_top3_prints_valid_completions():
    result = ok("solve", TOP3)
    lines = result.stdout.splitlines()
    records = read_instances(str(TOP3))
    assert len(lines) == len(records) == 3
    for line, record in zip(lines, records, strict=True):
        assert len(line) == 81 and line.isdigit()
        assert record.instance.is_solution(grid_of(line))
        # the givens are unique-solution puzzles: the library finds the same grid
        expected = sudokit.solve(sudokit.grid_to_cnf(record.instance))
        assert np.array_equal(grid_of(line), expected)
    assert result.stderr == ""


def test_solve_grid_in_grid_out_with_box_separators():
    result = ok("solve", SIX)
    lines = result.stdout.splitlines()
    assert len(lines) == 8  # six rows and two rules (2x3 boxes: a rule every 2 rows)
    assert lines[2] == lines[5] == "------+------"
    rows = [line for i, line in enumerate(lines) if i not in (2, 5)]
    assert all(re.fullmatch(r"[1-6] [1-6] [1-6] \| [1-6] [1-6] [1-6]", r) for r in rows), rows
    (record,) = read_instances(str(SIX))
    assert record.instance.box == (2, 3)
    (answer,) = read_grid_solutions(result.stdout, "<stdout>", record.instance)
    assert record.instance.is_solution(answer)


def test_solve_pls_in_pls_out():
    result = ok("solve", QWH5)
    assert result.stdout.startswith("order 5\n")
    (record,) = read_instances(str(QWH5))
    answer = parse_pls(result.stdout, validate=False).instance.givens
    assert record.instance.is_solution(answer)


def test_solve_col_prints_one_line_of_colors():
    result = ok("solve", MYCIEL3)
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    colors = np.array(lines[0].split(), dtype=int)
    assert colors.shape == (11,)
    (record,) = read_instances(str(MYCIEL3))
    assert record.instance.is_solution(colors)
    assert colors[0] == 1 and colors[1] == 2  # the file's precolors


def test_solve_json_one_object_per_line():
    result = ok("solve", "--json", TOP3)
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    records = read_instances(str(TOP3))
    assert len(objects) == 3
    for number, (obj, record) in enumerate(zip(objects, records, strict=True), start=1):
        assert {"index", "status", "solution", "seconds"} <= set(obj)
        assert obj["index"] == number
        assert obj["status"] == "sat"
        assert isinstance(obj["seconds"], (int, float)) and obj["seconds"] >= 0
        assert record.instance.is_solution(np.array(obj["solution"]))


def test_solve_json_no_solution_is_null():
    result = ok("solve", "--json", "-", input=NO_SOLUTION_4X4 + "\n")
    (obj,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert obj["status"] == "unsat" and obj["solution"] is None


def test_no_solution_puzzle_is_an_answer_not_an_error():
    (record,) = parse_instances(NO_SOLUTION_4X4 + "\n")
    assert sudokit.count_solutions(sudokit.grid_to_cnf(record.instance)) == 0
    result = ok("solve", "-", input=NO_SOLUTION_4X4 + "\n")
    assert result.stdout == "no solution\n"
    assert result.stderr == ""
    result = ok("count", "-", input=NO_SOLUTION_4X4 + "\n")
    assert result.stdout == f"{NO_SOLUTION_4X4} 0\n"


def test_solver_alias_g4_works():
    result = ok("solve", "--solver", "g4", PUZZLE17)
    (record,) = read_instances(str(PUZZLE17))
    assert record.instance.is_solution(grid_of(result.stdout.strip()))


def test_unknown_solver_is_a_usage_error():
    result = run("solve", "--solver", "zchaff", PUZZLE17)
    assert result.exit_code == EXIT_USAGE
    assert "sudokit solvers" in result.stderr and "zchaff" in result.stderr
    assert result.stdout == ""


# -- count -------------------------------------------------------------------------------

def test_count_limit_2_on_top3_shows_uniqueness():
    result = ok("count", "--limit", "2", TOP3)
    lines = result.stdout.splitlines()
    puzzles = TOP3.read_text().split()
    assert len(lines) == 3
    for line, puzzle in zip(lines, puzzles, strict=True):
        assert line == f"{puzzle} 1"


@pytest.mark.parametrize("args, stdin, expected", [
    (["count", "-"], "................\n", 288),                          # 4x4 Sudoku grids
    (["count", "--problem", "latin", "-"], ".........\n", 12),            # 3x3 Latin squares
    (["count", "--problem", "latin", "--limit", "2", "-"], ".........\n", 2),
])
def test_count_empty_grids(args, stdin, expected):
    result = ok(*args, input=stdin)
    assert result.stdout == f"{stdin.strip()} {expected}\n"


def test_count_graph_matches_chromatic_polynomial():
    # myciel3 has P(4) = 12480 (GROUND_TRUTH.md); vertices 1-2 adjacent, precolored 1 and 2
    result = ok("count", MYCIEL3)
    assert result.stdout == f"{MYCIEL3}:5 {12480 // (4 * 3)}\n"


def test_count_json():
    result = ok("count", "--json", "--limit", "2", TOP3)
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert [o["index"] for o in objects] == [1, 2, 3]
    assert all(o["count"] == 1 and o["complete"] for o in objects)


# -- encode ------------------------------------------------------------------------------

def _p_line(text):
    (line,) = [line for line in text.splitlines() if line.startswith("p ")]
    return line


def test_encode_cnf_header_matches_and_parses_back():
    result = ok("encode", "--cnf", TOP3)
    record = read_instances(str(TOP3))[0]
    library = completion_to_cnf(record.instance, symmetry_breaking=True).cnf
    assert _p_line(result.stdout) == f"p cnf 729 {library.num_clauses}"
    cnf = parse_dimacs(result.stdout)
    assert cnf.num_vars == 729 and cnf.num_clauses == library.num_clauses


def test_encode_cnf_model_decodes_to_a_solution():
    from pysat.solvers import Solver

    result = ok("encode", PUZZLE17)
    cnf = parse_dimacs(result.stdout)
    with Solver(name="cadical195", bootstrap_with=cnf.clauses()) as sat:
        assert sat.solve()
        model = [lit for lit in sat.get_model() if 0 < lit <= 729]
    grid = np.zeros((9, 9), dtype=int)
    for var in model:  # var(r, c, v) = (r-1)*81 + (c-1)*9 + v
        r, rest = divmod(var - 1, 81)
        c, v = divmod(rest, 9)
        grid[r, c] = v + 1
    (record,) = read_instances(str(PUZZLE17))
    assert record.instance.is_solution(grid)


def test_encode_reduced_has_301_variables_and_map_lines():
    result = ok("encode", "--cnf", "--encoding", "reduced", PUZZLE17)
    assert _p_line(result.stdout).startswith("p cnf 301 ")
    maps = [line for line in result.stdout.splitlines()
            if re.fullmatch(r"c map \d+ \d+ \d+ \d+", line)]
    assert len(maps) == 301
    assert [int(line.split()[2]) for line in maps] == list(range(1, 302))
    assert parse_dimacs(result.stdout).num_vars == 301


def test_encode_stats_table_has_total_row():
    result = ok("encode", "--stats", PUZZLE17)
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["group", "variables", "clauses", "literals"]
    total = lines[-1].split()
    assert total[0] == "total"
    record = read_instances(str(PUZZLE17))[0]
    cnf = completion_to_cnf(record.instance).cnf
    assert [int(x) for x in total[1:]] == [cnf.num_vars, cnf.num_clauses, cnf.num_literals]
    assert not any(line.startswith("p cnf") for line in lines)  # the CNF goes only to -o


def test_encode_stats_json():
    result = ok("encode", "--stats", "--json", "--encoding", "reduced", PUZZLE17)
    obj = json.loads(result.stdout)
    assert obj["variables"] == 301
    assert obj["encoding"] == "reduced"
    assert sum(g["clauses"] for g in obj["groups"].values()) == obj["clauses"]


def test_encode_output_file(tmp_path):
    out = tmp_path / "puzzle.cnf"
    result = ok("encode", "-o", out, PUZZLE17)
    assert result.stdout == ""
    assert out.read_text() == ok("encode", PUZZLE17).stdout
    assert parse_dimacs(out.read_text()).num_vars == 729


def test_encode_output_file_with_stats(tmp_path):
    out = tmp_path / "puzzle.cnf"
    result = ok("encode", "-o", out, "--stats", PUZZLE17)
    assert result.stdout.splitlines()[-1].split()[0] == "total"
    assert _p_line(out.read_text()) == "p cnf 729 12005"


def test_encode_unwritable_output(tmp_path):
    result = run("encode", "-o", tmp_path / "no" / "such" / "dir.cnf", PUZZLE17)
    assert_error(result, EXIT_OUTPUT, "cannot write")


def test_encode_index_selects_instance():
    second = ok("encode", "--index", "2", TOP3).stdout
    alone = ok("encode", "-", input=TOP3.read_text().splitlines()[1] + "\n").stdout
    assert second == alone


# -- check -------------------------------------------------------------------------------

def test_check_valid(tmp_path):
    solved = write(tmp_path, "solved.txt", ok("solve", PUZZLE17).stdout)
    result = ok("check", PUZZLE17, solved)
    assert result.stdout == "valid\n"


def test_check_valid_batch(tmp_path):
    solved = write(tmp_path, "solved.txt", ok("solve", TOP3).stdout)
    assert ok("check", TOP3, solved).stdout == "1: valid\n2: valid\n3: valid\n"


def test_check_changed_given_is_invalid(tmp_path):
    solution = ok("solve", PUZZLE17).stdout.strip()
    assert solution[0] == "4" and P17[0] == "4"
    tampered = write(tmp_path, "bad.txt", "5" + solution[1:] + "\n")
    result = run("check", PUZZLE17, tampered)
    assert result.exit_code == EXIT_CHECK_FAILED
    assert result.stdout.startswith("invalid: ")
    assert "given 4 at row 1, column 1" in result.stdout


def test_check_repeated_value_names_the_unit(tmp_path):
    solution = list(ok("solve", PUZZLE17).stdout.strip())
    i, j = [k for k in range(9) if P17[k] == "."][:2]  # two free cells of row 1
    solution[i], solution[j] = solution[j], solution[i]
    tampered = write(tmp_path, "bad.txt", "".join(solution) + "\n")
    result = run("check", PUZZLE17, tampered)
    assert result.exit_code == EXIT_CHECK_FAILED
    assert re.fullmatch(r"invalid: value \d repeats in (column|box) \d .*\n", result.stdout)


def test_check_batch_marks_the_bad_instance(tmp_path):
    lines = ok("solve", TOP3).stdout.splitlines()
    lines[1] = lines[1][::-1]
    tampered = write(tmp_path, "bad.txt", "\n".join(lines) + "\n")
    result = run("check", TOP3, tampered)
    assert result.exit_code == EXIT_CHECK_FAILED
    out = result.stdout.splitlines()
    assert out[0] == "1: valid" and out[2] == "3: valid"
    assert out[1].startswith("2: invalid: ")


def test_check_coloring_changed_precolor(tmp_path):
    colors = ok("solve", MYCIEL3).stdout.split()
    colors[0] = "3" if colors[0] != "3" else "4"
    result = run("check", MYCIEL3, "-", input=" ".join(colors) + "\n")
    assert result.exit_code == EXIT_CHECK_FAILED
    assert result.stdout.startswith("invalid: precolor 1 of vertex 1 was changed")


def test_check_solution_count_mismatch(tmp_path):
    result = run("check", TOP3, PUZZLE17)
    assert_error(result, EXIT_INVALID_INPUT, "3 instance(s)", "1 solution(s)")


# -- solvers, help, version --------------------------------------------------------------

def test_solvers_lists_default():
    result = ok("solvers")
    lines = result.stdout.splitlines()
    assert lines
    marked = {line.split()[0]: line[line.index("(default"):] for line in lines
              if "(default" in line}
    assert marked == {
        "cadical195": "(default for grids with boxes from 17x17 to 64x64; grids with rows "
                      "and columns from 17x17 to 25x25; everything else)",
        "dlx": "(default for exact cover)",
        "takano": "(default for grids with boxes up to 16x16; grids with rows and columns up "
                  "to 16x16)",
        "cp": "(default for grids with rows and columns from 26x26 to 64x64)"}
    assert [line.split()[0] for line in lines] == list(sudokit.ENGINES)


def test_solvers_json():
    obj = json.loads(ok("solvers", "--json").stdout)
    assert isinstance(obj, dict) and "cadical195" in obj
    assert {name: entry["description"] for name, entry in obj.items()} == {
        name: spec.description for name, spec in sudokit.ENGINES.items()}
    assert obj["dlx"]["kinds"] == ["sudoku", "latin", "coloring", "cnf", "xc"]
    assert all(entry["counts"] for name, entry in obj.items() if name in sudokit.SOLVERS)
    assert all(entry["available"] == (not sudokit.ENGINES[name].missing)
               for name, entry in obj.items())


@pytest.mark.parametrize("command", [[], ["solve"], ["count"], ["encode"], ["check"],
                                     ["solvers"]])
def test_help_has_examples(command):
    result = ok(*command, "--help")
    assert "Example" in result.stdout


def test_version_subprocess():
    proc = subprocess.run([sys.executable, "-m", "sudokit", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG_GUARD)
    assert proc.returncode == 0, proc.stderr
    assert "sudokit" in proc.stdout and sudokit.__version__ in proc.stdout


# -- budgets -----------------------------------------------------------------------------

def test_count_conflict_budget_is_unknown(data_dir):
    graph = data_dir / "coloring/original_trick_rzepinskip/myciel5.col"
    result = run("count", graph, "--colors", "5", "--conflicts", "20")
    assert result.exit_code == EXIT_UNKNOWN
    assert result.stdout.splitlines() == [f"{graph}:6 unknown"]


def test_solve_conflict_budget_is_unknown(data_dir):
    graph = data_dir / "coloring/original_trick_rzepinskip/myciel5.col"
    result = run("solve", graph, "--colors", "5", "--conflicts", "20")
    assert result.exit_code == EXIT_UNKNOWN
    assert result.stdout == "unknown\n"


@pytest.mark.parametrize("command", ["solve", "count"])
def test_lingeling_has_no_budgets(command):
    # the engine registry says lingeling honours no budget: a usage error before any solving
    result = run(command, "--solver", "lingeling", "--time-limit", "1", PUZZLE17)
    assert_error(result, EXIT_USAGE, "--time-limit", "lingeling", "no budget")
    assert result.stdout == ""


def test_lingeling_without_budget_solves():
    result = ok("solve", "--solver", "lingeling", PUZZLE17)
    (record,) = read_instances(str(PUZZLE17))
    assert record.instance.is_solution(grid_of(result.stdout.strip()))


# -- bad input: one line on stderr, the right exit code ----------------------------------

def _with_line(index, text):
    lines = TOP3.read_text().splitlines()
    lines[index] = text
    return "\n".join(lines) + "\n"


BAD_GRIDS = {
    "length": (_with_line(1, P17[:80]), ":2: line has 80 cells"),
    "unknown-symbol": (_with_line(2, P17[:40] + "?" + P17[41:]), ":3:41: unknown symbol '?'"),
    "too-large": ("A" + P17[1:] + "\n", ":1:1: symbol 'A' (10) is outside 1..9"),
    "repeat-box": ("4" + "." * 9 + "4" + P17[11:] + "\n", "repeats in box 1"),
    "repeat-row": ("4...4" + P17[5:] + "\n", "repeats in row 1"),
    "ambiguous-box": ("..3.........2.............6.........\n", "--box 2x3"),
    "empty": ("", "empty input"),
    "only-comments": ("# nothing here\n\n", "empty input"),
}


@pytest.mark.parametrize("case", sorted(BAD_GRIDS))
def test_bad_grid_file(tmp_path, case):
    text, fragment = BAD_GRIDS[case]
    path = write(tmp_path, "bad.txt", text)
    line = assert_error(run("solve", path), EXIT_INVALID_INPUT, fragment)
    assert str(path) in line
    assert run("solve", path).stdout == ""


@pytest.mark.parametrize("case", sorted(BAD_GRIDS))
def test_bad_grid_stdin(case):
    text, fragment = BAD_GRIDS[case]
    line = assert_error(run("count", "-", input=text), EXIT_INVALID_INPUT, fragment)
    assert "<stdin>" in line


def test_word_instead_of_puzzle_is_not_called_empty():
    line = assert_error(run("check", PUZZLE17, "-", input="hello\n"), EXIT_INVALID_INPUT)
    assert "empty input" not in line


def test_box_that_does_not_tile():
    assert_error(run("solve", "--box", "2x4", PUZZLE17), EXIT_INVALID_INPUT,
                 "box 2x4 does not tile a 9x9 grid")


def test_six_by_six_one_liner_with_box_works():
    line = "..3.........2.............6.........\n"
    result = ok("solve", "--box", "2x3", "-", input=line)
    (record,) = parse_instances(line, box=(2, 3))
    assert record.instance.is_solution(grid_of(result.stdout.strip()))


def test_malformed_box_is_usage_error():
    result = run("solve", "--box", "2by4", PUZZLE17)
    assert result.exit_code == EXIT_USAGE
    assert "2by4" in result.stderr


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.txt"
    assert_error(run("solve", missing), EXIT_UNREADABLE, f"cannot read {missing}: no such file")


def test_directory(tmp_path):
    assert_error(run("count", tmp_path), EXIT_UNREADABLE, f"cannot read {tmp_path}: is a directory")


def test_missing_solution_file_in_check(tmp_path):
    assert_error(run("check", PUZZLE17, tmp_path / "nope.txt"), EXIT_UNREADABLE, "no such file")


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(P17.encode() + b"\n\xe9\n")
    assert_error(run("solve", path), EXIT_INVALID_INPUT, ":2:1: not UTF-8")


BAD_PLS = {
    "order-word": ("order five\n0\n", ":1:7: order must be a positive integer, got 'five'"),
    "order-zero": ("order 0\n", "order must be a positive integer"),
    "order-extra": ("order 3 3\n0 1 2\n1 2 0\n2 0 1\n", ":1:1: expected 'order N'"),
    "too-few-rows": ("order 3\n0 1 2\n1 2 0\n", "order 3 needs 3 rows, found 2"),
    "too-many-rows": ("order 2\n0 1\n1 0\n0 1\n", ":4: order 2 needs 2 rows, found 3"),
    "short-row": ("order 3\n0 1\n1 2 0\n-1 -1 -1\n", ":2: row has 2 entries; order 3 needs 3"),
    "value-range": ("order 3\n0 1 2\n1 5 0\n-1 -1 -1\n", ":3:3: value 5 is outside -1..2"),
    "value-negative": ("order 3\n0 1 2\n-2 -1 -1\n-1 -1 -1\n", ":3:1: value -2 is outside"),
    "not-integer": ("order 3\n0 x -1\n-1 -1 -1\n-1 -1 -1\n", ":2:3: 'x' is not an integer"),
    "repeat": ("order 3\n0 0 -1\n-1 -1 -1\n-1 -1 -1\n", "repeats in row 1"),
    "empty": ("", "empty input"),
}


@pytest.mark.parametrize("case", sorted(BAD_PLS))
def test_bad_pls(tmp_path, case):
    text, fragment = BAD_PLS[case]
    path = write(tmp_path, "bad.pls", text)
    line = assert_error(run("solve", path), EXIT_INVALID_INPUT, fragment)
    assert str(path) in line


def test_pls_without_order_line_is_rejected(tmp_path):
    path = write(tmp_path, "noheader.pls", "size 3\n0 1 2\n1 2 0\n2 0 1\n")
    assert_error(run("solve", path), EXIT_INVALID_INPUT, "order")


BAD_COL = {
    "e-before-p": ("c colors 3\ne 1 2\np edge 3 1\n", ":2:1: 'e' line before the 'p edge' line"),
    "vertex-range": ("p edge 11 1\nc colors 3\ne 1 12\n", ":3:5: vertex 12 is outside 1..11"),
    "vertex-zero": ("p edge 3 1\nc colors 3\ne 0 2\n", ":3:3: vertex 0 is outside 1..3"),
    "no-colors": ("p edge 3 2\ne 1 2\ne 2 3\n", "pass --colors"),
    "precolor-range": ("p edge 4 1\nc colors 4\nc precolor 3 9\ne 1 2\n",
                       ":3: precolor 9 of vertex 3 is outside 1..4"),
    "precolor-vertex-range": ("p edge 4 1\nc colors 4\nc precolor 7 1\ne 1 2\n",
                              ":3:12: precolored vertex 7 is outside 1..4"),
    "precolor-clash": ("p edge 3 1\nc colors 3\nc precolor 1 1\nc precolor 2 1\ne 1 2\n",
                       "adjacent vertices 1 and 2 are both precolored 1"),
    "unknown-line": ("p edge 3 1\nc colors 3\nx 1 2\n", ":3:1: unknown line type 'x'"),
    "not-integer": ("p edge 3 1\nc colors 3\ne 1 z\n", ":3:5: 'z' is not an integer"),
    "loop": ("p edge 3 1\nc colors 3\ne 2 2\n", "loop"),
    "no-p-line": ("c colors 3\n", "empty input"),
    "bad-p-line": ("p graph 3 1\n", ":1:1: expected 'p edge VERTICES EDGES'"),
    "second-p-line": ("p edge 3 0\np edge 3 0\n", ":2:1: second 'p' line"),
    "zero-colors": ("p edge 2 1\nc colors 0\ne 1 2\n", "number of colors must be positive"),
}


@pytest.mark.parametrize("case", sorted(BAD_COL))
def test_bad_col(tmp_path, case):
    text, fragment = BAD_COL[case]
    path = write(tmp_path, "bad.col", text)
    line = assert_error(run("solve", path), EXIT_INVALID_INPUT, fragment)
    assert str(path) in line


def test_colors_option_supplies_missing_colors(tmp_path):
    path = write(tmp_path, "path.col", "p edge 3 2\ne 1 2\ne 2 3\n")
    assert ok("count", "--colors", "2", path).stdout == f"{path}:1 2\n"


def test_colors_option_overrides_file_and_can_break_a_precolor(tmp_path):
    result = run("solve", "--colors", "1", MYCIEL3)
    assert_error(result, EXIT_INVALID_INPUT, "precolor 2 of vertex 2 is outside 1..1")


def test_wrong_problem_for_file():
    assert_error(run("solve", "--problem", "coloring", PUZZLE17), EXIT_INVALID_INPUT,
                 ":1:1: unknown line type")


# -- usage errors (click, exit 2) ----------------------------------------------------------

USAGE_ERRORS = {
    "index": (["encode", "--index", "5", TOP3], "--index 5"),
    "negative-time": (["solve", "--time-limit", "-1", PUZZLE17], "--time-limit"),
    "zero-conflicts": (["count", "--conflicts", "0", PUZZLE17], "--conflicts"),
    "zero-limit": (["count", "--limit", "0", PUZZLE17], "--limit"),
    "bad-problem": (["solve", "--problem", "kakuro", PUZZLE17], "--problem"),
    "bad-encoding": (["encode", "--encoding", "nope", PUZZLE17], "--encoding"),
    "unknown-option": (["solve", "--frobnicate", PUZZLE17], "--frobnicate"),
    "missing-argument": (["check", PUZZLE17], "SOLUTION"),
}


@pytest.mark.parametrize("case", sorted(USAGE_ERRORS))
def test_usage_errors_exit_2(case):
    args, fragment = USAGE_ERRORS[case]
    result = run(*args)
    assert result.exit_code == EXIT_USAGE, result.stderr
    assert fragment in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("case", ["index", "negative-time"])
def test_usage_errors_are_one_line(case):
    args, fragment = USAGE_ERRORS[case]
    assert_error(run(*args), EXIT_USAGE, fragment)


# -- stdin ('-') for every command -------------------------------------------------------

def test_solve_stdin_matches_file():
    assert ok("solve", "-", input=TOP3.read_text()).stdout == ok("solve", TOP3).stdout


def test_solve_stdin_with_problem_latin_keeps_pls():
    result = ok("solve", "--problem", "latin", "-", input=QWH5.read_text())
    assert result.stdout == ok("solve", QWH5).stdout


def test_solve_stdin_with_problem_coloring():
    result = ok("solve", "--problem", "coloring", "-", input=MYCIEL3.read_text())
    assert result.stdout == ok("solve", MYCIEL3).stdout


def test_count_stdin_labels_by_stdin_line():
    result = ok("count", "--problem", "latin", "-", input=QWH5.read_text())
    assert result.stdout.endswith(":1 1\n") and len(result.stdout.splitlines()) == 1


def test_encode_stdin_matches_file():
    assert ok("encode", "-", input=PUZZLE17.read_text()).stdout == ok("encode", PUZZLE17).stdout


@pytest.mark.parametrize("puzzle", [TOP3, SIX, QWH5, MYCIEL3], ids=lambda p: p.name)
def test_check_solution_on_stdin(puzzle):
    solved = ok("solve", puzzle).stdout
    result = ok("check", puzzle, "-", input=solved)
    assert set(re.sub(r"^\d+: ", "", line) for line in result.stdout.splitlines()) == {"valid"}


def test_check_puzzle_on_stdin(tmp_path):
    solved = write(tmp_path, "solved.txt", ok("solve", PUZZLE17).stdout)
    assert ok("check", "-", solved, input=PUZZLE17.read_text()).stdout == "valid\n"


# -- real data ---------------------------------------------------------------------------

def test_real_data_one_liners_with_crlf_and_ratings(data_dir, tmp_path):
    lines = (data_dir / "sudoku/9x9-sudokuexchange/diabolical.txt").read_text().splitlines()[:3]
    path = write(tmp_path, "crlf.txt", "\r\n".join(lines) + "\r\n")
    result = ok("count", "--limit", "2", path)
    puzzles = [line.split()[1].replace("0", ".") for line in lines]  # labels use '.'
    assert result.stdout.splitlines() == [f"{p} 1" for p in puzzles]


def test_real_data_project_euler_grids(data_dir, tmp_path):
    head = (data_dir / "sudoku/9x9-norvig/sudoku.txt").read_text().splitlines()[:20]
    path = write(tmp_path, "euler.txt", "\n".join(head) + "\n")
    records = read_instances(str(path))
    assert len(records) == 2
    result = ok("solve", path)
    answers = read_grid_solutions(result.stdout, "<stdout>", records[0].instance)
    assert len(answers) == 2
    for record, answer in zip(records, answers, strict=True):
        assert record.instance.is_solution(answer)
    assert ok("count", path).stdout == f"{path}:2 1\n{path}:12 1\n"


def test_real_data_pls(data_dir):
    path = data_dir / "latin/gomes_lsencode_PLS/qwh.order10.holes10.pls"
    result = ok("solve", path)
    (record,) = read_instances(str(path))
    n = record.instance.n
    assert result.stdout.startswith(f"order {n}\n")
    assert record.instance.is_solution(parse_pls(result.stdout, validate=False).instance.givens)
