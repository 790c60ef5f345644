"""The CP search family (backtrack, fcmrv, bitset, norvig, takano) against DLX and SAT."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.batch import run_batch
from sudokit.encoders import coloring_to_cnf, grid_to_cnf
from sudokit.errors import BudgetExhausted, ResourceError, UnsupportedTaskError
from sudokit.formats import parse_instances, read_instances
from sudokit.generators import PuzzleGenerator
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import ENGINES, Budget, count_solutions, open_engine
from sudokit.solvers import takano as tk
from sudokit.solvers.cp_engine import METHODS, CPEngine
from sudokit.solvers.dlx_engine import DLXEngine
from sudokit.solvers.unit_model import unit_model

from ..helpers import (
    ROOT,
    assert_cli_error,
    budget_cpu_bound,
    cli_run,
    cpu_seconds,
    cyclic_latin,
    partial_grids,
    small_precolorings,
)

ALL = list(METHODS)
EMPTY4 = sudoku(np.zeros((4, 4), dtype=int))
EMPTY9 = sudoku(np.zeros((9, 9), dtype=int))
#: a 9x9 puzzle every method solves at once (top3's first with 30 clues of its solution added)
EASY9 = "407069805632108040900700306820430069700580402306012000000643071570291604164800000"


def grid(line: str) -> np.ndarray:
    return np.array([int(ch, 36) for ch in line], dtype=int).reshape(9, 9)


def dlx_count(problem, limit):
    with DLXEngine() as engine:
        return engine.count(problem, limit)[0]


def read_lines(path, count):
    with open(path) as handle:
        lines = (line.strip() for line in handle if line.strip() and not line.startswith("#"))
        return list(itertools.islice(lines, count))


# -- known counts ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_known_counts(name):
    with CPEngine(name) as engine:
        assert engine.count(EMPTY4)[0] == 288
        assert engine.count(latin_square(np.zeros((4, 4), dtype=int)))[0] == 576
        cycle = precoloring(6, [(i, (i + 1) % 6) for i in range(6)], 3)
        assert engine.count(cycle)[0] == 2 ** 6 + 2              # (k-1)^n + (-1)^n (k-1)
        assert engine.count(precoloring(4, [], 2))[0] == 16
        assert engine.count(precoloring(0, [], 2))[0] == 1
        assert engine.count(precoloring(3, [(0, 1)], 1))[0] == 0
        assert engine.count(precoloring(3, [(0, 1), (1, 2), (0, 2)], 2))[0] == 0
        assert engine.count(latin_square(np.array([[1, 0], [0, 2]])))[0] == 0
        assert engine.count(sudoku(np.zeros((4, 4), dtype=int)), limit=0)[0] == 0


@pytest.mark.parametrize("name", ["bitset", "norvig", "takano"])
def test_latin_squares_of_order_5(name):
    assert CPEngine(name).count(latin_square(np.zeros((5, 5), dtype=int)))[0] == 161_280


@pytest.mark.slow
def test_6x6_sudoku_grids_with_takano():  # about 30 s
    six = sudoku(np.zeros((6, 6), dtype=int), (2, 3))
    assert CPEngine("takano").count(six)[0] == 28_200_960


# -- differential: every method, DLX and SAT agree (limit 3) ------------------------------------

def check_agreement(problem, expected, names=ALL, budget=None):
    for name in names:
        with CPEngine(name) as engine:
            count, first = engine.count(problem, 3, budget or Budget())
        assert count == expected, (name, count, expected)
        assert (first is None) == (expected == 0), name
        if first is not None:
            assert problem.is_solution(first), name


@settings(max_examples=60, deadline=None)
@given(partial_grids())
def test_agree_on_small_grids(puzzle):
    expected = dlx_count(puzzle, 3)
    assert expected == count_solutions(grid_to_cnf(puzzle), limit=3)
    check_agreement(puzzle, expected)


@settings(max_examples=60, deadline=None)
@given(small_precolorings())
def test_agree_on_precolorings(problem):
    expected = dlx_count(problem, 3)
    assert expected == count_solutions(coloring_to_cnf(problem), limit=3)
    check_agreement(problem, expected)


@st.composite
def puzzles9(draw):
    """9x9 puzzles from shuffled valid grids with at least 36 givens (pure backtracking stays
    fast), some made unsolvable by changing one given."""
    full = cyclic_latin(9, 3, 3)
    digits = np.array(draw(st.permutations(range(1, 10))))
    bands = draw(st.permutations(range(3)))
    rows = [3 * band + r for band in bands for r in draw(st.permutations(range(3)))]
    full = digits[full - 1][rows]
    keep = np.array(draw(st.lists(st.booleans(), min_size=81, max_size=81))).reshape(9, 9)
    keep |= np.arange(81).reshape(9, 9) % 2 == 0
    givens = np.where(keep, full, 0)
    if draw(st.booleans()):
        cell = draw(st.integers(0, 80))
        r, c = divmod(cell, 9)
        if givens[r, c]:
            box = givens[r // 3 * 3:r // 3 * 3 + 3, c // 3 * 3:c // 3 * 3 + 3]
            clash = set(givens[r]) | set(givens[:, c]) | set(box.reshape(-1))
            free = [v for v in range(1, 10) if v not in clash]
            if free:
                givens[r, c] = free[0]
    return sudoku(givens)


@settings(max_examples=25, deadline=None)
@given(puzzles9())
def test_agree_on_9x9_grids(puzzle):
    expected = dlx_count(puzzle, 3)
    assert expected == count_solutions(grid_to_cnf(puzzle), limit=3)
    check_agreement(puzzle, expected)


def seventeen(data_dir, count):
    lines = read_lines(data_dir / "sudoku/9x9-tdoku/puzzles2_17_clue", count)
    return np.array([[0 if ch == "." else int(ch) for ch in line] for line in lines])


def test_2000_seventeen_clue_puzzles(data_dir):
    """norvig and takano on the puzzles as they are; the methods without propagation on the
    same puzzles with clues of the solution added (pure backtracking needs up to ~1e9 nodes
    on a 17-clue puzzle, forward checking ~1e7)."""
    givens = seventeen(data_dir, 2000)
    puzzles = [EMPTY9.with_givens(row.reshape(9, 9)) for row in givens]
    by_dlx = list(run_batch(puzzles, task="count", limit=3, solver="dlx"))
    by_sat = list(run_batch(puzzles, task="count", limit=3, solver="cadical195"))
    assert [r.count for r in by_dlx] == [r.count for r in by_sat] == [1] * 2000
    solutions = np.array([r.solution.reshape(-1) for r in by_dlx])
    for name in ("norvig", "takano"):
        result = CPEngine(name, shape=EMPTY9).count_givens(givens, 3)
        assert result.counts.tolist() == [1] * 2000 and not result.unknown.any()
        assert np.array_equal(result.firsts, solutions)
    rng = np.random.default_rng(17)
    for name, extra in (("fcmrv", 10), ("bitset", 10), ("backtrack", 30)):
        richer = givens.copy()
        for row, solution in zip(richer, solutions, strict=True):
            empty = np.flatnonzero(row == 0)
            cells = rng.choice(empty, extra, replace=False)
            row[cells] = solution[cells]
        result = CPEngine(name, shape=EMPTY9).count_givens(richer, 3)
        assert result.counts.tolist() == [1] * 2000 and not result.unknown.any(), name
        assert np.array_equal(result.firsts, solutions), name


def test_fcmrv_and_bitset_search_the_same_tree(data_dir):
    givens = seventeen(data_dir, 50)
    budget = Budget(nodes=20_000)
    fc = CPEngine("fcmrv", shape=EMPTY9).count_givens(givens, 2, budget)
    bits = CPEngine("bitset", shape=EMPTY9).count_givens(givens, 2, budget)
    assert np.array_equal(fc.nodes, bits.nodes) and np.array_equal(fc.counts, bits.counts)


# -- takano's extra propagation cases ---------------------------------------------------------

def hard_puzzles(data_dir):
    top95 = read_lines(data_dir / "sudoku/9x9-norvig/top95.txt", 95)
    forum = read_lines(data_dir / "sudoku/9x9-tdoku/puzzles5_forum_hardest_1905_11+", 100)
    lines = [line.replace(".", "0") for line in top95 + forum]
    return np.array([[int(ch) for ch in line[:81]] for line in lines])


def test_extra_cases_never_remove_a_solution_value(data_dir):
    puzzles = np.concatenate([hard_puzzles(data_dir), seventeen(data_dir, 200)])
    solved = CPEngine("takano", shape=EMPTY9).count_givens(puzzles, 1)
    assert solved.counts.min() == 1
    model = unit_model(EMPTY9)
    rng = np.random.default_rng(11)
    checked = 0
    for row, solution in zip(puzzles, solved.firsts, strict=True):
        bits = np.int64(1) << (solution.astype(np.int64) - 1)
        # the puzzle itself, and the states deeper in a search: more clues of the solution
        for extra in (0, 5, 10, 20):
            givens = row.copy()
            empty = np.flatnonzero(givens == 0)
            cells = rng.choice(empty, min(extra, len(empty)), replace=False)
            givens[cells] = solution[cells]
            for flags in (tk.LOCKED, tk.NAKED_PAIRS, tk.ALL):
                masks = tk.propagated(model, givens, flags)
                assert masks is not None and np.all(masks & bits), (flags, row)
                checked += 1
    assert checked == len(puzzles) * 12


def test_extra_cases_cut_nodes_on_top95(data_dir):
    top95 = hard_puzzles(data_dir)[:95]
    nodes = {}
    for label, name, flags in (("norvig", "norvig", None), ("singles", "takano", 0),
                               ("heap", "takano", tk.HEAP), ("locked", "takano", tk.LOCKED),
                               ("pairs", "takano", tk.NAKED_PAIRS), ("reach", "takano", tk.REACH),
                               ("takano", "takano", None)):
        result = CPEngine(name, shape=EMPTY9, flags=flags).count_givens(top95, 2)
        assert result.counts.tolist() == [1] * 95
        nodes[label] = result.nodes
    # Norvig's propagation and the bit-vector one reach the same fixpoint: the same tree
    assert np.array_equal(nodes["norvig"], nodes["singles"])
    assert np.array_equal(nodes["singles"], nodes["heap"])    # the heap picks the same cell
    # fewer nodes in all (not on every puzzle: other eliminations can lead MRV elsewhere)
    for case in ("locked", "pairs", "reach", "takano"):
        assert nodes[case].sum() < nodes["norvig"].sum(), case
    # the tie-break (most open peers reached) on top of the rules: fewer nodes again
    assert nodes["takano"].sum() < CPEngine("takano", shape=EMPTY9, flags=tk.ALL & ~tk.REACH
                                            ).count_givens(top95, 2).nodes.sum()


# -- budgets, slices and levels ---------------------------------------------------------------

@pytest.mark.parametrize("name", ALL)
def test_node_budget_gives_unknown(name):
    latin9 = latin_square(np.zeros((9, 9), dtype=int))
    with CPEngine(name) as engine:
        with pytest.raises(BudgetExhausted) as err:
            engine.count(latin9, budget=Budget(nodes=500))
        assert err.value.found is not None and err.value.found >= 0
    with CPEngine(name, shape=latin9) as engine:
        stuck = np.zeros((9, 9), dtype=int)
        stuck[0, 1:] = np.arange(1, 9)
        stuck[1, 0] = 9                  # the first cell has no value left
        outcomes = engine.count_many([latin9, latin9.with_givens(stuck)], limit=None,
                                     budget=Budget(nodes=500))
        assert [o.status for o in outcomes] == ["unknown", "unsat"]


def test_time_budget_stops_pure_backtracking(data_dir):
    givens = seventeen(data_dir, 1)[0].reshape(9, 9)
    with CPEngine("backtrack") as engine:
        started = cpu_seconds()
        with pytest.raises(BudgetExhausted):
            engine.count(sudoku(givens), 2, Budget(seconds=0.2))
        assert cpu_seconds() - started < budget_cpu_bound(0.2)


@pytest.mark.parametrize("name", ALL)
def test_sliced_and_grown_search_equals_one_call(name, monkeypatch):
    puzzles = [EMPTY4.with_givens(np.diag([1, 2, 3, 4])), EMPTY4,
               latin_square(np.zeros((4, 4), dtype=int)), sudoku(grid(EASY9))]
    whole = [CPEngine(name).count_givens(unit_model(p).givens_of([p]), None,
                                         model=unit_model(p)) for p in puzzles]
    engine = CPEngine(name)
    engine.first_levels = 2
    monkeypatch.setattr(engine.kernels, "slice_nodes", lambda model: 3)
    for puzzle, one in zip(puzzles, whole, strict=True):
        model = unit_model(puzzle)
        sliced = engine.count_givens(model.givens_of([puzzle]), None, model=model)
        assert sliced.counts[0] == one.counts[0] and sliced.nodes[0] == one.nodes[0]
        assert np.array_equal(sliced.firsts, one.firsts)


def test_memory_budget_refuses_a_deep_stack():
    with pytest.raises(ResourceError, match="search stack"):
        CPEngine("takano").count(sudoku(np.zeros((16, 16), dtype=int)), 1,
                                 Budget(memory=10_000))


def test_more_than_64_values_is_refused():
    graph = precoloring(3, [(0, 1)], 65)
    for name in ALL:
        with pytest.raises(UnsupportedTaskError, match="at most 64 values"):
            CPEngine(name).count(graph)


def test_run_batch_shares_one_engine_per_shape():
    mixed = [EMPTY4, latin_square(np.zeros((3, 3), dtype=int)), EMPTY4,
             precoloring(3, [(0, 1), (1, 2), (0, 2)], 3), sudoku(grid(EASY9))]
    for name in ALL:
        results = list(run_batch(mixed, task="count", solver=name, limit=1000))
        assert [r.count for r in results] == [288, 12, 288, 6, 1]
        assert mixed[4].is_solution(results[4].solution)
        solved = list(run_batch(mixed, task="solve", solver=name))
        assert all(p.is_solution(r.solution) for p, r in zip(mixed, solved, strict=True))


def test_engines_are_registered_with_their_kinds():
    for name in ALL:
        spec = ENGINES[name]
        assert spec.kinds == ("sudoku", "latin", "coloring") and spec.counts
        assert spec.budgets == ("seconds", "nodes")
        with open_engine(name, shape=EMPTY4) as engine:
            assert engine.count(EMPTY4)[0] == 288


# -- the command line -------------------------------------------------------------------------

TOP3 = ROOT / "sudokit/instances/examples/top3.txt"


@pytest.mark.parametrize("name", ["takano", "norvig", "fcmrv", "bitset"])
def test_cli_count_and_solve(name):
    expected = cli_run("count", "--solver", "dlx", "--limit", "2", TOP3).stdout
    assert cli_run("count", "--solver", name, "--limit", "2", TOP3).stdout == expected
    solved = cli_run("solve", "--solver", name, TOP3).stdout
    assert solved == cli_run("solve", "--solver", "dlx", TOP3).stdout


def test_cli_refusals():
    assert_cli_error(cli_run("solve", "--solver", "takano", "-", input="p cnf 2 1\n1 2 0\n"),
                     2, "takano does not take cnf")
    assert_cli_error(cli_run("count", "--solver", "norvig", "--conflicts", "5", TOP3), 2,
                     "--conflicts does not apply to norvig")
    col = "p edge 2 1\ne 1 2\n"
    assert_cli_error(cli_run("solve", "--solver", "takano", "--problem", "coloring",
                             "--colors", "70", "-", input=col), 2, "at most 64 values")
    result = cli_run("count", "--solver", "backtrack", "--nodes", "100", "--json", TOP3)
    assert result.exit_code == 5
    assert {json.loads(line)["status"] for line in result.stdout.splitlines()} == {"unknown"}


def test_cli_lists_the_family():
    listing = cli_run("solvers").stdout
    for name in ALL:
        line = next(line for line in listing.splitlines() if line.startswith(name + " "))
        assert "sudoku,latin,coloring" in line and "64 values" in line


def test_generator_checkers():
    made = {}
    for checker in ("dlx", "takano", "norvig"):
        with PuzzleGenerator(9, (3, 3), seed=4, checker=checker) as gen:
            made[checker] = gen.make("minimal")
        assert made[checker].unique and made[checker].minimal
    assert np.array_equal(made["dlx"].puzzle, made["takano"].puzzle)
    assert np.array_equal(made["dlx"].puzzle, made["norvig"].puzzle)
    result = cli_run("generate", "sudoku", "--size", "4", "--checker", "bitset", "--seed", "2")
    assert result.exit_code == 0 and len(result.stdout.split()) == 1


# -- the pure-Python fallback -----------------------------------------------------------------

_FALLBACK = """
import json, numpy as np
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers.cp_engine import METHODS, CPEngine
cases = [sudoku(np.diag([1, 2, 3, 4])), latin_square(np.zeros((3, 3), dtype=int)),
         precoloring(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)], 3, [1, 0, 0, 0, 0]),
         precoloring(2, [(0, 1)], 64),
         sudoku(np.array([int(ch) for ch in {easy!r}]).reshape(9, 9))]
