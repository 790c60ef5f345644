"""The engine ``cp`` (sudokit.solvers.hard_engine): answers checked, counts against brute
force, CP-SAT and CaDiCaL, nogoods from restarts, seeds, node and time budgets, the command
line."""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import BudgetExhausted
from sudokit.formats import read_instances
from sudokit.instances import latin_square, precoloring, sudoku
from sudokit.solvers import ENGINES, Budget, hard_layout, open_engine
from sudokit.solvers.hard_engine import BLOCKING_MAX, HEURISTICS, HardCPEngine
from sudokit.solvers.hard_search import luby_term

from ..helpers import (
    EXAMPLES,
    brute_force_count,
    cli_run,
    cyclic_latin,
    data_path,
    partial_grids,
    requires,
    small_precolorings,
)

#: the engine's variants: every one must give the same counts
VARIANTS = [{}, {"heuristic": "domwdeg"}, {"matching": False}, {"restarts": False},
            {"last_conflict": False, "seed": 5}, {"nogoods": False}, {"guided": False}]
#: the satisfiability search restarting at every failure (so recording nogoods all the time)
RESTARTING = [{"base": 1}, {"base": 1, "heuristic": "domwdeg", "seed": 3},
              {"base": 1, "matching": False}, {"base": 2, "last_conflict": False, "seed": 9}]


def check_count(engine, problem, limit):
    """``engine.count`` with the solution checked; the count."""
    count, first = engine.count(problem, limit)
    assert (first is None) == (count == 0)
    if first is not None:
        assert problem.is_solution(first)
    return count


@st.composite
def latin_partials(draw):
    """Latin squares of order 2 to 5 with random givens of a random full square."""
    n = draw(st.integers(2, 5))
    full = cyclic_latin(n)
    full = full[np.array(draw(st.permutations(range(n))))]
    full = full[:, np.array(draw(st.permutations(range(n))))]
    symbols = np.array(draw(st.permutations(range(1, n + 1))))
    full = symbols[full - 1]
    least = 0 if n < 5 else 13         # keeps brute force small on order 5
    mask = np.array(draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n)))
    order = np.array(draw(st.permutations(range(n * n))))
    mask[order[:least]] = True
    return latin_square(np.where(mask.reshape(n, n), full, 0))


@settings(max_examples=30, deadline=None)
@given(latin_partials(), st.sampled_from(VARIANTS))
def test_latin_counts_match_brute_force(problem, options):
    with HardCPEngine(**options) as engine:
        assert check_count(engine, problem, None) == brute_force_count(problem)


@settings(max_examples=30, deadline=None)
@given(partial_grids(), st.sampled_from(VARIANTS))
def test_grid_counts_match_brute_force(problem, options):
    with HardCPEngine(**options) as engine:
        assert check_count(engine, problem, None) == brute_force_count(problem)


@settings(max_examples=30, deadline=None)
@given(small_precolorings(), st.sampled_from(VARIANTS))
def test_precoloring_counts_match_brute_force(problem, options):
    with HardCPEngine(**options) as engine:
        assert check_count(engine, problem, None) == brute_force_count(problem)


