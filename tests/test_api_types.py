"""The public API takes what users hold, and refuses the rest with a SudokitError.

Every function of ``sudokit.__all__`` is called with each kind of object a user holds (a
record of ``read_instances`` of every kind, puzzle text, an array, a list of rows, a PySAT
``CNF``, sudokit's ``CNF``, a networkx graph with a ``precolor`` attribute, a scipy sparse
exact cover matrix) and with wrong types (None, a float, a dict, a string of the wrong
length, a ragged list). An answer is checked (a known count, a solution checked against
the instance, the same answer as the instance read from a file); anything refused must be
a :class:`~sudokit.errors.SudokitError` with a message, never an AttributeError, IndexError
or TypeError from inside.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.formula import CNF as PySATCNF
from pysat.formula import WCNF
from pysat.solvers import Solver

import sudokit
from sudokit.errors import SudokitError
from sudokit.instances import CNFFormula, GridPuzzle, Precoloring
from sudokit.solvers.registry import default_solver

from .helpers import EXAMPLES, data_path

nx = pytest.importorskip("networkx")
pytest.importorskip("scipy")


def empty_latin_dimacs() -> str:
    """The empty 4x4 Latin square as DIMACS text: 576 models (OEIS A002860)."""
    return sudokit.format_dimacs(sudokit.grid_to_cnf(sudokit.latin_square(np.zeros((4, 4),
                                                                                   int))).cnf)


def cycle5() -> nx.Graph:
    """C5 with 3 colors and no precolor: P(C5, 3) = 2^5 - 2 = 30 colorings."""
    graph = nx.cycle_graph(5)
    graph.graph["num_colors"] = 3
    return graph


def cycle5_precolored() -> nx.Graph:
    """C5, 3 colors, vertex 0 precolored 1: 30 / 3 = 10 colorings."""
    graph = cycle5()
    nx.set_node_attributes(graph, {0: 1}, "precolor")
    return graph


def knuth6():
    return sudokit.read_instances(str(EXAMPLES / "knuth6.dlx"))[0]


#: (label, factory of what a user holds, kind of the instance it stands for, known count)
USER_TYPES = [
    ("record sudoku", lambda: sudokit.read_instances(str(EXAMPLES / "puzzle17.txt"))[0],
     "sudoku", 1),
    ("record latin (.pls)", lambda: sudokit.read_instances(str(EXAMPLES / "qwh5.pls"))[0],
     "latin", None),
    ("record coloring (.col)",
     lambda: sudokit.read_instances(str(EXAMPLES / "myciel3-precolored.col"))[0],
     "coloring", None),
    ("record xc (.dlx)", knuth6, "xc", 1),
    ("record cnf (DIMACS)", lambda: sudokit.parse_instances(empty_latin_dimacs(), "l.cnf",
                                                            "cnf")[0], "cnf", 576),
    # a first row fixed: 288 4x4 grids / 4! relabellings
    ("text one line", lambda: "1234" + "." * 12, "sudoku", 12),
    ("text grid", lambda: "1234\n....\n....\n....", "sudoku", 12),
    ("text DIMACS", lambda: "p cnf 2 1\n1 2 0\n", "cnf", 3),
    ("list of rows", lambda: [[0] * 4 for _ in range(4)], "sudoku", 288),
    ("numpy array", lambda: np.zeros((4, 4), dtype=np.int8), "sudoku", 288),
    ("flat list", lambda: [0] * 16, "sudoku", 288),
    ("pysat CNF", lambda: PySATCNF(from_clauses=[[1, 2], [-1, -2]]), "cnf", 2),
    ("pysat CNF of an encoding",
     lambda: sudokit.to_pysat(sudokit.grid_to_cnf(np.zeros((4, 4), int), amo="seqcounter")),
     "cnf", 288),
    ("sudokit CNF", lambda: sudokit.parse_dimacs(empty_latin_dimacs()), "cnf", 576),
    ("networkx graph", cycle5, "coloring", 30),
    ("networkx graph precolored", cycle5_precolored, "coloring", 10),
    ("networkx graph of a grid", lambda: sudokit.to_networkx(np.zeros((4, 4), int)),
     "coloring", 288),
    ("scipy matrix", lambda: sudokit.to_scipy(knuth6().instance), "xc", 1),
    ("encoding", lambda: sudokit.grid_to_cnf("1234" + "." * 12), "sudoku", 12),
]


def _ids(rows):
    return [row[0] for row in rows]


def _as_instance(held):
    from sudokit.interop.convert import as_instance
    return as_instance(held)


def _check_solution(instance, solution):
    assert solution is not None
    if isinstance(instance, CNFFormula):
        # the projected model extends to a model of the whole formula (PySAT says so)
        with Solver(name="glucose4", bootstrap_with=sudokit.to_pysat(instance.cnf)) as sat:
            assert sat.solve(assumptions=[int(lit) for lit in solution])
    elif isinstance(instance, (GridPuzzle, Precoloring)):
        assert instance.violations(solution) == []
    else:  # an exact cover: the chosen options cover each primary item once
        rows = sudokit.to_scipy(instance).toarray()[np.asarray(solution)]
        assert (rows.sum(axis=0)[:instance.num_primary] == 1).all()


@pytest.mark.parametrize(("label", "make", "kind", "count"), USER_TYPES, ids=_ids(USER_TYPES))
def test_solve_and_count_take_it(label, make, kind, count):
    held = make()
    instance = _as_instance(held)
    assert instance.kind == kind
    solution = sudokit.solve(held)
    _check_solution(instance, solution)
    found = sudokit.count_solutions(held, limit=None if count else 3)
    if count is not None:
        assert found == count
    # the same count from the instance itself on another engine (a differential check)
    other = "dlx" if sudokit.problem_kind(instance).family != "formula" else "glucose4"
    assert sudokit.count_solutions(instance, limit=None if count else 3, solver=other) == found
    assert sudokit.is_unique(held) == (found == 1)


@pytest.mark.parametrize(("label", "make", "kind", "count"), USER_TYPES, ids=_ids(USER_TYPES))
def test_encode_format_and_batch_take_it(label, make, kind, count):
    held = make()
    instance = _as_instance(held)
    encoded = sudokit.to_cnf(held)
    assert encoded.source.kind == kind
    cover = sudokit.to_exact_cover(held)
    assert cover.xc.num_items > 0
    solution = sudokit.solve(held)
    text = sudokit.format_solution(held, solution)
    assert text and "no solution" not in text
    assert sudokit.format_instance(held)
    assert sudokit.format_no_solution(held, "unsat")
    results = list(sudokit.run_batch([held], task="count", limit=2))
    expected = min(2, count) if count is not None else sudokit.count_solutions(instance, 2)
    assert len(results) == 1 and results[0].count == expected
    pysat_form = sudokit.to_pysat(held)
    assert pysat_form.nv > 0
    assert sudokit.to_scipy(held).shape[0] > 0
    if sudokit.problem_kind(instance).has_cells:
        assert sudokit.to_networkx(held).number_of_nodes() > 0
    else:
        with pytest.raises(SudokitError, match="takes a grid or a graph"):
            sudokit.to_networkx(held)


REDUCTION_OF = {"sudoku": "sudoku2sat", "latin": "latin2sudoku", "coloring": "coloring2xc",
                "cnf": "sat2xc", "xc": "xc2sat"}


@pytest.mark.parametrize(("label", "make", "kind", "count"), USER_TYPES, ids=_ids(USER_TYPES))
def test_reduce_takes_it(label, make, kind, count):
    held = make()
    if hasattr(held, "decode"):
        with pytest.raises(SudokitError, match=r"then\("):
            sudokit.reduce(REDUCTION_OF[kind], held)
        return
    result = sudokit.reduce(REDUCTION_OF[kind], held)
    solution = sudokit.solve(result)
    _check_solution(_as_instance(held), solution)


def test_text_matches_the_file_reading(tmp_path):
    """A string grid answers as the same puzzle read from a file does (the CLI's reader)."""
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    path = tmp_path / "p.txt"
    path.write_text(line + "\n")
    record = sudokit.read_instances(str(path))[0]
    assert np.array_equal(sudokit.sudoku(line).givens, record.instance.givens)
    assert np.array_equal(sudokit.solve(line), sudokit.solve(record))
    assert sudokit.format_solution(line, sudokit.solve(line)) == \
        sudokit.format_solution(record, sudokit.solve(record))


def test_shared_puzzles_by_every_road():
    """Norvig's top95 (each with one solution): text, array, rows and a flat row agree."""
    lines = data_path("sudoku", "9x9-norvig", "top95.txt").read_text().split()[:3]
    for line in lines:
        grid = sudokit.sudoku(line)
        for held in (line, grid.givens, grid.givens.tolist(), grid.givens.reshape(-1)):
            assert sudokit.count_solutions(held) == 1
            assert grid.is_solution(sudokit.solve(held))


def test_one_default_engine_rule():
    """The library picks the engine the command line picks (default_solver)."""
    from sudokit.batch.spec import RunSpec
    from sudokit.solvers.sat import engine_for

    for held in ("." * 81, np.zeros((25, 25), int), "p cnf 1 1\n1 0\n"):
        instance = _as_instance(held)
        assert engine_for(instance, None, sudokit.Budget()) == \
            RunSpec.of("solve", None, None).engine_name(instance)
    assert engine_for(_as_instance("." * 81), None, sudokit.Budget()) == "takano"
    assert engine_for(knuth6().instance, None, sudokit.Budget()) == "dlx"
    encoded = sudokit.grid_to_cnf("." * 81)
    assert engine_for(encoded, None, sudokit.Budget()) == \
        default_solver(encoded.source, {"encoding"}) == "cadical195"


@pytest.mark.parametrize("text", ["4.....", "1" * 5, "1..", "." * 80])
def test_sudoku_of_a_wrong_length(text):
    with pytest.raises(sudokit.ParseError, match="cells"):
        sudokit.sudoku(text)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=1, max_value=9).flatmap(
    lambda n: st.tuples(st.just(n), st.text(alphabet=".", min_size=n * n, max_size=n * n))))
