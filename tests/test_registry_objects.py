"""Registries take an object as well as a name: a user's engine, fill strategy or counter,
handed over directly or as a ``"module:attribute"`` string, without editing the package."""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.errors import SolverError, UnsupportedTaskError
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
