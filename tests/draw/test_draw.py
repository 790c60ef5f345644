"""Pictures of grids and graphs: the SVG parses, every given or filled cell has one text element
with the right symbol in the right cell, and region borders lie where the box shape says."""

from types import SimpleNamespace

import numpy as np
import pytest

import sudokit
from sudokit.draw import graph_picture, grid_picture
from sudokit.draw.graph import layout_positions, palette
from sudokit.draw.grid import symbol
from sudokit.formats import read_instances
from sudokit.grading import propagate
from sudokit.instances import latin_square, precoloring, sudoku

from ..helpers import EXAMPLES, cyclic_latin, import_extra
from .svg_reading import SVG, Grid, parse


def expected_edges(regions):
    n = len(regions)
    vertical = {("v", r, k) for r in range(n) for k in range(1, n)
                if regions[r][k - 1] != regions[r][k]}
    horizontal = {("h", c, k) for c in range(n) for k in range(1, n)
                  if regions[k - 1][c] != regions[k][c]}
    return vertical | horizontal


def box_regions(n, r, c):
    rows, cols = np.indices((n, n))
    return ((rows // r) * (n // c) + cols // c).tolist()


def test_9x9_givens_one_text_each_in_the_right_cell():
    puzzle = read_instances(str(EXAMPLES / "puzzle17.txt"))[0].instance
    grid = Grid(parse(grid_picture(puzzle)), 9)
    shown = grid.texts("given")
    expected = {(r, c): [str(puzzle.givens[r, c])] for r, c in np.argwhere(puzzle.givens)
                .tolist()}
    assert shown == expected and len(shown) == 17
    assert not grid.texts("filled")
    grid.centred("given")
    assert grid.box_edges() == expected_edges(box_regions(9, 3, 3))
    assert len([e for e in grid.root.iter(SVG + "line") if e.get("class") == "box"]) == 4


@pytest.mark.parametrize("n, box", [(6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (4, (2, 2)),
                                    (16, (4, 4))])
def test_box_borders_where_the_box_shape_says(n, box):
    puzzle = sudoku(np.zeros((n, n), dtype=int), box=box)
    grid = Grid(parse(grid_picture(puzzle)), n)
    assert grid.box_edges() == expected_edges(box_regions(n, *box))
    r, c = box
    vertical = {k for kind, _, k in grid.box_edges() if kind == "v"}
    horizontal = {k for kind, _, k in grid.box_edges() if kind == "h"}
    assert vertical == set(range(c, n, c)) and horizontal == set(range(r, n, r))


def test_6x6_solution_givens_bold_and_filled_cells():
    puzzle = read_instances(str(EXAMPLES / "six.txt"))[0].instance
    solution = sudokit.solve(puzzle)
    root = parse(grid_picture(puzzle, solution))
    grid = Grid(root, 6)
    givens, filled = grid.texts("given"), grid.texts("filled")
    assert len(givens) == puzzle.num_givens and len(filled) == 36 - puzzle.num_givens
    assert not set(givens) & set(filled)
    shown = np.zeros((6, 6), dtype=int)
    for (r, c), [value] in {**givens, **filled}.items():
        shown[r, c] = int(value)
    assert np.array_equal(shown, solution) and puzzle.is_solution(shown)
    weights = {e.get("class"): e.get("font-weight") for e in root.iter(SVG + "text")}
    assert weights == {"given": "bold", "filled": None}
    assert grid.box_edges() == expected_edges(box_regions(6, 2, 3))


def test_latin_square_has_no_region_borders_and_pls_numbers_from_zero():
    record = read_instances(str(EXAMPLES / "qwh5.pls"))[0]
    puzzle = record.instance
    grid = Grid(parse(grid_picture(puzzle, zero_based=True, highlight_givens=True)), 5)
    assert grid.box_edges() == set()
    assert grid.texts("given") == {(r, c): [str(puzzle.givens[r, c] - 1)]
                                   for r, c in np.argwhere(puzzle.givens).tolist()}
    shaded = [e for e in grid.root.iter(SVG + "rect") if e.get("class") == "given-cell"]
    assert len(shaded) == puzzle.num_givens


def test_irregular_regions_get_their_borders():
    regions = [[0, 0, 0, 1], [0, 2, 1, 1], [2, 2, 1, 3], [2, 3, 3, 3]]
    jigsaw = SimpleNamespace(n=4, box=None, givens=np.zeros((4, 4), dtype=int),
                             regions=np.array(regions))
    grid = Grid(parse(grid_picture(jigsaw)), 4)
    assert grid.box_edges() == expected_edges(regions)


@pytest.mark.parametrize("n, value, text", [(16, 16, "G"), (25, 25, "P"), (36, 36, "36"),
                                            (36, 9, "9")])
def test_symbols_letters_up_to_35_integers_above(n, value, text):
    givens = np.zeros((n, n), dtype=int)
    givens[n - 1, 0] = value
    grid = Grid(parse(grid_picture(latin_square(givens))), n)
    assert grid.texts("given") == {(n - 1, 0): [text]}
    assert symbol(value, n) == text


def test_candidates_are_what_the_scheme_leaves_and_contain_the_solution():
    puzzle = read_instances(str(EXAMPLES / "top3.txt"))[1].instance
    status, domains = propagate(puzzle, "FCI")
    assert status == "open"
    grid = Grid(parse(grid_picture(puzzle, candidates=domains)), 9)
    marks, deduced = grid.texts("candidate"), grid.texts("deduced")
    solution = sudokit.solve(puzzle)
    for r in range(9):
        for c in range(9):
            left = [v + 1 for v in range(9) if (int(domains[r, c]) >> v) & 1]
            if puzzle.givens[r, c]:
                assert (r, c) not in marks and (r, c) not in deduced
            elif len(left) == 1:
                assert deduced[(r, c)] == [str(left[0])] and (r, c) not in marks
            else:
                assert sorted(marks[(r, c)]) == [str(v) for v in left]
            assert str(solution[r, c]) in marks.get((r, c), []) + deduced.get(
                (r, c), []) + [str(puzzle.givens[r, c])]
    assert deduced and marks


def test_graph_picture_fills_vertices_by_color_and_rings_precolors():
    problem = read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0].instance
    coloring = sudokit.solve(problem)
    root = parse(graph_picture(problem, coloring, layout="circle"))
    circles = list(root.iter(SVG + "circle"))
    assert len(circles) == problem.num_vertices
    fills = [c.get("fill") for c in circles]
    fill_of = dict(zip(range(1, 5), palette(4), strict=True))
    assert fills == [fill_of[int(k)] for k in coloring]
    assert all(fills[u] != fills[v] for u, v in problem.edges.tolist())
    ringed = [i for i, c in enumerate(circles) if c.get("class") == "precolored"]
    assert ringed == np.flatnonzero(problem.precolors).tolist()
    assert [c.find(SVG + "title").text for c in circles][:2] == ["vertex 1", "vertex 2"]
    lines = [e for e in root.iter(SVG + "line") if e.get("class") == "edge"]
    assert len(lines) == len(problem.edges)
    labels = [e.text for e in root.iter(SVG + "text") if e.get("class") in ("color", "precolor")]
    assert labels == [str(k) for k in coloring]


def test_uncolored_graph_shows_only_precolors():
    problem = precoloring(4, [(0, 1), (1, 2), (2, 3)], 3, {1: 2})
    root = parse(graph_picture(problem, layout="circle"))
    assert [c.get("fill") for c in root.iter(SVG + "circle")] == ["#fff", palette(3)[1],
                                                                 "#fff", "#fff"]


def test_layouts_are_in_the_unit_square_and_seeded():
    import_extra("networkx", "draw")
    problem = read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0].instance
    for layout in ("spring", "circle"):
        points = layout_positions(problem, layout, seed=3)
        assert points.shape == (11, 2) and points.min() >= 0 and points.max() <= 1
    assert np.array_equal(layout_positions(problem, "spring", 3),
                          layout_positions(problem, "spring", 3))
    assert not np.array_equal(layout_positions(problem, "spring", 3),
                              layout_positions(problem, "spring", 4))
    graph = sudokit.reduce("sudoku2coloring", sudoku(cyclic_latin(4, 2, 2))).target
    assert layout_positions(graph, "grid")[5].tolist() == pytest.approx([1 / 3, 1 / 3])
    with pytest.raises(sudokit.InstanceError, match="square number of vertices"):
        layout_positions(problem, "grid")


def test_a_spring_layout_that_needs_missing_scipy_is_one_error(monkeypatch):
    """networkx lays out 500 vertices and more with scipy, which the draw extra does not
    install: a clear error naming the fix, not an ImportError from inside networkx."""
    import sys

    from sudokit.draw.graph import layout_positions
    from sudokit.errors import MissingExtraError
    from sudokit.instances import precoloring

    pytest.importorskip("networkx")
    monkeypatch.setitem(sys.modules, "scipy", None)
    ring = precoloring(500, [[i, (i + 1) % 500] for i in range(500)], 3)
    with pytest.raises(MissingExtraError, match="needs scipy .*pip install scipy, or use "
                                                "--layout circle"):
        layout_positions(ring, "spring")
