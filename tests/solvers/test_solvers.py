"""PySAT back ends: every solver by name, budgets, projected counting, batch = single."""

import numpy as np
import pytest

from sudokit.batch import run_batch
from sudokit.encoders import completion_to_cnf, grid_to_cnf
from sudokit.errors import BudgetExhausted, SolverError
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import (
    SOLVERS,
    Budget,
    SATEngine,
    count_solutions,
    is_unique,
    resolve_solver,
    solve,
)

from ..helpers import cyclic_latin, data_path, grid_from_line

TOP95_FIRST = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def test_solver_names_and_aliases():
    assert resolve_solver("cadical195") == "cadical195"
    assert resolve_solver("G4") == "glucose4"
    assert "kissat404" not in SOLVERS  # no assumptions: cannot count or batch
    with pytest.raises(SolverError, match="sudokit solvers"):
        resolve_solver("zchaff")


@pytest.mark.parametrize("name", list(SOLVERS))
def test_every_listed_solver_counts_4x4_latin_squares(name):
    square = latin_square(np.zeros((4, 4), dtype=int))
    assert count_solutions(grid_to_cnf(square, "efficient", "seqcounter"), solver=name) == 576


def test_projected_counting_ignores_auxiliary_variables():
    # seqcounter adds auxiliaries; blocking them too would count more than 288
    encoded = grid_to_cnf(sudoku(np.zeros((4, 4), dtype=int)), "extended", "seqcounter")
    assert encoded.cnf.num_vars > 64
    assert count_solutions(encoded) == 288


def test_uniqueness_is_counting_with_limit_two():
    puzzle = sudoku(grid_from_line(TOP95_FIRST))
    assert is_unique(grid_to_cnf(puzzle))
    fewer = puzzle.with_givens(np.where(np.arange(81).reshape(9, 9) < 3, 0, puzzle.givens))
    assert count_solutions(grid_to_cnf(fewer), limit=2) == 2
    assert not is_unique(grid_to_cnf(fewer))


def hard_unsat():
    """myciel5 needs 6 colors; with 5 it is unsatisfiable and takes many conflicts to refute."""
    path = data_path("coloring", "original_trick_rzepinskip", "myciel5.col")
    edges = [tuple(int(x) - 1 for x in line.split()[1:3])
             for line in path.read_text().splitlines() if line.startswith("e ")]
    return precoloring(47, edges, 5)


def test_conflict_budget_gives_unknown_not_a_wrong_answer():
    encoded = completion_to_cnf(hard_unsat(), "direct", symmetry_breaking=False)
    with pytest.raises(BudgetExhausted):
        solve(encoded, budget=Budget(conflicts=50))
    with pytest.raises(BudgetExhausted):
        count_solutions(encoded, budget=Budget(seconds=0.05))


def test_budgeted_batch_marks_unknown_and_goes_on():
    easy = precoloring(3, [(0, 1), (1, 2)], 2)
    results = list(run_batch([hard_unsat(), easy], budget=Budget(conflicts=50)))
    assert [r.status for r in results] == ["unknown", "sat"]


def test_solver_without_budgets_is_refused_with_a_budget():
    encoded = grid_to_cnf(sudoku(grid_from_line(TOP95_FIRST)))
    with pytest.raises(SolverError, match="budget"):
        solve(encoded, solver="lingeling", budget=Budget(seconds=5))
    assert solve(encoded, solver="lingeling") is not None


def test_shared_solver_equals_fresh_solvers():
    base = grid_from_line(TOP95_FIRST)
    puzzles = [sudoku(base)]
    rng = np.random.default_rng(7)
    solution = solve(grid_to_cnf(puzzles[0]))
    for keep in (30, 20, 12, 81):
        mask = rng.permutation(81)[:keep]
        givens = np.zeros(81, dtype=int)
        givens[mask] = solution.reshape(-1)[mask]
        puzzles.append(sudoku(givens.reshape(9, 9)))
    fresh = [count_solutions(grid_to_cnf(p), limit=3) for p in puzzles]
    with SATEngine(shape=puzzles[0]) as shared:
        batch = [shared.count(p, 3)[0] for p in puzzles]
        again = [shared.count(p, 3)[0] for p in puzzles]  # retired guards leave no trace
    assert batch == fresh == again
    assert fresh[0] == 1 and fresh[-1] == 1


@pytest.mark.parametrize("box", [(5, 5), None], ids=["sudoku25", "latin25"])
def test_an_engine_opened_for_a_big_shape_answers_each_grid_on_its_own(box):
    """Past ``shared_max_side`` (25x25 Sudoku and Latin squares) a shape opens no shared
    solver (assumptions on the empty grid's formula were far slower than each grid's
    reduced formula: benchmarks/README.md); it answers as an engine opened for no shape."""
    full = cyclic_latin(25, *(box or (1, 25)))
    rng = np.random.default_rng(32)
    puzzles = []
    for hide in (120, 300, 625):
        givens = full.reshape(-1).copy()
        givens[rng.choice(625, hide, replace=False)] = 0
        made = givens.reshape(25, 25)
        puzzles.append(sudoku(made, box) if box else latin_square(made))
    with SATEngine(shape=puzzles[0]) as shaped, SATEngine() as alone:
        assert shaped.shared is None and shaped.batch_size == 1
        counts = [shaped.count(p, 2)[0] for p in puzzles]
        assert counts == [alone.count(p, 2)[0] for p in puzzles]
        assert all(p.is_solution(shaped.solve(p)) for p in puzzles)
    assert counts[-1] == 2
    with SATEngine(shape=sudoku(np.zeros((16, 16), dtype=int))) as small:
        assert small.shared is not None          # 16x16 still share one solver


def test_run_batch_verifies_and_keeps_order():
    puzzles = [sudoku(grid_from_line(TOP95_FIRST)), latin_square(np.zeros((3, 3), int)),
               sudoku(grid_from_line(TOP95_FIRST))]
    results = list(run_batch(puzzles, task="count", limit=20))
    assert [r.count for r in results] == [1, 12, 1]
    assert all(p.is_solution(r.solution) for p, r in zip(puzzles, results, strict=True))
    unsat = latin_square(np.array([[1, 0], [0, 2]]))
    assert [r.status for r in run_batch([unsat, unsat])] == ["unsat", "unsat"]


def test_solutions_takes_an_instance_as_well_as_an_encoding():
    """sudokit.solutions(instance) encodes the instance itself (it raised AttributeError)."""
    import sudokit

    grid = sudokit.sudoku(np.zeros((4, 4), dtype=int))
    assert sum(1 for _ in sudokit.solutions(grid)) == 288
    square = sudokit.latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]]))
    assert len({s.tobytes() for s in sudokit.solutions(square)}) == 4
