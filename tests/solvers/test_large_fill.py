"""Large sparse grids completed by random matchings and a small CDCL part (``large_fill``).

Every grid found is checked by the instance's own ``is_solution``; givens come both from a
shuffled band pattern (the benchmark's generator) and from genuinely random grids (random
matchings and CDCL search, :func:`~sudokit.generators.grids.random_grid` with ``method="sat"``),
so the method is not tested on pattern-derived givens only. No test asserts a time.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from sudokit.formats.solutions import read_grid_solutions
from sudokit.generators.grids import random_grid
from sudokit.generators.latin import random_latin_square
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers.budget import Budget
from sudokit.solvers.large_fill import fill_sparse
from sudokit.solvers.sat import SATEngine

from ..helpers import cli_run


def _pattern_givens(n: int, b: int, share: float, rng: np.random.Generator) -> np.ndarray:
    """The benchmark's instances: a shuffled ``bands`` pattern, ``share`` of its cells kept."""
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    grid = (b * (r % b) + r // b + c) % n
    rows = np.concatenate([band * b + rng.permutation(b) for band in rng.permutation(b)])
    cols = np.concatenate([stack * b + rng.permutation(b) for stack in rng.permutation(b)])
    grid = rng.permutation(n)[grid][rows][:, cols] + 1
    return _keep(grid, share, rng)


def _random_givens(n: int, b: int, share: float, rng: np.random.Generator) -> np.ndarray:
    """``share`` of the cells of a random grid (random matchings and CDCL, not a pattern)."""
    return _keep(random_grid(n, (b, b), rng, method="sat"), share, rng)


def _keep(grid: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    n = grid.shape[0]
    keep = np.zeros(n * n, bool)
    keep[rng.choice(n * n, int(round(share * n * n)), replace=False)] = True
    return np.where(keep.reshape(n, n), grid, 0)


def _write(path, grid: np.ndarray) -> None:
    path.write_text("".join(" ".join(map(str, row)) + "\n" for row in grid.tolist()))


@pytest.mark.parametrize("n, share", [(25, 0.02), (36, 0.05), (64, 0.01)])
@pytest.mark.parametrize("source", [_pattern_givens, _random_givens])
def test_sparse_grids_are_completed(n, share, source):
    b = int(np.sqrt(n))
    puzzle = sudoku(source(n, b, share, np.random.default_rng(n)))
    assert puzzle.num_givens == round(share * n * n)
    stats: dict = {}
    grid = fill_sparse(puzzle, time.monotonic() + 120, seed=3, stats=stats)
    assert grid is not None, stats
    assert grid.shape == (n, n) and grid.dtype == np.int32
    assert puzzle.is_solution(grid), puzzle.violations(grid)


def test_denser_givens_leave_more_to_cdcl():
    """At 20 % givens the matchings give up on a band more often; the CDCL part takes it."""
    puzzle = sudoku(_random_givens(36, 6, 0.2, np.random.default_rng(1)))
    grid = fill_sparse(puzzle, time.monotonic() + 120, seed=0)
    assert grid is not None and puzzle.is_solution(grid)


def test_latin_squares_are_completed():
    rng = np.random.default_rng(4)
    puzzle = latin_square(_keep(random_latin_square(40, rng), 0.1, rng))
    grid = fill_sparse(puzzle, time.monotonic() + 120, seed=1)
    assert grid is not None and puzzle.is_solution(grid)


def test_a_seed_gives_the_same_grid():
    puzzle = sudoku(_pattern_givens(36, 6, 0.03, np.random.default_rng(5)))
    first = fill_sparse(puzzle, None, seed=11)
    assert first is not None and puzzle.is_solution(first)
    assert np.array_equal(first, fill_sparse(puzzle, None, seed=11))


def _no_candidate_25() -> np.ndarray:
    """A 25x25 whose cell (1, 25) has no candidate: 1..24 in its row, 25 in its column."""
    givens = np.zeros((25, 25), dtype=int)
    givens[0, :24] = np.arange(1, 25)
    givens[12, 24] = 25
    return givens


def _unsat_by_boxes_25() -> np.ndarray:
    """A 25x25 without completion where every empty cell has candidates: value 1 has no place
    in the first box (1s in rows 1-4 and columns 1-4 elsewhere, a 2 in the fifth cell left)."""
    givens = np.zeros((25, 25), dtype=int)
    for k in range(4):
        givens[k, 5 * k + 5] = 1                  # rows 1-4 have their 1 in boxes 2-5
        givens[5 * k + 5, k] = 1                  # columns 1-4 have theirs in boxes 6, 11, ...
    givens[4, 4] = 2                              # and (5, 5), the last cell, is taken
    return givens


@pytest.mark.parametrize("make", [_no_candidate_25, _unsat_by_boxes_25])
def test_unsatisfiable_givens_give_none_quickly(make):
    puzzle = sudoku(make())
    stats: dict = {}
    assert fill_sparse(puzzle, time.monotonic() + 60, stats=stats) is None
    assert stats["attempts"] == 0                 # refused before any attempt


def test_a_past_deadline_gives_none():
    puzzle = sudoku(_pattern_givens(25, 5, 0.02, np.random.default_rng(2)))
    assert fill_sparse(puzzle, time.monotonic() - 1) is None


def test_other_kinds_and_sizes_are_declined():
    graph = precoloring(3, [[0, 1], [1, 2]], 2, [1, 0, 0])
    assert fill_sparse(graph, None) is None
    assert fill_sparse(latin_square(np.zeros((65, 65), dtype=int)), None) is None  # > 64 bits


def test_the_sat_engine_tries_it_first():
    puzzle = sudoku(_random_givens(36, 6, 0.02, np.random.default_rng(6)))
    engine = SATEngine()
    grid = engine.solve(puzzle, Budget(seconds=120))
    assert puzzle.is_solution(grid)


def test_cli_solves_a_sparse_64x64(tmp_path):
    puzzle = sudoku(_pattern_givens(64, 8, 0.01, np.random.default_rng(12)))
    path = tmp_path / "sparse64.txt"
    _write(path, puzzle.givens)
    result = cli_run("solve", path)
    assert result.exit_code == 0, result.stderr
    (grid,) = read_grid_solutions(result.stdout, "stdout", puzzle)
    assert puzzle.is_solution(grid), puzzle.violations(grid)


def test_cli_says_no_solution_for_contradictory_givens(tmp_path):
    """The fill gives up at once and the exact search proves there is no completion."""
    path = tmp_path / "bad25.txt"
    _write(path, _no_candidate_25())
    result = cli_run("solve", path)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "no solution\n"


@pytest.mark.parametrize("make", [lambda n: latin_square(np.zeros((n, n), dtype=int)),
                                  lambda n: sudoku(np.zeros((n, n), dtype=int))])
def test_empty_large_grids_count_to_a_limit_by_construction(make):
    """An empty grid of side 25 up has n! relabellings of any solution: counting it to a
    limit answers the limit at once, with a checked first solution and no search."""
    for n, limit in ((25, 2), (100 if make(4).kind == "latin" else 49, 10**6)):
        puzzle = make(n)
        engine = SATEngine()
        count, first = engine.count(puzzle, limit)
        assert count == limit and puzzle.is_solution(first) and engine.conflicts == 0


def test_a_large_grid_with_a_given_is_searched():
    given = np.zeros((25, 25), dtype=int)
    given[0, 0] = 1
    engine = SATEngine()
    assert engine.count(latin_square(given), 2)[0] == 2 and engine.conflicts > 0
