"""Where and how the commands write: ``-o OUT`` on every command that writes results (atomic,
never over an input), results streamed to stdout as they come, the progress line, and values
numbered as the input numbers them (``.pls``: from 0).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit.cli.output import Progress, speak_values, written_value
from sudokit.errors import EXIT_CHECK_FAILED, EXIT_OK, EXIT_OUTPUT, EXIT_UNKNOWN
from sudokit.formats import read_instances
from sudokit.formats.pls import parse_pls

from ..helpers import EXAMPLES, HANG_GUARD
from ..helpers import assert_cli_error as assert_error
from ..helpers import cli_run as run

ROOT = Path(__file__).resolve().parents[2]
TOP3 = EXAMPLES / "top3.txt"
PUZZLE17 = EXAMPLES / "puzzle17.txt"
QWH5 = EXAMPLES / "qwh5.pls"
EMPTY9 = "." * 81 + "\n"






def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.startswith(".sudokit-")]


# -- 3. -o OUT on every command that writes results ----------------------------------------

def _solved(tmp_path) -> Path:
    path = tmp_path / "solved.txt"
    path.write_text(run("solve", TOP3).stdout)
    return path


#: command -> (arguments before -o, exit code)
WRITERS = {
    "solve": (lambda tmp: ["solve", TOP3], EXIT_OK),
    "solve-json": (lambda tmp: ["solve", "--json", PUZZLE17], EXIT_OK),
    "count": (lambda tmp: ["count", "--limit", "2", TOP3], EXIT_OK),
    "count-summary": (lambda tmp: ["count", "--summary", "--limit", "2", TOP3], EXIT_OK),
    "check": (lambda tmp: ["check", TOP3, _solved(tmp)], EXIT_OK),
    "grade": (lambda tmp: ["grade", TOP3], EXIT_OK),
    "grade-summary": (lambda tmp: ["grade", "--summary", TOP3], EXIT_OK),
    "encode": (lambda tmp: ["encode", PUZZLE17], EXIT_OK),
    "reduce": (lambda tmp: ["reduce", "latin2sudoku", QWH5], EXIT_OK),
}


def _same(text: str) -> str:
    """Output without the timings of --json, which differ from run to run."""
    return "\n".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "seconds"})
                     if line.startswith("{") else line for line in text.splitlines())


@pytest.mark.parametrize("case", sorted(WRITERS))
def test_output_file_holds_what_stdout_would(case, tmp_path):
    make, code = WRITERS[case]
    args = make(tmp_path)
    out = tmp_path / "out.txt"
    to_stdout = run(*args)
    to_file = run(*args, "-o", out)
    assert to_stdout.exit_code == to_file.exit_code == code, to_file.stderr
    assert to_file.stdout == ""
    assert _same(out.read_text()) == _same(to_stdout.stdout)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("command", ["solve", "count", "grade", "encode"])
def test_output_over_the_input_is_refused(command, tmp_path):
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text(PUZZLE17.read_text())
    assert_error(run(command, puzzle, "-o", puzzle), EXIT_OUTPUT, "it is the input file")
    assert puzzle.read_text() == PUZZLE17.read_text()
    assert leftovers(tmp_path) == []


def test_encode_xc_output_over_the_input_is_refused(tmp_path):
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text(PUZZLE17.read_text())
    assert_error(run("encode", "--xc", puzzle, "-o", puzzle), EXIT_OUTPUT, "input file")
    assert_error(run("encode", "--xc", puzzle, "--matrix", puzzle), EXIT_OUTPUT, "input file")
    assert puzzle.read_text() == PUZZLE17.read_text()


def test_reduce_output_over_the_input_is_refused(tmp_path):
    square = tmp_path / "square.pls"
    square.write_text(QWH5.read_text())
    assert_error(run("reduce", "latin2sudoku", square, "-o", square), EXIT_OUTPUT,
                 "it is the input file")
    assert square.read_text() == QWH5.read_text()


def test_output_through_another_name_of_the_input_is_refused(tmp_path):
    puzzle = tmp_path / "puzzle.txt"
    puzzle.write_text(PUZZLE17.read_text())
    link = tmp_path / "link.txt"
    link.symlink_to(puzzle)
    assert_error(run("solve", puzzle, "-o", link), EXIT_OUTPUT, "it is the input file")
    assert puzzle.read_text() == PUZZLE17.read_text()


@pytest.mark.parametrize("which", [0, 1])
def test_check_refuses_either_input(which, tmp_path):
    solved = _solved(tmp_path)
    target = [TOP3, solved][which]
    before = target.read_text()
    assert_error(run("check", TOP3, solved, "-o", target), EXIT_OUTPUT, "input file")
    assert target.read_text() == before


@pytest.mark.parametrize("command", ["solve", "count", "check", "grade"])
def test_output_to_a_directory_or_device_is_refused(command, tmp_path):
    args = [command, PUZZLE17] + ([PUZZLE17] if command == "check" else [])
    assert_error(run(*args, "-o", tmp_path), EXIT_OUTPUT, "directory")
    assert_error(run(*args, "-o", os.devnull), EXIT_OUTPUT, "not a regular file")


def test_output_keeps_the_exit_code_of_the_answer(tmp_path):
    out = tmp_path / "unknown.txt"
    result = run("count", "--solver", "dlx", "--nodes", "2", "-", "-o", out, input=EMPTY9)
    assert result.exit_code == EXIT_UNKNOWN
    assert out.read_text() == f"{EMPTY9.strip()} unknown\n"
    bad = tmp_path / "bad.txt"
    lines = run("solve", TOP3).stdout.splitlines()
    bad.write_text("\n".join([lines[0], lines[1][::-1], lines[2]]) + "\n")
    result = run("check", TOP3, bad, "-o", out)
    assert result.exit_code == EXIT_CHECK_FAILED
    assert out.read_text().splitlines()[1].startswith("2: invalid: ")


def test_failed_run_leaves_the_old_output(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    result = run("solve", "-", "-o", out, input="12345678\n")
    assert result.exit_code != EXIT_OK
    assert out.read_text() == "old\n"
    assert leftovers(tmp_path) == []


@pytest.mark.heavy   # a minute: the default CP engine answers a batch of one shape at once
def test_results_stream_to_stdout_as_they_come():
    """The first answer arrives while the second instance is still being counted."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    proc = subprocess.Popen([sys.executable, "-m", "sudokit", "count", "--time-limit", "60",
                             "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(PUZZLE17.read_text() + EMPTY9)
        proc.stdin.close()
        first = proc.stdout.readline()
        assert first == f"{PUZZLE17.read_text().strip()} 1\n"
        assert proc.poll() is None   # still counting the empty grid's 6.67e21 solutions
    finally:
        proc.kill()
        proc.wait(timeout=HANG_GUARD)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


