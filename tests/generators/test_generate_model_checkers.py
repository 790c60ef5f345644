"""generate --checker with the model-based back ends (issue 11: every exact back end is
selectable wherever a solver is): the same removals as DLX, since every exact checker proves
the same uniqueness."""

from __future__ import annotations

import pytest

from ..helpers import assert_cli_error, cli_run, import_extra


@pytest.mark.parametrize("checker", ["ilp", "cpsat"])
@pytest.mark.parametrize("args", [["--size", "4", "--minimal", "--count", "3"],
                                  ["--size", "6", "--box", "2x3", "--count", "2"]])
def test_model_checkers_remove_the_same_clues_as_dlx(checker, args):
    import_extra(*(("highspy", "ilp") if checker == "ilp" else ("ortools", "cp")))
    common = ["generate", "sudoku", *args, "--seed", "5"]
    ours = cli_run(*common, "--checker", checker)
    reference = cli_run(*common, "--checker", "dlx")
    assert ours.exit_code == 0, ours.output
    assert ours.stdout == reference.stdout and ours.stdout.count("\n") == int(args[-1])


def test_grasp_cannot_be_a_checker():
    """An incomplete method cannot prove uniqueness: not a choice."""
    assert_cli_error(cli_run("generate", "sudoku", "--size", "4", "--checker", "grasp"), 2,
                     "grasp")
