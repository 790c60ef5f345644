"""Generators: full grids, unique (and minimal) puzzles, QWH/QCP squares, planted colorings."""

import numpy as np
import pytest

from sudokit.encoders import coloring_to_cnf, grid_to_cnf
from sudokit.errors import InstanceError
from sudokit.generators import (
    PuzzleGenerator,
    generate_puzzles,
    pattern_grid,
    planted_precoloring,
    qcp,
    qwh,
    random_grid,
    random_latin_square,
    shuffle_grid,
    symmetry_orbits,
)
from sudokit.generators.fill_product import product_grid
from sudokit.instances import latin_square, sudoku
from sudokit.solvers import count_solutions

from .checks import check_batch as _check_batch

SHAPES = [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4))]


@pytest.mark.parametrize("n, box, count, mode", [
    (4, (2, 2), 100, "minimal"), (6, (2, 3), 100, "minimal"), (9, (3, 3), 150, "minimal"),
    (9, (3, 3), 50, "unique"), (12, (3, 4), 15, "minimal"), (16, (4, 4), 4, "unique")])
def test_puzzles_unique_under_both_back_ends(n, box, count, mode):
    puzzles = list(generate_puzzles(n, box, count, seed=n, mode=mode))
    _check_batch(puzzles, n, box, minimal=mode == "minimal")


def test_sat_checker_and_verify():
    puzzles = list(generate_puzzles(9, (3, 3), 10, seed=3, mode="minimal", checker="sat",
                                    verify=True))
    assert all(p.verified == "dlx" and p.checker == "sat" for p in puzzles)
    _check_batch(puzzles, 9, (3, 3), minimal=True)
    dlx = list(generate_puzzles(6, (2, 3), 5, seed=3, mode="minimal", verify=True))
    assert all(p.verified == "sat" for p in dlx)


def test_same_seed_same_output():
    def run(seed, **kw):
        return [p.puzzle.tobytes() for p in generate_puzzles(9, (3, 3), 5, seed, **kw)]
    assert run(11, mode="minimal") == run(11, mode="minimal")
    assert run(11, mode="minimal") != run(12, mode="minimal")
    assert run(4, mode="clues", clues=30) == run(4, mode="clues", clues=30)
    a = random_grid(25, (5, 5), np.random.default_rng(9))
    assert np.array_equal(a, random_grid(25, (5, 5), np.random.default_rng(9)))


def test_clue_target_and_impossible_target():
    gen = PuzzleGenerator(9, (3, 3), seed=2)
    for _ in range(5):
        p = gen.make("clues", 32)
        assert p.clues == 32 and not p.minimal
    with pytest.raises(InstanceError, match="could not reach 5 clues"):
        gen.make("clues", 5, attempts=2)


@pytest.mark.parametrize("symmetry", ["rotational", "quarter", "diagonal", "antidiagonal",
                                      "horizontal", "vertical", "dihedral"])
def test_symmetric_clue_patterns(symmetry):
    orbits = symmetry_orbits(9, symmetry)
    assert sorted(np.concatenate(orbits).tolist()) == list(range(81))
    for p in generate_puzzles(9, (3, 3), 3, seed=1, mode="minimal", symmetry=symmetry):
        present = (p.puzzle.reshape(-1) > 0)
        assert all(present[o].all() or not present[o].any() for o in orbits)
        _check_batch([p], 9, (3, 3), minimal=False)


@pytest.mark.parametrize("n, box", SHAPES + [(8, (2, 4)), (20, (4, 5)), (25, (5, 5)),
                                             (36, (6, 6)), (49, (7, 7)), (64, (8, 8))])
def test_full_grids_valid(n, box):
    rng = np.random.default_rng(n)
    template = sudoku(np.zeros((n, n), int), box)
    for method in ("bands", "blocks"):
        grid = pattern_grid(n, box, method)
        assert template.is_solution(grid)
        assert template.is_solution(shuffle_grid(grid, box, rng))
    assert template.is_solution(random_grid(n, box, rng))
    assert template.is_solution(product_grid(n, box, rng))


