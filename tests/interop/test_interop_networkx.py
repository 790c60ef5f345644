"""networkx interop: the Sudoku graph, the rook's graph and precoloring graphs, both ways."""

import sys

import numpy as np
import pytest

import sudokit
from sudokit.errors import InstanceError, MissingExtraError
from sudokit.formats import read_instances
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.interop.networkx import from_networkx, to_networkx
from sudokit.reductions.grid_to_coloring import grid_to_coloring

from ..helpers import EXAMPLES, cyclic_latin, import_extra

nx = import_extra("networkx", "interop")


def test_sudoku_graph_is_the_sudoku2coloring_graph_of_a_real_puzzle():
    puzzle = read_instances(str(EXAMPLES / "puzzle17.txt"))[0].instance
    graph = to_networkx(puzzle)
    assert graph.number_of_nodes() == 81 and graph.number_of_edges() == 810
    assert {d for _, d in graph.degree} == {20}
    assert list(graph)[:3] == [(0, 0), (0, 1), (0, 2)]
    given = nx.get_node_attributes(graph, "given")
    assert [given[(r, c)] for r in range(9) for c in range(9)] == puzzle.flat_givens.tolist()
    back = from_networkx(graph, 9, attribute="given")
    assert back == grid_to_coloring(puzzle).target


def test_rook_graph_of_a_latin_square_is_kn_times_kn():
    graph = to_networkx(latin_square(np.zeros((5, 5), dtype=int)))
    assert graph.graph["kind"] == "latin" and "box" not in graph.nodes[(0, 0)]
    assert nx.is_isomorphic(graph, nx.cartesian_product(nx.complete_graph(5),
                                                        nx.complete_graph(5)))


def test_box_attribute_follows_the_box_shape():
    graph = to_networkx(sudoku(np.zeros((6, 6), dtype=int), box=(2, 3)))
    box = nx.get_node_attributes(graph, "box")
    assert box[(0, 0)] == box[(1, 2)] == 0
    assert box[(0, 3)] == 1 and box[(2, 0)] == 2 and box[(5, 5)] == 5
    assert graph.has_edge((0, 0), (1, 2)) and not graph.has_edge((0, 0), (2, 3))
    assert graph.graph["box"] == (2, 3)


def test_solution_attribute_is_a_proper_coloring():
    grid = cyclic_latin(6, 2, 3)
    puzzle = sudoku(np.where(np.arange(36).reshape(6, 6) % 5 == 0, grid, 0), box=(2, 3))
    graph = to_networkx(puzzle, grid)
    value = nx.get_node_attributes(graph, "value")
    assert all(value[u] != value[v] for u, v in graph.edges)
    with pytest.raises(InstanceError, match="36 values"):
        to_networkx(puzzle, grid[:3])


def test_precoloring_round_trip_on_a_dimacs_graph():
    problem = read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0].instance
    graph = to_networkx(problem)
    assert graph.number_of_nodes() == 11 and graph.number_of_edges() == 20
    assert graph.nodes[0]["precolor"] == 1 and graph.graph["num_colors"] == 4
    assert from_networkx(graph, 4) == problem
    coloring = sudokit.solve(problem)
    colored = to_networkx(problem, coloring)
    assert all(colored.nodes[u]["color"] != colored.nodes[v]["color"] for u, v in colored.edges)


@pytest.mark.parametrize("n, k", [(5, 3), (6, 3), (4, 4)])
def test_cycle_colorings_counted_from_a_networkx_graph(n, k):
    cycle = nx.cycle_graph([f"v{i}" for i in range(n)])
    problem = from_networkx(cycle, k)
    expected = (k - 1) ** n + (-1) ** n * (k - 1)
    assert sudokit.count_solutions(sudokit.to_cnf(problem, symmetry_breaking=False)) == expected
    fixed = from_networkx(cycle, k, precolored={"v0": 1})
    assert fixed.precolors.tolist() == [1] + [0] * (n - 1)
    assert sudokit.count_solutions(sudokit.to_cnf(fixed, symmetry_breaking=False)) \
        == expected // k


def test_other_graph_types_and_node_labels():
    digraph = nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")])
    problem = from_networkx(digraph, 2, precolored={"c": 2})
    assert problem.edges.tolist() == [[0, 1], [1, 2]] and problem.precolors.tolist() == [0, 0, 2]
    multi = nx.MultiGraph([(1, 2), (1, 2), (2, 3)])
    assert len(from_networkx(multi, 3).edges) == 2
    assert from_networkx(nx.empty_graph(3), 1).num_vertices == 3


@pytest.mark.parametrize("graph, kwargs, message", [
    (nx.path_graph(3), {"precolored": {7: 1}}, "node 7 is not in the graph"),
    (nx.Graph([(0, 0)]), {}, "loop"),
    (nx.path_graph(3), {"precolored": {0: 5}}, "outside 1..3"),
    (nx.path_graph(3), {"precolored": {0: 1, 1: 1}}, "both precolored 1"),
    (nx.path_graph(3), {"precolored": {0: "red"}}, "not an integer"),
])
def test_bad_graphs_are_instance_errors(graph, kwargs, message):
    with pytest.raises(InstanceError, match=message):
        from_networkx(graph, 3, **kwargs)


def test_attribute_none_ignores_node_attributes():
    graph = nx.path_graph(2)
    graph.nodes[0]["precolor"] = 1
    assert from_networkx(graph, 2).precolors.tolist() == [1, 0]
    assert from_networkx(graph, 2, attribute=None).precolors.tolist() == [0, 0]


def test_other_kinds_have_no_graph():
    with pytest.raises(InstanceError, match="to_networkx takes a grid or a graph, not an exact "
                                            "cover problem"):
        to_networkx(read_instances(str(EXAMPLES / "knuth6.dlx"))[0].instance)
    assert to_networkx(precoloring(2, [(0, 1)], 2)).number_of_edges() == 1


def test_missing_networkx_is_one_line_naming_the_extra(monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setitem(sys.modules, "networkx", None)
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda mod, *a: None if mod == "networkx" else found(mod, *a))
    with pytest.raises(MissingExtraError) as err:
        to_networkx(latin_square(np.zeros((2, 2), dtype=int)))
    assert str(err.value) == ('this needs networkx, which is not installed: '
                              'pip install "sudokit[interop]"')
    assert err.value.exit_code == 6


def test_networkx_installed_but_broken_names_the_extra(monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    spec = found("networkx")
    monkeypatch.setitem(sys.modules, "networkx", None)   # the import itself fails
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda mod, *a: spec if mod == "networkx" else found(mod, *a))
    with pytest.raises(MissingExtraError, match=r"cannot load networkx .*sudokit\[interop\]"):
        to_networkx(latin_square(np.zeros((2, 2), dtype=int)))


def test_variant_graphs_join_the_variant_units_and_name_the_regions():
    for name in ("jigsaw9.txt", "x9.txt"):
        puzzle = read_instances(str(EXAMPLES / name))[0].instance
        graph = to_networkx(puzzle)
        coloring = sudokit.reduce("sudoku2coloring", puzzle).target
        assert graph.number_of_edges() == len(coloring.edges) > 810
        assert graph.graph["name"].startswith("Sudoku graph of a ")
        assert graph.graph["variants"] == puzzle.variants
        assert puzzle.variants[0] in graph.graph["name"]
        if puzzle.regions is not None:
            assert "box" not in graph.nodes[(0, 0)]
            assert [graph.nodes[(r, c)]["region"] for r in range(9) for c in range(9)] == \
                puzzle.regions.reshape(-1).tolist()
