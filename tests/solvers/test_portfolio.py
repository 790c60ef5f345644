"""The portfolio default (issue 29 item 2): a grid without --solver goes to the engine its
family's and side's rule names, the first of them installed; the rules name real engines."""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.instances import latin_square, sudoku
from sudokit.solvers import DEFAULT_SOLVER, ENGINES, default_solver, portfolio
from sudokit.solvers.portfolio import BOXES, LINES, PORTFOLIO, Rule, family_of

from ..helpers import cli_run


def grid(family: str, side: int):
    """An empty grid of ``family``: a Sudoku with boxes when the side is a square, else a
    jigsaw of row bands (regions), or a Latin square."""
    empty = np.zeros((side, side), dtype=int)
    if family == LINES:
        return latin_square(empty)
    root = int(round(side ** 0.5))
    if root * root == side:
        return sudoku(empty)
    return sudoku(empty, regions=np.repeat(np.arange(side), side).reshape(side, side))


def test_families_are_read_from_the_units():
    assert family_of(sudoku(np.zeros((9, 9), dtype=int))) == BOXES
    assert family_of(sudoku(np.zeros((6, 6), dtype=int), box=(2, 3))) == BOXES
    assert family_of(latin_square(np.zeros((9, 9), dtype=int))) == LINES
    assert family_of(grid(BOXES, 5)) == BOXES          # regions count as boxes


def test_every_rule_names_engines_of_the_registry_and_rules_do_not_overlap():
    for rule in PORTFOLIO:
        assert rule.engines and all(name in ENGINES for name in rule.engines), rule
        assert all(name in ENGINES for name in rule.rivals), rule
        assert rule.smallest <= rule.largest and rule.measured
    for family in (BOXES, LINES):
        for side in range(1, 101):
            for task in ("solve", "count"):
                assert sum(rule.covers(family, side, task) for rule in PORTFOLIO) <= 1, (
                    family, side, task)


@pytest.mark.parametrize("rule", PORTFOLIO, ids=lambda r: f"{r.family}-{r.largest}")
def test_the_default_follows_each_rule_at_both_ends(rule):
    installed = [name for name in rule.engines if not ENGINES[name].missing]
    expected = installed[0] if installed else DEFAULT_SOLVER
    for side in {max(rule.smallest, 4), rule.largest}:
        if rule.family == BOXES and int(round(side ** 0.5)) ** 2 != side and side > 36:
            continue
        for task in rule.tasks:
            assert default_solver(grid(rule.family, side), task=task) == expected


def test_a_missing_engine_gives_way_to_the_next_and_no_rule_to_the_default(monkeypatch):
    monkeypatch.setattr(portfolio, "PORTFOLIO", (
        Rule(BOXES, 1, 9, ("nosuch", "dlx"), "test"),))
    assert default_solver(sudoku(np.zeros((9, 9), dtype=int))) == "dlx"
    assert default_solver(sudoku(np.zeros((16, 16), dtype=int))) == DEFAULT_SOLVER
    assert default_solver(latin_square(np.zeros((5, 5), dtype=int))) == DEFAULT_SOLVER


def test_the_help_and_the_solver_list_say_the_portfolio():
    text = cli_run("solve", "--help").output
    assert "Default (the portfolio):" in " ".join(text.split())
    first = PORTFOLIO[0]
    listing = cli_run("solvers").output
    line = next(row for row in listing.splitlines() if row.startswith(first.engines[0] + " "))
    assert f"default for grids with {first.family}" in line


def test_a_rule_may_cover_one_task_and_the_batch_road_asks_for_its_own(monkeypatch):
    from sudokit.batch import RunSpec

    monkeypatch.setattr(portfolio, "PORTFOLIO", (
        Rule(LINES, 1, 9, ("dlx",), "test", tasks=("count",)),
        Rule(LINES, 1, 9, ("takano",), "test", tasks=("solve",))))
    square = latin_square(np.zeros((5, 5), dtype=int))
    assert default_solver(square, task="count") == "dlx"
    assert default_solver(square) == default_solver(square, task="solve") == "takano"
    assert RunSpec.of("count", 2).engine_name(square) == "dlx"
    assert RunSpec.of("solve").engine_name(square) == "takano"
    assert "to count" in portfolio.summary()