def test_sudoku_of_any_square_length(case):
    """Any square length n*n reads as an n x n grid with its box, or says why it cannot."""
    n, text = case
    try:
        puzzle = sudokit.sudoku(text)
    except SudokitError as err:
        assert "box" in str(err)
        return
    assert puzzle.n == n and puzzle.num_givens == 0


# -- wrong types -------------------------------------------------------------------------

WRONG = [None, 1.5, {"a": 1}, "4.....", [[1, 2, 3, 4], [1, 2]], object()]

#: good values for the arguments after the first, where a function requires them
REST = {
    "from_networkx": (3,),
    "precoloring": ([(0, 1)], 2),
    "reduce": (np.zeros((4, 4), int),),
    "format_no_solution": ("unsat",),
    "format_solution": ([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]],),
    "write_dimacs": (None,),
    "answer": (None,),
}

#: where a wrong first value is a valid default or a value the function takes on purpose
TAKES = {
    ("open_engine", None),   # None: the default engine
    ("parse_dlx", "4....."),   # a cover with one item named '4.....' and no option
}


def _functions():
    for name in sudokit.__all__:
        value = getattr(sudokit, name)
        if callable(value) and not inspect.isclass(value):
            yield name, value


def _call(function, args):
    result = function(*args)
    if inspect.isgenerator(result):
        result = list(result)
    close = getattr(result, "__exit__", None)
    if close is not None:
        close(None, None, None)
    return result


