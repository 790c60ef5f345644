"""Diagonal Latin squares from `generate latin --variant diagonal` (QWH and QCP), seeded,
with the header that reads back, and the usage errors of the option."""

import numpy as np
import pytest

import sudokit
from sudokit.errors import InstanceError
from sudokit.formats import parse_instances
from sudokit.generators.latin import qcp, qwh

from ..helpers import assert_cli_error as assert_error
from ..helpers import cli_run as run


def _diagonals_distinct(grid) -> bool:
    """Whether no value repeats on either main diagonal (written from the rule)."""
    for line in (np.diag(grid), np.diag(np.fliplr(grid))):
        values = line[line > 0].tolist()
        if len(values) != len(set(values)):
            return False
    return True


def test_qwh_squares_are_diagonal_latin_squares_and_spread():
    squares = set()
    for seed in range(12):
        square = qwh(5, 0, np.random.default_rng(seed), variants=["x"]).givens
        assert all(sorted(line) == [1, 2, 3, 4, 5] for line in [*square, *square.T])
        assert sorted(np.diag(square)) == sorted(np.diag(np.fliplr(square))) == [1, 2, 3, 4, 5]
        squares.add(square.tobytes())
    assert len(squares) > 6


def test_qcp_keeps_the_diagonals_free_of_repeats():
    for seed in range(20):
        puzzle = qcp(6, 0.3, np.random.default_rng(seed), variants=["diagonal"])
        assert puzzle.variants == ("diagonal",) and _diagonals_distinct(puzzle.givens)
        assert (puzzle.givens == 0).sum() >= 11


def test_no_diagonal_latin_square_of_order_2_or_3():
    with pytest.raises(InstanceError, match="no diagonal Latin square of order 3"):
        qwh(3, 0, np.random.default_rng(0), variants=["diagonal"])


@pytest.mark.parametrize("extra", [(), ("--qcp",), ("--balanced",)])
def test_generate_latin_variant_reads_back_seeded(extra):
    args = ("generate", "latin", "--order", "5", "--holes", "10", "--variant", "diagonal",
            "--seed", "7", "--count", "3", *extra)
    first = run(*args)
    assert first.exit_code == 0, first.stderr
    assert first.stdout.startswith("# variant: diagonal\n")
    assert run(*args).stdout == first.stdout
    records = parse_instances(first.stdout, problem="latin")
    assert len(records) == 3
    for record in records:
        puzzle = record.instance
        assert puzzle.variants == ("diagonal",) and (puzzle.givens == 0).sum() >= 10
        if not extra or extra == ("--balanced",):            # QWH: always solvable
            solution = sudokit.solve(puzzle, solver="dlx")
            assert puzzle.is_solution(solution) and _diagonals_distinct(solution)
    counted = run("count", "--problem", "latin", "--limit", "1", "-", input=first.stdout)
    assert counted.exit_code == 0, counted.stderr


@pytest.mark.parametrize("args, fragment", [
    (("--order", "5", "--variant", "windoku"), "a Latin square takes diagonal only"),
    (("--order", "5", "--variant", "snake"), "unknown variant 'snake'"),
    (("--order", "3", "--variant", "x"), "none exists of order 2 or 3"),
    (("--order", "65", "--variant", "x"), "4..64"),
    (("--order", "5", "--variant", "x", "--format", "pls"), "use --format grid"),
    (("--order", "5", "--variant", "x", "--method", "shuffle"), "leave --method out"),
])
def test_generate_latin_variant_bad_use_is_one_line(args, fragment):
    assert_error(run("generate", "latin", *args), 2, fragment)
