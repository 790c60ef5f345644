"""CDCL slices (sudokit/solvers/pysat_solver.py) are paced by CPU time, so a loaded machine
gives the same slices, and so the same search, as an idle one (issue 29: the 25x25 counts).

A fake CaDiCaL stands in for the solver: each conflict costs it a fixed CPU time, and the
wall clock runs ``load`` times the CPU clock; the slices run_solver asks for are recorded.
"""

from __future__ import annotations

import pytest

from sudokit.errors import BudgetExhausted
from sudokit.solvers import pysat_solver
from sudokit.solvers.budget import Budget


class Clock:
    """CPU and wall clocks that the fake solver moves: wall = load x CPU."""

    def __init__(self, load: float):
        self.load, self.cpu, self.wall = load, 0.0, 0.0

    def process_time(self) -> float:
        return self.cpu

    def monotonic(self) -> float:
        return self.wall

    def spend(self, seconds: float) -> None:
        self.cpu += seconds
        self.wall += seconds * self.load


class Cadical195:
    """The part of PySAT's CaDiCaL run_solver uses: conflict budgets, a search that ends
    after ``needed`` conflicts, each costing ``per_conflict`` CPU seconds."""

    def __init__(self, clock: Clock, needed: int, per_conflict: float):
        self.solver = self           # run_solver reads the backend's name from .solver
        self.clock, self.needed, self.per_conflict = clock, needed, per_conflict
        self.conflicts, self.budget, self.slices = 0, 0, []

    def accum_stats(self) -> dict:
        return {"conflicts": self.conflicts}

    def conf_budget(self, budget: int) -> None:
        self.budget = budget

    def solve_limited(self, assumptions=()):
        self.slices.append(self.budget)
        done = min(self.budget, self.needed - self.conflicts)
        self.conflicts += done
        self.clock.spend(done * self.per_conflict)
        return True if self.conflicts >= self.needed else None


def slices(monkeypatch, load: float, needed: int, per_conflict: float,
           budget: Budget | None = None) -> list[int]:
    clock = Clock(load)
    monkeypatch.setattr(pysat_solver, "time", clock)
    solver = Cadical195(clock, needed, per_conflict)
    meter = None if budget is None else budget.start()
    assert pysat_solver.run_solver(solver, [], meter) is True
    return solver.slices


@pytest.mark.parametrize("per_conflict", [5e-5, 2e-4, 2e-3])
def test_a_loaded_machine_gets_the_same_slices(monkeypatch, per_conflict):
    idle = slices(monkeypatch, 1.0, 300_000, per_conflict)
    for load in (2.0, 6.0, 11.0):
        assert slices(monkeypatch, load, 300_000, per_conflict) == idle


def test_slices_double_up_to_a_quarter_cpu_second(monkeypatch):
    # 20,000 conflicts a CPU-second (a 25x25 Sudoku): 2,000 then 4,000 (= 0.2 s), no more;
    # on a machine at load 11 the wall-clock pace (1,800 a second) used to cut them to ~450
    found = slices(monkeypatch, 11.0, 60_000, 5e-5)
    assert found[:3] == [2_000, 4_000, 4_000] and max(found) == 4_000
    assert sum(found[:-1]) < 60_000 <= sum(found)


def test_slow_conflicts_get_short_slices(monkeypatch):
    # 2 ms a conflict (a 64x64 formula): a slice stays within a quarter CPU-second
    found = slices(monkeypatch, 1.0, 5_000, 2e-3)
    assert all(size * 2e-3 <= 0.25 for size in found[1:])


def test_a_time_budget_still_bounds_the_last_slice(monkeypatch):
    # at load 11 a 3 s budget is 0.27 CPU-s: the slices stop near it, not a slice later
    clock_budget = Budget(seconds=3.0)
    clock = Clock(11.0)
    monkeypatch.setattr(pysat_solver, "time", clock)
    solver = Cadical195(clock, 10**9, 5e-5)
    meter = clock_budget.start()
    monkeypatch.setattr(meter, "seconds_left", lambda: 3.0 - clock.wall)
    monkeypatch.setattr(meter, "exhausted", lambda: clock.wall >= 3.0)
    with pytest.raises(BudgetExhausted):
        pysat_solver.run_solver(solver, [], meter)
    assert clock.wall < 3.0 + 0.25 * 11.0
