"""Generation under budgets: what running out means per mode, bounded kernel slices that change
nothing, progress reports, and a generator that stays sound after an interrupt."""

import math

import numpy as np
import pytest

from sudokit.errors import BudgetExhausted, InstanceError, SolverError
from sudokit.generators import (
    GenerationStatus,
    PuzzleGenerator,
    default_time_limit,
    grids,
    latin,
    random_grid,
    random_latin_square,
    removal,
)
from sudokit.instances import sudoku
from sudokit.solvers import SATEngine
from sudokit.solvers.budget import Budget

from ..helpers import budget_cpu_bound, cpu_seconds


def _unique_both_ways(puzzle, box):
    """One solution under DLX (the generator's sliced count) and under SAT."""
    n = puzzle.shape[0]
    template = sudoku(np.zeros((n, n), int), box)
    with PuzzleGenerator(n, box) as gen:
        assert gen.count(puzzle, "dlx") == 1
    with SATEngine(shape=template) as sat:
        assert sat.count(template.with_givens(puzzle), 2)[0] == 1


def _puzzles(gen, count, mode="minimal", **kw):
    return [gen.make(mode, **kw).puzzle.tobytes() for _ in range(count)]


# -- what running out means -------------------------------------------------------------------
def test_unique_mode_stops_removing_and_stays_unique():
    gen = PuzzleGenerator(9, (3, 3), seed=4)
    made = gen.make(budget=Budget(nodes=300))
    assert made.unique and made.budget_exhausted and not made.minimal
    assert made.clues == int((made.puzzle > 0).sum()) > 17
    _unique_both_ways(made.puzzle, (3, 3))
    # a node budget is deterministic: the same seed gives the same cut-short puzzle
    again = PuzzleGenerator(9, (3, 3), seed=4).make(budget=Budget(nodes=300))
    assert np.array_equal(made.puzzle, again.puzzle)
    # and a budget that is never reached changes nothing
    plenty = PuzzleGenerator(9, (3, 3), seed=4).make(budget=Budget(nodes=10**9))
    assert np.array_equal(plenty.puzzle, PuzzleGenerator(9, (3, 3), seed=4).make().puzzle)
    assert not plenty.budget_exhausted


@pytest.mark.parametrize("mode, clues", [("minimal", None), ("clues", 24)])
def test_promised_modes_raise_when_the_budget_runs_out(mode, clues):
    gen = PuzzleGenerator(9, (3, 3), seed=4)
    with pytest.raises(BudgetExhausted, match="node budget of 300") as err:
        gen.make(mode, clues, budget=Budget(nodes=300))
    assert err.value.exit_code == 5
    # the generator is still sound afterwards
    made = gen.make("minimal")
    assert made.minimal and not made.budget_exhausted
    _unique_both_ways(made.puzzle, (3, 3))


def test_a_best_effort_clue_target_returns_its_best_puzzle_when_the_budget_runs_out():
    """--target-clues is best effort: a budget that runs out inside the first removal gives
    the puzzle so far, one that runs out in a later attempt the best whole attempt; both
    unique and reported as cut short, where a hard --clues target raises."""
    whole = PuzzleGenerator(9, (3, 3), seed=4).make("clues", 17, best_effort=True)
    assert not whole.budget_exhausted and whole.clues > 17
    made = {}
    for nodes in (300, 30_000):        # inside the first attempt; after a few whole ones
        gen = PuzzleGenerator(9, (3, 3), seed=4)
        p = made[nodes] = gen.make("clues", 17, budget=Budget(nodes=nodes), best_effort=True)
        assert p.budget_exhausted and not p.minimal and p.extra["target_clues"] == 17
        assert p.clues == int((p.puzzle > 0).sum()) >= whole.clues
        given = p.puzzle > 0
        assert (p.puzzle[given] == p.solution[given]).all()
        _unique_both_ways(p.puzzle, (3, 3))
        with pytest.raises(BudgetExhausted, match="node budget"):
            PuzzleGenerator(9, (3, 3), seed=4).make("clues", 17, budget=Budget(nodes=nodes))
    assert made[30_000].clues < made[300].clues


def test_time_budget_holds_at_36x36_and_the_puzzle_is_unique():
    """The budget runs out in the removal (a whole pass takes about a minute): the puzzle
    is unique, not minimal. The budget leaves the fill room however busy the machine: a
    second plus four times what a full grid took here just now (a fixed 1 s ran out before
    the grid was filled on a loaded machine)."""
    import time

    gen = PuzzleGenerator(36, (6, 6), seed=1)
    gen.make(budget=Budget(nodes=0))                 # compile, open the engine
    filling = time.monotonic()
    gen.make("full")
    seconds = 1.0 + 4 * (time.monotonic() - filling)
    started = cpu_seconds()
    made = gen.make(budget=Budget(seconds=seconds))
    assert cpu_seconds() - started < budget_cpu_bound(seconds)    # slices of ~0.03 s
    assert made.budget_exhausted and not made.minimal and made.clues < 36 * 36
    assert gen.count(made.puzzle, "dlx") == 1


def test_time_budget_error_names_the_parameter_not_the_flag():
    gen = PuzzleGenerator(25, (5, 5), seed=2)
    with pytest.raises(BudgetExhausted) as err:
        gen.make("minimal", budget=Budget(seconds=0.05))
    assert "time budget of 0.05 s" in str(err.value) and "--" not in str(err.value)
    assert "--time-limit" in err.value.for_cli()


