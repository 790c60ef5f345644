"""ExactCover, Knuth's text format, the completion encoders and the exact-cover-to-CNF peer."""


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.encoders import (
    completion_to_exact_cover,
    exact_cover_to_cnf,
    grid_to_cnf,
    to_exact_cover,
)
from sudokit.errors import InstanceError, ParseError
from sudokit.exact_cover import exact_cover, exact_cover_from_matrix
from sudokit.formats import parse_puzzles
from sudokit.formats.dlx import format_cover, format_dlx, parse_dlx
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import count_solutions, solutions

from .helpers import brute_force_covers, small_matrices

PUZZLE17 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.mark.parametrize("options, message", [
    ({"A": ["a", "zz"]}, "option 1 (A) names unknown item 'zz'"),
    ({"A": ["a"], "B": ["a", "b", "a"]}, "option 2 (B) repeats item 'a'"),
    ({"A": ["a"], "B": ["s"]}, "option 2 (B) has no primary item"),
])
def test_bad_options_are_named(options, message):
    with pytest.raises(InstanceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        exact_cover(options, primary=["a", "b"], secondary=["s"])


def test_matrix_round_trip_and_exports(tmp_path):
    dense = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]], dtype=np.uint8)
    xc = exact_cover_from_matrix(dense, num_primary=2)
    assert np.array_equal(xc.to_dense(), dense) and xc.num_secondary == 1
    path = tmp_path / "m.npz"
    xc.save_matrix(path, dense=True)
    saved = np.load(path)
    assert saved["shape"].tolist() == [3, 3] and int(saved["num_primary"]) == 2
    assert np.array_equal(saved["dense"], dense)
    rebuilt = np.zeros((3, 3), dtype=np.uint8)
    for row in range(3):
        rebuilt[row, saved["indices"][saved["indptr"][row]:saved["indptr"][row + 1]]] = 1
    assert np.array_equal(rebuilt, dense)


names = st.text(alphabet="abcdefghxyz0123456789_.#", min_size=1, max_size=8)


@st.composite
def knuth_texts(draw):
    items = draw(st.lists(names, min_size=1, max_size=10, unique=True))
    num_primary = draw(st.integers(1, len(items)))
    options = []
    for _ in range(draw(st.integers(0, 8))):
        chosen = draw(st.lists(st.sampled_from(items), min_size=1, max_size=len(items),
                               unique=True))
        if not any(items.index(name) < num_primary for name in chosen):
            chosen = [items[0]] + [c for c in chosen if c != items[0]]
        options.append(" ".join(chosen))
    head = " ".join(items[:num_primary])
    if num_primary < len(items):
        head += " | " + " ".join(items[num_primary:])
    comments = draw(st.lists(st.text(alphabet="abc xyz", max_size=10).map(str.strip), max_size=2))
    comment_lines = "".join(f"| {c}\n" if c else "|\n" for c in comments)
    return comment_lines + "\n".join([head] + options) + "\n"


@settings(max_examples=100, deadline=None)
@given(knuth_texts())
def test_knuth_text_round_trips_identically(text):
    assert format_dlx(parse_dlx(text).instance) == text


@pytest.mark.parametrize("text, message", [
    ("a b\na c\n", "t.dlx:2:3: unknown item 'c'"),
    ("a b\na b a\n", "t.dlx:2:5: item 'a' appears twice in this option"),
    ("a | s\ns\n", "t.dlx:2:1: option has no primary item"),
    ("a toolongname\n", "t.dlx:1:3: item name 'toolongname' is longer than 8 characters"),
    ("a b:c\n", "t.dlx:1:3: item name 'b:c' contains '|' or ':'"),
    ("a a\n", "t.dlx:1:3: item 'a' is declared twice"),
    ("a | b | c\n", "t.dlx:1:7: the item line has more than one '|'"),
    ("| only a comment\n", "t.dlx: empty input, no instance found"),
])
def test_knuth_text_errors(text, message):
    with pytest.raises(ParseError) as info:
        parse_dlx(text, "t.dlx")
    assert str(info.value) == message


def test_reduced_17_clue_matches_knuths_sudoku_dlx():
    puzzle = parse_puzzles(PUZZLE17)[0].instance
    reduced = completion_to_exact_cover(puzzle, "reduced")
    assert (reduced.xc.num_items, reduced.xc.num_options) == (256, 301)
    full = completion_to_exact_cover(puzzle)
    assert full.xc.num_items == 4 * 81 == full.xc.num_primary
    assert full.xc.num_options == 17 + 64 * 9


@pytest.mark.parametrize("encoding", ["full", "reduced"])
def test_covers_decode_to_solutions_through_a_sat_peer(encoding):
    puzzle = parse_puzzles(PUZZLE17)[0].instance
    encoded = completion_to_exact_cover(puzzle, encoding)
    covers = list(solutions(exact_cover_to_cnf(encoded.xc)))
    assert len(covers) == 1
    assert encoded.xc.is_cover(covers[0])
    assert puzzle.is_solution(encoded.decode(covers[0]))
    assert format_cover(encoded.xc, covers[0][:1]).startswith("p1")


@pytest.mark.parametrize("problem, count", [
    (sudoku(np.zeros((4, 4), dtype=int)), 288),
    (latin_square(np.zeros((3, 3), dtype=int)), 12),
    (precoloring(5, [(i, (i + 1) % 5) for i in range(5)], 3), 30),
    (precoloring(4, [(0, 1), (1, 2), (2, 3), (3, 0)], 2, {0: 1}), 1),
])
def test_exact_cover_counts_equal_cnf_counts(problem, count):
    for encoding in ("full", "reduced"):
        xc = to_exact_cover(problem, encoding).xc
        assert count_solutions(exact_cover_to_cnf(xc, amo="seqcounter")) == count
    assert count_solutions(grid_to_cnf(problem) if problem.kind != "coloring"
                           else exact_cover_to_cnf(to_exact_cover(problem).xc)) == count


def test_precoloring_items_are_vertices_and_secondary_edge_colors():
    graph = precoloring(3, [(0, 1), (1, 2)], 3, {0: 2})
    xc = completion_to_exact_cover(graph).xc
    assert xc.items[:xc.num_primary] == ("v1", "v2", "v3")
    assert xc.num_secondary == 2 * 3
    assert [xc.option(k) for k in range(xc.num_options)][0] == ["v1", "e1.2"]


@settings(max_examples=150, deadline=None)
@given(small_matrices())
def test_exact_cover_cnf_agrees_with_brute_force(xc):
    assert count_solutions(exact_cover_to_cnf(xc)) == brute_force_covers(xc)
