"""Registries take an object as well as a name: a user's engine, fill strategy or counter,
handed over directly or as a ``"module:attribute"`` string, without editing the package."""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.counting import CounterSpec, count_models, counter_function, counter_spec
from sudokit.counting.base import CountResult
from sudokit.errors import InstanceError, SolverError, SudokitError, UnsupportedTaskError
from sudokit.generators.fills import FillStrategy, fill_grid, fill_strategy
from sudokit.generators.grids import random_grid
from sudokit.generators.puzzles import PuzzleGenerator
from sudokit.instances import precoloring, sudoku
from sudokit.solvers.budget import UNLIMITED, Budget
from sudokit.solvers.engine import EngineBase
from sudokit.solvers.registry import (
    ENGINES,
    EngineSpec,
    check_engine,
    engine_spec,
    open_engine,
    resolve_solver,
    supports_budget,
)

# -- engines ------------------------------------------------------------------------------
SOLUTION = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])
#: SOLUTION with five clues left; it has exactly one solution
PUZZLE = np.where(np.array([[0, 0, 0, 0], [1, 0, 0, 1], [1, 0, 1, 0], [0, 0, 0, 1]]) > 0,
                  SOLUTION, 0)


class BruteForce(EngineBase):
    """Tries every value in every empty cell, in order (a toy engine for the tests)."""

    kinds = ("sudoku", "latin")

    def __init__(self, name, shape=None, **options):
        self.name, self.shape, self.options = name, shape, options

    @staticmethod
    def _solutions(instance):
        grid = instance.givens.reshape(-1).copy()
        units = instance.units()
        peers = [set(units[(units == cell).any(axis=1)].reshape(-1).tolist()) - {cell}
                 for cell in range(grid.size)]

        def fill(cell):
            while cell < grid.size and grid[cell]:
                cell += 1
            if cell == grid.size:
                yield grid.reshape(instance.n, instance.n).copy()
                return
            for value in range(1, instance.n + 1):
                if all(grid[peer] != value for peer in peers[cell]):
                    grid[cell] = value
                    yield from fill(cell + 1)
            grid[cell] = 0

        return fill(0)

    def count(self, instance, limit=None, budget: Budget = UNLIMITED):
        found, first = 0, None
        for solution in self._solutions(instance):
            first = solution if first is None else first
            found += 1
            if limit is not None and found >= limit:
                break
        return found, first

    def solve(self, instance, budget: Budget = UNLIMITED):
        return self.count(instance, 1, budget)[1]


REF = f"{__name__}:BruteForce"


@pytest.mark.parametrize("engine", [BruteForce, REF,
                                    EngineSpec("brute", "toy", REF, (), kinds=("sudoku",))],
                         ids=["class", "string", "spec"])
def test_open_engine_takes_a_users_engine_and_solves_a_4x4_sudoku(engine):
    puzzle = sudoku(PUZZLE)
    with open_engine(engine, shape=puzzle) as brute:
        assert isinstance(brute, BruteForce)
        assert np.array_equal(brute.solve(puzzle), SOLUTION)
        assert brute.count(puzzle, limit=2)[0] == 1
        outcomes = brute.count_many([puzzle, sudoku(np.zeros((4, 4), int))], limit=300)
    assert [outcome.count for outcome in outcomes] == [1, 288]
    with open_engine("dlx", shape=puzzle) as dlx:
        assert np.array_equal(dlx.solve(puzzle), SOLUTION)


def test_a_class_gets_an_ad_hoc_spec_from_its_attributes():
    spec = engine_spec(BruteForce)
    assert spec.name == spec.engine == REF
    assert spec.description.startswith("Tries every value")
    assert (spec.budgets, spec.counts, spec.options, spec.kinds) == ((), True, (),
                                                                     ("sudoku", "latin"))
    assert engine_spec(REF) == spec
    assert check_engine(BruteForce, "latin", "count") == spec
    assert not supports_budget(BruteForce)
    with pytest.raises(UnsupportedTaskError, match="does not take cnf"):
        check_engine(REF, "cnf")
    with pytest.raises(UnsupportedTaskError, match="does not take coloring"):
        open_engine(BruteForce, shape=precoloring(3, [(0, 1), (1, 2)], 2))


def test_registered_specs_keep_their_names():
    assert engine_spec("g4") is ENGINES["glucose4"]
    assert resolve_solver(ENGINES["dlx"]) == "dlx"
    assert resolve_solver("G4") == "glucose4"