@pytest.mark.parametrize("name", [name for name, _ in _functions()])
@pytest.mark.parametrize("wrong", WRONG, ids=["None", "float", "dict", "short-text",
                                              "ragged", "object"])
def test_wrong_types_raise_a_sudokit_error(name, wrong):
    function = getattr(sudokit, name)
    args = (wrong, *REST.get(name, ()))
    if name == "reduce":
        args = ("latin2sudoku", wrong)
    try:
        _call(function, args)
    except SudokitError as err:
        assert str(err).strip(), f"{name}({wrong!r}) raised an empty {type(err).__name__}"
        return
    assert (name, wrong if wrong is None or isinstance(wrong, str) else type(wrong)) in TAKES, \
        f"{name}({wrong!r}) returned instead of raising a SudokitError"


@pytest.mark.parametrize("wrong", [None, 1.5, {"a": 1}, "x", [[1, 2], [3]], [1, 2, 3]])
def test_format_solution_checks_the_solution(wrong):
    record = sudokit.parse_instances("1" + "." * 15)[0]
    if wrong is None:
        assert sudokit.format_solution(record, wrong) == "no solution"
        return
    with pytest.raises(SudokitError, match="solution"):
        sudokit.format_solution(record, wrong)


def test_wcnf_and_lists_of_records_are_refused_with_a_hint():
    with pytest.raises(SudokitError, match="WCNF"):
        sudokit.solve(WCNF())
    records = sudokit.read_instances(str(EXAMPLES / "top3.txt"))
    with pytest.raises(SudokitError, match=r"records\[0\]"):
        sudokit.solve(records)
    with pytest.raises(SudokitError, match="number of colors"):
        sudokit.solve(nx.cycle_graph(3))