def test_search_fills_latin_and_givens():
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 12, 30):
        sq = random_grid(n, None, rng)
        assert latin_square(np.zeros((n, n), int)).is_solution(sq)
    solution = random_grid(16, (4, 4), rng)
    givens = np.where(rng.random((16, 16)) < 0.5, solution, 0)
    filled = random_grid(16, (4, 4), rng, givens=givens, method="search")
    assert sudoku(givens).is_solution(filled)


def test_bad_shapes():
    with pytest.raises(InstanceError):
        pattern_grid(6, (2, 2))
    with pytest.raises(InstanceError):
        pattern_grid(4, (2, 2), "spiral")
    with pytest.raises(InstanceError):
        symmetry_orbits(9, "sideways")


@pytest.mark.parametrize("method", ["shuffle", "jacobson-matthews"])
def test_random_latin_squares(method):
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 7, 20):
        sq = random_latin_square(n, rng, method)
        assert latin_square(np.zeros((n, n), int)).is_solution(sq)
    a = random_latin_square(9, np.random.default_rng(1), method)
    assert np.array_equal(a, random_latin_square(9, np.random.default_rng(1), method))


def test_jacobson_matthews_reaches_non_cyclic_squares():
    # order 4 has 576 squares; the shuffled cyclic ones are 144 of them (isotopes of Z4)
    seen = {random_latin_square(4, np.random.default_rng(s)).tobytes() for s in range(400)}
    assert len(seen) > 200


@pytest.mark.parametrize("n, holes", [(5, 10), (10, 42), (10, 0.42), (15, 0.6), (8, 0)])
@pytest.mark.parametrize("balanced", [False, True])
def test_qwh_solvable_with_exact_holes(n, holes, balanced):
    rng = np.random.default_rng(n)
    for _ in range(3):
        p = qwh(n, holes, rng, balanced)
        want = holes if holes >= 1 or holes == 0 else round(holes * n * n)
        assert int((p.givens == 0).sum()) == want
        assert count_solutions(grid_to_cnf(p, "reduced"), limit=1) == 1
        if balanced:
            for axis in (0, 1):
                per = (p.givens == 0).sum(axis=axis)
                assert per.max() - per.min() <= 1


def test_qcp_consistent():
    rng = np.random.default_rng(1)
    for _ in range(10):
        p = qcp(8, 30, rng)   # constructing the GridPuzzle validates it
        assert int((p.givens == 0).sum()) >= 30
    with pytest.raises(InstanceError):
        qcp(4, 17, rng)


def test_planted_precoloring():
    rng = np.random.default_rng(4)
    for n, k, p, share in [(30, 3, 0.3, 0.2), (60, 5, 0.5, 0.5), (1, 1, 1.0, 1.0)]:
        graph, planted = planted_precoloring(n, k, p, share, rng)
        assert graph.is_solution(planted)
        assert graph.num_givens == round(share * n)
        assert count_solutions(coloring_to_cnf(graph, symmetry_breaking=False), limit=1) == 1
    a, _ = planted_precoloring(40, 4, 0.3, 0.1, np.random.default_rng(2))
    b, _ = planted_precoloring(40, 4, 0.3, 0.1, np.random.default_rng(2))
    assert a == b
    with pytest.raises(InstanceError):
        planted_precoloring(5, 2, 1.5, 0.1, rng)


def test_sat_fill_is_a_searched_random_grid():
    from sudokit.generators.grids import random_grid, sat_fill

    empty = sudoku(np.zeros((36, 36), dtype=int), (6, 6))
    first = random_grid(36, (6, 6), np.random.default_rng(1), method="sat")
    assert empty.is_solution(first)
    assert empty.is_solution(random_grid(36, (6, 6), np.random.default_rng(1)))  # auto = sat
    again = sat_fill(36, (6, 6), np.random.default_rng(1))
    other = sat_fill(36, (6, 6), np.random.default_rng(2))
    assert np.array_equal(first, again) and not np.array_equal(first, other)
    assert sudoku(np.zeros((12, 12), dtype=int), (3, 4)).is_solution(
        sat_fill(12, (3, 4), np.random.default_rng(0)))


