"""Command-line options: every option that does not apply is a usage error, budgets are finite,
each command lists only the encodings it takes, and ``count`` reports uniqueness verdicts and
partial counts.
"""

from __future__ import annotations

import json

import pytest

from sudokit.cli import main
from sudokit.cli.common import BUDGET_OPTIONS, OPTION_KINDS
from sudokit.encoders import ENCODINGS, XC_ENCODINGS
from sudokit.errors import EXIT_CHECK_FAILED, EXIT_OK, EXIT_UNKNOWN, EXIT_USAGE
from sudokit.problems import PROBLEMS
from sudokit.solvers import ENGINES, Budget

from ..helpers import EXAMPLES, assert_cli_error
from ..helpers import cli_run as run

TOP3 = EXAMPLES / "top3.txt"
PUZZLE17 = EXAMPLES / "puzzle17.txt"
QWH5 = EXAMPLES / "qwh5.pls"
MYCIEL3 = EXAMPLES / "myciel3-precolored.col"
KNUTH6 = EXAMPLES / "knuth6.dlx"
EMPTY9 = "." * 81 + "\n"
EMPTY4 = "." * 16 + "\n"
NO_SOLUTION_4X4 = "..23.1......4..."






# -- 1. options that do not apply ----------------------------------------------------------

NOT_APPLICABLE = {
    "colors-on-sudoku": (["solve", "--colors", "3", PUZZLE17], ["--colors", "coloring", "sudoku"]),
    "colors-on-latin": (["count", "--colors", "3", QWH5], ["--colors", "latin"]),
    "colors-on-xc": (["count", "-k", "3", KNUTH6], ["--colors", "xc"]),
    "box-on-graph": (["solve", "--box", "2x2", MYCIEL3], ["--box", "sudoku", "coloring"]),
    "box-on-latin": (["solve", "--box", "2x2", QWH5], ["--box", "latin"]),
    "box-on-xc": (["solve", "--box", "2x2", KNUTH6], ["--box", "xc"]),
    "box-on-cnf": (["solve", "--box", "2x2", "-"], ["--box", "<stdin>", "cnf"]),
    "box-in-check": (["check", "--box", "2x2", MYCIEL3, MYCIEL3], ["--box", "coloring"]),
    "colors-in-encode": (["encode", "--colors", "3", PUZZLE17], ["--colors"]),
    "colors-in-grade": (["grade", "--colors", "3", TOP3], ["--colors"]),
    "box-in-reduce": (["reduce", "latin2sudoku", QWH5, "--box", "2x2"], ["--box", "latin"]),
    "no-symmetry-on-grid": (["encode", "--no-symmetry", PUZZLE17], ["--no-symmetry", "sudoku"]),
    "nodes-with-sat": (["solve", "--conflicts", "5", "--nodes", "10", PUZZLE17],
                       ["--nodes", "cadical195"]),
    "nodes-with-named-sat": (["count", "--solver", "g4", "--nodes", "10", PUZZLE17],
                             ["--nodes", "glucose4", "--conflicts"]),
    "conflicts-with-dlx": (["count", "--solver", "dlx", "--conflicts", "10", PUZZLE17],
                           ["--conflicts", "dlx", "--nodes"]),
    "conflicts-with-xc": (["count", "--xc", "--conflicts", "10", KNUTH6], ["--conflicts", "dlx"]),
    "time-with-lingeling": (["solve", "--solver", "lingeling", "--time-limit", "1", PUZZLE17],
                            ["--time-limit", "lingeling", "no budget"]),
    "json-with-summary": (["count", "--json", "--summary", TOP3], ["--json", "--summary"]),
    "grade-json-with-summary": (["grade", "--json", "--summary", TOP3], ["--json", "--summary"]),
    "grade-nodes-with-summary": (["grade", "--no-nodes", "--summary", TOP3],
                                 ["--no-nodes", "--summary"]),
    "dense-without-matrix": (["encode", "--xc", "--dense", PUZZLE17], ["--dense", "--matrix"]),
    "xc-with-cnf": (["encode", "--xc", "--cnf", PUZZLE17], ["--cnf", "--xc"]),
    "stats-with-xc": (["encode", "--xc", "--stats", PUZZLE17], ["--xc", "--stats"]),
    "amo-with-xc": (["encode", "--xc", "--amo", "ladder", PUZZLE17], ["--xc", "--amo"]),
    "json-without-stats": (["encode", "--json", PUZZLE17], ["--json", "--stats"]),
    "xc-with-problem": (["solve", "--xc", "--problem", "latin", KNUTH6], ["--xc", "--problem"]),
    "limit-without-check": (["reduce", "latin2sudoku", QWH5, "--limit", "3"],
                            ["--limit", "--check"]),
    "solver-without-solve": (["reduce", "latin2sudoku", QWH5, "--solver", "g4"],
                             ["--solver", "--solve", "--check"]),
}


