"""DIMACS .col graphs with 'c colors' / 'c precolor' lines."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import InstanceError, ParseError
from sudokit.formats import format_col, format_coloring, parse_col
from sudokit.formats.col import MAX_COLORS, MAX_VERTICES
from sudokit.instances import precoloring

from ..helpers import data_path

TRIANGLE = "c a triangle\np edge 3 3\nc colors 3\nc precolor 2 1\ne 1 2\ne 2 3\ne 3 1\n"


def test_parse_triangle():
    rec = parse_col(TRIANGLE, "t.col")
    g = rec.instance
    assert (rec.line, rec.style) == (2, "col")
    assert (g.num_vertices, g.num_colors) == (3, 3)
    assert g.edges.tolist() == [[0, 1], [0, 2], [1, 2]]
    assert g.precolors.tolist() == [0, 1, 0]


def test_colors_option_overrides_file_and_p_col_accepted():
    g = parse_col(TRIANGLE.replace("p edge", "p col"), colors=5).instance
    assert g.num_colors == 5


def test_duplicate_edges_and_wrong_edge_count():
    g = parse_col("p edge 3 99\ne 1 2\ne 2 1\ne 1 2\ne 3 2\n\n", colors=2).instance
    assert g.edges.tolist() == [[0, 1], [1, 2]]


def test_isolated_vertices_and_no_edges():
    g = parse_col("p edge 4 0\nc colors 1\n").instance
    assert g.num_vertices == 4 and len(g.edges) == 0


@pytest.mark.parametrize("text,message", [
    ("", "x.col: empty input, no instance found"),
    ("c only\nc comments\n", "x.col: empty input, no instance found"),
    ("c colors 3\ne 1 2\n", "x.col:2:1: 'e' line before the 'p edge' line"),
    ("c colors 3\n", "x.col: empty input, no instance found"),
    ("n 1 2\n", "x.col:1:1: unknown line type 'n' (expected c, p or e)"),
    ("p edge 3 1\nx 1 2\n", "x.col:2:1: unknown line type 'x' (expected c, p or e)"),
    ("p edges 3 1\n", "x.col:1:1: expected 'p edge VERTICES EDGES'"),
    ("p edge 3\n", "x.col:1:1: expected 'p edge VERTICES EDGES'"),
    ("p edge three 1\n", "x.col:1:8: 'three' is not an integer"),
    ("p edge 3 1\np edge 3 1\n", "x.col:2:1: second 'p' line (the first is line 1)"),
    ("p edge 3 1\ne 1\n", "x.col:2:1: expected 'e VERTEX VERTEX'"),
    ("p edge 3 1\ne 1 2.5\n", "x.col:2:5: '2.5' is not an integer"),
    ("p edge 11 1\ne 1 12\n", "x.col:2:5: vertex 12 is outside 1..11"),
    ("p edge 11 1\ne 0 2\n", "x.col:2:3: vertex 0 is outside 1..11"),
    ("p edge 3 1\ne 2 2\n", "x.col:2:1: edge 2-2 is a loop: no coloring can be proper"),
    ("p edge 3 1\ne 1 2\n",
     "x.col: number of colors unknown; give the number of colors or add a 'c colors K' line"),
    ("p edge 3 1\nc colors 0\n", "x.col:2:10: number of colors must be positive, got 0"),
    ("p edge 3 1\nc colors 2\nc precolor 4 1\n", "x.col:3:12: precolored vertex 4 is outside 1..3"),
    ("p edge 3 1\nc colors 2\nc precolor 1 3\n", "x.col:3: precolor 3 of vertex 1 is outside 1..2"),
    ("p edge 3 1\nc colors 2\nc precolor 1\n", "x.col:3:1: expected 'c precolor VERTEX COLOR'"),
    ("p edge 3 1\nc precolor 1 1\nc precolor 1 2\n",
     "x.col:3: vertex 1 is precolored twice (1 and 2)"),
    ("p edge 3 1\ne 1 +-2\n", "x.col:2:5: '+-2' is not an integer"),
    ("p edge \u00b2 1\n", "x.col:1:8: '\u00b2' is not an integer"),
    ("p edge 99999999999 1\n",
     f"x.col:1:8: number of vertices 99999999999 is too large (at most {MAX_VERTICES})"),
    ("p edge 3 1\nc colors 99999999999\n",
     f"x.col:2:10: number of colors 99999999999 is too large (at most {MAX_COLORS})"),
    ("p edge 3 1\nc colors 9\nc precolor 1 99999999999\n",
     f"x.col:3:14: color 99999999999 is too large (at most {MAX_COLORS})"),
    ("p edge 3 1\nc colors 3 4\n", "x.col:2:1: expected 'c colors K'"),
    ("p edge 3 1\nc colors\n", "x.col:2:1: expected 'c colors K'"),
])
def test_errors(text, message):
    with pytest.raises(ParseError) as info:
        parse_col(text, "x.col")
    assert str(info.value) == message


def test_a_huge_precolor_under_a_huge_colors_option_is_a_parse_error():
    with pytest.raises(ParseError, match=r"^x.col:2:14: color 99999999999 is too large"):
        parse_col("p edge 3 1\nc precolor 1 99999999999\n", "x.col", colors=10**12)


def test_precolor_checked_against_colors_option():
    with pytest.raises(ParseError, match=r"^x.col:3: precolor 3 of vertex 1 is outside 1..2$"):
        parse_col("p edge 3 1\nc colors 5\nc precolor 1 3\n", "x.col", colors=2)


def test_clashing_precolors_is_instance_error():
    with pytest.raises(InstanceError,
                       match=r"^x.col: adjacent vertices 1 and 2 are both precolored 1"):
        parse_col("p edge 2 1\nc colors 2\nc precolor 1 1\nc precolor 2 1\ne 1 2\n", "x.col")


def test_format_coloring():
    assert format_coloring([3, 1, 2]) == "3 1 2"
    assert format_coloring(np.array([], dtype=int)) == ""


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 30), st.integers(1, 8), st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_round_trip(num_vertices, k, seed, density):
    rng = np.random.default_rng(seed)
    # a proper coloring first, then only edges between different colors: always consistent
    coloring = rng.integers(1, k + 1, num_vertices)
    pairs = [(u, v) for u in range(num_vertices) for v in range(u + 1, num_vertices)
             if coloring[u] != coloring[v] and rng.random() < density]
    fixed = np.where(rng.random(num_vertices) < 0.3, coloring, 0)
    graph = precoloring(num_vertices, pairs, k, fixed)
    text = format_col(graph)
    assert parse_col(text + "\n").instance == graph
    # other DIMACS tools see a plain graph; --colors still overrides
    assert parse_col(text, colors=k + 1).instance.num_colors == k + 1


def test_trick_data():
    files = sorted(data_path("coloring", "original_trick_rzepinskip").glob("*.col"))
    assert len(files) == 26
    graphs = {path.stem: parse_col(path.read_text(), path.name, colors=3).instance
              for path in files}
    assert (graphs["myciel3"].num_vertices, len(graphs["myciel3"].edges)) == (11, 20)
    assert (graphs["queen5_5"].num_vertices, len(graphs["queen5_5"].edges)) == (25, 160)
    assert (graphs["anna"].num_vertices, len(graphs["anna"].edges)) == (138, 493)
    assert (graphs["queen8_12"].num_vertices, len(graphs["queen8_12"].edges)) == (96, 1368)