# -- 8. the progress line -------------------------------------------------------------------

@pytest.mark.parametrize("done, elapsed, shown", [
    (0, 5.0, ""), (3, 0.5, ""), (1, 2.5, " (0.4/s)"), (5, 2.0, " (2.5/s)"),
    (5000, 1.25, " (4,000/s)"), (12, 1.0, " (12/s)")])
def test_progress_rate_only_when_meaningful(done, elapsed, shown):
    assert Progress.rate(done, elapsed) == shown


def test_progress_line_never_says_zero_per_second(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    progress = Progress(10, "counting", delay=0.0)
    progress.quiet, progress.interval = False, 0.0
    progress(0)
    progress(1)
    assert "0/s" not in stream.getvalue()
    assert stream.getvalue().splitlines()[0] == "counting: 0/10"


# -- 9. .pls values speak the file's numbering (0-based) -------------------------------------

def test_solve_json_of_pls_is_0_based():
    obj = json.loads(run("solve", "--json", QWH5).stdout)
    grid = np.array(obj["solution"])
    assert grid.min() == 0 and grid.max() == 4
    text = run("solve", QWH5).stdout
    assert (parse_pls(text, validate=False).instance.givens - 1 == grid).all()


def test_solve_json_of_other_styles_stays_1_based():
    obj = json.loads(run("solve", "--json", "--problem", "latin", "-",
                         input=".........\n").stdout)
    assert sorted(np.array(obj["solution"]).ravel().tolist()) == [1, 1, 1, 2, 2, 2, 3, 3, 3]


SQUARE = "order 3\n0 -1 -1\n-1 -1 -1\n-1 -1 -1\n"
PLS_MESSAGES = {
    "changed-given": ("order 3\n1 2 0\n2 0 1\n0 1 2\n",
                      "invalid: given 0 at row 1, column 1 was changed to 1"),
    "repeat": ("order 3\n0 2 1\n2 0 1\n1 1 2\n",
               "invalid: value 1 repeats in row 3 (row 3, column 1 and row 3, column 2)"),
    "hole": ("order 3\n0 2 -1\n2 1 0\n1 0 2\n",
             "invalid: row 1, column 3 holds -1, not a value in 0..2"),
    "valid": ("order 3\n0 1 2\n1 2 0\n2 0 1\n", "valid"),
}


@pytest.mark.parametrize("case", sorted(PLS_MESSAGES))
def test_check_messages_of_pls_are_0_based(case, tmp_path):
    square = tmp_path / "square.pls"
    square.write_text(SQUARE)
    answer, message = PLS_MESSAGES[case]
    result = run("check", square, "-", input=answer)
    assert result.stdout == message + "\n"
    assert result.exit_code == (EXIT_OK if case == "valid" else EXIT_CHECK_FAILED)


def test_check_messages_of_other_styles_stay_1_based(tmp_path):
    puzzle = tmp_path / "square.txt"
    puzzle.write_text("1........\n")
    result = run("check", "--problem", "latin", puzzle, "-", input="231312123\n")
    assert result.exit_code == EXIT_CHECK_FAILED
    assert result.stdout == "invalid: given 1 at row 1, column 1 was changed to 2\n"


def test_speak_values_covers_every_value_message_of_the_library():
    (record,) = read_instances(str(QWH5))
    square = record.instance
    solution = parse_pls(run("solve", QWH5).stdout, validate=False).instance.givens
    given = tuple(np.argwhere(square.givens > 0)[0])
    free = [tuple(c) for c in np.argwhere(square.givens == 0)[:1]][0]
    for change in ({given: solution[given] % 5 + 1}, {free: 0},
                   {free: solution[free[0], (free[1] + 1) % 5]}):
        broken = solution.copy()
        for cell, value in change.items():
            broken[cell] = value
        messages = square.violations(broken)
        assert messages
        for message in messages:
            spoken = speak_values(message, "pls")
            assert spoken != message, message   # every value-bearing message is translated
            assert speak_values(message, "line") == message


def test_written_value_shifts_only_pls():
    assert written_value("pls", 1) == 0 and written_value("grid", 1) == 1
    assert written_value("pls", np.array([1, 5])).tolist() == [0, 4]


@pytest.mark.parametrize("problem, text", [
    ("latin", "1 . .\n. . .\n. . .\n\n. 2 .\n. . .\n. . .\n"),
    ("sudoku", "1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\n\n"
               ". 2 | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\n"),
])
def test_solutions_of_several_grids_read_back(tmp_path, problem, text):
    """solve writes grid-layout solutions a blank line apart, so check reads the output of a
    file of several grids back (stacked grids were read as one)."""
    puzzles = tmp_path / "grids.txt"
    puzzles.write_text(text)
    solved = run("solve", "--problem", problem, str(puzzles))
    assert solved.exit_code == 0, solved.output
    assert "\n\n" in solved.stdout and not solved.stdout.startswith("\n")
    answers = tmp_path / "grids.sol"
    answers.write_text(solved.stdout)
    checked = run("check", "--problem", problem, str(puzzles), str(answers))
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.split() == ["1:", "valid", "2:", "valid"]


def test_a_progress_opened_inside_another_takes_the_line_until_it_closes(monkeypatch):
    """``count --method``: the classes' line replaces the instances' line while one count
    runs, then the instances' line goes on (two tickers never fight over the line)."""
    monkeypatch.delenv("SUDOKIT_NO_PROGRESS", raising=False)
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    outer = Progress(3, "counting", delay=0.0)
    inner = Progress(7, "counting classes", delay=0.0)
    for progress in (outer, inner):
        progress.interval = 0.0
    outer(1)
    inner(2)
    inner.close()
    outer(2)
    outer.close()
    lines = stream.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == ["counting classes: 2/7", "counting: 2/3"]