@settings(max_examples=40, deadline=None)
@given(partial_grids(), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_count_to_a_limit_is_the_brute_force_count_capped(problem, limit, seed):
    with HardCPEngine(seed=seed) as engine:
        assert check_count(engine, problem, limit) == min(limit, brute_force_count(problem))


@settings(max_examples=40, deadline=None)
@given(latin_partials(), st.sampled_from(RESTARTING), st.booleans())
def test_latin_satisfiability_with_nogoods_matches_brute_force(problem, options, tiny):
    """Restarts at each failure record nogoods all the time; ``tiny``: a store of 3 nogoods
    and 12 literals, so that they are forgotten all the time too."""
    with _store(tiny), HardCPEngine(**options) as engine:
        assert check_count(engine, problem, 1) == min(1, brute_force_count(problem))


@settings(max_examples=40, deadline=None)
@given(partial_grids(), st.sampled_from(RESTARTING), st.booleans())
def test_grid_satisfiability_with_nogoods_matches_brute_force(problem, options, tiny):
    with _store(tiny), HardCPEngine(**options) as engine:
        assert check_count(engine, problem, 1) == min(1, brute_force_count(problem))


@settings(max_examples=40, deadline=None)
@given(small_precolorings(), st.sampled_from(RESTARTING), st.booleans())
def test_precoloring_satisfiability_with_nogoods_matches_brute_force(problem, options, tiny):
    with _store(tiny), HardCPEngine(**options) as engine:
        assert check_count(engine, problem, 1) == min(1, brute_force_count(problem))


@contextmanager
def _store(tiny, capacity=lambda cells: (3, 12)):
    """With ``tiny``, the engines made inside get a nogood store of ``capacity(cells)`` (3
    nogoods and 12 literals: ``hard_layout.nogood_capacity`` patched, restored on exit)."""
    kept = hard_layout.nogood_capacity
    if tiny:
        hard_layout.nogood_capacity = capacity
    try:
        yield
    finally:
        hard_layout.nogood_capacity = kept


def test_known_counts():
    """Latin squares of orders 1-5 and the 4x4 and 6x6 (2x3) Sudoku grids."""
    engine = HardCPEngine()
    for n, count in ((1, 1), (2, 2), (3, 12), (4, 576), (5, 161280)):
        assert check_count(engine, latin_square(np.zeros((n, n), dtype=int)), None) == count
    assert check_count(engine, sudoku(np.zeros((4, 4), dtype=int)), None) == 288
    assert check_count(engine, sudoku(np.zeros((6, 6), dtype=int), (2, 3)), 10**5) == 10**5


def test_instances_without_solutions():
    """Givens that do not clash but leave a cell no value, a Latin square with no
    completion, a triangle with two colors."""
    stuck = np.array([[1, 0, 0, 0], [0, 2, 0, 0], [0, 3, 0, 0], [0, 4, 0, 0]])
    with HardCPEngine() as engine:
        assert engine.count(sudoku(stuck), 2) == (0, None)
        assert engine.solve(latin_square(np.array([[1, 0], [0, 2]]))) is None
        assert engine.count(precoloring(3, [(0, 1), (1, 2), (0, 2)], 2), 5) == (0, None)
        assert engine.count(precoloring(2, [(0, 1)], 1), 5) == (0, None)


def test_registry_entry():
    spec = ENGINES["cp"]
    assert spec.budgets == ("seconds", "nodes") and spec.options == ("seed",)
    assert spec.kernels == "cp" and "maxSD" in spec.description
    with open_engine("cp", seed=3) as engine:
        assert isinstance(engine, HardCPEngine) and engine.seed == 3
    assert set(HEURISTICS) == {"maxsd", "domwdeg"}
    assert [int(luby_term(i)) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4,
                                                          1, 1, 2, 1, 1, 2, 4, 8]


# -- real instances, against CP-SAT and CaDiCaL ------------------------------------------------

def shared(*parts, count=None):
    records = read_instances(str(data_path(*parts)))
    return [r.instance for r in records[:count]]


def qcp(order, count):
    folder = data_path("latin", "qcp_csp2009_minizinc")
    paths = sorted(folder.glob(f"qcp-{order}-*.pls"))[:count]
    return [read_instances(str(p))[0].instance for p in paths]


def decided_counts(name, problems, limit=2):
    with open_engine(name) as engine:
        return [check_count(engine, p, limit) for p in problems]


@requires("cp", "ortools")
@pytest.mark.parametrize("problems", [
    lambda: shared("sudoku", "gecode-9-16-25", "sudoku9_gecode.txt"),
    lambda: shared("sudoku", "gecode-9-16-25", "sudoku16_janko_via_gecode.txt", count=12),
    lambda: qcp(10, 8),
], ids=["gecode9", "gecode16", "qcp10"])
def test_counts_to_two_match_cpsat_and_cadical(problems):
    problems = problems()
    ours = decided_counts("cp", problems)
    assert ours == decided_counts("cpsat", problems)
    assert ours == decided_counts("cadical195", problems)
    assert 2 not in ours or len(problems) < 10   # the puzzle sets are unique


#: qcp squares the search refutes or solves in thousands of nodes, restarts and nogoods
#: included (unsat: 20-187-10, 20-187-13, 25-264-10, 25-264-14)
QCP_HARD = ["qcp-20-187-10", "qcp-20-187-13", "qcp-20-187-3", "qcp-25-264-10",
            "qcp-25-264-14", "qcp-25-264-9", "qcp-25-264-0"]


def qcp_named(name):
    return read_instances(str(data_path("latin", "qcp_csp2009_minizinc", name + ".pls")))[
        0].instance


@lru_cache(maxsize=1)
def qcp_hard_cpsat():
    """The squares of :data:`QCP_HARD` and CP-SAT's counts to 1."""
    problems = [qcp_named(name) for name in QCP_HARD]
    return problems, decided_counts("cpsat", problems, 1)


@requires("cp", "ortools")
@pytest.mark.parametrize("options", [{}, {"base": 10, "seed": 2}, {"base": 10, "seed": 4,
                                                                   "heuristic": "domwdeg"}])
def test_satisfiability_with_nogoods_matches_cpsat(options):
    """Many restarts, so many nogoods, on squares with and without completions; a store of
    a few nogoods (forgotten all the time) decides the order-20 ones the same."""
    problems, expected = qcp_hard_cpsat()
    assert 0 in expected and 1 in expected
    with HardCPEngine(**options) as engine:
        assert [check_count(engine, p, 1) for p in problems] == expected
        assert engine.stats["nogoods"] > 0
    with _store(True), HardCPEngine(**options) as engine:
        assert [check_count(engine, p, 1) for p in problems[:3]] == expected[:3]


def test_nogoods_are_recorded_used_and_cut_the_search():
    """On a square without completion the nogoods prune values and the search needs fewer
    nodes than the same search without them (same seed, same restarts up to the first
    recorded nogood); counting to 3 records none; a sliced search is the same search."""
    problem = qcp_named("qcp-25-264-14")
    with HardCPEngine(seed=0) as engine:
        assert engine.count(problem, 1) == (0, None)
        used = dict(engine.stats)
        engine.slice_seconds = 1e-9
        engine.count(problem, 1)
        assert engine.stats == used
    with HardCPEngine(seed=0, nogoods=False) as engine:
        assert engine.count(problem, 1) == (0, None)
        plain = dict(engine.stats)
    assert used["nogoods"] > 0 and used["nogood_prunings"] > 0 and used["restarts"] > 0
    assert plain["nogoods"] == plain["nogood_prunings"] == 0
    assert used["nodes"] < plain["nodes"]
    with HardCPEngine(seed=0, base=1) as engine:
        assert engine.count(problem, 3) == (0, None)
        assert engine.stats["restarts"] == engine.stats["nogoods"] == 0


def test_qwh30_solutions_are_checked():
    problems = shared("latin", "qwh30_42pct_zanarini_pesant", "qwh-30-374-1.pls")
    with HardCPEngine(seed=1) as engine:
        solution = engine.solve(problems[0], Budget(seconds=600))
    assert problems[0].is_solution(solution)


# -- seeds, slices and budgets -----------------------------------------------------------------

def hard_qwh():
    """A qwh30 instance that needs restarts (thousands of nodes)."""
    return shared("latin", "qwh30_42pct_zanarini_pesant", "qwh-30-374-10.pls")[0]


def test_nodes_are_reproducible_with_a_seed_however_sliced():
    problem = hard_qwh()
    runs = []
    for seed, slice_seconds in ((7, 0.02), (7, 1e-9), (8, 0.02)):
        engine = HardCPEngine(seed=seed, base=100)      # restarts on this instance
        engine.slice_seconds = slice_seconds
        solution = engine.solve(problem)
        assert problem.is_solution(solution)
        runs.append((engine.stats, solution.tolist()))
    assert runs[0] == runs[1]
    assert runs[0][0]["restarts"] > 0
    assert runs[0][0]["nodes"] != runs[2][0]["nodes"]      # another seed, another search


def test_a_node_budget_holds():
    problem = hard_qwh()
    engine = HardCPEngine(seed=7)
    engine.solve(problem)
    needed = engine.stats["nodes"]
    budget = needed // 3
    with pytest.raises(BudgetExhausted):
        engine.solve(problem, Budget(nodes=budget))
    # a slice ends at the budget, or within the failures of one backtrack past it
    assert budget <= engine.stats["nodes"] <= budget + problem.num_cells


def test_a_time_budget_stops_the_search_between_slices():
    """An exhausted clock ends the search after its first slice (16 nodes and one
    backtrack), whatever the machine's load: work done, not wall time."""
    problem = hard_qwh()
    engine = HardCPEngine(seed=7)
    with pytest.raises(BudgetExhausted) as caught:
        engine.count(problem, 2, Budget(seconds=1e-9))
    assert caught.value.found == 0
    assert engine.stats["nodes"] <= 1 + 16 + problem.num_cells


def test_counting_beyond_blocking_max_is_exhaustive():
    """Counting to more than BLOCKING_MAX never restarts: an instance with two solutions
    gets both."""
    grid = cyclic_latin(6)
    grid[:2, :] = 0                                 # rows 0 and 1 swap: two completions
    problem = latin_square(grid)
    with HardCPEngine(base=1) as engine:
        assert check_count(engine, problem, BLOCKING_MAX + 3) == brute_force_count(problem)
        assert engine.stats["restarts"] == 0


def test_counting_to_two_blocks_the_first_solution_and_restarts():
    """Counting to 2 goes on after the first solution with a pinned nogood that blocks it
    and a restart: both completions of a square with two are found, each once."""
    grid = cyclic_latin(6)
    grid[:2, :] = 0
    problem = latin_square(grid)
    with HardCPEngine(base=1) as engine:
        assert check_count(engine, problem, 2) == 2 == brute_force_count(problem)
        assert engine.stats["restarts"] >= 1 and engine.stats["solutions"] == 2
    unique = latin_square(cyclic_latin(6) * (np.arange(36).reshape(6, 6) % 5 != 0))
    with HardCPEngine(base=1) as engine:
        assert check_count(engine, unique, 2) == brute_force_count(unique) == 1
        assert engine.stats["restarts"] >= 1     # the restart after the block ends it


@pytest.mark.parametrize("name", ["qwh-30-374-13.pls", "qwh-30-374-17.pls"])
def test_a_second_solution_is_looked_for_near_the_first(name):
    """Counting to 2 branches on the first solution's values: on these qwh30 squares (two
    or more completions each) the search after the first solution takes about a hundred
    nodes, where without the guide it takes thousands (the same search up to the first
    solution: the guide acts only after it). Work done, not time."""
    problem = shared("latin", "qwh30_42pct_zanarini_pesant", name)[0]
    with HardCPEngine() as engine:
        engine.solve(problem)
        to_first = engine.stats["nodes"]
    after = {}
    for guided in (True, False):
        with HardCPEngine(guided=guided) as engine:
            assert check_count(engine, problem, 2) == 2
            after[guided] = engine.stats["nodes"] - to_first
    assert after[True] <= 500 and 10 * after[True] < after[False]


def BLOCKING_STORE(cells):
    """The smallest store the engine blocks solutions in, to 2: 4 nogoods, 4 literals a
    cell (two pinned nogoods at most; every other nogood forgotten all the time)."""
    return 4, 4 * cells


def test_a_store_too_small_to_pin_counts_exhaustively():
    grid = cyclic_latin(6)
    grid[:2, :] = 0
    with _store(True), HardCPEngine(base=1) as engine:
        assert check_count(engine, latin_square(grid), 2) == 2
        assert engine.stats["restarts"] == 0


@settings(max_examples=60, deadline=None)
@given(latin_partials(), st.sampled_from(RESTARTING), st.booleans())
def test_latin_uniqueness_by_blocking_matches_brute_force(problem, options, tiny):
    """Counting to 2 with restarts at each failure, nogoods recorded and (``tiny``) forgotten
    all the time: the pinned nogood of the first solution is never forgotten, so the count
    is the brute force count capped at 2."""
    with _store(tiny, BLOCKING_STORE), HardCPEngine(**options) as engine:
        assert check_count(engine, problem, 2) == min(2, brute_force_count(problem))


@settings(max_examples=40, deadline=None)
@given(partial_grids(), st.sampled_from(RESTARTING), st.booleans())
def test_grid_uniqueness_by_blocking_matches_brute_force(problem, options, tiny):
    with _store(tiny, BLOCKING_STORE), HardCPEngine(**options) as engine:
        assert check_count(engine, problem, 2) == min(2, brute_force_count(problem))


def test_qcp_counts_to_two_by_blocking_match_the_exhaustive_search():
    """The squares of QCP_HARD counted to 2 with blocking (restarts, nogoods) and by the
    exhaustive search (no nogoods, so no blocking): the same counts."""
    problems = [qcp_named(name) for name in QCP_HARD]
    with HardCPEngine(seed=5) as blocking, HardCPEngine(nogoods=False) as exhaustive:
        assert ([check_count(blocking, p, 2) for p in problems]
                == [check_count(exhaustive, p, 2) for p in problems])


# -- the command line ----------------------------------------------------------------------------

def test_cli_solve_and_count():
    result = cli_run("count", "--solver", "cp", "--limit", "2", "--json", EXAMPLES / "qwh5.pls")
    assert result.exit_code == 0 and '"count":1,' in result.stdout
    result = cli_run("solve", "--solver", "cp", "--seed", "4", EXAMPLES / "top3.txt")
    assert result.exit_code == 0 and len(result.stdout.split()) == 3
    result = cli_run("solve", "--solver", "cp", EXAMPLES / "myciel3-precolored.col")
    assert result.exit_code == 0


def test_generate_with_checker_cp_removes_the_same_clues_as_dlx():
    """Every exact checker proves the same uniqueness, so the same puzzle comes out."""
    common = ["generate", "sudoku", "--size", "9", "--minimal", "--seed", "3"]
    ours = cli_run(*common, "--checker", "cp")
    assert ours.exit_code == 0 and ours.stdout == cli_run(*common, "--checker", "dlx").stdout
