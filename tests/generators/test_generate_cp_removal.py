"""The removal pass on the takano kernels (sudokit/generators/cp_removal.py): the puzzles of
the ``auto`` and ``takano`` checkers are unique and minimal under independent checkers, the
same as DLX's, whatever the slicing, the levels or an interrupt."""

import numpy as np
import pytest

from sudokit.errors import BudgetExhausted
from sudokit.generators import PuzzleGenerator, cp_removal, generate_puzzles, removal
from sudokit.generators.puzzles import symmetry_orbits
from sudokit.instances import sudoku
from sudokit.solvers import open_engine
from sudokit.solvers.budget import Budget
from sudokit.solvers.takano import propagated
from sudokit.solvers.unit_model import unit_model

from .checks import check_batch as _check_batch


def _lines(puzzles):
    return [p.puzzle.tobytes() for p in puzzles]


@pytest.mark.parametrize("n, box, count", [(4, (2, 2), 60), (6, (2, 3), 60), (9, (3, 3), 120),
                                           (12, (3, 4), 6), (16, (4, 4), 2)])
def test_minimal_puzzles_are_unique_minimal_and_those_of_dlx(n, box, count):
    made = list(generate_puzzles(n, box, count, seed=n + 100, mode="minimal"))
    assert {p.checker for p in made} == {"takano"} and all(p.minimal for p in made)
    _check_batch(made, n, box, minimal=True)          # library DLX and SAT, not the generator
    dlx = list(generate_puzzles(n, box, count, seed=n + 100, mode="minimal", checker="dlx"))
    assert _lines(made) == _lines(dlx)


def test_minimality_against_the_dlx_engine():
    """Every clue of a generated puzzle is needed: the DLX engine counts 2 without it."""
    template = sudoku(np.zeros((9, 9), int))
    with open_engine("dlx", shape=template) as dlx:
        for p in generate_puzzles(9, (3, 3), 10, seed=77, mode="minimal"):
            assert dlx.count(template.with_givens(p.puzzle), 2)[0] == 1
            for cell in np.flatnonzero(p.puzzle):
                fewer = p.puzzle.copy()
                fewer.reshape(-1)[cell] = 0
                assert dlx.count(template.with_givens(fewer), 2)[0] == 2


@pytest.mark.parametrize("symmetry", ["rotational", "dihedral", "vertical"])
def test_symmetric_orbits_take_one_search_per_cell(symmetry):
    made = list(generate_puzzles(9, (3, 3), 6, seed=5, mode="minimal", symmetry=symmetry))
    dlx = list(generate_puzzles(9, (3, 3), 6, seed=5, mode="minimal", symmetry=symmetry,
                                checker="dlx"))
    assert _lines(made) == _lines(dlx)
    orbits = symmetry_orbits(9, symmetry)
    for p in made:
        present = p.puzzle.reshape(-1) > 0
        assert all(present[o].all() or not present[o].any() for o in orbits)
    _check_batch(made, 9, (3, 3), minimal=False)


def test_clue_target_matches_dlx():
    made = list(generate_puzzles(9, (3, 3), 5, seed=8, mode="clues", clues=28))
    dlx = list(generate_puzzles(9, (3, 3), 5, seed=8, mode="clues", clues=28, checker="dlx"))
    assert _lines(made) == _lines(dlx) and all(p.clues == 28 for p in made)
    _check_batch(made, 9, (3, 3), minimal=False)


def test_checker_choice():
    gen = PuzzleGenerator(9, (3, 3), seed=1)
    assert gen.checker_for("minimal") == gen.checker_for("clues") == "takano"
    assert gen.checker_for("unique") == "dlx"
    assert gen.checker_for("minimal", Budget(nodes=5)) == "dlx"
    assert PuzzleGenerator(25, (5, 5)).checker_for("minimal") == "dlx"
    assert PuzzleGenerator(9, (3, 3), checker="dlx").checker_for("minimal") == "dlx"
    assert PuzzleGenerator(9, (3, 3), checker="takano").checker_for("unique") == "takano"
    assert gen.make("unique").checker == "dlx" and gen.make("minimal").checker == "takano"