@pytest.mark.parametrize("case", sorted(NOT_APPLICABLE))
def test_option_that_does_not_apply_is_a_usage_error(case):
    args, fragments = NOT_APPLICABLE[case]
    assert_error(run(*args, input="p cnf 1 1\n1 0\n"), EXIT_USAGE, *fragments)


@pytest.mark.parametrize("args", [
    ["solve", "--colors", "4", MYCIEL3],                       # a graph: --colors applies
    ["solve", "--box", "3x3", PUZZLE17],                       # a Sudoku: --box applies
    ["count", "--solver", "dlx", "--nodes", "100000", PUZZLE17],
    ["count", "--xc", "--nodes", "1000", KNUTH6],              # xc goes to dlx by default
    ["count", "--conflicts", "1000", "--time-limit", "30", PUZZLE17],
    ["count", "--solver", "dlx", "--time-limit", "30", PUZZLE17],
    ["encode", "--no-symmetry", MYCIEL3],
    ["encode", "--xc", "--matrix", "-", "--dense", PUZZLE17],
    ["encode", "--stats", "--json", PUZZLE17],
])
def test_options_that_apply_still_work(args, tmp_path):
    args = [tmp_path / "m.npz" if a == "-" else a for a in args]
    result = run(*args)
    assert result.exit_code == EXIT_OK, result.stderr


def test_the_option_tables_name_registry_entries():
    assert {kind for kinds in OPTION_KINDS.values() for kind in kinds} <= set(PROBLEMS)
    assert set(BUDGET_OPTIONS) <= set(Budget.__dataclass_fields__)
    assert {field for spec in ENGINES.values() for field in spec.budgets} <= set(BUDGET_OPTIONS)


# -- 2. budgets are finite ------------------------------------------------------------------

@pytest.mark.parametrize("command", ["solve", "count"])
@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "Infinity", "-inf", "0", "-1"])
def test_time_limit_must_be_finite_and_positive(command, value):
    assert_error(run(command, "--time-limit", value, PUZZLE17), EXIT_USAGE, "--time-limit")


def test_time_limit_accepts_a_fraction():
    assert run("solve", "--time-limit", "30.5", PUZZLE17).exit_code == EXIT_OK


# -- 6. each command lists the encodings it takes ----------------------------------------

def _encoding_choices(command):
    ctx = main.make_context("sudokit", [command, "--help"], resilient_parsing=True)
    cmd = main.get_command(ctx, command)
    (param,) = [p for p in cmd.params if p.name == "encoding"]
    return list(param.type.choices)


def test_solve_and_count_take_the_cnf_encodings_only():
    for command in ("solve", "count"):
        assert _encoding_choices(command) == list(ENCODINGS)
    assert set(_encoding_choices("encode")) == set(ENCODINGS) | set(XC_ENCODINGS)


@pytest.mark.parametrize("command", ["solve", "count"])
def test_exact_cover_encoding_is_refused_by_solve_and_count(command):
    assert_error(run(command, "--encoding", "full", PUZZLE17), EXIT_USAGE, "--encoding", "full")


def test_encode_xc_takes_full():
    result = run("encode", "--xc", "--encoding", "full", PUZZLE17)
    assert result.exit_code == EXIT_OK and result.stdout.startswith("p11 ")


# -- 4. count --summary and --require-unique -------------------------------------------

def test_count_summary_table():
    result = run("count", "--limit", "2", "--summary", TOP3)
    assert result.exit_code == EXIT_OK
    assert result.stdout.splitlines() == [
        "instances  0 solutions  1 solution  2+ solutions  unknown",
        "        3            0           3             0        0"]


def test_count_summary_sorts_every_kind_of_answer():
    puzzles = NO_SOLUTION_4X4 + "\n" + "1234341221434321\n" + EMPTY4 + EMPTY4
    result = run("count", "--limit", "2", "--summary", "-", input=puzzles)
    assert result.exit_code == EXIT_OK
    assert result.stdout.splitlines()[1].split() == ["4", "1", "1", "2", "0"]


