"""The three registries and protocols: problem kinds, reduction results, solver engines."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest

from sudokit.batch import run_batch
from sudokit.cnf import CNF
from sudokit.encoders import coloring_to_cnf, to_cnf, to_exact_cover
from sudokit.errors import BudgetExhausted, EncodingError, InstanceError
from sudokit.exact_cover import exact_cover
from sudokit.instances import formula, latin_square, precoloring, sudoku
from sudokit.problems import PROBLEMS, problem_kind, resolve, shape_key, sniff_kind
from sudokit.protocols import CNFReduction, CoverReduction, Reduction
from sudokit.reductions import REDUCTIONS, reduce
from sudokit.solvers import ENGINES, Budget, Engine, count_solutions, open_engine, solve

SQUARE = latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]]))
SUDOKU4 = sudoku(np.array([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]))
GRAPH = precoloring(5, [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]], 3, [1, 0, 0, 0, 0])


def _formula():
    cnf = CNF(num_vars=3)
    cnf.add_clauses("input", [[1, 2], [-1, 3], [2, 3]])
    return formula(cnf)


XC = exact_cover([["a", "b"], ["a"], ["b"], ["c"]], primary=["a", "b", "c"])
SOURCES = {"sudoku": SUDOKU4, "latin": SQUARE, "coloring": GRAPH, "cnf": _formula(), "xc": XC}


# -- problem kinds -------------------------------------------------------------------------

def test_every_registry_reference_resolves():
    fields = ("parser", "solution_reader", "to_cnf", "to_exact_cover", "shape_key")
    for kind in PROBLEMS.values():
        for field in fields:
            ref = getattr(kind, field)
            assert ref is None or callable(resolve(ref)), (kind.name, field)
    for spec in REDUCTIONS.values():
        assert callable(resolve(spec.build)), spec.name
        assert spec.source in PROBLEMS and spec.target in PROBLEMS
    for spec in ENGINES.values():
        assert callable(resolve(spec.engine)), spec.name


def test_every_kind_has_an_instance_here():
    assert set(SOURCES) == set(PROBLEMS)
    for name, instance in SOURCES.items():
        assert problem_kind(instance).name == name == instance.kind


@pytest.mark.parametrize("source, text, problem, expected", [
    ("-", "p cnf 2 1\n1 2 0\n", None, "cnf"),
    ("-", "c x\np edge 2 1\ne 1 2\n", None, "coloring"),
    ("a.dlx", "| a b\na b\n", None, "xc"),
    ("a.txt", "order 2\n", None, "latin"),
    ("a.cnf", "1...", "sudoku", "sudoku"),
])
def test_sniffing_reads_the_registry(source, text, problem, expected):
    assert sniff_kind(source, text, problem) == expected


def test_unknown_kind_is_a_clear_error():
    with pytest.raises(EncodingError, match="unknown problem 'chess'"):
        problem_kind("chess")


def test_shape_keys_share_grids_only():
    assert shape_key(SUDOKU4) == ("sudoku", 4, (2, 2))
    assert shape_key(SQUARE) == ("latin", 3, None)
    assert shape_key(GRAPH) is None and shape_key(XC) is None


# -- one result protocol -------------------------------------------------------------------

def _results():
    """Every encoder and every reduction, applied to an instance of its source kind."""
    for name, instance in SOURCES.items():
        yield f"to_cnf({name})", to_cnf(instance)
        yield f"to_exact_cover({name})", to_exact_cover(instance)
    for spec in REDUCTIONS.values():
        yield spec.name, reduce(spec.name, SOURCES[spec.source])
    yield "chain", reduce("latin2sudoku", SQUARE).then("sudoku2xc").then("xc2sat")


@pytest.mark.parametrize("label, result", list(_results()), ids=lambda x: x
                         if isinstance(x, str) else "")
def test_every_result_follows_the_protocol_and_pickles(label, result):
    assert isinstance(result, Reduction), label
    assert result.target.kind in PROBLEMS
    if result.target.kind == "cnf":
        assert isinstance(result, CNFReduction)
    back = pickle.loads(pickle.dumps(result))
    assert back.name == result.name and back.parsimonious == result.parsimonious
    assert back.explain() == result.explain()


@pytest.mark.parametrize("name", ["latin2sudoku", "latin2coloring", "latin2sat", "latin2xc"])
def test_round_trip_after_pickling(name):
    reduced = pickle.loads(pickle.dumps(reduce(name, SQUARE)))
    planted = np.array([[1, 2, 3], [2, 3, 1], [3, 1, 2]])
    assert np.array_equal(reduced.decode(reduced.encode(planted)), planted)
    assert reduced.target.is_solution(reduced.encode(planted))


def test_the_issue_example_pickles():
    square = latin_square(np.zeros((3, 3), dtype=int))
    assert pickle.loads(pickle.dumps(reduce("latin2sudoku", square))).target.n == 9


def test_cover_results_give_options_for_preselection():
    encoded = to_exact_cover(SUDOKU4)
    assert isinstance(encoded, CoverReduction)
    assert len(encoded.given_options(SUDOKU4)) == SUDOKU4.num_givens


def test_reductions_check_the_source_kind():
    with pytest.raises(InstanceError, match="sudoku2sat needs a sudoku instance"):
        reduce("sudoku2sat", SQUARE)


def test_names_are_made_only_when_written():
    encoded = to_exact_cover(sudoku(np.zeros((9, 9), dtype=int)))
    assert encoded.xc.items._names is None          # nothing built for solving
    assert encoded.xc.items[0] == "p11" and len(encoded.xc.items) == 324
    reduced = to_cnf(SUDOKU4, "reduced")
    assert not any(line.startswith("map ") for line in reduced.cnf.comments)
    assert sum(line.startswith("map ") for line in reduced.cnf.all_comments()) \
        == reduced.cnf.num_vars


# -- one engine protocol -------------------------------------------------------------------

EMPTY4 = sudoku(np.zeros((4, 4), dtype=int))


@pytest.mark.parametrize("name", ["dlx", "cadical195", "glucose4"])
@pytest.mark.parametrize("shared", [False, True])
def test_engines_count_known_values(name, shared):
    with open_engine(name, shape=EMPTY4 if shared else None) as engine:
        assert isinstance(engine, Engine)
        assert engine.count(EMPTY4)[0] == 288
        outcomes = engine.count_many([EMPTY4, SUDOKU4], limit=300)
        assert [o.count for o in outcomes] == [288, count_solutions(to_cnf(SUDOKU4))]
        assert all(o.status == "sat" for o in outcomes)
        solved = engine.solve_many([SUDOKU4])[0]
        assert solved.count is None and SUDOKU4.is_solution(solved.solution)


@pytest.mark.parametrize("name", ["dlx", "cadical195"])
def test_engines_take_every_kind_alone(name):
    with open_engine(name) as engine:
        assert engine.count(SQUARE)[0] == 4            # 12 squares of order 3, a third
        assert engine.count(GRAPH)[0] == count_solutions(coloring_to_cnf(GRAPH))
        assert engine.count(XC)[0] == 2                 # {ab, c} and {a, b, c}


def test_count_solutions_of_an_encoding_with_dlx():
    encoded = to_cnf(EMPTY4)
    assert count_solutions(encoded, solver="dlx") == 288
    assert EMPTY4.is_solution(solve(encoded, solver="dlx"))


def test_coloring_to_cnf_counts_by_default():
    # proper 3-colorings of the 5-cycle: (k-1)^n + (-1)^n (k-1) = 30; vertex 1 fixed: a third
    assert coloring_to_cnf(GRAPH).parsimonious
    assert count_solutions(coloring_to_cnf(GRAPH)) == 10
    assert not coloring_to_cnf(GRAPH, symmetry_breaking=True).parsimonious


def test_dlx_batch_kernel_takes_a_node_budget():
    latin5 = latin_square(np.zeros((5, 5), dtype=int))
    with open_engine("dlx", shape=latin5) as engine:
        outcomes = engine.count_many([latin5, latin5], budget=Budget(nodes=50))
        assert [o.status for o in outcomes] == ["unknown", "unknown"]
        assert all(0 <= o.count < 161280 for o in outcomes)
        assert [o.count for o in engine.count_many([latin5], limit=3)] == [3]


def test_dlx_batch_with_a_time_budget_finishes_what_fits():
    latin5 = latin_square(np.zeros((5, 5), dtype=int))
    with open_engine("dlx", shape=latin5) as engine:
        fast = latin5.with_givens(np.array([[1, 2, 3, 4, 5]] + [[0] * 5] * 4))
        outcomes = engine.count_many([fast, latin5], budget=Budget(seconds=30))
        assert [o.count for o in outcomes] == [1344, 161280]
        assert [o.status for o in outcomes] == ["sat", "sat"]
        with pytest.raises(BudgetExhausted):
            engine.count(latin5, budget=Budget(seconds=0.01, nodes=10))


def test_sliced_count_agrees_with_the_kernel_count():
    from sudokit.solvers.dlx import DancingLinks

    links = DancingLinks.from_problem(to_exact_cover(latin_square(np.zeros((4, 4), int))).xc)
    links.slice_nodes = 7                       # many slices, resumed inside the kernel
    assert links.count_first(budget=Budget(seconds=60))[0] == 576 == links.count()


def test_run_batch_mixes_kinds_in_order():
    results = list(run_batch([SQUARE, EMPTY4, SQUARE, GRAPH, EMPTY4], task="count",
                             limit=3, solver="dlx"))
    assert [r.index for r in results] == [0, 1, 2, 3, 4]
    assert [r.count for r in results] == [3, 3, 3, 3, 3]
    assert [r.count for r in run_batch([SQUARE, EMPTY4], task="count")] == [4, 288]


# -- layering ------------------------------------------------------------------------------

def test_every_module_imports_first_without_a_cycle():
    code = """
import importlib, pkgutil, sys
import sudokit
names = [m.name for m in pkgutil.walk_packages(sudokit.__path__, "sudokit.")]
for name in names:
    for loaded in [m for m in sys.modules if m == "sudokit" or m.startswith("sudokit.")]:
        del sys.modules[loaded]
    importlib.import_module(name)
print(len(names))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 50


def test_a_chain_ending_in_cnf_counts_like_its_source():
    square = latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]]))
    chain = reduce("latin2sudoku", square).then("sudoku2sat")
    assert isinstance(chain, CNFReduction)
    assert count_solutions(chain) == 4
    assert square.is_solution(solve(chain))