def test_unique_mode_with_the_takano_checker():
    puzzles = list(generate_puzzles(9, (3, 3), 20, seed=3, checker="takano"))
    assert all(p.checker == "takano" and p.unique for p in puzzles)
    _check_batch(puzzles, 9, (3, 3), minimal=False)
    again = list(generate_puzzles(9, (3, 3), 20, seed=3, checker="takano"))
    assert _lines(puzzles) == _lines(again)
    # a per-test budget of 1 node: the tests that need a search stay undecided, still unique
    tight = PuzzleGenerator(9, (3, 3), seed=3, checker="takano", budget=1).make()
    assert tight.unique and not tight.minimal
    _check_batch([tight], 9, (3, 3), minimal=False)


def test_tiny_slices_and_few_levels_change_nothing(monkeypatch):
    expected = _lines(generate_puzzles(9, (3, 3), 6, seed=12, mode="minimal", symmetry="diagonal"))
    monkeypatch.setattr(removal, "_MIN_WORK", 1)
    monkeypatch.setattr(removal, "SLICE_SECONDS", 1e-12)  # always shrink, down to 1 node
    gen = PuzzleGenerator(9, (3, 3), seed=12, symmetry="diagonal")
    gen._work = 1
    calls = []
    sliced = [gen.make("minimal", progress=calls.append).puzzle.tobytes() for _ in range(6)]
    assert sliced == expected and len(calls) > 100
    # a scratch with two levels grows them as the searches go deeper
    original = cp_removal.CPScratch.__init__

    def shallow(self, model):
        original(self, model)
        self.depth = 2
        self.work = tuple(cp_removal._t.work(model, 2))

    monkeypatch.setattr(cp_removal.CPScratch, "__init__", shallow)
    gen = PuzzleGenerator(9, (3, 3), seed=12, symmetry="diagonal")
    assert _lines(gen.make("minimal") for _ in range(6)) == expected
    assert gen._cp.depth > 2


def test_an_interrupt_between_slices_leaves_the_generator_sound(monkeypatch):
    monkeypatch.setattr(removal, "_MIN_WORK", 1)
    monkeypatch.setattr(removal, "SLICE_SECONDS", 1e-12)
    gen = PuzzleGenerator(9, (3, 3), seed=4)
    gen._work = 1                                     # one node per kernel call
    calls = 0

    def interrupt(status):
        nonlocal calls
        calls += 1
        if status.phase == "remove" and calls > 20:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gen.make("minimal", progress=interrupt)
    made = gen.make("minimal")
    assert made.minimal and made.checker == "takano"
    _check_batch([made], 9, (3, 3), minimal=True)


def test_a_time_budget_stops_the_pass():
    gen = PuzzleGenerator(16, (4, 4), seed=2)
    gen.make("minimal")                               # compile, set up the shape
    gen._work = removal._MIN_WORK                     # short kernel calls
    with pytest.raises(BudgetExhausted):
        gen.make("minimal", budget=Budget(seconds=0.005))
    made = gen.make("minimal")
    assert made.minimal
    _check_batch([made], 16, (4, 4), minimal=False)


def test_forced_cells_are_what_propagation_fixes():
    """The shortcut of cp_removal._forced claims only what takano's first level finds."""
    model = unit_model(sudoku(np.zeros((9, 9), int)))
    rng = np.random.default_rng(0)
    solution = PuzzleGenerator(9, (3, 3), seed=0).full_grid().reshape(-1)
    umask = np.zeros(len(model.hidden_units), np.int64)
    forced = 0
    for _ in range(300):
        givens = np.where(rng.random(81) < rng.uniform(0.2, 0.8), solution, 0).astype(np.int32)
        cell = int(rng.integers(81))
        givens[cell] = 0
        bit = np.int64(1) << (int(solution[cell]) - 1)
        if cp_removal._forced(givens, cell, bit, 9, model.peer_starts, model.peers,
                              model.hidden_units, model.cell_hidden, umask):
            forced += 1
            assert propagated(model, givens, flags=0)[cell] == bit
    assert forced > 20