def test_count_summary_counts_unknown_and_keeps_exit_5():
    result = run("count", "--solver", "dlx", "--nodes", "2", "--summary", "-", input=EMPTY9)
    assert result.exit_code == EXIT_UNKNOWN
    assert result.stdout.splitlines()[1].split() == ["1", "0", "0", "0", "1"]


def test_require_unique_passes_on_unique_puzzles():
    result = run("count", "--require-unique", TOP3)
    assert result.exit_code == EXIT_OK
    assert [line.split()[-1] for line in result.stdout.splitlines()] == ["1", "1", "1"]


@pytest.mark.parametrize("puzzles", [EMPTY4, NO_SOLUTION_4X4 + "\n"], ids=["several", "none"])
def test_require_unique_fails_with_exit_1(puzzles):
    result = run("count", "--require-unique", "-", input=(EXAMPLES / "top3.txt").read_text()
                 .splitlines()[0] + "\n" + puzzles)
    assert result.exit_code == EXIT_CHECK_FAILED
    assert result.stderr == ""


def test_require_unique_counts_up_to_2_by_default():
    result = run("count", "--require-unique", "-", input=EMPTY4)   # 288 grids
    assert result.stdout == f"{EMPTY4.strip()} 2\n"
    assert result.exit_code == EXIT_CHECK_FAILED
    result = run("count", "--require-unique", "--limit", "300", "-", input=EMPTY4)
    assert result.stdout == f"{EMPTY4.strip()} 288\n"


def test_require_unique_with_unknown_is_exit_5():
    result = run("count", "--require-unique", "--solver", "dlx", "--nodes", "2", "-",
                 input=EMPTY9)
    assert result.exit_code == EXIT_UNKNOWN


def test_require_unique_with_summary():
    result = run("count", "--require-unique", "--summary", "-", input=EMPTY4)
    assert result.exit_code == EXIT_CHECK_FAILED
    assert result.stdout.splitlines()[1].split() == ["1", "0", "0", "1", "0"]


@pytest.mark.parametrize("flag", ["--summary", "--require-unique"])
def test_limit_1_cannot_tell_unique(flag):
    assert_error(run("count", flag, "--limit", "1", TOP3), EXIT_USAGE, "--limit", flag)


def test_require_unique_is_in_help():
    result = run("count", "--help")
    assert "--require-unique" in result.stdout and "--summary" in result.stdout
    assert "Exit 1" in result.stdout


# -- 5. partial counts ------------------------------------------------------------------

def test_partial_count_says_at_least_k():
    result = run("count", "--solver", "dlx", "--nodes", "2000", "-", input=EMPTY9)
    assert result.exit_code == EXIT_UNKNOWN
    label, _, verdict = result.stdout.strip().partition(" ")
    assert label == EMPTY9.strip()
    words = verdict.removeprefix("unknown (at least ").removesuffix(")")
    assert verdict.startswith("unknown (at least ") and int(words) > 0


def test_partial_count_zero_is_plain_unknown():
    result = run("count", "--solver", "dlx", "--nodes", "2", "-", input=EMPTY9)
    assert result.exit_code == EXIT_UNKNOWN
    assert result.stdout == f"{EMPTY9.strip()} unknown\n"


@pytest.mark.parametrize("nodes, positive", [("2000", True), ("2", False)])
def test_partial_count_json(nodes, positive):
    result = run("count", "--json", "--solver", "dlx", "--nodes", nodes, "-", input=EMPTY9)
    assert result.exit_code == EXIT_UNKNOWN
    obj = json.loads(result.stdout)
    assert obj["status"] == "unknown" and obj["complete"] is False
    assert isinstance(obj["count"], int) and (obj["count"] > 0) == positive


def test_partial_count_with_two_found_is_not_unique():
    result = run("count", "--summary", "--solver", "dlx", "--nodes", "2000", "-", input=EMPTY9)
    assert result.exit_code == EXIT_UNKNOWN
    assert result.stdout.splitlines()[1].split() == ["1", "0", "0", "1", "0"]


def assert_error(result, code, *fragments):
    """Exit ``code``, nothing on stdout, one stderr line 'sudokit: error: ...' with every
    fragment."""
    line = assert_cli_error(result, code, *fragments)
    assert result.stdout == ""
    return line
