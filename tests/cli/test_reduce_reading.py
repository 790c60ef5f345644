"""``reduce`` reads FILE as its reduction's source and says so when that is not how FILE
reads on its own; ``--problem``, ``--box`` and ``--variant`` are taken and checked, and a
kind said by ``--problem`` or by FILE that is not the source is one error line, exit 4 (issue
28 item 8). The choices come from the registries."""

from __future__ import annotations

import re

import pytest

from sudokit.errors import EXIT_INVALID_INPUT
from sudokit.problems import PROBLEMS
from sudokit.reductions import REDUCTIONS

from ..helpers import EXAMPLES, assert_cli_error
from ..helpers import cli_run as run

PUZZLE17 = (EXAMPLES / "puzzle17.txt").read_text()
QWH5 = EXAMPLES / "qwh5.pls"


def test_a_sudoku_given_to_latin2sudoku_is_read_as_a_latin_square_and_says_so():
    done = run("reduce", "latin2sudoku", "-", input=PUZZLE17)
    assert done.exit_code == 0, done.stderr
    assert done.stderr == "sudokit: read <stdin>:1 as a 9x9 partial Latin square\n"


def test_saying_the_kind_silences_the_note():
    done = run("reduce", "latin2sudoku", "--problem", "latin", "-", input=PUZZLE17)
    assert done.exit_code == 0 and done.stderr == ""
    assert run("reduce", "latin2sudoku", QWH5).stderr == ""      # .pls: a Latin square
    assert run("reduce", "sudoku2sat", "-", input=PUZZLE17).stderr == ""  # read as it reads


def test_a_sudoku_said_where_a_latin_square_is_expected_is_bad_input():
    done = run("reduce", "latin2sudoku", "--problem", "sudoku", "-", input=PUZZLE17)
    assert_cli_error(done, EXIT_INVALID_INPUT, "latin2sudoku reduces a Latin square",
                     "<stdin> holds a Sudoku (--problem sudoku)")
    assert done.stdout == ""


def test_a_file_that_says_another_kind_is_bad_input():
    done = run("reduce", "sudoku2sat", QWH5)
    assert_cli_error(done, EXIT_INVALID_INPUT, "sudoku2sat reduces a Sudoku",
                     "holds a Latin square (by its extension or first line)")


def test_the_shape_options_apply_to_the_source():
    six = (EXAMPLES / "six.txt").read_text()
    done = run("reduce", "sudoku2sat", "--box", "2x3", "-", input=six)
    assert done.exit_code == 0 and done.stdout.startswith("c sudoku 6x6, boxes 2x3")
    diagonal = run("reduce", "sudoku2sat", "--variant", "diagonal", "-", input=PUZZLE17)
    assert diagonal.exit_code == 0 and "c variant: diagonal" in diagonal.stdout.splitlines()
    plain = run("reduce", "sudoku2sat", "-", input=PUZZLE17).stdout
    clauses = [int(next(line for line in text.splitlines() if line.startswith("p cnf"))
                   .split()[3]) for text in (plain, diagonal.stdout)]
    assert clauses[1] > clauses[0]      # the diagonals' clauses
    assert run("reduce", "latin2sudoku", "--problem", "latin", "--box", "2x3", "-",
               input=PUZZLE17).exit_code == 2     # a Latin square has no boxes


def _choices(help_text: str, option: str) -> list[str]:
    found = re.search(re.escape(option) + r" \[([a-z|]+)\]", help_text)
    assert found, help_text
    return found.group(1).split("|")


def test_reduce_offers_the_kinds_reductions_start_from():
    shown = run("reduce", "--help").stdout
    sources = {spec.source for spec in REDUCTIONS.values()}
    assert _choices(shown, "--problem") == [kind for kind in PROBLEMS if kind in sources]
    for option in ("--box", "--variant", "--colors"):
        assert option in shown


@pytest.mark.parametrize("command, offered", [
    ("grade", [name for name, kind in PROBLEMS.items() if kind.gradable]),
    ("solve", list(PROBLEMS))])
def test_problem_choices_come_from_the_registry(command, offered):
    shown = run(command, "--help").stdout
    assert _choices(shown, "--problem") == offered
    assert ("--colors" in shown) == any("colors" in PROBLEMS[k].options for k in offered)