@pytest.mark.parametrize("n, box", [(9, (3, 3)), (12, (4, 3)), (12, (3, 4)), (20, (4, 5)),
                                    (64, (8, 8))])
def test_random_bands_are_valid_random_rows(n, box):
    from sudokit.generators.bands import random_bands

    r, c = box
    filled = c - 1 if n < 64 else 6
    top = random_bands(n, box, filled, np.random.default_rng(5))
    assert (top[filled * r:] == 0).all() and (top[:filled * r] > 0).all()
    sudoku(top, box).validate()          # raises on a value repeated in a unit
    again = random_bands(n, box, filled, np.random.default_rng(5))
    other = random_bands(n, box, filled, np.random.default_rng(6))
    assert np.array_equal(top, again) and not np.array_equal(top, other)


def test_random_64_fill_is_searched_not_constructed():
    from sudokit.generators.grids import sat_fill

    stats = {}
    grid = sat_fill(64, (8, 8), np.random.default_rng(11), stats=stats)
    assert sudoku(np.zeros((64, 64), dtype=int), (8, 8)).is_solution(grid)
    assert stats["restarts"] == 0 and stats["conflicts"] >= 0
    # not the product construction: there every box row (or, transposed, every box column)
    # holds one of only r value sets; a searched grid has hundreds
    assert _fewest_box_line_sets(grid, 8) > 100
    assert _fewest_box_line_sets(product_grid(64, (8, 8), np.random.default_rng(11)), 8) == 8


def _fewest_box_line_sets(grid, k):
    n = grid.shape[0]
    sets = [{frozenset(g[i, s:s + k].tolist()) for i in range(n) for s in range(0, n, k)}
            for g in (grid, grid.T)]
    return min(len(x) for x in sets)


def _needed_alone(puzzle, box) -> list[bool]:
    """For each clue of ``puzzle``: does removing it alone give a second solution (counted
    with DLX up to 2, independently of the generator's checkers)?"""
    from sudokit.counting import count_models

    flat = puzzle.reshape(-1)
    needed = []
    for cell in np.flatnonzero(flat).tolist():
        trial = flat.copy()
        trial[cell] = 0
        fewer = sudoku(trial.reshape(puzzle.shape), box)
        needed.append(count_models(fewer, solver="dlx", limit=2).count == 2)
    return needed


@pytest.mark.parametrize("n, box, symmetry", [(9, (3, 3), "rotational"),
                                              (9, (3, 3), "dihedral"),
                                              (6, (2, 3), "rotational"),
                                              (4, (2, 2), "horizontal")])
def test_symmetric_minimal_puzzles_are_labelled_by_what_holds(n, box, symmetry):
    """--minimal --symmetry: minimal for removing whole orbits (``symmetric_minimal``);
    ``minimal`` says exactly whether every single clue is needed too (it was always True,
    though at 9x9 rotational only about 1 puzzle in 100 is)."""
    orbits = symmetry_orbits(n, symmetry)
    labels = set()
    for p in generate_puzzles(n, box, 20, seed=3, mode="minimal", symmetry=symmetry):
        present = p.puzzle.reshape(-1) > 0
        assert all(present[o].all() or not present[o].any() for o in orbits)  # symmetric
        assert p.extra["symmetric_minimal"] is True
        needed = _needed_alone(p.puzzle, box)
        assert p.minimal == all(needed), (p.puzzle, needed)
        for orbit in orbits:   # no whole orbit of clues can go
            if present[orbit].all():
                trial = np.where(np.isin(np.arange(n * n), orbit), 0, p.puzzle.reshape(-1))
                assert count_solutions(sudoku(trial.reshape(n, n), box), limit=2) == 2
        labels.add(p.minimal)
    if n == 4:
        assert labels == {False, True}     # both answers occur (8 of these 20 are minimal)


def test_symmetry_none_puzzles_have_no_symmetric_label():
    p = PuzzleGenerator(9, (3, 3), seed=1).make("minimal")
    assert p.minimal and "symmetric_minimal" not in p.extra