answers = {{}}
for name in METHODS:
    engine = CPEngine(name)
    answers[name] = [[int(c), None if s is None else s.reshape(-1).tolist()]
                     for c, s in (engine.count(p, 100) for p in cases)]
print(json.dumps(answers))
"""


def test_pure_python_fallback_gives_the_same_answers(capsys):
    script = _FALLBACK.format(easy=EASY9)
    exec(script, {})                                   # compiled kernels, in this process
    compiled = json.loads(capsys.readouterr().out)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == compiled
    assert [count for count, _ in compiled["takano"]] == [2, 12, 10, 100, 1]


# -- bigger shapes ----------------------------------------------------------------------------

@pytest.mark.parametrize("n, box", [(16, (4, 4)), (25, (5, 5)), (30, None), (64, (8, 8))])
def test_wide_grids_agree_with_dlx(n, box):
    """Masks of 16 to 64 values (64: the sign bit): grids with holes, counts to 2 as DLX."""
    rng = np.random.default_rng(n)
    full = cyclic_latin(n, *(box or (1, n)))
    full = rng.permutation(n)[full - 1] + 1
    givens = np.where(rng.random((n, n)) < (0.8 if n == 64 else 0.6), full, 0)
    puzzle = latin_square(givens) if box is None else sudoku(givens, box)
    expected = dlx_count(puzzle, 2)
    for name in ("takano", "norvig"):
        count, first = CPEngine(name).count(puzzle, 2, Budget(seconds=60))
        assert count == expected and puzzle.is_solution(first), name


def test_gecode_16x16_set(data_dir):
    name = "sudoku16_janko_via_gecode.txt"
    text = (data_dir / "sudoku/gecode-9-16-25" / name).read_text()
    puzzles = [r.instance for r in parse_instances(text, name)]
    assert len(puzzles) == 55 and all(p.n == 16 for p in puzzles)
    for solver in ("takano", "norvig"):
        results = list(run_batch(puzzles, task="count", limit=2, solver=solver))
        assert [r.count for r in results] == [1] * 55
        assert all(p.is_solution(r.solution) for p, r in zip(puzzles, results, strict=True))


@pytest.mark.slow
def test_hard_25x25_and_qwh30_give_right_answers_or_unknown(data_dir):
    text = (data_dir / "sudoku/gecode-9-16-25/sudoku25_gecode.txt").read_text()
    puzzles = [r.instance for r in parse_instances(text, "sudoku25")][:3]
    squares = [read_instances(str(path))[0].instance for path in
               sorted((data_dir / "latin/qwh30_42pct_zanarini_pesant").glob("*.pls"))[:3]]
    for instance in puzzles + squares:
        try:
            count, first = CPEngine("takano").count(instance, 2, Budget(seconds=5))
        except BudgetExhausted:
            continue
        assert count >= 1 and instance.is_solution(first)


def test_registered_takano_runs_every_option():
    from sudokit.solvers.cp_engine import METHODS

    assert METHODS["takano"].flags == tk.ALL
    # up to 16x16 the cell is found by a scan instead of the heap (faster there)
    assert [METHODS["takano"].flags_for(n * n) for n in (9, 16, 25)] == [
        tk.ALL & ~tk.HEAP, tk.ALL & ~tk.HEAP, tk.ALL]
    assert CPEngine("takano", flags=tk.ALL).flags_for(unit_model(EMPTY9)) == tk.ALL


def test_takano_without_the_heap_searches_the_same_tree(data_dir):
    # the default at 9x9 (a scan) against the paper's heap: the same counts, first solutions
    # and nodes, on easy (17-clue) and hard puzzles
    puzzles = np.concatenate([seventeen(data_dir, 2000), hard_puzzles(data_dir)[:300]])
    default = CPEngine("takano", shape=EMPTY9).count_givens(puzzles, 2)
    heap = CPEngine("takano", shape=EMPTY9, flags=tk.ALL).count_givens(puzzles, 2)
    for field in ("counts", "firsts", "unknown", "nodes"):
        assert np.array_equal(getattr(default, field), getattr(heap, field)), field
    assert default.counts.tolist() == [1] * len(puzzles)
