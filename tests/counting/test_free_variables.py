"""Variables that occur in no clause count as factors of 2, for every counter (issue 32.12):
pyapproxmc refuses them in its sampling set, so ``approxmc`` sets them aside."""

from __future__ import annotations

import pytest

from sudokit.counting import COUNTERS

from ..helpers import cli_run

needs_approxmc = pytest.mark.skipif(bool(COUNTERS["approxmc"].missing or COUNTERS["ganak"].missing),
                                    reason="sudokit[counting] not installed")

#: DIMACS text -> its model count (variables in no clause double it)
FREE = [
    ("p cnf 3 0\n", 8),
    ("p cnf 2 1\n1 0\n", 2),
    ("p cnf 2 1\n-1 0\n", 2),
    ("p cnf 40 0\n", 2 ** 40),                       # past the enumerated counts
    ("p cnf 40 2\n1 0\n-2 3 0\n", 3 * 2 ** 37),
]


@needs_approxmc
@pytest.mark.parametrize("counter", ["approxmc", "ganak", "enumerate"])
@pytest.mark.parametrize("text, models", FREE)
def test_free_variables_double_the_count(counter, text, models, tmp_path):
    if counter == "enumerate" and models > 2 ** 10:
        pytest.skip("enumeration of 2**40 models")
    path = tmp_path / "f.cnf"
    path.write_text(text)
    done = cli_run("count", "--counter", counter, path)
    assert done.exit_code == 0, done.stderr
    assert done.stdout == f"{path}:1 {models}\n"
