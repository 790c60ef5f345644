"""CNF encodings: sizes from the papers, known counts on every encoding, brute-force
differentials."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.encoders import AMO_METHODS, ENCODINGS, candidate_mask, completion_to_cnf, grid_to_cnf
from sudokit.errors import EncodingError
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import count_solutions, solve

from ..helpers import brute_force_count, grid_from_line, partial_grids, small_precolorings

GRID_ENCODINGS = ["minimal", "efficient", "extended", "reduced"]
PUZZLE17 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def empty_sudoku(n, box=None):
    return sudoku(np.zeros((n, n), dtype=int), box)


@pytest.mark.parametrize("encoding, clauses", [
    ("minimal", 8829), ("efficient", 11745), ("extended", 11988)])
def test_9x9_sizes_match_lynce_ouaknine(encoding, clauses):
    cnf = grid_to_cnf(empty_sudoku(9), encoding).cnf
    assert (cnf.num_vars, cnf.num_clauses) == (729, clauses)


def test_36x36_extended_has_3_27_million_clauses():
    assert grid_to_cnf(empty_sudoku(36), "extended").cnf.num_clauses == 3_271_104


def test_reduced_17_clue_leaves_301_variables():
    puzzle = sudoku(grid_from_line(PUZZLE17))
    encoded = grid_to_cnf(puzzle, "reduced")
    assert encoded.cnf.num_vars == 301 == int(candidate_mask(puzzle).sum())
    assert not any(line.startswith("map ") for line in encoded.cnf.comments)  # made on writing
    assert any(line.startswith("map ") for line in encoded.cnf.all_comments())
    assert count_solutions(encoded, limit=2) == 1


def test_standard_numbering_is_the_documented_formula():
    n = 9
    ids = grid_to_cnf(empty_sudoku(n), "extended").cell_vars
    for r, c, v in [(1, 1, 1), (1, 4, 5), (9, 9, 9), (3, 7, 2)]:
        assert ids[(r - 1) * n + (c - 1), v - 1] == (r - 1) * n * n + (c - 1) * n + v


@pytest.mark.parametrize("encoding", GRID_ENCODINGS)
@pytest.mark.parametrize("amo", list(AMO_METHODS))
def test_empty_4x4_sudoku_has_288_grids(encoding, amo):
    assert count_solutions(grid_to_cnf(empty_sudoku(4), encoding, amo)) == 288


@pytest.mark.parametrize("order, count", [(1, 1), (2, 2), (3, 12), (4, 576)])
@pytest.mark.parametrize("encoding", GRID_ENCODINGS)
def test_latin_square_counts(order, count, encoding):
    square = latin_square(np.zeros((order, order), dtype=int))
    assert count_solutions(grid_to_cnf(square, encoding, "seqcounter")) == count


@pytest.mark.slow
def test_latin_squares_of_order_5():
    square = latin_square(np.zeros((5, 5), dtype=int))
    assert count_solutions(grid_to_cnf(square, "efficient")) == 161280


def cycle(n, k, precolors=None):
    return precoloring(n, [(i, (i + 1) % n) for i in range(n)], k, precolors)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("encoding", ["direct", "reduced"])
def test_cycle_colorings_follow_the_chromatic_polynomial(n, k, encoding):
    expected = (k - 1) ** n + (-1) ** n * (k - 1)
    encoded = completion_to_cnf(cycle(n, k), encoding, "seqcounter")
    assert count_solutions(encoded) == expected


def test_symmetry_breaking_keeps_satisfiability_but_not_counts():
    odd = cycle(5, 2)
    assert solve(completion_to_cnf(odd, "direct", symmetry_breaking=True)) is None
    even = completion_to_cnf(cycle(6, 3), "direct", symmetry_breaking=True)
    assert not even.parsimonious
    assert 0 < sum(1 for _ in itertools.islice(_models(even), 100)) < 66


def _models(encoded):
    from pysat.solvers import Solver
    with Solver(name="minisat22", bootstrap_with=encoded.cnf.clauses()) as sat:
        yield from sat.enum_models()


def test_unknown_encoding_and_mismatch_are_errors():
    with pytest.raises(EncodingError, match="choose one of"):
        grid_to_cnf(empty_sudoku(4), "fancy")
    with pytest.raises(EncodingError, match="does not apply to sudoku"):
        grid_to_cnf(empty_sudoku(4), "direct")
    with pytest.raises(EncodingError, match="at-most-one"):
        grid_to_cnf(empty_sudoku(4), "extended", "magic")


def test_empty_clause_when_a_cell_has_no_candidate():
    # row 1 holds 1 2 3 . and column 4 holds 4 below: cell (1,4) has no value left
    givens = np.zeros((4, 4), dtype=int)
    givens[0, :3] = [1, 2, 3]
    givens[2, 3] = 4
    encoded = grid_to_cnf(latin_square(givens), "reduced")
    assert encoded.cnf.has_empty_clause
    assert count_solutions(encoded) == 0


# -- differential tests against brute force ----------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(partial_grids(), st.sampled_from(GRID_ENCODINGS), st.sampled_from(list(AMO_METHODS)))
def test_grid_counts_agree_with_brute_force(puzzle, encoding, amo):
    expected = brute_force_count(puzzle)
    assert count_solutions(grid_to_cnf(puzzle, encoding, amo)) == expected


@settings(max_examples=60, deadline=None)
@given(small_precolorings(), st.sampled_from(["direct", "reduced"]))
def test_coloring_counts_agree_with_brute_force(problem, encoding):
    edges = problem.edges.tolist()
    expected = sum(
        1 for colors in itertools.product(range(1, problem.num_colors + 1),
                                          repeat=problem.num_vertices)
        if all(colors[u] != colors[v] for u, v in edges)
        and all(p in (0, c) for p, c in zip(problem.precolors.tolist(), colors, strict=True)))
    assert count_solutions(completion_to_cnf(problem, encoding)) == expected
    with_symmetry = completion_to_cnf(problem, encoding, symmetry_breaking=True)
    solution = solve(with_symmetry)
    assert (solution is not None) == (expected > 0)
    assert solution is None or problem.is_solution(solution)


@settings(max_examples=25, deadline=None)
@given(partial_grids(), st.sampled_from(GRID_ENCODINGS))
def test_planted_solution_round_trips(puzzle, encoding):
    from pysat.solvers import Solver

    encoded = grid_to_cnf(puzzle, encoding)
    solution_count = count_solutions(encoded, limit=1)
    if not solution_count:
        return
    with Solver(name="cadical195", bootstrap_with=encoded.cnf.clauses()) as sat:
        assert sat.solve()
        first = encoded.decode(sat.get_model())
        assert puzzle.is_solution(first)
        assert sat.solve(assumptions=encoded.solution_literals(first))
        assert np.array_equal(encoded.decode(sat.get_model()), first)


def test_every_encoding_names_its_source():
    for spec in ENCODINGS.values():
        assert spec.source
