"""Variants as extra units: known counts, checked by an independent brute force and by engines."""

import itertools

import numpy as np
import pytest

import sudokit
from sudokit.errors import InstanceError
from sudokit.instances import latin_square, sudoku
from sudokit.instances.variants import parse_variants


def brute_force(n, box=None, diagonal=False, windoku=False, dg=False):
    """Completions of an empty n x n grid, by rows of permutations checked cell by cell
    (written from the rules, without the library's unit tables)."""
    r, c = box if box else (None, None)

    def groups(i, j):
        keys = [("col", j)]
        if box:
            keys.append(("box", i // r, j // c))
        if diagonal and i == j:
            keys.append(("d",))
        if diagonal and i + j == n - 1:
            keys.append(("a",))
        if dg:
            keys.append(("dg", i % r, j % c))
        if windoku:
            wi, wj = (i - 1) % (r + 1), (j - 1) % (c + 1)
            ti, tj = (i - 1) // (r + 1), (j - 1) // (c + 1)
            if i >= 1 and j >= 1 and wi < r and wj < c and 1 + ti * (r + 1) + r <= n - 1 \
                    and 1 + tj * (c + 1) + c <= n - 1:
                keys.append(("w", ti, tj))
        return keys

    rows = list(itertools.permutations(range(n)))
    count = 0

    def place(i, used):
        nonlocal count
        if i == n:
            count += 1
            return
        for row in rows:
            marks = [(key, v) for j, v in enumerate(row) for key in groups(i, j)]
            if len(set(marks)) == len(marks) and not used & set(marks):
                place(i + 1, used | set(marks))

    place(0, frozenset())
    return count


def test_diagonal_latin_squares_oeis_a274171():
    assert brute_force(4, diagonal=True) == 48
    assert brute_force(5, diagonal=True) == 960
    for n, expected in ((4, 48), (5, 960)):
        square = latin_square(np.zeros((n, n), dtype=int), variants=["diagonal"])
        assert sudokit.count_solutions(sudokit.to_cnf(square)) == expected
        assert sudokit.count_solutions(square, solver="dlx") == expected


@pytest.mark.parametrize("variants, kwargs", [
    (["x"], {"diagonal": True}), (["windoku"], {"windoku": True}), (["dg"], {"dg": True}),
    (["x", "dg"], {"diagonal": True, "dg": True}),
])
def test_4x4_variant_counts_match_brute_force(variants, kwargs):
    expected = brute_force(4, (2, 2), **kwargs)
    assert expected < 288
    grid = sudoku(np.zeros((4, 4), dtype=int), variants=variants)
    for solver in ("cadical195", "dlx", "takano"):
        problem = sudokit.to_cnf(grid) if solver == "cadical195" else grid
        assert sudokit.count_solutions(problem, solver=solver) == expected, solver


def test_9x9_x_sudoku_solution_keeps_the_diagonals_and_windows():
    grid = sudoku(np.zeros((9, 9), dtype=int), variants=["x", "windoku"])
    solution = sudokit.solve(grid)
    assert grid.is_solution(solution)
    assert sorted(np.diag(solution)) == sorted(np.diag(np.fliplr(solution))) == list(range(1, 10))
    assert sorted(solution[1:4, 1:4].reshape(-1)) == list(range(1, 10))
    assert sorted(solution[5:8, 5:8].reshape(-1)) == list(range(1, 10))
    classic = sudoku(np.zeros((9, 9), dtype=int))
    assert grid.units().shape == (27 + 2 + 4, 9) and classic.units().shape == (27, 9)
    assert grid != classic.with_givens(classic.givens)
    assert grid.with_givens(solution).variants == ("diagonal", "windoku")


def test_variant_givens_are_checked_with_unit_names():
    givens = np.zeros((4, 4), dtype=int)
    givens[0, 0] = givens[3, 3] = 1
    latin_square(givens)                     # fine without the diagonal
    with pytest.raises(InstanceError, match="repeats in diagonal 1"):
        latin_square(givens, variants=["diagonal"])
    assert latin_square(np.array([[1, 0], [0, 0]]), variants=["diagonal"]).violations(
        np.array([[1, 2], [2, 1]])) == ["value 1 repeats in diagonal 1 (row 1, column 1 and "
                                        "row 2, column 2)"]


@pytest.mark.parametrize("text, message", [("snake", "unknown variant"),
                                           ("windoku", "needs boxes")])
def test_bad_variants(text, message):
    with pytest.raises(InstanceError, match=message):
        latin_square(np.zeros((4, 4), dtype=int), variants=parse_variants(text))


def test_grading_and_shape_keys_keep_variants_apart():
    from sudokit.grading import propagate
    from sudokit.problems import shape_key

    givens = np.zeros((4, 4), dtype=int)
    givens[0, 0], givens[1, 1], givens[2, 2] = 1, 2, 3
    x = sudoku(givens, variants=["x"])
    assert shape_key(x) == ("sudoku", 4, (2, 2), ("diagonal",))
    assert shape_key(sudoku(givens)) == ("sudoku", 4, (2, 2))
    _, classic = propagate(sudoku(givens), "FC")
    _, diagonal = propagate(x, "FC")
    assert diagonal[3, 3] == 1 << 3 and classic[3, 3] != 1 << 3   # the diagonal forces a 4