def test_full_grids_under_a_time_budget():
    with pytest.raises(BudgetExhausted, match="filled"):
        PuzzleGenerator(64, (8, 8), seed=1).make("full", budget=Budget(seconds=0.01))
    started = cpu_seconds()
    with pytest.raises(BudgetExhausted, match="36x36"):      # a search fill at 36x36 is slow
        random_grid(36, (6, 6), np.random.default_rng(0), method="search",
                    meter=Budget(seconds=0.3).start())
    assert cpu_seconds() - started < budget_cpu_bound(0.3)


def test_sat_checker_under_a_time_budget():
    gen = PuzzleGenerator(16, (4, 4), seed=3, checker="sat")
    gen.make()
    made = gen.make(budget=Budget(seconds=0.2))
    assert made.unique and made.checker == "sat"
    _unique_both_ways(made.puzzle, (4, 4))


def test_verify_keeps_time_for_the_recheck():
    gen = PuzzleGenerator(25, (5, 5), seed=1, verify=True)
    made = gen.make(budget=Budget(seconds=1.5))
    assert made.verified == "sat" and made.budget_exhausted


@pytest.mark.parametrize("bad", [math.nan, math.inf, 0.0, -1.0])
def test_budget_values_are_checked(bad):
    gen = PuzzleGenerator(4, (2, 2), seed=1)
    with pytest.raises(InstanceError, match="finite positive"):
        gen.make(budget=Budget(seconds=bad))
    with pytest.raises(SolverError):
        gen.make(budget=Budget(conflicts=10))
    with pytest.raises(SolverError):
        PuzzleGenerator(4, (2, 2), checker="sat").make(budget=Budget(nodes=10))


def test_default_time_limit():
    assert default_time_limit(25) is None and default_time_limit(9, "unique") is None
    assert default_time_limit(36) == pytest.approx(12.96)
    assert default_time_limit(64) == pytest.approx(40.96)
    for mode in ("minimal", "clues", "full"):
        assert default_time_limit(64, mode) is None


# -- slices change nothing ---------------------------------------------------------------------
def _tiny_slices(monkeypatch):
    """Kernel calls of a few units of work each (a test is cut into many calls)."""
    monkeypatch.setattr(removal, "_MIN_WORK", 1)
    monkeypatch.setattr(removal, "SLICE_SECONDS", 1e-12)   # always shrink, down to 1 unit
    monkeypatch.setattr(grids, "FILL_SLICE_WORK", 1)
    monkeypatch.setattr(latin, "JM_SLICE_WORK", 1)


@pytest.mark.parametrize("n, box, mode, count", [(9, (3, 3), "minimal", 8),
                                                 (16, (4, 4), "unique", 2),
                                                 (9, (3, 3), "clues", 3)])
def test_sliced_removal_makes_the_same_puzzles(n, box, mode, count, monkeypatch):
    clues = 30 if mode == "clues" else None
    expected = _puzzles(PuzzleGenerator(n, box, seed=6), count, mode, clues=clues)
    _tiny_slices(monkeypatch)
    sliced = PuzzleGenerator(n, box, seed=6)
    sliced._work = 1
    assert _puzzles(sliced, count, mode, clues=clues) == expected


def test_sliced_fills_give_the_same_grids(monkeypatch):
    def grids_and_squares():
        return ([random_grid(16, (4, 4), np.random.default_rng(s), method="search").tobytes()
                 for s in range(3)],
                [random_latin_square(9, np.random.default_rng(s)).tobytes() for s in range(3)])

    expected = grids_and_squares()
    _tiny_slices(monkeypatch)
    assert grids_and_squares() == expected


def test_sliced_count_agrees_with_the_engine():
    gen = PuzzleGenerator(9, (3, 3), seed=2)
    made = gen.make("minimal")
    fewer = made.puzzle.copy()
    fewer.reshape(-1)[np.flatnonzero(fewer)[0]] = 0
    for puzzle in (made.puzzle, fewer, np.zeros((9, 9), np.int32)):
        engine = gen._engine("dlx")
        expected = min(int(engine.count(gen.template.with_givens(puzzle), 2)[0]), 2)
        assert gen.count(puzzle, "dlx") == expected
        assert gen.count(puzzle, "dlx", limit=1) == min(expected, 1)


# -- progress and interrupts -------------------------------------------------------------------
def test_progress_reports_between_slices():
    seen: list[GenerationStatus] = []
    gen = PuzzleGenerator(16, (4, 4), seed=1)
    gen._work = 100_000                               # several slices per puzzle
    made = gen.make(progress=seen.append)
    phases = [s.phase for s in seen]
    assert phases[0] == "fill" and "remove" in phases
    removing = [s for s in seen if s.phase == "remove"]
    assert all(a.removed <= b.removed and a.tests <= b.tests
               for a, b in zip(removing, removing[1:], strict=False))
    assert all(s.cells == 256 and s.seconds >= 0 for s in seen)
    assert removing[-1].removed <= 256 - made.clues


def test_an_interrupt_between_slices_leaves_the_generator_sound():
    gen = PuzzleGenerator(16, (4, 4), seed=1)
    reference = PuzzleGenerator(16, (4, 4), seed=9).make("minimal").puzzle
    gen._work = 100_000
    calls = 0

    def interrupt(status):
        nonlocal calls
        calls += 1
        if status.phase == "remove" and calls > 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gen.make("minimal", progress=interrupt)
    assert gen.count(reference, "dlx") == 1          # the links are whole again
    made = gen.make("minimal")
    assert made.minimal
    _unique_both_ways(made.puzzle, (4, 4))
