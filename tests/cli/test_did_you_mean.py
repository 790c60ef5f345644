"""Unknown solver, reduction, encoding, counter, fill and problem names get "did you mean"
with the closest names (issue 28 item 8), on the command line and in the library."""

from __future__ import annotations

import pytest

from sudokit.errors import SudokitError
from sudokit.generators.fills import fill_strategy
from sudokit.reductions import reduce as apply_reduction

from ..helpers import EXAMPLES, assert_cli_error, cli_run

TOP3 = EXAMPLES / "top3.txt"


@pytest.mark.parametrize("args,near", [
    (("solve", "--solver", "minisat", TOP3), "'minisat22'"),
    (("reduce", "latin2sudok", TOP3), "'latin2sudoku'"),
    (("solve", "--encoding", "extnded", TOP3), "'extended'"),
    (("count", "--counter", "ganac", TOP3), "'ganak'"),
    (("count", "--problem", "sudok", TOP3), "'sudoku'"),
    (("solve", "--amo", "seqcountr", TOP3), "'seqcounter'"),
])
def test_a_near_miss_names_the_closest(args, near):
    assert_cli_error(cli_run(*args), 2, "did you mean", near)


def test_nothing_close_suggests_nothing():
    line = assert_cli_error(cli_run("solve", "--solver", "zzzz", TOP3), 2, "unknown solver")
    assert "did you mean" not in line


def test_the_library_suggests_too():
    with pytest.raises(SudokitError, match="did you mean 'search'"):
        fill_strategy("serch")
    with pytest.raises(SudokitError, match="did you mean 'latin2sudoku'"):
        apply_reduction("latin2sudok", None)
