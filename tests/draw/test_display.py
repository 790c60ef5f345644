"""What Jupyter shows: the display hooks of puzzles, graphs, solutions, pencil marks,
formulas, covers and reductions, read back from the SVG or HTML they give, on the bundled
examples; and ``str(puzzle)`` read back by the puzzle reader."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import sudokit
from sudokit.cnf import CNF
from sudokit.draw import display
from sudokit.errors import InstanceError
from sudokit.formats import parse_puzzles, read_instances
from sudokit.grading import pencil_marks
from sudokit.instances import formula, latin_square, precoloring, sudoku

from ..helpers import EXAMPLES
from .svg_reading import SVG, Grid, parse

GRIDS = ["puzzle17.txt", "six.txt", "janko16.txt", "x9.txt", "jigsaw9.txt", "qwh5.pls",
         "empty5.txt"]


def grid_example(name):
    problem = "latin" if name == "empty5.txt" else None
    return read_instances(str(EXAMPLES / name), problem=problem)[0].instance


def classes(root, cls, tag="text"):
    return [e for e in root.iter(SVG + tag) if e.get("class") == cls]


@pytest.mark.parametrize("name", GRIDS)
def test_every_grid_draws_its_givens_in_their_cells(name):
    puzzle = grid_example(name)
    root = parse(puzzle._repr_svg_())
    grid = Grid(root, puzzle.n)
    shown = grid.texts("given")
    assert len(shown) == puzzle.num_givens == len(classes(root, "given"))
    for (r, c), symbols in shown.items():
        assert puzzle.givens[r, c] > 0 and len(symbols) == 1
    assert len(classes(root, "cell", "line")) == 2 * (puzzle.n - 1)   # n x n cells
    has_regions = puzzle.box is not None or puzzle.regions is not None
    assert bool(classes(root, "box", "line")) == has_regions


@pytest.mark.parametrize("name", GRIDS)
def test_str_is_the_grid_and_reads_back(name):
    puzzle = grid_example(name)
    text = str(puzzle)
    assert len([line for line in text.splitlines() if "|" in line or "." in line]) >= puzzle.n
    again = parse_puzzles(text, problem=puzzle.kind, box=puzzle.box)
    assert len(again) == 1 and again[0].instance == puzzle


@pytest.mark.parametrize("givens, box", [(np.zeros((6, 6), int), (3, 2)),
                                         (np.zeros((8, 8), int), (2, 4))])
def test_str_keeps_the_box_shape(givens, box):
    puzzle = sudoku(givens, box=box)
    assert parse_puzzles(str(puzzle))[0].instance.box == box


def test_graph_labels_every_vertex_and_rings_precolors():
    problem = read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0].instance
    root = parse(problem._repr_svg_())
    ids = [e.text for e in classes(root, "vertex-id")]
    assert ids == [str(v + 1) for v in range(problem.num_vertices)]
    assert len(classes(root, "precolored", "circle")) == problem.num_givens
    assert len(classes(root, "edge", "line")) == len(problem.edges)


def test_a_solved_grid_shows_givens_and_filled_cells_apart():
    puzzle = grid_example("puzzle17.txt")
    values = sudokit.solve(puzzle)
    solved = puzzle.with_solution(values)
    assert solved.valid and np.array_equal(np.asarray(solved), values)
    grid = Grid(parse(solved._repr_svg_()), 9)
    given, filled = grid.texts("given"), grid.texts("filled")
    assert len(given) == puzzle.num_givens and len(given) + len(filled) == 81
    for (r, c), [text] in {**given, **filled}.items():
        assert text == str(values[r, c])
    assert set(given) == {tuple(cell) for cell in np.argwhere(puzzle.givens > 0).tolist()}
    back = parse_puzzles(str(solved), problem="solution")[0].instance.givens
    assert np.array_equal(back, values)


def test_a_wrong_or_missing_solution_says_so():
    square = latin_square(np.array([[1, 0], [0, 0]]))
    wrong = parse(square.with_solution([[1, 1], [2, 2]])._repr_svg_())
    (caption,) = classes(wrong, "caption")
    assert caption.text.startswith("not a solution: value 1 repeats in row 1")
    none = parse(square.with_solution(None)._repr_svg_())
    assert [e.text for e in classes(none, "caption")] == ["no solution"]
    assert str(square.with_solution(None)) == "no solution"
    with pytest.raises(InstanceError, match="no solution"):
        np.asarray(square.with_solution(None))
    with pytest.raises(InstanceError, match="2 x 2 integers, got 2 x 3"):
        square.with_solution([[1, 2, 1], [2, 1, 2]])
    with pytest.raises(InstanceError, match="integers, got 2 x 2 of <U1"):
        square.with_solution([["1", "2"], ["2", "1"]])


def test_a_colored_graph_fills_every_vertex():
    problem = read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0].instance
    coloring = sudokit.solve(problem)
    root = parse(problem.with_solution(coloring)._repr_svg_())
    labels = [e.text for e in root.iter(SVG + "text") if e.get("class") in ("color", "precolor")]
    assert labels == [str(k) for k in coloring]
    assert str(problem.with_solution(coloring)) == " ".join(map(str, coloring))


def test_pencil_marks_show_every_candidate():
    puzzle = grid_example("puzzle17.txt")
    marks = pencil_marks(puzzle, "FC")
    assert marks.status == "open"
    grid = Grid(parse(marks._repr_svg_()), 9)
    lists = marks.candidates()
    open_cells = {(r, c): values for r, row in enumerate(lists) for c, values in enumerate(row)
                  if puzzle.givens[r, c] == 0}
    shown = grid.texts("candidate")
    assert {cell: sorted(map(int, texts)) for cell, texts in shown.items()} == \
        {cell: values for cell, values in open_cells.items() if len(values) > 1}
    assert set(grid.texts("deduced")) == {cell for cell, v in open_cells.items() if len(v) == 1}
    assert sum(map(len, shown.values())) > 100   # 64 open cells, most with several values


def test_formula_and_cover_html_parse_and_count():
    cnf = CNF(num_vars=3)
    cnf.add_clauses("input", [[1, 2], [-1, 3], [2, 3]])
    page = ET.fromstring(formula(cnf)._repr_html_())
    assert "3 variables, 3 clauses" in "".join(page.itertext())
    xc = read_instances(str(EXAMPLES / "knuth6.dlx"))[0].instance
    table = ET.fromstring(xc._repr_html_())
    marks = [td for td in table.iter("td") if td.text == "\u25cf"]
    assert len(marks) == len(xc.option_items)


def test_large_formulas_list_their_first_clauses_only():
    encoded = sudokit.grid_to_cnf(grid_example("puzzle17.txt"), "minimal")
    page = ET.fromstring(encoded.cnf._repr_html_())
    (pre,) = page.iter("pre")
    lines = pre.text.splitlines()
    assert len(lines) == display.SHOWN + 1
    assert lines[-1] == f"... {encoded.cnf.num_clauses - display.SHOWN:,} more"
    assert lines[0] == " ".join(map(str, encoded.cnf.clauses()[0] + [0]))


def test_latin_square_next_to_its_sudoku():
    square = grid_example("qwh5.pls")
    reduction = sudokit.reduce("latin2sudoku", square)
    page = ET.fromstring(reduction._repr_html_())
    pictures = list(page.iter(SVG + "svg"))
    assert len(pictures) == 2
    assert len(classes(pictures[0], "given")) == square.num_givens
    assert len(classes(pictures[1], "given")) == reduction.target.num_givens
    assert "latin2sudoku" in "".join(page.itertext())


def test_a_chain_shows_every_step_and_a_grid_graph_keeps_its_layout():
    square = latin_square(np.array([[1, 0], [0, 0]]))
    chained = sudokit.reduce("latin2sudoku", square).then("sudoku2coloring")
    page = ET.fromstring(chained._repr_html_())
    latin, sudoku4, graph = page.iter(SVG + "svg")
    assert len(classes(graph, "vertex-id")) == 16
    assert len(classes(graph, "precolored", "circle")) == chained.target.num_givens
    text = "".join(page.itertext())
    assert "latin2sudoku" in text and "sudoku2coloring" in text


def test_too_large_pictures_fall_back_to_text():
    big = latin_square(np.zeros((display.MAX_SIDE + 1,) * 2, dtype=int))
    assert big._repr_svg_() is None
    many = precoloring(display.MAX_VERTICES + 1, [], 2)
    assert many._repr_svg_() is None


def test_ipython_picks_the_pictures_up():
    formatters = pytest.importorskip("IPython.core.formatters")
    shown, _ = formatters.DisplayFormatter().format(grid_example("six.txt"))
    assert "image/svg+xml" in shown
    shown, _ = formatters.DisplayFormatter().format(
        sudokit.reduce("latin2sudoku", latin_square(np.zeros((2, 2), dtype=int))))
    assert "text/html" in shown


SOURCES = {"sudoku": lambda: grid_example("six.txt"), "latin": lambda: grid_example("qwh5.pls"),
           "coloring": lambda: read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0]
           .instance,
           "cnf": lambda: formula(_small_cnf()),
           "xc": lambda: read_instances(str(EXAMPLES / "knuth6.dlx"))[0].instance}


def _small_cnf():
    cnf = CNF(num_vars=3)
    cnf.add_clauses("input", [[1, 2], [-1, 3], [2, 3]])
    return cnf


@pytest.mark.parametrize("name", sorted(sudokit.REDUCTIONS))
def test_every_reduction_shows_its_source_and_target(name):
    spec = sudokit.REDUCTIONS[name]
    reduction = sudokit.reduce(name, SOURCES[spec.source]())
    page = ET.fromstring(reduction._repr_html_())
    text = "".join(page.itertext())
    assert name in text and reduction.explain()[:40] in text
    grids = sum(kind in ("sudoku", "latin") for kind in (spec.source, spec.target))
    pictures = list(page.iter(SVG + "svg"))
    assert len(pictures) == grids + ((spec.source == "coloring") + (spec.target == "coloring"))
    summaries = [b.text for b in page.iter("b")
                 if b.text.startswith(("CNF formula", "exact cover"))]
    assert len(summaries) == (spec.source in ("cnf", "xc")) + (spec.target in ("cnf", "xc"))


def test_a_record_shows_its_instance():
    (record,) = read_instances(str(EXAMPLES / "six.txt"))
    assert record._repr_svg_() == record.instance._repr_svg_()
    assert record._repr_html_() is None
    (cover,) = read_instances(str(EXAMPLES / "knuth6.dlx"))
    assert cover._repr_svg_() is None and cover._repr_html_() == cover.instance._repr_html_()