@pytest.mark.parametrize("ref, message", [
    ("nowhere.at.all:Engine", "cannot load engine 'nowhere.at.all:Engine': No module named"),
    ("sudokit.solvers:NoSuchEngine", "has no attribute 'NoSuchEngine'"),
    ("sudokit.solvers.registry:DEFAULT_SOLVER", "names neither an engine class nor"),
    (":Engine", "expected 'module:attribute'"),
])
def test_a_reference_that_names_no_engine_is_one_line(ref, message):
    for lookup in (engine_spec, check_engine, open_engine, resolve_solver):
        with pytest.raises(SolverError, match=message) as caught:
            lookup(ref)
        assert "\n" not in str(caught.value)
    with pytest.raises(SolverError, match="expected a solver name"):
        engine_spec(42)


def test_an_engine_outside_the_registry_has_no_name():
    with pytest.raises(SolverError, match="not in the registry") as caught:
        resolve_solver(REF)
    # the command line's --solver says what it says of any unknown name
    assert caught.value.for_cli() == f"unknown solver {REF!r}; run 'sudokit solvers' to list them"
    with pytest.raises(SolverError, match="not in the registry"):
        resolve_solver(BruteForce)


# -- fill strategies --------------------------------------------------------------------
def shifted_fill(n, box, rng, *, stats=None, **options):
    """Shifted rows of one pattern, values relabelled at random (a toy fill for the tests)."""
    r, c = box
    base = np.array([[(c * (i % r) + i // r + j) % n for j in range(n)] for i in range(n)])
    if stats is not None:
        stats["nodes"] = 7
    return rng.permutation(n)[base] + 1


@pytest.mark.parametrize("fill", [shifted_fill, f"{__name__}:shifted_fill",
                                  FillStrategy("shifted", "toy", "tests", shifted_fill,
                                               kernels=False)],
                         ids=["function", "string", "strategy"])
def test_fill_grid_takes_a_users_strategy(fill):
    stats = {}
    grid = fill_grid(fill, 6, (2, 3), np.random.default_rng(1), stats=stats)
    assert sudoku(grid, (2, 3)).is_solution(grid)
    assert stats["nodes"] == 7 and stats["restarts"] == 0
    assert stats["strategy"] == fill_strategy(fill).name
    again = random_grid(6, (2, 3), np.random.default_rng(1), method=fill)
    assert np.array_equal(again, grid)


def test_a_generator_fills_with_a_users_strategy():
    with PuzzleGenerator(6, (2, 3), seed=3, fill=shifted_fill) as gen:
        made = gen.make("minimal")
    assert made.minimal and made.extra["fill"]["strategy"] == f"{__name__}:shifted_fill"
    assert sudoku(made.puzzle, (2, 3)).is_solution(made.solution)
    with pytest.raises(InstanceError, match="takes no alpha"):
        PuzzleGenerator(6, (2, 3), fill=shifted_fill, alpha=0.5)
    with pytest.raises(InstanceError, match="makes empty Sudoku grids only"):
        random_grid(4, None, np.random.default_rng(0), method=shifted_fill)


@pytest.mark.parametrize("ref, message", [
    ("nowhere:fill", "cannot load fill 'nowhere:fill': No module named 'nowhere'"),
    ("sudokit.generators.fills:RAGGI", "names neither a fill function nor"),
])
def test_a_reference_that_names_no_fill_is_one_line(ref, message):
    with pytest.raises(InstanceError, match=message) as caught:
        fill_grid(ref, 4, (2, 2), np.random.default_rng(0))
    assert "\n" not in str(caught.value)
    with pytest.raises(InstanceError, match="unknown fill method 'annealing'"):
        fill_strategy("annealing")


# -- counters ---------------------------------------------------------------------------
def brute_count(instance, budget, limit=None):
    """Counts with the brute-force engine above (a toy counter for the tests)."""
    count, _ = BruteForce("brute").count(instance, limit, budget)
    return CountResult("sat" if count else "unsat", count)


@pytest.mark.parametrize("counter", [brute_count, f"{__name__}:brute_count",
                                     CounterSpec("brute", "toy", brute_count,
                                                 options=("limit",))],
                         ids=["function", "string", "spec"])
def test_count_models_takes_a_users_counter(counter):
    empty = sudoku(np.zeros((4, 4), int))
    assert count_models(empty, counter).count == 288
    assert count_models(empty, counter, limit=5).count == 5
    assert counter_spec(counter).options == ("limit",)
    with pytest.raises(SudokitError, match="does not take seed"):
        count_models(empty, counter, seed=1)


def test_a_reference_that_names_no_counter_is_one_line():
    with pytest.raises(SudokitError, match="cannot load counter 'nowhere:count'") as caught:
        count_models(sudoku(np.zeros((4, 4), int)), "nowhere:count")
    assert "\n" not in str(caught.value)
    with pytest.raises(SudokitError, match="names neither a count function"):
        counter_spec("sudokit.counting.registry:DEFAULT_COUNTER")
    with pytest.raises(SudokitError, match="unknown counter 'sharpsat'"):
        counter_function("sharpsat")
